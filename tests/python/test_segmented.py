"""Segmented reduce, scans (offsets and head flags) and sorts, and Morton codes, against NumPy
oracles on every backend, every element type and sizes around the tile boundaries."""

import numpy as np
import pytest

import parprim
from conftest import ALL_DTYPES, edge_sizes
from test_keyed import bits, exact_values, fold_runs, need
from test_ordering import keys_for, sort_key, stable_order

_OP_UFUNCS = {"plus": np.add, "min": np.minimum, "max": np.maximum}


def random_offsets(rng, n):
    """S + 1 non-decreasing offsets into n elements: empty segments, segments of one, long
    ones, and a first offset above 0 and a last below n when n allows."""
    cuts = np.sort(rng.integers(0, n + 1, n // 37 + 2))
    if n > 40:
        cuts = np.concatenate([[3, 3, 4], cuts[(cuts > 4) & (cuts < n - 2)], [n - 2, n - 2]])
    return cuts.astype(np.int64)


def segment_oracle(values, offsets, op, init):
    out = np.zeros(offsets.size - 1, values.dtype)
    for s, (b, e) in enumerate(zip(offsets[:-1], offsets[1:])):
        with np.errstate(over="ignore"):
            out[s] = _OP_UFUNCS[op].reduce(np.concatenate([[init], values[b:e]]).astype(values.dtype))
    return out


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("op", ["plus", "min", "max"])
def test_segmented_reduce(xp, rng, dtype, op):
    need(xp, dtype)
    for n in edge_sizes():
        values, offsets = exact_values(rng, dtype, n), random_offsets(rng, n)
        got = parprim.segmented_reduce(xp.asarray(values), xp.asarray(offsets), 5, op)
        np.testing.assert_array_equal(xp.to_numpy(got), segment_oracle(values, offsets, op, 5))


def head_flags_of(offsets, n):
    flags = np.zeros(n, np.uint8)
    flags[offsets[(offsets > 0) & (offsets < n)]] = 1
    return flags


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("op", ["plus", "min"])
def test_segmented_scans(xp, rng, dtype, op):
    need(xp, dtype)
    for n in edge_sizes():
        values, offsets = exact_values(rng, dtype, n), random_offsets(rng, n)
        first, last = (int(offsets[0]), int(offsets[-1])) if offsets.size else (0, 0)
        inside = values[first:last]
        starts = offsets[:-1][offsets[:-1] < last] - first
        starts = np.unique(starts) if starts.size else np.zeros(0, np.int64)
        x, off = xp.asarray(values), xp.asarray(offsets)
        got = xp.to_numpy(parprim.segmented_inclusive_scan(x, off, op))
        np.testing.assert_array_equal(got[first:last], fold_runs(inside, starts, op))
        out = xp.asarray(values)
        parprim.segmented_exclusive_scan(x, off, 2, op, out=out)
        want = values.copy()
        want[first:last] = fold_runs(inside, starts, op, 2)
        np.testing.assert_array_equal(xp.to_numpy(out), want)  # outside the segments: untouched
        # By head flags: the whole array, a segment at 0 and one at every flag.
        flags = head_flags_of(offsets, n)
        flag_starts = np.flatnonzero(flags) if n else flags.nonzero()[0]
        flag_starts = np.unique(np.concatenate([[0], flag_starts])) if n else flag_starts
        got = parprim.segmented_inclusive_scan_by_flags(x, xp.asarray(flags), op)
        np.testing.assert_array_equal(xp.to_numpy(got), fold_runs(values, flag_starts, op))
        got = parprim.segmented_exclusive_scan_by_flags(x, xp.asarray(flags.astype(bool)), 2, op)
        np.testing.assert_array_equal(xp.to_numpy(got), fold_runs(values, flag_starts, op, 2))


def segment_sort_order(keys, offsets, descending):
    order = np.arange(keys.size)
    for b, e in zip(offsets[:-1], offsets[1:]):
        order[b:e] = b + stable_order(sort_key(keys[b:e]), descending)
    return order


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
def test_segmented_sort(xp, rng, dtype, descending):
    need(xp, dtype)
    value_dtype = {"int32": "float32", "uint32": "int32", "float32": "uint32",
                   "int64": "float64", "uint64": "int64", "float64": "uint64"}[dtype]
    need(xp, value_dtype)
    for n in edge_sizes(large=xp.gpu or dtype in ("float32", "uint64")):
        keys = keys_for(rng, dtype, n)
        offsets = random_offsets(rng, n)
        if n > 70000:  # one segment past the shared-memory sorts' largest (16384 keys)
            offsets = np.array([0, 5, 40000, 40001, n - 1], np.int64)
        order = segment_sort_order(keys, offsets, descending)
        got = parprim.segmented_sort(xp.asarray(keys), xp.asarray(offsets), descending=descending)
        np.testing.assert_array_equal(bits(xp.to_numpy(got)), bits(keys[order]))
        values = np.arange(n).astype(value_dtype)
        got_keys, got_values = parprim.segmented_sort_pairs(
            xp.asarray(keys), xp.asarray(values), xp.asarray(offsets), descending=descending)
        np.testing.assert_array_equal(bits(xp.to_numpy(got_keys)), bits(keys[order]))
        np.testing.assert_array_equal(xp.to_numpy(got_values), values[order])


@pytest.mark.parametrize("coordinate_dtype", ["float32", "float64"])
@pytest.mark.parametrize("code_dtype", ["uint32", "uint64"])
def test_morton_encode(xp, rng, coordinate_dtype, code_dtype):
    need(xp, code_dtype)
    per_axis = 10 if code_dtype == "uint32" else 21
    cells = 1 << per_axis
    lo, hi = np.array([-2.0, 0.0, 1.0]), np.array([6.0, 4.0, 3.0])
    for n in edge_sizes():
        # Cell centres (no rounding question), then a few points far outside (clamped).
        q = rng.integers(0, cells, (3, n))
        pts = (lo[:, None] + (q + 0.5) * ((hi - lo) / cells)[:, None]).astype(coordinate_dtype)
        if n > 4:
            pts[:, :2] = [[-1e6, 1e6], [-1e6, 1e6], [-1e6, 1e6]]
            q[:, :2] = [[0, cells - 1], [0, cells - 1], [0, cells - 1]]
        want = np.zeros(n, np.uint64)
        for k in range(per_axis):
            for axis, shift in ((0, 2), (1, 1), (2, 0)):
                want |= ((q[axis].astype(np.uint64) >> np.uint64(k)) & np.uint64(1)) << np.uint64(3 * k + shift)
        got = parprim.morton_encode(*(xp.asarray(p) for p in pts), tuple(lo), tuple(hi),
                                    code_dtype=code_dtype)
        np.testing.assert_array_equal(xp.to_numpy(got).astype(np.uint64), want)


def test_morton_cube(xp):
    pts = [xp.asarray(np.array([0.5, 3.9], np.float64)) for _ in range(3)]
    codes = xp.to_numpy(parprim.morton_encode(*pts, (0, 0, 0), (4, 1, 1), cube=True))
    cells = [int(0.5 / 4 * (1 << 21)), (1 << 21) * 39 // 40]
    for code, cell in zip(codes, cells):
        assert int(code) == sum(((cell >> k) & 1) << (3 * k + s) for k in range(21) for s in range(3))


def test_bad_arguments(xp):
    Error = parprim.InvalidArgumentError
    x = xp.asarray(np.arange(100, dtype=np.int32))
    with pytest.raises(parprim.UnsupportedDtypeError, match="offsets"):
        parprim.segmented_reduce(x, xp.asarray(np.array([0, 10], np.int32)))
    for bad in ([0, 50, 40, 100], [-1, 10], [0, 101]):
        with pytest.raises(Error, match="segmented_reduce"):
            parprim.segmented_reduce(x, xp.asarray(np.array(bad, np.int64)))
        with pytest.raises(Error, match="segmented_sort"):
            parprim.segmented_sort(x, xp.asarray(np.array(bad, np.int64)))
    with pytest.raises(Error, match="at least one"):
        parprim.segmented_reduce(x, xp.asarray(np.zeros(0, np.int64)))
    with pytest.raises(parprim.UnsupportedDtypeError, match="flags"):
        parprim.segmented_inclusive_scan_by_flags(x, x)
    with pytest.raises(Error, match="flags"):
        parprim.segmented_inclusive_scan_by_flags(x, xp.asarray(np.zeros(99, np.uint8)))
    with pytest.raises(parprim.UnsupportedDtypeError, match="values"):
        parprim.segmented_sort_pairs(x, xp.asarray(np.zeros(100, np.float64)),
                                     xp.asarray(np.array([0, 100], np.int64)))
    f = xp.asarray(np.zeros(100, np.float32))
    with pytest.raises(Error, match="code_dtype"):
        parprim.morton_encode(f, f, f, (0, 0, 0), (1, 1, 1), code_dtype="int32")
    with pytest.raises(parprim.UnsupportedDtypeError, match="x has element type int32"):
        parprim.morton_encode(x, x, x, (0, 0, 0), (1, 1, 1))
    with pytest.raises(Error, match="morton_encode"):
        parprim.morton_encode(f, f, f, (0, 0, 0), (1, -1, 1))

