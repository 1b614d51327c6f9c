#!/usr/bin/env bash
# Benchmark of `hygiene scan` against a bare read of the same files.
#
#   bench/scan.sh [REPO]
#
# Without REPO, generates a git repository of 30,000 Markdown files (bench/generate.sh: nested
# folders, relative links between them, some broken, backticked paths and identifiers, headings
# and anchors, checklists, a few TODOs, two commits with renames) under $BENCH_DIR (default /tmp).
# Builds the release binary, warms the cache, then times:
#   (a) bare read: `find REPO -name '*.md' -print0 | xargs -0 cat > /dev/null`
#       (the same walk-and-read a scan needs, with coreutils cat; .git and excluded folders
#       are not descended into);
#   (b) `hygiene scan --root REPO --out FILE`, under /usr/bin/time -v when present.
# Prints the best of 3 wall times for each, the ratio, peak RSS and CPU utilisation.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
N="${BENCH_FILES:-30000}"
repo="${1:-}"
if [ -z "$repo" ]; then
  repo="${BENCH_DIR:-/tmp}/hygiene-bench-$N"
  "$here/bench/generate.sh" "$N" "$repo"
fi
echo "building release binary" >&2
(cd "$here" && cargo build --release --quiet)
bin="$here/target/release/hygiene"
files=$(find "$repo" -name '*.md' -not -path '*/.git/*' | wc -l)
bytes=$(find "$repo" -name '*.md' -not -path '*/.git/*' -print0 | xargs -0 cat | wc -c)
echo "repository: $repo ($files Markdown files, $bytes bytes)"

now() { date +%s.%N; }
bare() { find "$repo" \( -name .git -o -name node_modules -o -name target \) -prune -o -name '*.md' -print0 | xargs -0 cat > /dev/null; }
out="$(mktemp)"
scan() { "$bin" scan --root "$repo" --out "$out"; }

bare; scan  # warm the cache
best() {
  local fn=$1 b=""
  for _ in 1 2 3; do
    local t0 t1 d
    t0=$(now); $fn; t1=$(now)
    d=$(echo "$t1 - $t0" | bc -l)
    if [ -z "$b" ] || [ "$(echo "$d < $b" | bc -l)" = 1 ]; then b=$d; fi
  done
  echo "$b"
}
tb=$(best bare)
ts=$(best scan)
printf 'bare read (find | xargs cat): %.3f s\n' "$tb"
printf 'hygiene scan:                 %.3f s\n' "$ts"
printf 'ratio scan / bare read:       %.2f\n' "$(echo "$ts / $tb" | bc -l)"
if [ -x /usr/bin/time ]; then
  /usr/bin/time -v "$bin" scan --root "$repo" --out "$out" 2> "$out.time"
  rss=$(awk -F: '/Maximum resident set size/ {gsub(/ /,"",$2); print $2}' "$out.time")
  cpu=$(awk -F: '/Percent of CPU this job got/ {gsub(/ /,"",$2); print $2}' "$out.time")
  printf 'peak RSS:                     %d MB\n' "$((rss / 1024))"
  printf 'CPU utilisation:              %s (of %s cores = %d%%)\n' "$cpu" "$(nproc)" "$((${cpu%\%} * 100 / ($(nproc) * 100) ))"
fi
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('shortlisted:', len(r['shortlist']), 'of', r['scan']['files_scanned'], 'scanned')" "$out"
rm -f "$out" "$out.time"
