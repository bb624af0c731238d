#!/usr/bin/env python3
"""Turns `parprim bench --json` files into the markdown tables kept under bench/results/.

Usage: scripts/bench_report.py RESULT.json [...] > RESULT.md
One table per primitive: every row with its time, bandwidth, the yardstick measured in the
same run and the ratio (vs_yardstick = yardstick_ms / ms, above 1 = faster than it).
"""
import json
import sys
from collections import OrderedDict


def fmt(v, digits=4):
    if v is None:
        return ""
    if isinstance(v, float):
        if v == 0:
            return "0"
        if abs(v) >= 1000:
            return f"{v:,.0f}"
        return f"{v:.{digits}g}"
    return str(v)


def main(paths):
    for path in paths:
        doc = json.load(open(path))
        print(f"## {path.split('/')[-1]}\n")
        print(f"- date: {doc['date']}")
        print(f"- device: {doc['device']}")
        print(f"- command: `{doc['command']}`\n")
        groups = OrderedDict()
        for r in doc["results"]:
            groups.setdefault(r["primitive"], []).append(r)
        for prim, rows in groups.items():
            extra_keys = []
            for r in rows:
                for k in r.get("extra", {}):
                    if k not in extra_keys and k not in ("copy_gbps",):
                        extra_keys.append(k)
            cols = ["variant", "type", "n", "ms", "GB/s", "yardstick", "yardstick ms", "vs yardstick"] + extra_keys
            print(f"### {prim}\n")
            print("| " + " | ".join(cols) + " |")
            print("|" + "|".join(["---"] * len(cols)) + "|")
            for r in rows:
                cells = [r["variant"], r["type"], f"{r['n']:,}", fmt(r["ms"]), fmt(r["gbps"]),
                         r["yardstick"] or "", fmt(r["yardstick_ms"]), fmt(r["vs_yardstick"], 3)]
                cells += [fmt(r.get("extra", {}).get(k)) for k in extra_keys]
                print("| " + " | ".join(cells) + " |")
            print()


if __name__ == "__main__":
    main(sys.argv[1:])
