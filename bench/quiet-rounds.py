#!/usr/bin/env python3
"""How often a round is loud (the target JVMs' compiler threads past the limit over its blocks' windows, their mean, as
paired/LeadInRule judges it) after k quiet rounds in a row, over the lead-in and measured rounds of paired runs: the evidence behind LeadInRule.QUIET_ROUNDS
(docs/steady-state.md, "Lead-in rounds that end on evidence").

    python3 bench/quiet-rounds.py results/*/results.json
"""
import json
import sys
from collections import defaultdict

LIMIT = 2.0  # verdict.Comparisons.COMPILER_LIMIT_PCT, % of one CPU


def rounds_of(run):
    """Per scenario (cell): every round's compiler CPU (% of a CPU, the mean of its blocks), lead-in first, then measured."""
    out = {}
    for lead in run.get("lead_ins") or []:
        key = (lead["scenario"], json.dumps(lead.get("cell")))
        out[key] = list(lead.get("compiler_pct") or [])
    worst = defaultdict(lambda: defaultdict(list))
    for b in run.get("blocks") or []:
        own, others = b.get("compiler_cpu_ms"), b.get("others_compiler_cpu_ms")
        if own is None or others is None or not b.get("seconds"):
            continue
        key = (b["scenario"], json.dumps(b.get("cell")))
        pct = (own + others) / (b["seconds"] * 10)
        worst[key][b["round"]].append(pct)
    for key, by_round in worst.items():
        out.setdefault(key, []).extend(sum(by_round[r]) / len(by_round[r]) for r in sorted(by_round))
    return out


def main(files):
    after = defaultdict(lambda: [0, 0])  # k quiet rounds in a row before -> [rounds, loud ones]
    measured_loud = measured = 0
    for f in files:
        run = json.load(open(f))
        if not run.get("lead_ins"):
            continue
        for key, series in rounds_of(run).items():
            streak = 0
            for pct in series:
                loud = pct is not None and pct > LIMIT
                for k in range(1, 5):
                    if streak >= k:
                        after[k][0] += 1
                        after[k][1] += loud
                streak = 0 if loud else streak + 1
        for b in run.get("blocks") or []:
            own, others = b.get("compiler_cpu_ms"), b.get("others_compiler_cpu_ms")
            if own is not None and others is not None and b.get("seconds"):
                measured += 1
                measured_loud += (own + others) / (b["seconds"] * 10) > LIMIT
    for k in sorted(after):
        n, loud = after[k]
        print(f"after {k} quiet round(s) in a row: {loud} loud of {n} rounds")
    print(f"measured blocks past {LIMIT:.0f}% of a CPU: {measured_loud} of {measured}")


if __name__ == "__main__":
    main(sys.argv[1:])
