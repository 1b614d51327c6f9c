#!/usr/bin/env bash
# Benchmark of `hygiene scan` against a bare read of the same files.
#
#   bench/scan.sh [REPO]
#
# Without REPO, generates a git repository of 30,000 Markdown files (nested folders, relative
# links between them, some broken, backticked paths and identifiers, headings and anchors,
# checklists, a few TODOs, two commits with renames) under $BENCH_DIR (default /tmp).
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
  if [ ! -d "$repo/.git" ]; then
    echo "generating $N Markdown files in $repo" >&2
    rm -rf "$repo"
    mkdir -p "$repo"
    python3 - "$repo" "$N" <<'PY'
import os, random, sys
root, n = sys.argv[1], int(sys.argv[2])
random.seed(7)
words = ("the agent reads this document before it edits the code so keep it short and true "
         "build test release deploy config module handler parser cache index report").split()
def para(k):
    return " ".join(random.choice(words) for _ in range(k)).capitalize() + "."
paths = []
for i in range(n):
    d = f"docs/area{i % 40:02d}/topic{(i // 40) % 25:02d}"
    paths.append(f"{d}/note{i:05d}.md")
os.makedirs(os.path.join(root, "src"), exist_ok=True)
for j in range(200):
    with open(os.path.join(root, "src", f"mod{j:03d}.rs"), "w") as f:
        f.write(f"pub fn handler_{j}() {{}}\npub struct Parser{j};\n")
for i, p in enumerate(paths):
    full = os.path.join(root, p)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    lines = [f"# Note {i}", "", para(30), "", "## Setup", "", para(40), ""]
    for _ in range(4):
        t = random.choice(paths)
        rel = os.path.relpath(t, os.path.dirname(p))
        frag = "#setup" if random.random() < 0.3 else ""
        lines.append(f"- See [{os.path.basename(t)}]({rel}{frag}) for {random.choice(words)}.")
    if i % 50 == 0:
        lines.append(f"- Broken: [gone](missing{i}.md) and `src/gone{i}.rs`.")
    lines += ["", f"Call `handler_{i % 200}()` from `src/mod{i % 200:03d}.rs`.", "", "## Usage", "", para(60), ""]
    lines += ["```sh", "cargo run -- --flag value", "```", ""]
    if i % 30 == 0:
        lines += ["- [x] first", "- [x] second", "- [x] third", ""]
    if i % 40 == 0:
        lines.append("TODO: finish this section.")
    with open(full, "w") as f:
        f.write("\n".join(lines) + "\n")
with open(os.path.join(root, "CLAUDE.md"), "w") as f:
    f.write("# Project\n\n" + para(50) + "\n\n@docs/area00/topic00/note00000.md\n")
PY
    git -C "$repo" init -q -b main
    git -C "$repo" -c user.name=b -c user.email=b@b add -A
    git -C "$repo" -c user.name=b -c user.email=b@b commit -q -m "generate"
    for k in 1 2 3 4 5; do
      git -C "$repo" mv "docs/area00/topic00/note0${k}000.md" "docs/area00/topic00/renamed$k.md"
    done
    git -C "$repo" -c user.name=b -c user.email=b@b commit -q -m "renames"
  fi
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
