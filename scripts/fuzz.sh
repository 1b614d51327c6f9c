#!/usr/bin/env bash
# Runs every cargo-fuzz target under fuzz/ for SECONDS each (default 60) and prints, per target,
# the executions libFuzzer reports and the crash files it left.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      PARALLEL=2 scripts/fuzz.sh 600
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`). The toolchain is stable, so
# RUSTC_BOOTSTRAP=1 lets cargo-fuzz pass its -Z sanitizer flags. Corpora start from
# fuzz/seeds/<target>/ plus the repository's own examples and fixtures; fuzz/corpus and
# fuzz/artifacts are git-ignored. Logs go to fuzz/logs/<target>.log.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH="${1:-60}"
shift || true
TARGETS=("$@")
if [ "${#TARGETS[@]}" -eq 0 ]; then
  TARGETS=(markdown_refs validate drafts_finalize rulebook)
fi
PARALLEL="${PARALLEL:-1}"
export RUSTC_BOOTSTRAP=1

if ! cargo fuzz --help >/dev/null 2>&1; then
  echo "cargo-fuzz is not installed: cargo install cargo-fuzz --locked" >&2
  exit 2
fi

seed() {
  local t="$1" dir="fuzz/corpus/$1"
  mkdir -p "$dir" "fuzz/artifacts/$t" fuzz/logs
  if [ -d "fuzz/seeds/$t" ]; then cp -n fuzz/seeds/"$t"/* "$dir"/ 2>/dev/null || true; fi
  case "$t" in
    markdown_refs)
      find . -path ./target -prune -o -path ./fuzz -prune -o -name '*.md' -size -64k -print |
        head -n 200 | while read -r f; do cp -n "$f" "$dir/$(echo "$f" | tr '/' '_')"; done ;;
    validate)
      cp -n examples/golden/*.json "$dir"/ ;;
    rulebook)
      cp -n rulebook.default.json "$dir"/ ;;
  esac
}

cd fuzz
RUSTC_BOOTSTRAP=1 cargo fuzz build -O >/dev/null
cd ..

run_one() {
  local t="$1" log="fuzz/logs/$1.log"
  seed "$t"
  local before
  before=$(find "fuzz/artifacts/$t" -type f | wc -l)
  (cd fuzz && cargo fuzz run -O "$t" "corpus/$t" -- \
      -max_total_time="$SECONDS_EACH" -print_final_stats=1 -max_len=65536 \
      -timeout=10 -rss_limit_mb=2048 >"logs/$t.log" 2>&1) || true
  local execs crashes
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n1)
  crashes=$(( $(find "fuzz/artifacts/$t" -type f | wc -l) - before ))
  printf '%-16s seconds=%s executions=%s new_crash_files=%s\n' "$t" "$SECONDS_EACH" "${execs:-?}" "$crashes"
}
export -f run_one seed
export SECONDS_EACH

printf '%s\n' "${TARGETS[@]}" | xargs -P "$PARALLEL" -I{} bash -c 'run_one {}'
