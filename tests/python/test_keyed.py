"""reduce/scan by key, unique, run-length encoding, merge, binary search and top-k against NumPy
oracles, on every backend, every element type and sizes around the tile boundaries."""

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


def run_keys(rng, dtype, n):
    """Keys in runs of 1 to 40 equal values (with equal keys apart, and NaN keys, which are
    runs of one each, among floats)."""
    lengths = rng.integers(1, 41, n // 2 + 1)
    labels = np.repeat(np.arange(lengths.size), lengths)[:n] % 7
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



# ---- the _into forms: the run count left in a one-element int64 array on the device ----------

_INTO_PAIRS = [(k, k) for k in ALL_DTYPES] + [(k, ALL_DTYPES[(i + 3) % 6])
                                              for i, k in enumerate(ALL_DTYPES)]


def pattern_keys(rng, dtype, n, pattern):
    """Keys in runs: "mixed" of 1 to 40 (run_keys), "ones" all of length 1, "long" of up to
    3000 (across tiles; small inputs are one run)."""
    if pattern == "mixed":
        return run_keys(rng, dtype, n)
    if pattern == "ones":  # steps of 1 or 2 modulo 7: neighbours always differ
        return (np.cumsum(rng.integers(1, 3, n)) % 7).astype(dtype)
    lengths = rng.integers(1, 3001, n // 1000 + 2)
    return (np.repeat(np.arange(lengths.size), lengths)[:n] % 7).astype(dtype)


def marked(rng, xp, dtype, m):
    """An output of m elements of random bits (NumPy copy, backend array): what a call leaves
    past the run count must still be there."""
    host = rng.integers(0, 256, m * np.dtype(dtype).itemsize, dtype=np.uint8).view(dtype)
    return host, xp.asarray(host)


def check_into_output(xp, got, host_before, want, runs):
    got = bits(xp.to_numpy(got))
    np.testing.assert_array_equal(got[:runs], bits(want))
    np.testing.assert_array_equal(got[runs:], bits(host_before)[runs:])


def fresh_count(xp):
    return xp.asarray(np.full(1, -1, np.int64))


def read_count(xp, count):
    return int(xp.to_numpy(count).reshape(-1)[0])


@pytest.mark.parametrize("key_dtype,value_dtype", _INTO_PAIRS)
def test_into_forms(xp, rng, key_dtype, value_dtype):
    need(xp, key_dtype, value_dtype)
    for n in edge_sizes():
        for pattern in ("mixed", "ones", "long"):
            keys = pattern_keys(rng, key_dtype, n, pattern)
            starts = run_starts(keys)
            runs, x, m = starts.size, xp.asarray(keys), n + n % 2  # outputs of n or n + 1

            count = fresh_count(xp)
            assert parprim.unique_count_into(x, count) is count
            assert read_count(xp, count) == runs

            before, out = marked(rng, xp, key_dtype, m)
            count = fresh_count(xp)
            got_out, got_count = parprim.unique_into(x, out, count)
            assert got_out is out and got_count is count
            assert read_count(xp, count) == runs
            check_into_output(xp, out, before, keys[starts], runs)

            before_u, unique_out = marked(rng, xp, key_dtype, m)
            before_l, lengths = marked(rng, xp, "int64", m)
            count = fresh_count(xp)
            parprim.run_length_encode_into(x, unique_out, lengths, count)
            assert read_count(xp, count) == runs
            check_into_output(xp, unique_out, before_u, keys[starts], runs)
            check_into_output(xp, lengths, before_l, np.diff(np.append(starts, n)), runs)

            values = random_values(rng, value_dtype, n)
            before_k, keys_out = marked(rng, xp, key_dtype, m)
            before_v, values_out = marked(rng, xp, value_dtype, m)
            count = fresh_count(xp)
            got = parprim.unique_by_key_into(x, xp.asarray(values), keys_out, values_out, count)
            assert got[0] is keys_out and got[1] is values_out and got[2] is count
            assert read_count(xp, count) == runs
            check_into_output(xp, keys_out, before_k, keys[starts], runs)
            check_into_output(xp, values_out, before_v, values[starts], runs)

            values = exact_values(rng, value_dtype, n)
            for op in ("plus", "min", "max"):
                before_k, keys_out = marked(rng, xp, key_dtype, m)
                before_v, values_out = marked(rng, xp, value_dtype, m)
                count = fresh_count(xp)
                parprim.reduce_by_key_into(x, xp.asarray(values), keys_out, values_out, count, op)
                want = (_OP_UFUNCS[op].reduceat(values, starts) if n else values[:0])
                assert read_count(xp, count) == runs
                check_into_output(xp, keys_out, before_k, keys[starts], runs)
                check_into_output(xp, values_out, before_v, want.astype(value_dtype), runs)


def test_into_bad_arguments(xp):
    Error, DtypeError = parprim.InvalidArgumentError, parprim.UnsupportedDtypeError
    n = 100
    x = xp.asarray(np.arange(n, dtype=np.int32) // 3)
    v = xp.asarray(np.zeros(n, np.float32))

    def zeros(m, dtype):
        return xp.asarray(np.zeros(m, dtype))

    count = xp.asarray(np.full(1, -7, np.int64))
    with pytest.raises(Error, match=r"unique_into \[(cpu|cuda:\d)\]: out has 99 elements but must "
                                    r"hold at least n=100"):
        parprim.unique_into(x, zeros(99, np.int32), count)
    with pytest.raises(Error, match="reduce_by_key_into .*values_out has 99 elements"):
        parprim.reduce_by_key_into(x, v, zeros(n, np.int32), zeros(99, np.float32), count)
    with pytest.raises(Error, match="unique_by_key_into .*keys_out has 50 elements"):
        parprim.unique_by_key_into(x, v, zeros(50, np.int32), zeros(n, np.float32), count)
    with pytest.raises(Error, match="run_length_encode_into .*lengths_out has 0 elements"):
        parprim.run_length_encode_into(x, zeros(n, np.int32), zeros(0, np.int64), count)
    with pytest.raises(DtypeError, match="unique_into .*out has element type int64 but must be "
                                         "int32"):
        parprim.unique_into(x, zeros(n, np.int64), count)
    with pytest.raises(DtypeError, match="run_length_encode_into .*lengths_out has element type "
                                         "int32 but must be int64"):
        parprim.run_length_encode_into(x, zeros(n, np.int32), zeros(n, np.int32), count)
    with pytest.raises(Error, match="unique_into .*out must be 1-D"):
        parprim.unique_into(x, xp.asarray(np.zeros((n, 2), np.int32)), count)
    with pytest.raises(DtypeError, match="unique_count_into .*x has element type int16"):
        parprim.unique_count_into(xp.asarray(np.zeros(n, np.int16)), count)
    for dtype in (np.int32, np.float64):
        with pytest.raises(DtypeError, match="unique_count_into .*count has element type"):
            parprim.unique_count_into(x, zeros(1, dtype))
    for shape in ((0,), (2,), (1, 2)):
        with pytest.raises(Error, match="unique_count_into .*count has shape .* exactly one"):
            parprim.unique_count_into(x, xp.asarray(np.zeros(shape, np.int64)))
    with pytest.raises(Error, match="unique_count_into .*count must be a NumPy"):
        parprim.unique_count_into(x, 0)
    with pytest.raises(Error, match="op="):
        parprim.reduce_by_key_into(x, v, zeros(n, np.int32), zeros(n, np.float32), count, "mul")
    with pytest.raises(Error, match="reduce_by_key_into .*values.size"):  # the library's check
        parprim.reduce_by_key_into(x, zeros(99, np.float32), zeros(n, np.int32),
                                   zeros(n, np.float32), count)
    storage = zeros(n + 1, np.int64)  # count inside lengths_out: refused by the library
    with pytest.raises(Error, match="run_length_encode_into .*overlap"):
        parprim.run_length_encode_into(x, zeros(n, np.int32), storage[:n], storage[n - 1:n])
    assert read_count(xp, count) == -7  # every refusal came before anything was written
    scalar_count = xp.asarray(np.zeros((), np.int64))  # a 0-d count is one element too
    parprim.unique_count_into(x, scalar_count)
    assert int(xp.to_numpy(scalar_count)) == 34
    if xp.name == "numpy":
        frozen = np.zeros(1, np.int64)
        frozen.flags.writeable = False
        with pytest.raises(Error, match="count is read-only"):
            parprim.unique_count_into(x, frozen)


def test_into_devices_must_match(gpu_xp):
    Error = parprim.InvalidArgumentError
    x = gpu_xp.asarray(np.arange(10, dtype=np.int32))
    count = gpu_xp.asarray(np.zeros(1, np.int64))
    with pytest.raises(Error, match=r"unique_into \[cuda:\d\]: count is on cpu but the call runs "
                                    r"on cuda:\d"):
        parprim.unique_into(x, gpu_xp.asarray(np.zeros(10, np.int32)), np.zeros(1, np.int64))
    with pytest.raises(Error, match=r"unique_into \[cuda:\d\]: out is on cpu"):
        parprim.unique_into(x, np.zeros(10, np.int32), count)
    with pytest.raises(Error, match=r"unique_count_into \[cpu\]: count is on cuda:\d"):
        parprim.unique_count_into(np.arange(10, dtype=np.int32), count)


def test_into_forms_do_not_wait_for_the_device():
    """With the stream held busy by a long kernel, the five _into calls return at once (nothing
    waits for the run count) and run after that kernel, on that stream."""
    torch = pytest.importorskip("torch")
    if backend_skip_reason("torch_cuda"):
        pytest.skip(backend_skip_reason("torch_cuda"))
    import time
    keys = run_keys(np.random.default_rng(6), "int64", 1 << 20)
    starts = run_starts(keys)
    x = torch.from_numpy(keys).cuda()
    v = torch.ones_like(x)
    outs = [torch.empty_like(x) for _ in range(2)]
    counts = [torch.full((1,), -1, dtype=torch.int64, device="cuda") for _ in range(5)]
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())

    def calls():
        parprim.reduce_by_key_into(x, v, outs[0], outs[1], counts[0])
        parprim.unique_into(x, outs[0], counts[1])
        parprim.unique_by_key_into(x, v, outs[0], outs[1], counts[2])
        parprim.unique_count_into(x, counts[3])
        parprim.run_length_encode_into(x, outs[0], outs[1], counts[4])

    with torch.cuda.stream(s):
        calls()  # first use of the stream: its context allocates its temporary memory
        s.synchronize()
        for c in counts:
            c.fill_(-1)
        torch.cuda._sleep(int(2e9))  # about a second of busy waiting on s
        start = time.perf_counter()
        calls()
        queued_s = time.perf_counter() - start
        busy = not s.query()
    assert busy, "the stream finished early: the timing below proves nothing"
    assert queued_s < 0.2, "the calls waited %.3f s for the device" % queued_s
    s.synchronize()
    assert [int(c.item()) for c in counts] == [starts.size] * 5
    np.testing.assert_array_equal(outs[0].cpu().numpy()[:starts.size], keys[starts])
    np.testing.assert_array_equal(outs[1].cpu().numpy()[:starts.size],
                                  np.diff(np.append(starts, keys.size)))
