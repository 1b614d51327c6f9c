#!/usr/bin/env bash
# Generates the benchmark repository: N Markdown files (nested folders, relative links between
# them, some broken, backticked paths and identifiers, headings and anchors, checklists, a few
# TODOs, 200 small source files, two commits with renames).
#
#   bench/generate.sh N DIR
#
# The content depends on N alone (fixed seed), so two runs give the same tree. DIR must not
# exist or be an earlier generated tree (then it is left as it is).
set -euo pipefail
N=$1; repo=$2
if [ -d "$repo/.git" ]; then exit 0; fi
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
