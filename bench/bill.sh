#!/usr/bin/env bash
# The model's bill (issue 14) on real repositories of agent documents.
#
#   bench/bill.sh [REPO...]
#
# Without REPO, runs on every repository under $HYGIENE_CORPUS (default /work/corpus/repos).
# Each repository is cloned to a scratch folder first (with /work/corpus/scripts/clone_copy.sh
# when present, which keeps the snapshot's missing blobs as placeholders; else `git clone`), so
# the source is never modified. Builds the release helper, then per repository:
#   scan, `hygiene triage` (the default run), then repeats triage + finalize with the model's
#   part played as "every handed item is fine" until nothing is deferred.
# Prints one row per repository:
#   docs        documents scanned
#   short       items shortlisted
#   settled     items with drafts the helper settled (the model never reads them)
#   model       items the model must judge
#   run1        items handed in the default run (the rest is deferred)
#   before      est. tokens the model read before issue 14: `.hygiene/scan.json` whole plus every
#               shortlisted document whole (Read's line-number prefix counted, as in the bill)
#   after-run1  tokens of evidence the default run hands the model
#   after-all   tokens of evidence over all runs
#   runs        default runs until nothing is deferred
# and checks that finalize accepts the helper's drafts on every repository.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${HYGIENE_CORPUS:-/work/corpus/repos}"
scratch="${BENCH_DIR:-/tmp}/hygiene-bill-bench"
if [ "$#" -gt 0 ]; then repos=("$@"); else repos=("$corpus"/*); fi
echo "building release binary" >&2
(cd "$here" && cargo build --release --quiet)
bin="$here/target/release/hygiene"
mkdir -p "$scratch"
per_line=$("$bin" policy | python3 -c 'import json,sys; print(json.load(sys.stdin)["bill"]["limits"]["read_tokens_per_line"])')

printf '%-16s %6s %6s %8s %6s %5s %10s %11s %10s %5s\n' repo docs short settled model run1 before after-run1 after-all runs
for src in "${repos[@]}"; do
  name="$(basename "$src")"
  dst="$scratch/$name"
  rm -rf "$dst"
  if [ -x /work/corpus/scripts/clone_copy.sh ]; then
    /work/corpus/scripts/clone_copy.sh "$src" "$dst" >/dev/null 2>&1
  else
    git clone -q "$src" "$dst"
  fi
  (
    cd "$dst"
    "$bin" scan --out .hygiene/scan.json 2>/dev/null
    "$bin" triage --scan .hygiene/scan.json --format json >.hygiene/bill-run1.json
    runs=1
    total=0
    while :; do
      b=.hygiene/bill.json
      total=$((total + $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["evidence_tokens"])' "$b")))
      # The model's part: every handed item judged fine (an empty drafts file per batch).
      python3 - "$b" <<'PY'
import json, sys
for x in json.load(open(sys.argv[1]))["batches"]:
    open(x["drafts"], "w").write('{"entries": []}\n')
PY
      if ! "$bin" finalize --scan .hygiene/scan.json --drafts .hygiene/drafts 2>.hygiene/finalize.err; then
        echo "$name: finalize rejected the helper's drafts:" >&2
        cat .hygiene/finalize.err >&2
        exit 1
      fi
      deferred=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["deferred"]))' "$b")
      [ "$deferred" = 0 ] && break
      runs=$((runs + 1))
      [ "$runs" -gt 50 ] && { echo "$name: more than 50 runs" >&2; break; }
      "$bin" triage --scan .hygiene/scan.json --format json >/dev/null
    done
    # Before: the scan read whole, and every shortlisted file read whole.
    before=$(python3 - "$bin" "$per_line" <<'PY'
import json, os, subprocess, sys
bin, per_line = sys.argv[1], int(sys.argv[2])
scan = json.load(open(".hygiene/scan.json"))
files = [".hygiene/scan.json"] + [i["path"] for i in scan["shortlist"] if os.path.isfile(i["path"])]
total = 0
for k in range(0, len(files), 200):
    chunk = files[k:k + 200]
    out = subprocess.run([bin, "tokens", *chunk], capture_output=True, text=True, check=True).stdout
    for row in json.loads(out):
        lines = sum(1 for _ in open(row["path"], encoding="utf-8", errors="replace"))
        total += row["raw_tokens"] + lines * per_line
print(total)
PY
)
    python3 - "$name" "$before" "$total" "$runs" <<'PY'
import json, sys
name, before, total, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
b = json.load(open(".hygiene/bill-run1.json"))
scan = json.load(open(".hygiene/scan.json"))
model = len(b["handed"]) + len(b["deferred"])
print("%-16s %6d %6d %8d %6d %5d %10s %11s %10s %5d" % (
    name, scan["scan"]["files_scanned"], b["shortlisted"], b["settled_items"], model,
    len(b["handed"]), format(before, ","), format(b["evidence_tokens"], ","), format(total, ","), runs))
PY
  )
done
