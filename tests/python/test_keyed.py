"""reduce/scan by key, unique, run-length encoding, merge, binary search, top-k and segmented
top-k against NumPy oracles, on every backend, every element type and sizes around the tile
boundaries."""

import numpy as np
import pytest

import parprim
from conftest import ALL_DTYPES, backend_skip_reason, edge_sizes, random_values, supported_by
from test_ordering import _UNSIGNED, keys_for, sort_key, stable_order

_OP_UFUNCS = {"plus": np.add, "min": np.minimum, "max": np.maximum}


def need(xp, *dtypes):
    for dtype in dtypes:
        if not supported_by(xp, dtype):
            pytest.skip("no %s tensors in this PyTorch" % dtype)


def bits(a):
    a = np.asarray(a)
    return a.view(_UNSIGNED[a.dtype.name]) if a.dtype.name in _UNSIGNED else a


def run_labels(rng, n, longest):
    """n labels 0..6 in runs of 1 to longest equal values (equal labels also apart): run
    lengths are drawn until they cover n, so the last run is cut at n, never short of it."""
    lengths = rng.integers(1, longest + 1, n // longest + 2)
    while lengths.sum() < n:
        lengths = np.append(lengths, rng.integers(1, longest + 1, n // longest + 2))
    labels = np.repeat(np.arange(lengths.size), lengths)[:n] % 7
    assert labels.size == n
    return labels


def run_keys(rng, dtype, n):
    """Keys in runs of 1 to 40 equal values (with equal keys apart, and NaN keys, which are
    runs of one each, among floats)."""
    labels = run_labels(rng, n, 40)
    keys = labels.astype(dtype)
    if keys.dtype.kind == "f" and n > 10:
        keys[n // 3: n // 3 + 3] = np.nan
    return keys


def run_starts(keys):
    """Where the runs of consecutive keys equal under == start (NaN != NaN)."""
    if keys.size == 0:
        return np.zeros(0, np.int64)
    return np.concatenate([[0], np.flatnonzero(keys[1:] != keys[:-1]) + 1])


def exact_values(rng, dtype, n):
    """Values whose sums are exact in every type (small integers), so that float folds in any
    order agree bit for bit with the oracle."""
    return rng.integers(0 if np.dtype(dtype).kind == "u" else -50, 50, n).astype(dtype)


def fold_runs(values, starts, op, init=None):
    """The inclusive (init None) or exclusive scan of every run."""
    out = np.empty_like(values)
    bounds = np.append(starts, values.size)
    for b, e in zip(bounds[:-1], bounds[1:]):
        if e == b:
            continue
        run = values[b:e]
        if init is None:
            out[b:e] = _OP_UFUNCS[op].accumulate(run)
        else:
            with np.errstate(over="ignore"):
                out[b:e] = _OP_UFUNCS[op].accumulate(np.concatenate([[init], run[:-1]]).astype(
                    values.dtype))
    return out


@pytest.mark.parametrize("key_dtype,value_dtype", [(k, v) for k in ALL_DTYPES for v in ALL_DTYPES
                                                   if k == v or v in ("int64", "float32")])
@pytest.mark.parametrize("op", ["plus", "min", "max"])
def test_reduce_by_key(xp, rng, key_dtype, value_dtype, op):
    need(xp, key_dtype, value_dtype)
    for n in edge_sizes():
        keys, values = run_keys(rng, key_dtype, n), exact_values(rng, value_dtype, n)
        got_keys, got_values = parprim.reduce_by_key(xp.asarray(keys), xp.asarray(values), op)
        starts = run_starts(keys)
        want = (_OP_UFUNCS[op].reduceat(values, starts) if n else values[:0]).astype(value_dtype)
        np.testing.assert_array_equal(bits(xp.to_numpy(got_keys)), bits(keys[starts]))
        np.testing.assert_array_equal(xp.to_numpy(got_values), want)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("op", ["plus", "max"])
def test_scans_by_key(xp, rng, dtype, op):
    need(xp, dtype)
    for n in edge_sizes():
        keys, values = run_keys(rng, "int32", n), exact_values(rng, dtype, n)
        starts = run_starts(keys)
        got = parprim.inclusive_scan_by_key(xp.asarray(keys), xp.asarray(values), op)
        np.testing.assert_array_equal(xp.to_numpy(got), fold_runs(values, starts, op))
        got = parprim.exclusive_scan_by_key(xp.asarray(keys), xp.asarray(values), init=3, op=op)
        np.testing.assert_array_equal(xp.to_numpy(got), fold_runs(values, starts, op, 3))


def test_scan_by_key_in_place(xp, rng):
    keys, values = run_keys(rng, "int64", 5000), exact_values(rng, "float64", 5000)
    v = xp.asarray(values)
    assert parprim.inclusive_scan_by_key(xp.asarray(keys), v, out=v) is v
    np.testing.assert_array_equal(xp.to_numpy(v), fold_runs(values, run_starts(keys), "plus"))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_unique_and_run_length_encode(xp, rng, dtype):
    need(xp, dtype)
    for n in edge_sizes():
        keys = run_keys(rng, dtype, n)
        starts = run_starts(keys)
        x = xp.asarray(keys)
        np.testing.assert_array_equal(bits(xp.to_numpy(parprim.unique(x))), bits(keys[starts]))
        assert parprim.unique_count(x) == starts.size
        got_unique, got_lengths = parprim.run_length_encode(x)
        np.testing.assert_array_equal(bits(xp.to_numpy(got_unique)), bits(keys[starts]))
        np.testing.assert_array_equal(xp.to_numpy(got_lengths), np.diff(np.append(starts, n)))
        values = np.arange(n, dtype=np.int64)
        got_keys, got_values = parprim.unique_by_key(x, xp.asarray(values))
        np.testing.assert_array_equal(bits(xp.to_numpy(got_keys)), bits(keys[starts]))
        np.testing.assert_array_equal(xp.to_numpy(got_values), starts)


def sorted_keys(rng, dtype, n, descending):
    host = keys_for(rng, dtype, n)
    return host[stable_order(sort_key(host), descending)]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
def test_merge(xp, rng, dtype, descending):
    need(xp, dtype)
    sizes = edge_sizes()
    for n_a, n_b in zip(sizes, reversed(sizes)):
        a, b = sorted_keys(rng, dtype, n_a, descending), sorted_keys(rng, dtype, n_b, descending)
        both = np.concatenate([a, b])
        order = stable_order(sort_key(both), descending)
        got = parprim.merge(xp.asarray(a), xp.asarray(b), descending=descending)
        np.testing.assert_array_equal(bits(xp.to_numpy(got)), bits(both[order]))
        got_keys, got_values = parprim.merge_by_key(
            xp.asarray(a), xp.asarray(np.arange(n_a, dtype=np.int32)), xp.asarray(b),
            xp.asarray(np.arange(n_a, n_a + n_b, dtype=np.int32)), descending=descending)
        np.testing.assert_array_equal(bits(xp.to_numpy(got_keys)), bits(both[order]))
        np.testing.assert_array_equal(xp.to_numpy(got_values), order)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_lower_and_upper_bound(xp, rng, dtype):
    need(xp, dtype)
    for n in edge_sizes():
        table = sorted_keys(rng, dtype, n, False)
        queries = np.concatenate([keys_for(rng, dtype, 300), table[: min(n, 100)]])
        for fn, side in ((parprim.lower_bound, "left"), (parprim.upper_bound, "right")):
            got = fn(xp.asarray(table), xp.asarray(queries))
            want = np.searchsorted(sort_key(table), sort_key(queries), side=side)
            np.testing.assert_array_equal(xp.to_numpy(got), want)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("largest", [True, False], ids=["largest", "smallest"])
def test_top_k(xp, rng, dtype, largest):
    need(xp, dtype)
    # A million keys (many tiles of the select passes) on the GPU, and for one type on the CPU.
    for n in [n for n in edge_sizes(large=xp.gpu or dtype == "float32") if n > 0]:
        host = keys_for(rng, dtype, n)
        if n > 100:
            host[rng.integers(0, n, n // 4)] = host[0]  # ties at the k-th key
        order = stable_order(sort_key(host), largest)
        for k in sorted({1, n // 3 + 1, n}):
            got = parprim.top_k(xp.asarray(host), k, largest=largest)
            np.testing.assert_array_equal(bits(xp.to_numpy(got)), bits(host[order[:k]]))
            got = parprim.top_k(xp.asarray(host), k, largest=largest, sorted=False)
            np.testing.assert_array_equal(bits(xp.to_numpy(got)), bits(host[np.sort(order[:k])]))
            got_keys, got_index = parprim.top_k_pairs(
                xp.asarray(host), xp.asarray(np.arange(n, dtype=np.int64)), k, largest=largest)
            np.testing.assert_array_equal(xp.to_numpy(got_index), order[:k])
            np.testing.assert_array_equal(bits(xp.to_numpy(got_keys)), bits(host[order[:k]]))


def segment_offsets(rng, n):
    """Offsets into n elements from position 2 to n - 1 (elements outside the segments):
    empty segments, segments shorter and longer than k, and one long segment."""
    if n < 8:
        return np.array([0, n // 2, n // 2, n], dtype=np.int64)
    cuts = np.sort(rng.integers(2, n - 1, 6))
    cuts = np.concatenate([[2], cuts[:2], cuts[1:2], cuts[2:], [min(cuts[-1] + 3, n - 1), n - 1]])
    return cuts.astype(np.int64)


def segmented_top_k_oracle(host, offsets, k, largest, sorted):
    """Per segment, the positions of its min(k, length) chosen elements (a stable order, ties
    to the earliest), in order or in input order; -1 in the slots past a short segment."""
    want = np.full((offsets.size - 1) * k, -1, dtype=np.int64)
    for s in range(offsets.size - 1):
        first, last = offsets[s], offsets[s + 1]
        chosen = stable_order(sort_key(host[first:last]), largest)[:k]
        if not sorted:
            chosen = np.sort(chosen)
        want[s * k:s * k + chosen.size] = first + chosen
    return want


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("largest", [True, False], ids=["largest", "smallest"])
def test_segmented_top_k(xp, rng, dtype, largest):
    need(xp, dtype)
    for n in [n for n in edge_sizes(large=xp.gpu and dtype == "float32") if n > 0]:
        host = keys_for(rng, dtype, n)
        if n > 100:
            host[rng.integers(0, n, n // 4)] = host[0]  # ties
        offsets = segment_offsets(rng, n)
        for k, sorted in ((1, True), (5, False), (40, True), (40, False)):
            positions = segmented_top_k_oracle(host, offsets, k, largest, sorted)
            taken = positions >= 0
            want = np.zeros(positions.size, dtype=host.dtype)
            want[taken] = host[positions[taken]]
            got = parprim.segmented_top_k(xp.asarray(host), xp.asarray(offsets), k,
                                          largest=largest, sorted=sorted)
            np.testing.assert_array_equal(bits(xp.to_numpy(got)), bits(want))
            got_keys, got_index = parprim.segmented_top_k_pairs(
                xp.asarray(host), xp.asarray(np.arange(n, dtype=np.int64)), xp.asarray(offsets), k,
                largest=largest, sorted=sorted)
            np.testing.assert_array_equal(xp.to_numpy(got_index), np.where(taken, positions, 0))
            np.testing.assert_array_equal(bits(xp.to_numpy(got_keys)), bits(want))


def test_segmented_top_k_outputs_given(xp, rng):
    """Given outputs: the slots past a short segment keep what they held."""
    host = keys_for(rng, "int32", 50)
    offsets = np.array([0, 3, 3, 50], dtype=np.int64)
    out = xp.asarray(np.full(12, -7, np.int32))
    assert parprim.segmented_top_k(xp.asarray(host), xp.asarray(offsets), 4, out=out) is out
    got = xp.to_numpy(out)
    positions = segmented_top_k_oracle(host, offsets, 4, True, True)
    np.testing.assert_array_equal(got, np.where(positions >= 0, host[positions], -7))


def test_outputs_given(xp, rng):
    keys = run_keys(rng, "int32", 3000)
    values = exact_values(rng, "float32", 3000)
    keys_out, values_out = xp.asarray(np.zeros(3000, np.int32)), xp.asarray(np.zeros(3000, np.float32))
    got_keys, got_values = parprim.reduce_by_key(xp.asarray(keys), xp.asarray(values),
                                                 keys_out=keys_out, values_out=values_out)
    starts = run_starts(keys)
    np.testing.assert_array_equal(xp.to_numpy(keys_out)[:starts.size], keys[starts])
    assert len(got_keys) == len(got_values) == starts.size
    out = xp.asarray(np.zeros(7, np.int32))
    assert parprim.top_k(xp.asarray(keys), 7, out=out) is out


def test_bad_arguments(xp, rng):
    Error = parprim.InvalidArgumentError
    x = xp.asarray(np.arange(100, dtype=np.int32))
    for k in (0, 101, -1):
        with pytest.raises(Error, match="top_k"):
            parprim.top_k(x, k)
    offsets = xp.asarray(np.array([0, 60, 40, 100], dtype=np.int64))  # decreasing
    with pytest.raises(Error, match="segmented_top_k"):
        parprim.segmented_top_k(x, offsets, 3)
    with pytest.raises(Error, match="segmented_top_k"):
        parprim.segmented_top_k(x, xp.asarray(np.array([0, 100], dtype=np.int64)), 0)
    with pytest.raises(Error, match="segmented_top_k_pairs"):
        parprim.segmented_top_k_pairs(x, xp.asarray(np.zeros(99, np.int32)),
                                      xp.asarray(np.array([0, 100], dtype=np.int64)), 3)
    with pytest.raises(parprim.UnsupportedDtypeError, match="offsets"):
        parprim.segmented_top_k(x, xp.asarray(np.array([0, 100], dtype=np.int32)), 3)
    with pytest.raises(Error, match="reduce_by_key"):
        parprim.reduce_by_key(x, xp.asarray(np.zeros(99, np.float32)))
    with pytest.raises(Error, match="reduce_by_key"):
        parprim.reduce_by_key(x, x, keys_out=xp.asarray(np.zeros(10, np.int32)))
    with pytest.raises(Error, match="op="):
        parprim.inclusive_scan_by_key(x, x, "multiply")
    with pytest.raises(parprim.UnsupportedDtypeError, match="must be int32"):
        parprim.merge(x, xp.asarray(np.arange(5, dtype=np.int64)))
    with pytest.raises(parprim.UnsupportedDtypeError, match="queries"):
        parprim.lower_bound(x, xp.asarray(np.arange(5, dtype=np.float32)))
    with pytest.raises(Error, match="unique"):
        parprim.unique(x, out=xp.asarray(np.zeros(10, np.int32)))
    with pytest.raises(Error, match="must be 1-D"):
        parprim.unique(xp.asarray(np.zeros((4, 4), np.int32)))
    if xp.name == "numpy":  # the CPU backend finds an unsorted input before writing
        with pytest.raises(Error, match="merge"):
            parprim.merge(x[::-1].copy(), x)


def test_merge_unsorted_on_gpu(gpu_xp):
    x = gpu_xp.asarray(np.arange(5000, dtype=np.float32))
    with pytest.raises(parprim.InvalidArgumentError, match="merge"):
        parprim.merge(gpu_xp.asarray(np.arange(5000, dtype=np.float32)[::-1]), x)
