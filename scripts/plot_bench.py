#!/usr/bin/env python3
"""Charts of a `parprim bench --json` file, drawn with matplotlib (Debian: python3-matplotlib).

    scripts/plot_bench.py RESULTS.json OUTDIR

writes into OUTDIR:
  throughput_<primitive>.png   throughput against n for every variant measured at three or
                               more sizes, with its yardstick (CUB, cuBLAS, ...) on the same
                               axes as a dashed line of the same colour
  ladder_<primitive>_<type>_<n>.png
                               every variant measured at one size, as bars of time, with the
                               yardstick's time as a vertical line and each bar's ratio to it
  speedup.png                  the course's CPU-vs-GPU table (Table 2 of "Parallel Prefix Sum
                               (Scan) with CUDA"): sequential CPU time over ours, against n

Throughput is GB/s (bytes the primitive must move per second), or TFLOP/s where a row has
one in "extra"; the yardstick's figure is ours times ms / yardstick_ms (the same work).
"""
import argparse
import collections
import json
import pathlib
import re

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

MIN_SIZES = 3     # a throughput line needs this many sizes
MIN_VARIANTS = 3  # a ladder needs this many variants at one size
LOG_RANGE = 30    # ladder bars get a log axis when the slowest is this many times the fastest


def load(path):
    with open(path) as f:
        doc = json.load(f)
    return doc, doc["results"]


def slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")


def throughput(row):
    """(value, unit) of a row: TFLOP/s where measured, else GB/s."""
    extra = row.get("extra") or {}
    if "tflops" in extra:
        return extra["tflops"], "TFLOP/s"
    return row["gbps"], "GB/s"


def first_per_size(rows):
    """One row per n (the first: later rows at the same n are ladder repeats)."""
    by_n = {}
    for r in rows:
        by_n.setdefault(r["n"], r)
    return [by_n[n] for n in sorted(by_n)]


def plot_throughput(results, device, outdir):
    lines = collections.defaultdict(list)
    for r in results:
        lines[(r["primitive"], r["variant"], r["type"])].append(r)
    by_primitive = collections.defaultdict(list)
    for (primitive, variant, type_), rows in lines.items():
        rows = first_per_size(rows)
        if len(rows) >= MIN_SIZES and all(throughput(r)[0] > 0 for r in rows):
            by_primitive[primitive].append((variant, type_, rows))
    written = []
    for primitive, series in sorted(by_primitive.items()):
        fig, ax = plt.subplots(figsize=(7, 4.5))
        unit = None
        for i, (variant, type_, rows) in enumerate(series):
            colour = f"C{i % 10}"
            ns = [r["n"] for r in rows]
            ours = [throughput(r)[0] for r in rows]
            unit = throughput(rows[0])[1]
            ax.plot(ns, ours, "o-", color=colour, label=f"parprim {variant} ({type_})")
            yard = [(r["n"], throughput(r)[0] * r["ms"] / r["yardstick_ms"])
                    for r in rows if r.get("yardstick_ms")]
            if yard:
                ax.plot([n for n, _ in yard], [v for _, v in yard], "s--", color=colour,
                        alpha=0.7, label=f"{rows[0]['yardstick']} ({type_})")
        copy = [(r.get("extra") or {}).get("copy_gbps") for _, _, rows in series for r in rows]
        copy = [c for c in copy if c]
        if unit == "GB/s" and copy:
            ax.axhline(max(copy), color="grey", linestyle=":",
                       label=f"copy bandwidth, same run ({max(copy):.0f} GB/s)")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("n (elements, or matrix/body count)")
        ax.set_ylabel(unit)
        ax.set_title(f"{primitive}: throughput against n\n{device}", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        fig.tight_layout()
        path = outdir / f"throughput_{slug(primitive)}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def plot_ladders(results, device, outdir):
    groups = collections.defaultdict(list)
    for r in results:
        groups[(r["primitive"], r["type"], r["n"])].append(r)
    written = []
    for (primitive, type_, n), rows in groups.items():
        seen = {}
        for r in rows:
            seen.setdefault(r["variant"], r)
        if len(seen) < MIN_VARIANTS:
            continue
        rows = list(seen.values())
        yard = next((r for r in rows if r.get("yardstick_ms")), None)
        fig, ax = plt.subplots(figsize=(8, 1.2 + 0.32 * len(rows)))
        names = [r["variant"] for r in rows]
        times = [r["ms"] for r in rows]
        ax.barh(range(len(rows)), times, color="C0")
        ax.set_yticks(range(len(rows)), names, fontsize=8)
        ax.invert_yaxis()  # the ladder reads from the top
        if max(times) > LOG_RANGE * min(times):
            ax.set_xscale("log")
        label = "ms (median; shorter is faster)"
        if yard:
            name = yard["yardstick"]
            ax.axvline(yard["yardstick_ms"], color="C3", linestyle="--")
            for i, r in enumerate(rows):
                ax.text(r["ms"], i, f" {yard['yardstick_ms'] / r['ms']:.2f}x",
                        va="center", fontsize=7)
            label += (f"\ndashed: {name} ({yard['yardstick_ms']:.4g} ms); "
                      f"numbers: {name} ms / ms, above 1 = faster")
        ax.set_xlabel(label, fontsize=9)
        ax.set_title(f"{primitive} {type_}, n = {n:,}: variants\n{device}", fontsize=10)
        ax.grid(True, axis="x", which="both", alpha=0.3)
        fig.tight_layout()
        path = outdir / f"ladder_{slug(primitive)}_{slug(type_)}_{n}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def plot_speedup(results, device, outdir):
    lines = collections.defaultdict(list)
    for r in results:
        if (r.get("extra") or {}).get("seq_cpu_ms"):
            lines[(r["primitive"], r["variant"], r["type"])].append(r)
    if not lines:
        return []
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, ((primitive, variant, type_), rows) in enumerate(sorted(lines.items())):
        rows = first_per_size(rows)
        ax.plot([r["n"] for r in rows], [r["extra"]["seq_cpu_ms"] / r["ms"] for r in rows],
                "o-", color=f"C{i % 10}", label=f"{primitive} {type_} ({variant})")
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("n (elements)")
    ax.set_ylabel("speedup: sequential CPU ms / parprim ms")
    ax.set_title(f"The course's Table 2: one CPU core against parprim\n{device}", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    path = outdir / "speedup.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return [path]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="a `parprim bench --json` file")
    parser.add_argument("outdir", help="directory for the PNG files")
    args = parser.parse_args()
    doc, results = load(args.results)
    outdir = pathlib.Path(args.outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    device = doc.get("device", "")
    written = (plot_throughput(results, device, outdir) + plot_ladders(results, device, outdir)
               + plot_speedup(results, device, outdir))
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
