#!/usr/bin/env python3
"""Speed of `hygiene scan` on one tree, against a bare read and a link checker, in one run.

    bench/speed.sh [--runs N] [--bin PATH] TREE|gen:N ...   (builds the release binary first)
    bench/speed.py [--runs N] --bin PATH TREE|gen:N ...

For each tree, N rounds (default 3) of, interleaved so that a change in machine load hits every
row alike:

  bare read    find TREE -name '*.md' ... -print0 | xargs -0 cat > /dev/null (.git,
               node_modules and target pruned): the walk and read any scan needs
  cold scan    `hygiene scan` with .hygiene/cache/ deleted first (no cache at all)
  warm scan    the same again: nothing changed
  1% edited    after appending a line to 1% of the documents (every 100th, sorted); the
               documents are restored byte for byte, with their times, afterwards
  1% touched   after changing only the modification time of those documents
  lychee       `lychee --offline --include-fragments` on the tree, when lychee is installed
  baseline     with --baseline-bin, that binary's scan (an earlier build, which has no cache)

and prints the median wall time of each, its ratio to the bare read, the peak RSS of hygiene
itself (from its HYGIENE_TIMINGS lines) and of it with the git processes it waited for (`git
log` maps the pack it reads: on a long history that is git's memory, not the scan's), and the
targets of issue 15 (cold <= 0.5x lychee and <= 6x bare read, warm <= 2x,
1% edited <= 3x). It also checks that every scan's report is identical (less generated_at) to a
`--no-cache` scan's, except the edited one, which is compared with a --no-cache scan of the same
edited tree.

TREE is a git work tree the script may modify: it writes TREE/.hygiene/cache/ and edits and
restores 1% of its documents. Pass a scratch copy, never a checkout you care about. `gen:N`
generates (or reuses) the benchmark tree of N documents under $BENCH_DIR (default /tmp) with
bench/generate.sh. With several trees, a last table shows how time grows with documents.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DOC_EXT = (".md", ".markdown", ".mdx")
PRUNE = (".git", "node_modules", "target", ".hygiene")


def run(cmd, stderr=None, **kw):
    """Runs cmd; returns (wall seconds, peak RSS in KiB of the process and the children it
    waited for, exit status). With stderr a file, the process's stderr goes there."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=stderr or subprocess.DEVNULL, **kw)
    _, status, ru = os.wait4(p.pid, 0)
    return time.perf_counter() - t0, ru.ru_maxrss, os.waitstatus_to_exitcode(status)


def own_peak(path):
    """hygiene's own peak RSS in MB, from the last `peak N MB` its HYGIENE_TIMINGS lines print
    (the process tree's peak also counts git, whose `git log` maps the pack it reads)."""
    peak = 0
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r"peak (\d+) MB", line)
            if m:
                peak = max(peak, int(m.group(1)))
    return peak


def documents(tree):
    out = []
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if d not in PRUNE)
        for f in sorted(filenames):
            if f.endswith(DOC_EXT):
                p = os.path.join(dirpath, f)
                if os.path.isfile(p) and not os.path.islink(p):
                    out.append(p)
    return sorted(out)


def lychee_bin():
    path = shutil.which("lychee")
    if not path:
        return None
    # A pyenv shim is a shell script that starts pyenv first: time the real binary.
    if ".pyenv/shims" in path:
        try:
            real = subprocess.run(["pyenv", "which", "lychee"], capture_output=True, text=True)
            if real.returncode == 0 and real.stdout.strip():
                return real.stdout.strip()
        except OSError:
            pass
    return path


def report(path):
    with open(path) as f:
        r = json.load(f)
    r.pop("generated_at", None)
    return r


class Tree:
    def __init__(self, spec, binary):
        if spec.startswith("gen:"):
            n = int(spec[4:])
            path = os.path.join(os.environ.get("BENCH_DIR", "/tmp"), f"hygiene-bench-{n}")
            subprocess.run([os.path.join(HERE, "generate.sh"), str(n), path], check=True)
        else:
            path = spec
        self.path = os.path.abspath(path)
        self.bin = binary
        self.docs = documents(self.path)
        self.sample = self.docs[::100]
        self.bytes = sum(os.path.getsize(d) for d in self.docs)
        try:
            self.commits = int(
                subprocess.run(
                    ["git", "-C", self.path, "rev-list", "--count", "HEAD"],
                    capture_output=True,
                    text=True,
                ).stdout.strip()
                or 0
            )
        except ValueError:
            self.commits = 0
        self.out = tempfile.mkdtemp(prefix="hygiene-speed-")

    def bare(self):
        prune = " -o ".join(f"-name {p}" for p in PRUNE)
        names = " -o ".join(f"-name '*{e}'" for e in DOC_EXT)
        cmd = f"find '{self.path}' \\( {prune} \\) -prune -o \\( {names} \\) -print0 | xargs -0 cat > /dev/null"
        return run(["sh", "-c", cmd])

    def scan(self, name, *extra):
        """Returns ((wall, tree peak KiB, own peak MB), report path)."""
        out = os.path.join(self.out, name + ".json")
        err = os.path.join(self.out, name + ".err")
        env = dict(os.environ, HYGIENE_TIMINGS="1")
        with open(err, "w") as e:
            w, r, code = run([self.bin, "scan", "--root", self.path, "--out", out, *extra], stderr=e, env=env)
        if code != 0:
            sys.exit(f"hygiene scan failed on {self.path} ({name}): see {err}")
        return (w, r, own_peak(err)), out

    def drop_cache(self):
        shutil.rmtree(os.path.join(self.path, ".hygiene", "cache"), ignore_errors=True)

    def edit(self):
        saved = []
        for d in self.sample:
            st = os.stat(d)
            with open(d, "rb") as f:
                saved.append((d, f.read(), st.st_atime_ns, st.st_mtime_ns))
            with open(d, "ab") as f:
                f.write(b"\nEdited by the benchmark.\n")
        return saved

    @staticmethod
    def restore(saved):
        for d, data, at, mt in saved:
            with open(d, "wb") as f:
                f.write(data)
            os.utime(d, ns=(at, mt))

    def touch(self):
        now = time.time_ns()
        for d in self.sample:
            os.utime(d, ns=(now, now))


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def bench(tree, runs, lychee, baseline_bin=None):
    rows = {k: [] for k in ("bare", "baseline", "cold", "warm", "edited", "touched", "lychee")}
    rss = {k: 0 for k in rows}
    own = {k: 0 for k in rows}
    same = True
    as_before = True
    # Warm the page cache and the binary.
    tree.bare()
    tree.scan("nocache", "--no-cache")
    baseline = report(os.path.join(tree.out, "nocache.json"))
    for _ in range(runs):
        w, r, _ = tree.bare()
        rows["bare"].append(w)
        tree.drop_cache()
        (w, r, o), out = tree.scan("cold")
        rows["cold"].append(w)
        rss["cold"] = max(rss["cold"], r)
        own["cold"] = max(own["cold"], o)
        same &= report(out) == baseline
        (w, r, o), out = tree.scan("warm")
        rows["warm"].append(w)
        rss["warm"] = max(rss["warm"], r)
        own["warm"] = max(own["warm"], o)
        same &= report(out) == baseline
        saved = tree.edit()
        try:
            (w, r, o), out = tree.scan("edited")
            rows["edited"].append(w)
            rss["edited"] = max(rss["edited"], r)
            own["edited"] = max(own["edited"], o)
            _, ref = tree.scan("edited-nocache", "--no-cache")
            same &= report(out) == report(ref)
        finally:
            tree.restore(saved)
        tree.scan("rewarm")
        tree.touch()
        (w, r, o), out = tree.scan("touched")
        rows["touched"].append(w)
        rss["touched"] = max(rss["touched"], r)
        own["touched"] = max(own["touched"], o)
        same &= report(out) == baseline
        if baseline_bin:
            out = os.path.join(tree.out, "baseline.json")
            w, r, _ = run([baseline_bin, "scan", "--root", tree.path, "--out", out])
            rows["baseline"].append(w)
            rss["baseline"] = max(rss["baseline"], r)
            as_before &= report(out) == baseline
        if lychee:
            w, r, _ = run([lychee, "--offline", "--include-fragments", "--no-progress", tree.path])
            rows["lychee"].append(w)
            rss["lychee"] = max(rss["lychee"], r)
    return {k: median(v) for k, v in rows.items()}, rss, own, same, as_before


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--bin", required=True)
    ap.add_argument(
        "--baseline-bin",
        help="another hygiene binary (an earlier build) timed in the same rounds, with no cache",
    )
    ap.add_argument("trees", nargs="+")
    a = ap.parse_args()
    lychee = lychee_bin()
    summary = []
    for spec in a.trees:
        tree = Tree(spec, os.path.abspath(a.bin))
        load = os.getloadavg()[0]
        baseline = os.path.abspath(a.baseline_bin) if a.baseline_bin else None
        t, rss, own, same, as_before = bench(tree, a.runs, lychee, baseline)
        b = t["bare"]
        print(f"\ntree: {tree.path}")
        print(
            f"  {len(tree.docs)} documents, {tree.bytes / 1e6:.1f} MB, {tree.commits} commits; "
            f"median of {a.runs} runs; load average {load:.2f} at start; {os.cpu_count()} cores"
        )
        names = [
            ("bare", "bare read (find | xargs cat)"),
            ("cold", "cold scan (no cache)"),
            ("warm", "warm scan (nothing changed)"),
            ("edited", f"warm, 1% edited ({len(tree.sample)} docs)"),
            ("touched", "warm, 1% touched (mtime only)"),
            ("lychee", "lychee --offline --include-fragments"),
        ]
        if baseline:
            names.insert(1, ("baseline", "baseline binary (--baseline-bin)"))
        print(f"  {'':38} {'wall':>9} {'x bare':>7} {'peak RSS':>9} {'with git':>9}")
        for k, label in names:
            if k == "lychee" and not lychee:
                print(f"  {label:38} {'not installed':>9}")
                continue
            if k == "bare":
                r, g = "-", "-"
            elif k in ("lychee", "baseline"):
                r, g = f"{rss[k] / 1024:.0f} MB", "-"
            else:
                r, g = f"{own[k]} MB", f"{rss[k] / 1024:.0f} MB"
            print(f"  {label:38} {t[k]:8.3f}s {t[k] / b:7.2f} {r:>9} {g:>9}")
        checks = [
            ("cold <= 6x bare read", t["cold"] <= 6 * b),
            ("warm <= 2x bare read", t["warm"] <= 2 * b),
            ("1% edited <= 3x bare read", t["edited"] <= 3 * b),
        ]
        if lychee:
            checks.insert(0, (f"cold <= 0.5x lychee (cold/lychee = {t['cold'] / t['lychee']:.2f})", t["cold"] <= 0.5 * t["lychee"]))
        checks.append(("every report identical with and without the cache", same))
        if baseline:
            checks.append(("the report identical to the baseline binary's", as_before))
        for label, ok in checks:
            print(f"  {'met' if ok else 'NOT MET':8} {label}")
        summary.append((len(tree.docs), t, max(own["cold"], own["warm"], own["edited"])))
        shutil.rmtree(tree.out, ignore_errors=True)
    if len(summary) > 1:
        print("\ngrowth with documents (time per 1,000 documents):")
        print(f"  {'documents':>10} {'bare':>8} {'cold':>8} {'warm':>8} {'1% edited':>10} {'peak RSS':>9}")
        for n, t, r in summary:
            k = n / 1000
            print(
                f"  {n:>10} {t['bare'] / k * 1000:6.1f}ms {t['cold'] / k * 1000:6.1f}ms "
                f"{t['warm'] / k * 1000:6.1f}ms {t['edited'] / k * 1000:8.1f}ms {r:7d} MB"
            )


if __name__ == "__main__":
    main()
