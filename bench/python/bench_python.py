#!/usr/bin/env python3
"""parprim from Python against what PyTorch, CuPy and NumPy ship, on the same arrays.

  python bench/python/bench_python.py --out bench/results/python [--quick]

GPU timings come from CUDA events recorded on the stream the work runs on (torch.cuda.Event
for parprim and PyTorch, cupy.cuda.Event for CuPy), as the median of --reps runs after
--warmup runs. Per-call overhead is host wall time per call of a long loop of back-to-back
calls (then one wait), in Python and in C++ (parprim._core.time_reduce_calls), so the
difference is what the Python layer adds. CPU timings are wall-clock medians of --reps/3 runs after one
warm-up (NumPy is single threaded; parprim's CPU backend uses every core OpenMP gives it).

Writes python-bench.json and python-bench.md into --out.
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

import parprim
from parprim import _core


def _optional(name):
    try:
        return __import__(name)
    except ImportError:
        return None


torch = _optional("torch")
cupy = _optional("cupy")


# ---- timers --------------------------------------------------------------------------------

def torch_ms(fn, warmup, reps):
    """Median ms of fn() between two torch.cuda.Events on the current stream."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def cupy_ms(fn, warmup, reps):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop))
    return statistics.median(times)


def wall_ms(fn, warmup, reps):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def per_call_us(fn, sync, calls):
    fn()
    sync()
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    sync()
    return (time.perf_counter() - t) / calls * 1e6


# ---- GPU benchmarks ------------------------------------------------------------------------

def row(results, name, dtype, n, ours_ms, yardstick, their_ms, note=""):
    results.append({"benchmark": name, "type": dtype, "n": n, "parprim_ms": ours_ms,
                    "yardstick": yardstick, "yardstick_ms": their_ms,
                    "speedup": their_ms / ours_ms if ours_ms > 0 else None, "note": note})


def bench_overhead(results, calls):
    n = 1024
    x = torch.rand(n, device="cuda")
    out = torch.empty((), device="cuda")
    stream = _core_stream()
    cpp = _core.time_reduce_calls(0, stream, x.data_ptr(), n, out.data_ptr(), calls) * 1e6
    sync = torch.cuda.synchronize
    py_out = per_call_us(lambda: parprim.reduce(x, out=out), sync, calls)
    py_new = per_call_us(lambda: parprim.reduce(x), sync, calls)
    th = per_call_us(lambda: torch.sum(x), sync, calls)
    results_overhead = {"n": n, "calls": calls, "cpp_us": cpp, "python_out_us": py_out,
                        "python_alloc_us": py_new, "torch_sum_us": th,
                        "python_above_cpp_us": py_out - cpp,
                        "python_alloc_above_cpp_us": py_new - cpp}
    if cupy is not None:
        c = cupy.asarray(x.cpu().numpy())
        cs = cupy.cuda.get_current_stream()
        results_overhead["cupy_sum_us"] = per_call_us(lambda: cupy.sum(c), cs.synchronize, calls)
        c_out = cupy.empty((), cupy.float32)
        results_overhead["python_cupy_out_us"] = per_call_us(
            lambda: parprim.reduce(c, out=c_out), cs.synchronize, calls)
    results.append({"benchmark": "per_call_overhead", **results_overhead})


def _core_stream():
    return torch._C._cuda_getCurrentRawStream(0)


def bench_sort(results, n, warmup, reps):
    for dtype in ("uint32", "float32"):
        host = (np.random.default_rng(1).integers(0, 1 << 32, n, dtype=np.uint32)
                if dtype == "uint32" else np.random.default_rng(1).random(n, dtype=np.float32))
        x = torch.from_numpy(host).cuda()
        y = torch.empty_like(x)
        ours = torch_ms(lambda: parprim.sort(x, out=y), warmup, reps)
        if dtype == "float32" or getattr(torch, "uint32", None) is not None:
            try:
                theirs = torch_ms(lambda: torch.sort(x), warmup, reps)
                row(results, "sort", dtype, n, ours, "torch.sort", theirs,
                    "torch.sort also returns the int64 permutation")
            except RuntimeError as e:  # uint32 sorting may be missing in this PyTorch
                row(results, "sort", dtype, n, ours, "torch.sort", float("nan"), str(e)[:80])
            xi = x.view(torch.int32) if dtype == "uint32" else x
            theirs = torch_ms(lambda: torch.sort(xi, stable=True), warmup, reps)
            row(results, "argsort-like sort_pairs", dtype, n,
                torch_ms(lambda: parprim.argsort(x), warmup, reps), "torch.sort(stable)", theirs,
                "keys and int64 indices both ways" + (" (torch on the int32 view)" if dtype == "uint32" else ""))
        if cupy is not None:
            c = cupy.asarray(host)
            cout = cupy.empty_like(c)
            ours_c = cupy_ms(lambda: parprim.sort(c, out=cout), warmup, reps)
            row(results, "sort", dtype, n, ours_c, "cupy.sort", cupy_ms(lambda: cupy.sort(c), warmup, reps))


def bench_scan(results, n, warmup, reps):
    for dtype in ("int32", "float32"):
        host = (np.random.default_rng(2).integers(0, 4, n, dtype=np.int32) if dtype == "int32"
                else np.random.default_rng(2).random(n, dtype=np.float32))
        x = torch.from_numpy(host).cuda()
        y = torch.empty_like(x)
        inc = torch_ms(lambda: parprim.inclusive_scan(x, out=y), warmup, reps)
        exc = torch_ms(lambda: parprim.exclusive_scan(x, out=y), warmup, reps)
        theirs = torch_ms(lambda: torch.cumsum(x, 0, dtype=x.dtype, out=y), warmup, reps)
        row(results, "inclusive_scan", dtype, n, inc, "torch.cumsum", theirs)
        row(results, "exclusive_scan", dtype, n, exc, "torch.cumsum", theirs)
        if cupy is not None:
            c = cupy.asarray(host)
            cout = cupy.empty_like(c)
            inc_c = cupy_ms(lambda: parprim.inclusive_scan(c, out=cout), warmup, reps)
            theirs_c = cupy_ms(lambda: cupy.cumsum(c, dtype=c.dtype, out=cout), warmup, reps)
            row(results, "inclusive_scan", dtype, n, inc_c, "cupy.cumsum", theirs_c)


def bench_argmin_argmax(results, n, warmup, reps):
    host = np.random.default_rng(5).random(n, dtype=np.float32)
    x = torch.from_numpy(host).cuda()
    idx = torch.empty((), dtype=torch.int64, device="cuda")
    for name, ours, theirs in (("argmin", parprim.argmin, torch.argmin),
                               ("argmax", parprim.argmax, torch.argmax)):
        row(results, name, "float32", n, torch_ms(lambda: ours(x, out=idx), warmup, reps),
            "torch." + name, torch_ms(lambda: theirs(x), warmup, reps), "int64 index")
        if cupy is not None:
            c = cupy.asarray(host)
            cidx = cupy.empty((), dtype=cupy.int64)
            row(results, name, "float32", n, cupy_ms(lambda: ours(c, out=cidx), warmup, reps),
                "cupy." + name, cupy_ms(lambda: getattr(cupy, name)(c), warmup, reps), "int64 index")


def bench_histogram(results, n, warmup, reps):
    host = np.random.default_rng(3).random(n, dtype=np.float32)
    x = torch.from_numpy(host).cuda()
    for bins in (256, 4096):
        counts = torch.empty(bins, dtype=torch.uint64, device="cuda")
        ours = torch_ms(lambda: parprim.histogram(x, bins, 0.0, 1.0, out=counts), warmup, reps)
        theirs = torch_ms(lambda: torch.histc(x, bins, 0.0, 1.0), warmup, reps)
        row(results, "histogram", "float32", n, ours, "torch.histc", theirs, "%d bins" % bins)
        if cupy is not None:
            c = cupy.asarray(host)
            ours_c = cupy_ms(lambda: parprim.histogram(c, bins, 0.0, 1.0), warmup, reps)
            theirs_c = cupy_ms(lambda: cupy.histogram(c, bins, (0.0, 1.0)), warmup, reps)
            row(results, "histogram", "float32", n, ours_c, "cupy.histogram", theirs_c,
                "%d bins" % bins)


def bench_top_k(results, n, warmup, reps):
    x = torch.from_numpy(np.random.default_rng(5).random(n, dtype=np.float32)).cuda()
    index = torch.arange(n, dtype=torch.int64, device="cuda")  # made once, outside the timing
    for k in (16, 1024, n >> 10):
        keys = torch.empty(k, dtype=torch.float32, device="cuda")
        ordered = torch.empty(k, dtype=torch.int64, device="cuda")
        theirs = torch_ms(lambda: torch.topk(x, k), warmup, reps)
        row(results, "top_k", "float32", n, torch_ms(lambda: parprim.top_k(x, k, out=keys),
                                                     warmup, reps),
            "torch.topk", theirs, "k=%d; keys only (torch also returns int64 indices)" % k)
        ours = torch_ms(lambda: parprim.top_k_pairs(x, index, k, keys_out=keys, values_out=ordered),
                        warmup, reps)
        row(results, "top_k_pairs", "float32", n, ours, "torch.topk", theirs,
            "k=%d; keys and int64 indices both ways" % k)
    # Segments of 4096 against torch.topk along the rows of the same keys viewed as a matrix.
    length, k = 4096, 32
    offsets = torch.arange(0, n + 1, length, dtype=torch.int64, device="cuda")
    rows = x.view(-1, length)
    keys = torch.empty(n // length * k, dtype=torch.float32, device="cuda")
    row(results, "segmented_top_k", "float32", n,
        torch_ms(lambda: parprim.segmented_top_k(x, offsets, k, out=keys), warmup, reps),
        "torch.topk(dim=1)", torch_ms(lambda: torch.topk(rows, k, dim=1), warmup, reps),
        "segments of %d, k=%d; keys only" % (length, k))


def bench_unique(results, n, warmup, reps):
    host = np.random.default_rng(6).integers(0, 1 << 20, n, dtype=np.int64).astype(np.int32)
    x = torch.from_numpy(host).cuda()
    ordered, distinct = torch.empty_like(x), torch.empty_like(x)
    ours = torch_ms(lambda: parprim.unique(parprim.sort(x, out=ordered), out=distinct), warmup, reps)
    row(results, "sort + unique", "int32", n, ours, "torch.unique(sorted=True)",
        torch_ms(lambda: torch.unique(x, sorted=True), warmup, reps), "2^20 distinct values")
    presorted = torch.sort(x).values
    row(results, "unique (sorted input)", "int32", n,
        torch_ms(lambda: parprim.unique(presorted, out=distinct), warmup, reps),
        "torch.unique_consecutive", torch_ms(lambda: torch.unique_consecutive(presorted),
                                             warmup, reps))
    if cupy is not None:
        c = cupy.asarray(host)
        c_ordered, c_distinct = cupy.empty_like(c), cupy.empty_like(c)
        ours_c = cupy_ms(lambda: parprim.unique(parprim.sort(c, out=c_ordered), out=c_distinct),
                         warmup, reps)
        row(results, "sort + unique", "int32", n, ours_c, "cupy.unique",
            cupy_ms(lambda: cupy.unique(c), warmup, reps), "2^20 distinct values")


# ---- CPU benchmarks ------------------------------------------------------------------------

def bench_cpu(results, n, warmup, reps):
    rng = np.random.default_rng(4)
    u = rng.integers(0, 1 << 32, n, dtype=np.uint32)
    f = rng.random(n, dtype=np.float32)
    out_u, out_f = np.empty_like(u), np.empty_like(f)
    few = u % (1 << 20)  # many repeats, for unique
    few_sorted, few_unique = np.empty_like(few), np.empty_like(few)
    offsets = np.arange(0, n + 1, 4096, dtype=np.int64)  # n: a multiple of 4096
    rows, segment_keys = f.reshape(-1, 4096), np.empty(n // 4096 * 32, np.float32)
    cases = [
        ("sort", "uint32", lambda: parprim.sort(u, out=out_u), "np.sort", lambda: np.sort(u)),
        ("sort", "float32", lambda: parprim.sort(f, out=out_f), "np.sort", lambda: np.sort(f)),
        ("inclusive_scan", "float32", lambda: parprim.inclusive_scan(f, out=out_f), "np.cumsum",
         lambda: np.cumsum(f, out=out_f)),
        ("inclusive_scan", "uint32", lambda: parprim.inclusive_scan(u, out=out_u), "np.cumsum",
         lambda: np.cumsum(u, out=out_u)),
        ("histogram", "float32", lambda: parprim.histogram(f, 256, 0.0, 1.0), "np.histogram",
         lambda: np.histogram(f, 256, (0.0, 1.0))),
        ("reduce", "float32", lambda: parprim.reduce(f), "np.sum", lambda: np.sum(f)),
        ("argmax", "float32", lambda: parprim.argmax(f), "np.argmax", lambda: np.argmax(f)),
        ("sort + unique", "uint32",
         lambda: parprim.unique(parprim.sort(few, out=few_sorted), out=few_unique), "np.unique",
         lambda: np.unique(few)),
        ("top_k k=1024", "float32", lambda: parprim.top_k(f, 1024), "np.partition+np.sort",
         lambda: np.sort(np.partition(f, n - 1024)[n - 1024:])[::-1]),
        ("segmented_top_k k=32, segments of 4096", "float32",
         lambda: parprim.segmented_top_k(f, offsets, 32, out=segment_keys),
         "np.partition+np.sort by row",
         lambda: np.sort(np.partition(rows, 4096 - 32, axis=1)[:, 4096 - 32:], axis=1)[:, ::-1]),
    ]
    for name, dtype, ours, yardstick, theirs in cases:
        row(results, "cpu " + name, dtype, n, wall_ms(ours, warmup, reps), yardstick,
            wall_ms(theirs, warmup, reps), "wall clock, %d threads" % parprim.build_info()["cpu_threads"])


def bench_cpu_overhead(results, calls):
    """What the Python layer adds to a call on NumPy arrays: reduce(out=) of 1,024 float32 from
    Python and the same reduce_into loop from C++, on the same context."""
    x = np.random.default_rng(7).random(1024, dtype=np.float32)
    out = np.empty((), np.float32)
    cpp = _core.time_reduce_calls(-1, 0, x.ctypes.data, x.size, out.ctypes.data, calls) * 1e6
    py = per_call_us(lambda: parprim.reduce(x, out=out), lambda: None, calls)
    results.append({"benchmark": "cpu_per_call_overhead", "n": x.size, "calls": calls,
                    "cpp_us": cpp, "python_out_us": py, "python_above_cpp_us": py - cpp})


# ---- report --------------------------------------------------------------------------------

def markdown(report):
    lines = ["# parprim from Python vs PyTorch, CuPy and NumPy", "",
             "%s; %s; %s" % (report["device"], report["versions"], report["date"]), "",
             "Command: `%s`" % report["command"], ""]
    overhead = [r for r in report["results"] if r["benchmark"] == "per_call_overhead"]
    for o in overhead:
        lines += ["## Per-call overhead: reduce of %d float32 (us per call, %d calls)" % (o["n"], o["calls"]), "",
                  "| C++ reduce_into | parprim.reduce(out=) | parprim.reduce | torch.sum | cupy.sum |",
                  "|---:|---:|---:|---:|---:|",
                  "| %.2f | %.2f | %.2f | %.2f | %s |" % (
                      o["cpp_us"], o["python_out_us"], o["python_alloc_us"], o["torch_sum_us"],
                      "%.2f" % o["cupy_sum_us"] if "cupy_sum_us" in o else "-"), "",
                  "Python above C++: %.2f us with out=, %.2f us allocating the result (PyTorch "
                  "tensors)%s." % (o["python_above_cpp_us"], o["python_alloc_above_cpp_us"],
                                   "; %.2f us with out= on CuPy arrays" % (o["python_cupy_out_us"] - o["cpp_us"])
                                   if "python_cupy_out_us" in o else ""), ""]
    for o in (r for r in report["results"] if r["benchmark"] == "cpu_per_call_overhead"):
        lines += ["CPU backend, NumPy arrays: C++ reduce_into %.2f us, parprim.reduce(out=) %.2f us "
                  "per call of %d float32: %.2f us above C++." % (
                      o["cpp_us"], o["python_out_us"], o["n"], o["python_above_cpp_us"]), ""]
    lines += ["## Throughput", "", "| benchmark | type | n | parprim ms | yardstick | yardstick ms | speedup | note |",
              "|---|---|---:|---:|---|---:|---:|---|"]
    for r in report["results"]:
        if r["benchmark"] in ("per_call_overhead", "cpu_per_call_overhead"):
            continue
        lines.append("| %s | %s | 2^%d | %.3f | %s | %.3f | %s | %s |" % (
            r["benchmark"], r["type"], int(np.log2(r["n"])), r["parprim_ms"], r["yardstick"],
            r["yardstick_ms"], "%.2fx" % r["speedup"] if r["speedup"] else "-", r["note"]))
    lines += ["", "speedup = yardstick ms / parprim ms (above 1: parprim is faster).", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="directory for python-bench.json and .md")
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke test)")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--skip-cpu", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    q = args.quick
    info = parprim.build_info()
    gpu = info["cuda_devices"] > 0 and torch is not None and torch.cuda.is_available()
    results = []
    if gpu:
        bench_overhead(results, 2000 if q else 20000)
        bench_sort(results, 1 << (20 if q else 27), args.warmup, args.reps)
        bench_scan(results, 1 << (20 if q else 28), args.warmup, args.reps)
        bench_histogram(results, 1 << (20 if q else 28), args.warmup, args.reps)
        bench_argmin_argmax(results, 1 << (20 if q else 28), args.warmup, args.reps)
        bench_top_k(results, 1 << (20 if q else 27), args.warmup, args.reps)
        bench_unique(results, 1 << (20 if q else 26), args.warmup, args.reps)
    if not args.skip_cpu:  # NumPy's sorts take seconds at 2^25: fewer repetitions there
        bench_cpu_overhead(results, 2000 if q else 20000)
        bench_cpu(results, 1 << (16 if q else 25), 1, max(3, args.reps // 3))
    versions = "parprim %s (%s), numpy %s, torch %s, cupy %s, Python %s" % (
        info["version"], info["backends"], np.__version__,
        torch.__version__ if torch else "-", cupy.__version__ if cupy else "-",
        platform.python_version())
    device = torch.cuda.get_device_name(0) if gpu else platform.processor() or "cpu"
    report = {"device": device, "versions": versions,
              "date": datetime.datetime.now().isoformat(timespec="seconds"),
              "command": " ".join([os.path.basename(sys.executable)] + sys.argv),
              "build_info": info, "results": results}
    with open(os.path.join(args.out, "python-bench.json"), "w") as f:
        json.dump(report, f, indent=1)
    text = markdown(report)
    with open(os.path.join(args.out, "python-bench.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
