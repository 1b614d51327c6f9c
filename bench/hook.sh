#!/usr/bin/env bash
# Benchmark of the tool-call hook (`hygiene hook post-tool-use`, docs/hook.md).
#
#   bench/hook.sh [REPO]
#
# Without REPO, generates a git repository of 4,000 Markdown documents (BENCH_FILES to change
# it; nested folders, relative links between them, backticked paths to 200 source files, a
# CLAUDE.md) under $BENCH_DIR (default /tmp). With REPO, uses that tree as it is (it must be a
# git work tree): the rename runs `git mv` on the tracked file the most references name and
# moves it back, and the files' times are left alone (the generated tree's are set an hour
# back; a given tree gets a 2.5 s pause instead, see (c)).
# Builds the release binary, then times, each RUNS times (default 40), the whole hook process
# as Claude Code runs it (spawn, read stdin, answer), fed the JSON the client sends:
#   (a) session start with no index: built from nothing (the first session's one-time cost;
#       the index is deleted before each run);
#   (b) session start with an index: the whole tree walked and stamped, nothing parsed;
#   (c) a no-op tool call (`ls`): nothing moved, nothing printed (the tree's files and folders
#       are set an hour back first, as in a repository nobody touched in the last seconds: a
#       folder changed less than 2 s before the index was written is looked at again, see
#       docs/hook.md);
#   (d) the no-op again, as the command line hooks/hooks.json gives the client (sh -c),
#       alternating with (c);
#   (e) a rename: `git mv` of the tracked file the most references name (in the generated tree,
#       a source file about 20 documents name; untimed), then the hook (timed), which must
#       report; then the move back and a hook call (untimed);
#   (f) a no-op right after (e)'s move back: within 2 s of a change a folder is listed again
#       and the index read (the worst case of a no-op).
# Prints median and p90 wall time of each, in milliseconds, and the command line used.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
N="${BENCH_FILES:-4000}"
RUNS="${RUNS:-40}"
repo="${1:-}"
generated=0
if [ -z "$repo" ]; then
  generated=1
  repo="${BENCH_DIR:-/tmp}/hygiene-hook-bench-$N"
  if [ ! -d "$repo/.git" ]; then
    echo "generating $N Markdown documents in $repo" >&2
    rm -rf "$repo"
    mkdir -p "$repo"
    python3 - "$repo" "$N" <<'PY'
import os, random, sys
root, n = sys.argv[1], int(sys.argv[2])
random.seed(11)
words = ("the agent reads this document before it edits the code so keep it short and true "
         "build test release deploy config module handler parser cache index report").split()
def para(k):
    return " ".join(random.choice(words) for _ in range(k)).capitalize() + "."
paths = [f"docs/area{i % 20:02d}/topic{(i // 20) % 20:02d}/note{i:05d}.md" for i in range(n)]
os.makedirs(os.path.join(root, "src"), exist_ok=True)
for j in range(200):
    with open(os.path.join(root, "src", f"mod{j:03d}.rs"), "w") as f:
        f.write(f"pub fn handler_{j}() {{}}\n")
for i, p in enumerate(paths):
    full = os.path.join(root, p)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    lines = [f"# Note {i}", "", para(30), "", "## Setup", ""]
    for _ in range(4):
        t = random.choice(paths)
        rel = os.path.relpath(t, os.path.dirname(p))
        lines.append(f"- See [{os.path.basename(t)}]({rel}) for {random.choice(words)}.")
    lines += ["", f"Code: `src/mod{i % 200:03d}.rs`.", "", para(60), ""]
    with open(full, "w") as f:
        f.write("\n".join(lines) + "\n")
with open(os.path.join(root, "CLAUDE.md"), "w") as f:
    f.write("# Project\n\n" + para(40) + "\n\nThe entry point is `src/mod000.rs`; see "
            "[the first note](docs/area00/topic00/note00000.md).\n")
PY
    printf '/target\n' > "$repo/.gitignore"
    git -C "$repo" init -q -b main
    git -C "$repo" -c user.name=b -c user.email=b@b add -A
    git -C "$repo" -c user.name=b -c user.email=b@b commit -q -m "generate"
  fi
fi
echo "building release binary" >&2
(cd "$here" && cargo build --release --quiet --bin hygiene)
bin="$here/target/release/hygiene"
docs=$(git -C "$repo" ls-files -- '*.md' | wc -l)
echo "repository: $repo ($docs Markdown documents, $(git -C "$repo" ls-files | wc -l) files)"
echo "command: $([ "$generated" = 1 ] && echo "BENCH_FILES=$N ")RUNS=$RUNS bench/hook.sh${1:+ $1}   ($(nproc) cores, $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'))"

python3 - "$bin" "$here" "$repo" "$RUNS" "$generated" <<'PY'
import json, os, statistics, subprocess, sys, time
binary, plugin, repo, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
generated = sys.argv[5] == "1"
index = os.path.join(repo, ".hygiene", "hook-index.json")

def call(exe, event, payload):
    t0 = time.perf_counter()
    p = subprocess.run([exe, "hook", event], input=json.dumps(payload).encode(),
                       capture_output=True)
    dt = (time.perf_counter() - t0) * 1000
    if p.returncode != 0 or p.stderr:
        sys.exit(f"hook failed: {p.returncode} {p.stderr!r}")
    return dt, p.stdout.decode()

def bash_input(cmd):
    return {"session_id": "bench", "cwd": repo, "hook_event_name": "PostToolUse",
            "tool_name": "Bash", "tool_input": {"command": cmd, "description": "bench"},
            "tool_response": {"stdout": "", "stderr": "", "interrupted": False}}

def git(*args):
    subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True)

def report(name, times):
    times = sorted(times)
    p90 = times[min(len(times) - 1, int(round(0.9 * (len(times) - 1))))]
    print(f"{name:<44} median {statistics.median(times):6.1f} ms   p90 {p90:6.1f} ms   (n={len(times)})")

def age(top):
    past = time.time() - 3600
    for d, subdirs, files in os.walk(top):
        subdirs[:] = [x for x in subdirs if x != ".git"]
        for f in files:
            os.utime(os.path.join(d, f), (past, past), follow_symlinks=False)
        os.utime(d, (past, past))

start = {"session_id": "bench", "cwd": repo, "hook_event_name": "SessionStart", "source": "startup"}
cold = []
for _ in range(max(3, runs // 8)):
    if os.path.exists(index):
        os.remove(index)
    dt, out = call(binary, "session-start", start)
    assert out == "", out
    cold.append(dt)
# (c) and (d) alternate, so that load from other processes falls on both alike. (d) is the
# command hooks/hooks.json gives the client, run the way the client runs it (sh -c, with
# CLAUDE_PLUGIN_ROOT set).
warm = []
for _ in range(max(3, runs // 8)):
    dt, out = call(binary, "session-start", start)
    assert out == "", out
    warm.append(dt)
if generated:
    age(repo)
    call(binary, "session-start", start)
else:
    call(binary, "session-start", start)
    time.sleep(2.5)
hooks = json.load(open(os.path.join(plugin, "hooks", "hooks.json")))
command = hooks["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
env = dict(os.environ, CLAUDE_PLUGIN_ROOT=plugin)
noop, as_client = [], []
for _ in range(runs):
    dt, out = call(binary, "post-tool-use", bash_input("ls"))
    assert out == "", f"a no-op call printed: {out}"
    noop.append(dt)
    t0 = time.perf_counter()
    p = subprocess.run(["sh", "-c", command], input=json.dumps(bash_input("ls")).encode(),
                       capture_output=True, env=env)
    as_client.append((time.perf_counter() - t0) * 1000)
    assert p.returncode == 0 and p.stdout == b"" and p.stderr == b"", p
# (e), and (f): a no-op right after the move back, while src/ changed less than 2 s ago.
# The tracked file the most references name (ties: the first path).
idx = json.load(open(index))
counts = [0] * len(idx["targets"])
for d in idx["docs"]:
    for l in d[3]:
        for i in l:
            counts[i] += 1
tracked = set(subprocess.run(["git", "-C", repo, "ls-files", "-z"], capture_output=True,
                             check=True).stdout.decode().split("\0"))
named_by, src = min((-counts[i], p) for i, p in enumerate(idx["targets"])
                    if p in tracked and os.path.isfile(os.path.join(repo, p)))
named_by = -named_by
print(f"rename: {src}, named by {named_by} references")
rename, racy, lengths = [], [], []
for k in range(runs):
    head, _, name = src.rpartition("/")
    dst = (head + "/" if head else "") + f"hygiene-bench-{k}-" + name
    git("mv", src, dst)
    dt, out = call(binary, "post-tool-use", bash_input(f"git mv {src} {dst}"))
    ctx = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert f"with `{dst}`" in ctx, ctx
    rename.append(dt)
    lengths.append(len(ctx))
    git("mv", dst, src)
    _, back = call(binary, "post-tool-use", bash_input(f"git mv {dst} {src}"))
    assert back == "", back
    dt, out = call(binary, "post-tool-use", bash_input("ls"))
    assert out == "", out
    racy.append(dt)
report("(a) session start, no index yet", cold)
report("(b) session start, index up to date", warm)
report("(c) no-op tool call (ls), nothing printed", noop)
report("(d) no-op, the hooks.json command via sh -c", as_client)
report(f"(e) rename named by {named_by} references, reported", rename)
report("(f) no-op < 2 s after the move back", racy)
print(f"index: {os.path.getsize(index) / 1024:.0f} KiB; rename report: {statistics.median(lengths):.0f} characters")
PY
