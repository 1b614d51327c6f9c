#!/usr/bin/env python3
"""Carry judged verdicts over to a later scan: precision of what is still reported.

    bench/carry.py JUDGED.jsonl SIGNALS.jsonl [SAMPLE ...]
    bench/carry.py --latest JUDGED.jsonl SIGNALS.jsonl

JUDGED is one or more files of `bench/judged/` (concatenated); SIGNALS is the
`signals.jsonl` that `bench/corpus.py` wrote for the scan to compare. A judged signal counts
as still reported when the scan has a signal with the same repository, path, kind, line,
reference and start line. For each SAMPLE (`random`, `kind-census`, or `all`; default
both) it prints the judged count and true count, the same for those still reported, per
kind `[judged, true, still reported, true among them]`, and every true signal no longer
reported; then how many current signals no one judged.

With `--latest`, each judged signal counts once, with its last verdict in JUDGED (a signal
judged in several samples, or adjudicated, is one signal): per kind, the signals found, the
judged ones still reported, the true among them and their precision.
"""

import collections
import json
import sys


def key(r):
    return (r["repo"], r["path"], r["kind"], r.get("line"), r.get("ref"), r.get("start_line"))


def latest(judged_file, signals_file):
    verdict = {}
    for line in open(judged_file):
        r = json.loads(line)
        if r.get("verdict") in ("true", "false"):
            verdict[key(r)] = r["verdict"]
    current = [json.loads(line) for line in open(signals_file)]
    found = collections.Counter(r["kind"] for r in current)
    per = collections.defaultdict(lambda: [0, 0])
    for k in {key(r) for r in current}:
        if k in verdict:
            per[k[2]][0] += 1
            per[k[2]][1] += verdict[k] == "true"
    total = [0, 0]
    for kind in sorted(found):
        n, t = per[kind]
        total[0] += n
        total[1] += t
        print(f"{kind:20} found {found[kind]:5} judged {n:5} true {t:5} "
              f"{100 * t / max(n, 1):5.1f}%")
    print(f"{'all':20} found {len(current):5} judged {total[0]:5} true {total[1]:5} "
          f"{100 * total[1] / max(total[0], 1):5.1f}%")


def main():
    if sys.argv[1] == "--latest":
        latest(sys.argv[2], sys.argv[3])
        return
    judged = [json.loads(line) for line in open(sys.argv[1])]
    current = [json.loads(line) for line in open(sys.argv[2])]
    seen = {key(r) for r in judged}
    now = {key(r) for r in current}
    for sample in sys.argv[3:] or ("random", "all"):
        rows = [r for r in judged if sample == "all" or r.get("sample") == sample]
        per = collections.defaultdict(lambda: [0, 0, 0, 0])
        for r in rows:
            k = per[r["kind"]]
            k[0] += 1
            k[1] += r["verdict"] == "true"
            if key(r) in now:
                k[2] += 1
                k[3] += r["verdict"] == "true"
        t = [sum(v[i] for v in per.values()) for i in range(4)]
        print(f"{sample}: judged {t[0]}, true {t[1]} ({100 * t[1] / max(t[0], 1):.1f}%) | "
              f"still reported {t[2]}, true {t[3]} ({100 * t[3] / max(t[2], 1):.1f}%)")
        for kind, v in sorted(per.items()):
            print(f"    {kind} {v}")
        for r in rows:
            if r["verdict"] == "true" and key(r) not in now:
                print(f"    LOST TRUE {r['repo']} {r['path']} {r['kind']} {r.get('ref')}: {r['why'][:80]}")
    unjudged = [r for r in current if key(r) not in seen]
    common = collections.Counter((r["repo"], r["kind"]) for r in unjudged).most_common(10)
    print(f"current signals no one judged: {len(unjudged)} {common}")


if __name__ == "__main__":
    main()
