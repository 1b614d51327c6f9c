#!/usr/bin/env python3
"""A uniform sample of signals, each judged twice, for bench/judged/.

One judge moves a sample of 120 by 3 to 6 points (judges read the same line differently), so a
sample is judged twice by judges working apart, and the disagreements are adjudicated.

    bench/double_judge.py draw --signals ALL.jsonl --seed S --out DIR [--n 120] [--name NAME]
                               [--per-kind KIND=N,KIND=N,...]
    bench/double_judge.py merge --dir DIR --out FILE [--adjudicate ADJ.jsonl]

`draw` takes N signals uniformly at random from ALL.jsonl (the `signals.jsonl` lines of
bench/corpus.py), or with `--per-kind` that many of each kind named, uniformly within the kind
(all of a kind that has fewer): a stratified sample that measures each rare kind's precision,
which a uniform sample of 120 draws a handful of. Those some file in bench/judged/ already judged keep that verdict as their first
one (DIR/carried.json); the others go to four first judges (DIR/inA0..3.jsonl). All N go to four
second judges (DIR/inB0..3.jsonl), partitioned by repository so that no second judge reads a
first judge's exact set. Give each judge bench/judged/BRIEF.md, its input, and `outXN.jsonl`
beside it to write.

`merge` reads DIR/outA*.jsonl, DIR/outB*.jsonl and DIR/carried.json and writes FILE: each signal
with `verdict_first`/`why_first` (`first_from`: `fresh` or `carried`), `verdict_second`/
`why_second`, and `verdict`/`why`: the judges' agreement, or for a disagreement the verdict ADJ
gives it (JSON lines holding the signal's identifying fields and `verdict`; `adjudicated` is set).
Without ADJ it lists the disagreements to adjudicate and writes nothing. It prints the agreement
and the precision as drawn for each judge and adjudicated, in all and per kind.
"""

import argparse
import collections
import glob
import json
import os
import random
import sys

KEY_FIELDS = ("repo", "path", "kind", "line", "ref", "start_line")
JUDGED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "judged")


def key(r):
    return tuple(r.get(f) for f in KEY_FIELDS)


def lines(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def judged_before():
    out = {}
    for p in sorted(glob.glob(os.path.join(JUDGED, "*.jsonl"))):
        for r in lines(p):
            if r.get("verdict") in ("true", "false"):
                out[key(r)] = r
    return out


def write(path, rows):
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def draw(a):
    sigs = lines(a.signals)
    if a.per_kind:
        rng = random.Random(a.seed)
        sample = []
        for spec in a.per_kind.split(","):
            kind, n = spec.split("=")
            of_kind = [r for r in sigs if r["kind"] == kind]
            sample += rng.sample(of_kind, min(int(n), len(of_kind)))
        a.n = len(sample)
    else:
        sample = random.Random(a.seed).sample(sigs, a.n)
    before = judged_before()
    os.makedirs(a.out, exist_ok=True)
    carried, fresh = [], []
    for r in sample:
        r = dict(r, sample=a.name)
        old = before.get(key(r))
        if old:
            carried.append(dict(r, verdict=old["verdict"], why=old.get("why")))
        else:
            fresh.append(r)
    with open(os.path.join(a.out, "carried.json"), "w") as f:
        json.dump(carried, f, indent=0)
    for i in range(4):
        write(os.path.join(a.out, f"inA{i}.jsonl"), fresh[i::4])
    blind = fresh + [{k: v for k, v in c.items() if k not in ("verdict", "why")} for c in carried]
    random.Random(a.seed + 1).shuffle(blind)
    blind.sort(key=lambda r: r["repo"])
    for i in range(4):
        write(os.path.join(a.out, f"inB{i}.jsonl"), blind[i::4])
    print(f"{a.n} drawn: {len(carried)} carried ({sum(c['verdict'] == 'true' for c in carried)} true), "
          f"{len(fresh)} for the first judges, all {a.n} for the second")


def merge(a):
    first = {key(r): dict(r, first_from="carried") for r in json.load(open(os.path.join(a.dir, "carried.json")))}
    for p in sorted(glob.glob(os.path.join(a.dir, "outA*.jsonl"))):
        for r in lines(p):
            first[key(r)] = dict(r, first_from="fresh")
    second = {}
    for p in sorted(glob.glob(os.path.join(a.dir, "outB*.jsonl"))):
        for r in lines(p):
            second[key(r)] = r
    missing = [k for k in second if k not in first] + [k for k in first if k not in second]
    if missing:
        sys.exit(f"judged by one side only: {missing[:5]} ...")
    adj = {key(r): r["verdict"] for r in lines(a.adjudicate)} if a.adjudicate else {}
    split = [k for k in second if first[k]["verdict"] != second[k]["verdict"]]
    todo = [k for k in split if k not in adj]
    n = len(second)
    print(f"agreement {n - len(split)}/{n}; first judges {sum(first[k]['verdict'] == 'true' for k in second)}/{n} true, "
          f"second judges {sum(second[k]['verdict'] == 'true' for k in second)}/{n}")
    if todo:
        print(f"{len(todo)} disagreements to adjudicate (write JSON lines with their fields and `verdict`):")
        for k in todo:
            print(json.dumps(dict(zip(KEY_FIELDS, k))))
            print("   first: ", first[k]["verdict"], first[k].get("why"))
            print("   second:", second[k]["verdict"], second[k].get("why"))
        return
    rows, per_kind = [], collections.defaultdict(lambda: [0, 0])
    for k, s in second.items():
        f = first[k]
        verdict = f["verdict"] if k not in split else adj[k]
        base = {x: y for x, y in f.items() if x not in ("verdict", "why", "first_from")}
        row = dict(base, verdict_first=f["verdict"], why_first=f.get("why"), first_from=f["first_from"],
                   verdict_second=s["verdict"], why_second=s.get("why"), verdict=verdict,
                   why=f.get("why") if verdict == f["verdict"] else s.get("why"))
        if k in split:
            row["adjudicated"] = True
        rows.append(row)
        per_kind[k[2]][0 if verdict == "true" else 1] += 1
    write(a.out, rows)
    t = sum(v[0] for v in per_kind.values())
    print(f"adjudicated {t}/{n} true ({100 * t / n:.1f}%)")
    for kind, (yes, no) in sorted(per_kind.items(), key=lambda x: -sum(x[1])):
        print(f"  {kind:20} {yes}/{yes + no}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw")
    d.add_argument("--signals", required=True)
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--out", required=True)
    d.add_argument("--n", type=int, default=120)
    d.add_argument("--name", default="uniform-120")
    d.add_argument("--per-kind", help="KIND=N,... : N of each kind instead of a uniform sample")
    m = sub.add_parser("merge")
    m.add_argument("--dir", required=True)
    m.add_argument("--out", required=True)
    m.add_argument("--adjudicate")
    a = p.parse_args()
    draw(a) if a.cmd == "draw" else merge(a)


if __name__ == "__main__":
    main()
