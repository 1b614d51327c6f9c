#!/usr/bin/env bash
# Benchmark of one page dense with missing paths: how the scan grows with their number.
#
#   bench/dense.sh [N] [BASELINE_BIN]
#
# Generates two git repositories under $BENCH_DIR (default /tmp), each with a README that lists
# N (default 1500), then 3N, backticked paths `src/mK/fileK.ts` whose folders exist and whose
# files do not (every one reaches the missing-path rules that read the lines around it), one
# `## Section` heading per ten items. Builds the release binary and prints the best of 3 wall
# times of `hygiene scan --no-cache` on each, and the growth ratio: about 3 when the cost per
# reference is constant, about 9 when each reference re-reads the page. With BASELINE_BIN (an
# older build), the same for it, measured in the same run.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
n="${1:-1500}"
baseline="${2:-}"
gen() {
  local count=$1 dir="${BENCH_DIR:-/tmp}/hygiene-dense-$1"
  if [ ! -d "$dir/.git" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    python3 - "$dir" "$count" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
lines = ["# Index", ""]
for i in range(n):
    if i % 10 == 0:
        lines.append(f"## Section {i}")
    lines.append(f"- `src/m{i}/file{i}.ts` - part {i}")
    os.makedirs(f"{root}/src/m{i}", exist_ok=True)
    with open(f"{root}/src/m{i}/other.ts", "w") as f:
        f.write("export const x = 1;\n")
with open(f"{root}/README.md", "w") as f:
    f.write("\n".join(lines) + "\n")
PY
    git -C "$dir" init -q
    git -C "$dir" add -A
    git -C "$dir" -c user.name=bench -c user.email=bench@localhost commit -qm bench
  fi
  echo "$dir"
}
small=$(gen "$n")
large=$(gen $((3 * n)))
echo "building release binary" >&2
(cd "$here" && cargo build --release --quiet)
best() {
  local bin=$1 repo=$2 b=""
  for _ in 1 2 3; do
    local t0 t1
    t0=$(date +%s.%N)
    "$bin" scan --no-cache --root "$repo" > /dev/null
    t1=$(date +%s.%N)
    b=$(python3 -c "print(min(float('${b:-inf}'), $t1 - $t0))")
  done
  echo "$b"
}
report() {
  local name=$1 bin=$2 a b
  a=$(best "$bin" "$small")
  b=$(best "$bin" "$large")
  python3 -c "print(f'$name: {$n} missing paths {$a:.2f} s, {3*$n} missing paths {$b:.2f} s, growth x{$b/$a:.1f} (3 = linear, 9 = quadratic)')"
}
report "this build" "$here/target/release/hygiene"
if [ -n "$baseline" ]; then
  report "baseline" "$baseline"
fi
