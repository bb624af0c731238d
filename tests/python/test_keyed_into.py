"""The _into forms of the runs primitives (reduce_by_key_into, unique_into, unique_by_key_into,
unique_count_into, run_length_encode_into) and of copy_if (copy_if_into, its values checked in
test_ordering.py): the count left in a one-element int64 array on the device, outputs of at
least n elements, against NumPy oracles on every backend."""

import numpy as np
import pytest

import parprim
from conftest import ALL_DTYPES, backend_skip_reason, edge_sizes, random_values
from test_keyed import _OP_UFUNCS, bits, exact_values, need, run_keys, run_labels, run_starts

_INTO_PAIRS = [(k, k) for k in ALL_DTYPES] + [(k, ALL_DTYPES[(i + 3) % 6])
                                              for i, k in enumerate(ALL_DTYPES)]


def pattern_keys(rng, dtype, n, pattern):
    """Keys in runs: "mixed" of 1 to 40 (run_keys), "ones" all of length 1, "long" of 1 to
    3000 (across tiles)."""
    if pattern == "mixed":
        return run_keys(rng, dtype, n)
    if pattern == "ones":  # steps of 1 or 2 modulo 7: neighbours always differ
        return (np.cumsum(rng.integers(1, 3, n)) % 7).astype(dtype)
    return run_labels(rng, n, 3000).astype(dtype)


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
    with pytest.raises(Error, match="copy_if_into .*out has 99 elements .*may be selected"):
        parprim.copy_if_into(x, "<", 3, zeros(99, np.int32), count)
    with pytest.raises(Error, match="copy_if_into .*compare="):
        parprim.copy_if_into(x, "<>", 3, zeros(n, np.int32), count)
    with pytest.raises(DtypeError, match="copy_if_into .*count has element type"):
        parprim.copy_if_into(x, "<", 3, zeros(n, np.int32), zeros(1, np.int32))
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
    """With the stream held busy by a long kernel, the six _into calls return at once (nothing
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
    counts = [torch.full((1,), -1, dtype=torch.int64, device="cuda") for _ in range(6)]
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())

    def calls():
        parprim.copy_if_into(x, "<", 3, outs[0], counts[5])  # outs[0] rewritten below
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
    assert [int(c.item()) for c in counts[:5]] == [starts.size] * 5
    assert int(counts[5].item()) == int((keys < 3).sum())
    np.testing.assert_array_equal(outs[0].cpu().numpy()[:starts.size], keys[starts])
    np.testing.assert_array_equal(outs[1].cpu().numpy()[:starts.size],
                                  np.diff(np.append(starts, keys.size)))
