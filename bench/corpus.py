#!/usr/bin/env python3
"""Precision and trust of the scanner on real repositories: every signal, and every auto edit.

    bench/corpus.py --bin PATH --out DIR REPO ...

Each REPO is a git work tree (a clone of a public repository; DEVELOPERS.md says how to get
them). For each, this script

  1. runs `hygiene scan --no-cache` and writes one line per signal to DIR/signals.jsonl
     (repo, path, kind, line, the signal's fields, shortlisted or riding along, injection class);
  2. copies the tree (git clone of the work tree's HEAD plus its uncommitted state is not
     needed: the copy is `cp -a`), runs `hygiene check --accept-suggestions --apply` on the copy
     and writes its `git diff` to DIR/<repo>.apply.diff, so every edit can be read;
  3. prints a table: documents scanned, signals by kind, shortlisted documents, edited lines.

With --sample N --seed S it also writes DIR/sample.jsonl: N signals drawn uniformly at random
from all repositories, for a judge to read (`verdict` and `why` left empty to fill in). Judged
samples live in bench/judged/ so that the next session can compare against them.
"""

import argparse
import collections
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile


def scan(binary, repo):
    out = subprocess.run(
        [binary, "scan", "--no-cache", "--root", repo],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)


def signals_of(name, report):
    rows = []
    for item in report["shortlist"]:
        for s in item["signals"]:
            row = {"repo": name, "path": item["path"]}
            row.update(s)
            row["injection"] = item.get("injection_frequency")
            rows.append(row)
    return rows


def apply_diff(binary, repo):
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "copy")
        shutil.copytree(repo, copy, symlinks=True)
        before = changed_files(copy)
        done = subprocess.run([binary, "check", "--accept-suggestions", "--apply", "--root", copy],
                              capture_output=True, text=True)
        if done.returncode not in (0, 1):
            # A check that did not finish edits nothing: say so, or its 0 edited lines read
            # as a clean result.
            print(f"CHECK FAILED ({done.returncode}) on {repo}: {done.stderr.strip()[-500:]}",
                  file=sys.stderr)
        # Only the files the check changed: a snapshot's placeholders (files it lacks) differ
        # from HEAD already, and a whole-tree diff of them can crash git.
        edited = sorted(changed_files(copy) - before)
        if not edited:
            return ""
        diff = subprocess.run(["git", "-C", copy, "diff", "--stat", "--patch", "--"] + edited,
                              capture_output=True, text=True, errors="replace").stdout
        for new in subprocess.run(["git", "-C", copy, "ls-files", "--others", "--exclude-standard",
                                   "--"] + edited, capture_output=True, text=True).stdout.split():
            diff += subprocess.run(["git", "-C", copy, "diff", "--no-index", "--", "/dev/null", new],
                                   capture_output=True, text=True, errors="replace").stdout
    return diff


def changed_files(work_tree):
    """Paths that differ from HEAD or are untracked (`.hygiene/` aside)."""
    out = subprocess.run(["git", "-C", work_tree, "status", "--porcelain", "-z",
                          "--untracked-files=all"], capture_output=True, text=True,
                         errors="replace").stdout
    paths = set()
    for rec in out.split("\0"):
        if len(rec) > 3 and not rec[3:].startswith(".hygiene/"):
            paths.add(rec[3:])
    return paths


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--no-apply", action="store_true")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("repos", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    binary = os.path.abspath(a.bin)
    every = []
    table = []
    for repo in a.repos:
        name = os.path.basename(os.path.normpath(repo))
        report = scan(binary, repo)
        rows = signals_of(name, report)
        every.extend(rows)
        edited = 0
        if not a.no_apply:
            diff = apply_diff(binary, repo)
            with open(os.path.join(a.out, name + ".apply.diff"), "w") as f:
                f.write(diff)
            edited = sum(1 for l in diff.splitlines()
                         if l[:1] in "+-" and not l.startswith(("+++", "---")))
        kinds = collections.Counter(r["kind"] for r in rows)
        table.append((name, report["scan"]["files_scanned"], len(report["shortlist"]),
                      len(rows), edited, dict(kinds)))
    with open(os.path.join(a.out, "signals.jsonl"), "w") as f:
        for r in every:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    print(f"{'repo':<24}{'docs':>8}{'listed':>8}{'signals':>9}{'edited':>8}  kinds")
    for name, docs, listed, n, edited, kinds in table:
        print(f"{name:<24}{docs:>8}{listed:>8}{n:>9}{edited:>8}  {kinds}")
    total = collections.Counter(r["kind"] for r in every)
    print(f"{'all':<24}{sum(t[1] for t in table):>8}{sum(t[2] for t in table):>8}"
          f"{len(every):>9}{sum(t[4] for t in table):>8}  {dict(total)}")
    if a.sample:
        rng = random.Random(a.seed)
        pick = rng.sample(every, min(a.sample, len(every)))
        with open(os.path.join(a.out, "sample.jsonl"), "w") as f:
            for r in pick:
                r = dict(r, verdict="", why="")
                f.write(json.dumps(r, sort_keys=True) + "\n")
        print(f"sample of {len(pick)} written to {a.out}/sample.jsonl", file=sys.stderr)


if __name__ == "__main__":
    main()
