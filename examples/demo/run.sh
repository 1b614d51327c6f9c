#!/usr/bin/env bash
# The main job on the demo repository, without a model: scan, the model-free check (scanner
# suggestions become the report), apply the auto tier, show what is left for a person, undo.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
echo "== building the helper (first run takes a minute or two)"
cargo build --quiet --manifest-path "$top/Cargo.toml"
hygiene="$top/target/debug/hygiene"
demo=${DEMO_DIR:-$top/target/demo}
bash "$here/build.sh" "$demo"
cd "$demo"
step() { printf '\n== %s\n' "$*"; }
step "hygiene scan --format human   (what the scanner proves, no model)"
"$hygiene" scan --format human
step "hygiene check --accept-suggestions   (the scanner's own fixes become the report)"
"$hygiene" check --accept-suggestions
step "hygiene apply --tier auto   (objective edits, guarded, journaled)"
"$hygiene" apply --tier auto || true
step "git diff --stat   (what changed)"
git --no-pager diff --stat
step "hygiene sweep   (lifecycle: what has served, with evidence and tier)"
"$hygiene" sweep
step "hygiene undo   (the batch, restored byte for byte)"
"$hygiene" undo
git --no-pager diff --stat
echo
echo "The demo repository is in $demo. In Claude Code, /hygiene:check adds the model's judgement"
echo "(the judged plan, the prose rewrites) and /hygiene:clean asks before every confirm edit."
