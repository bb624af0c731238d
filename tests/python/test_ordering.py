"""Sorts, argsort, gather/scatter, copy_if/partition/split and counting sort against NumPy
oracles, on every backend, every element type and sizes around the tile boundaries."""

import numpy as np
import pytest

import parprim
from conftest import ALL_DTYPES, edge_sizes, random_values, supported_by

_UNSIGNED = {"int32": np.uint32, "uint32": np.uint32, "float32": np.uint32,
             "int64": np.uint64, "uint64": np.uint64, "float64": np.uint64}


def sort_key(host):
    """The order-preserving unsigned image of the keys (include/parprim/sort.hpp), for keys
    without sign-bit NaNs (src/core/sort_keys.hpp)."""
    u = host.view(_UNSIGNED[host.dtype.name])
    top = u.dtype.type(1) << u.dtype.type(8 * u.dtype.itemsize - 1)
    if host.dtype.kind == "u":
        return u.copy()
    if host.dtype.kind == "i":
        return u ^ top
    # Sign-magnitude flip, then the rotation that moves sign-bit NaNs above +NaN: down by the
    # number of negative NaN patterns (mantissa all ones).
    mantissa_bits = 23 if host.dtype == np.float32 else 52
    rotation = u.dtype.type((1 << mantissa_bits) - 1)
    return np.where(u & top, ~u, u | top) - rotation


def keys_for(rng, dtype, n):
    host = random_values(rng, dtype, n)
    if host.dtype.kind == "f" and n > 8:  # the float order's special values
        host[:6] = [np.inf, -np.inf, -0.0, 0.0, np.nan, host.dtype.type(1e-40)]
        rng.shuffle(host)
    return host


def stable_order(key, descending):
    return np.argsort(~key if descending else key, kind="stable")


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
def test_sort(xp, rng, dtype, descending):
    if not supported_by(xp, dtype):
        pytest.skip("no %s tensors in this PyTorch" % dtype)
    for n in edge_sizes(large=True):
        host = keys_for(rng, dtype, n)
        got = parprim.sort(xp.asarray(host), descending=descending)
        want = host[stable_order(sort_key(host), descending)]
        np.testing.assert_array_equal(xp.to_numpy(got).view(_UNSIGNED[dtype]),
                                      want.view(_UNSIGNED[dtype]))


@pytest.mark.parametrize("dtype", ["uint32", "int64", "float32"])
def test_sort_bit_range(xp, rng, dtype):
    if not supported_by(xp, dtype):
        pytest.skip("no %s tensors in this PyTorch" % dtype)
    host = keys_for(rng, dtype, 70001)
    key = sort_key(host)
    for begin, end in [(0, 8), (4, 12), (8, 16)]:
        part = (key >> key.dtype.type(begin)) & key.dtype.type((1 << (end - begin)) - 1)
        got = parprim.sort(xp.asarray(host), begin_bit=begin, end_bit=end)
        np.testing.assert_array_equal(xp.to_numpy(got).view(key.dtype),
                                      host[np.argsort(part, kind="stable")].view(key.dtype))


def test_sort_in_place(xp, rng):
    host = random_values(rng, "float32", 100000)
    x = xp.asarray(host)
    assert parprim.sort(x, out=x) is x
    np.testing.assert_array_equal(xp.to_numpy(x), np.sort(host))


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_sort_split_1bit(xp, rng, dtype):
    for n in (0, 1, 1025, 65537):
        host = keys_for(rng, dtype, n)
        values = np.arange(n, dtype=np.int64)
        for descending in (False, True):
            order = stable_order(sort_key(host), descending)
            got = parprim.sort(xp.asarray(host), descending=descending, algorithm="split_1bit")
            np.testing.assert_array_equal(xp.to_numpy(got).view(_UNSIGNED[dtype]),
                                          host[order].view(_UNSIGNED[dtype]))
            _, perm = parprim.sort_pairs(xp.asarray(host), xp.asarray(values),
                                         descending=descending, algorithm="split_1bit")
            np.testing.assert_array_equal(xp.to_numpy(perm), order)


@pytest.mark.parametrize("key_dtype", ALL_DTYPES)
@pytest.mark.parametrize("value_dtype", ["uint32", "float64"])
def test_sort_pairs_and_argsort(xp, rng, key_dtype, value_dtype):
    if not supported_by(xp, key_dtype) or not supported_by(xp, value_dtype):
        pytest.skip("unsigned tensors missing in this PyTorch")
    for n in edge_sizes():
        host = keys_for(rng, key_dtype, n)
        values = random_values(rng, value_dtype, n)
        for descending in (False, True):
            order = stable_order(sort_key(host), descending)
            keys, vals = parprim.sort_pairs(xp.asarray(host), xp.asarray(values),
                                            descending=descending)
            np.testing.assert_array_equal(xp.to_numpy(vals), values[order])
            np.testing.assert_array_equal(xp.to_numpy(keys).view(_UNSIGNED[key_dtype]),
                                          host[order].view(_UNSIGNED[key_dtype]))
        index_dtype = "int32" if value_dtype == "uint32" else "int64"
        idx = parprim.argsort(xp.asarray(host), index_dtype=index_dtype)
        assert xp.to_numpy(idx).dtype == np.dtype(index_dtype)
        np.testing.assert_array_equal(xp.to_numpy(idx), stable_order(sort_key(host), False))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("index_dtype", ["int32", "int64"])
def test_gather_scatter(xp, rng, dtype, index_dtype):
    if not supported_by(xp, dtype):
        pytest.skip("no %s tensors in this PyTorch" % dtype)
    for n in edge_sizes():
        values = random_values(rng, dtype, n)
        m = max(n, 1)
        idx = rng.integers(0, m, n).astype(index_dtype) if n else np.zeros(0, index_dtype)
        got = parprim.gather(xp.asarray(values), xp.asarray(idx)) if n else None
        if n:
            np.testing.assert_array_equal(xp.to_numpy(got), values[idx])
        perm = rng.permutation(n).astype(index_dtype)
        out = xp.asarray(np.zeros(n, dtype))
        for algorithm in ("single_pass", "multi_pass"):
            assert parprim.scatter(xp.asarray(values), xp.asarray(perm), out,
                                   algorithm=algorithm) is out
            want = np.zeros(n, dtype)
            want[perm] = values
            np.testing.assert_array_equal(xp.to_numpy(out), want)


def test_gather_scatter_bad_index(xp, rng):
    values = xp.asarray(random_values(rng, "float32", 1000))
    bad = np.arange(1000, dtype=np.int64)
    bad[617] = 1000
    with pytest.raises(IndexError, match=r"indices\[617\]"):
        parprim.gather(values, xp.asarray(bad))
    with pytest.raises(parprim.OutOfRangeError, match=r"617"):
        parprim.scatter(values, xp.asarray(bad), xp.asarray(np.zeros(1000, np.float32)))
    bad[3] = -1
    with pytest.raises(IndexError, match=r"indices\[3\]"):
        parprim.gather(values, xp.asarray(bad))


_COMPARES = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
             "==": np.equal, "!=": np.not_equal}


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_copy_if_partition(xp, rng, dtype):
    if not supported_by(xp, dtype):
        pytest.skip("no %s tensors in this PyTorch" % dtype)
    for n in edge_sizes():
        host = random_values(rng, dtype, n, 0, 100)
        for cmp, fn in _COMPARES.items():
            selected = fn(host, 40)
            got = parprim.copy_if(xp.asarray(host), cmp, 40)
            np.testing.assert_array_equal(xp.to_numpy(got), host[selected])
            marks = np.arange(n + 1).astype(dtype)  # past the count: left as it was
            out, count = xp.asarray(marks), xp.asarray(np.full(1, -1, np.int64))
            assert parprim.copy_if_into(xp.asarray(host), cmp, 40, out, count) == (out, count)
            chosen = int(xp.to_numpy(count)[0])
            assert chosen == selected.sum()
            np.testing.assert_array_equal(xp.to_numpy(out),
                                          np.concatenate([host[selected], marks[chosen:]]))
            out, count = parprim.partition(xp.asarray(host), cmp, 40)
            assert count == selected.sum()
            np.testing.assert_array_equal(xp.to_numpy(out),
                                          np.concatenate([host[selected], host[~selected]]))
            out, count = parprim.unstable_partition(xp.asarray(host), cmp, 40)
            assert count == selected.sum()
            np.testing.assert_array_equal(xp.to_numpy(out),
                                          np.concatenate([host[selected], host[~selected][::-1]]))
        if np.dtype(dtype).kind != "f":
            odd = parprim.copy_if(xp.asarray(host), "bits_set", 1)
            np.testing.assert_array_equal(xp.to_numpy(odd), host[host % 2 == 1])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_split(xp, rng, dtype):
    if not supported_by(xp, dtype):
        pytest.skip("no %s tensors in this PyTorch" % dtype)
    for n in edge_sizes():
        host = random_values(rng, dtype, n, 0, 1000)
        out, offsets = parprim.split(xp.asarray(host), even_range=(0, 1000, 10))
        bucket = np.clip(np.floor((host.astype(np.float64) - 0) * (10 / 1000)), 0, 9).astype(int)
        order = np.argsort(bucket, kind="stable")
        np.testing.assert_array_equal(xp.to_numpy(out), host[order])
        np.testing.assert_array_equal(xp.to_numpy(offsets),
                                      np.concatenate([[0], np.cumsum(np.bincount(bucket, minlength=10))]))
        out, offsets = parprim.split(xp.asarray(host), key_bits=(2, 3))
        digit = (sort_key(host) >> sort_key(host).dtype.type(2)) & sort_key(host).dtype.type(7)
        np.testing.assert_array_equal(xp.to_numpy(out), host[np.argsort(digit, kind="stable")])
        assert xp.to_numpy(offsets)[-1] == n


@pytest.mark.parametrize("key_dtype", ["int32", "uint32"])
def test_counting_sort(xp, rng, key_dtype):
    if not supported_by(xp, key_dtype):
        pytest.skip("no %s tensors in this PyTorch" % key_dtype)
    for n in edge_sizes():
        for key_range in (1, 17, 4096):
            keys = (rng.integers(0, key_range, n) + 5).astype(key_dtype)
            values = random_values(rng, "float64", n)
            order = np.argsort(keys, kind="stable")
            got = parprim.counting_sort(xp.asarray(keys), key_range, 5)
            np.testing.assert_array_equal(xp.to_numpy(got), keys[order])
            k, v = parprim.counting_sort_pairs(xp.asarray(keys), xp.asarray(values), key_range, 5)
            np.testing.assert_array_equal(xp.to_numpy(k), keys[order])
            np.testing.assert_array_equal(xp.to_numpy(v), values[order])
    keys = np.arange(100, dtype=key_dtype)
    with pytest.raises(IndexError, match=r"\[64\]"):
        parprim.counting_sort(xp.asarray(keys), 64)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_merge_sort(xp, rng, dtype):
    if not supported_by(xp, dtype):
        pytest.skip("no %s tensors in this PyTorch" % dtype)
    for n in edge_sizes(large=xp.gpu):
        host = random_values(rng, dtype, n)  # no NaNs: merge_sort orders by <
        order = np.argsort(host, kind="stable")
        got = parprim.merge_sort(xp.asarray(host))
        np.testing.assert_array_equal(xp.to_numpy(got), host[order])
        got_keys, got_values = parprim.merge_sort_pairs(
            xp.asarray(host), xp.asarray(np.arange(n, dtype=np.int64)))
        np.testing.assert_array_equal(xp.to_numpy(got_keys), host[order])
        np.testing.assert_array_equal(xp.to_numpy(got_values), order)
    keys = xp.asarray(random_values(rng, dtype, 3000))
    assert parprim.merge_sort(keys, out=keys) is keys  # in place
    with pytest.raises(parprim.UnsupportedDtypeError, match="values"):
        parprim.merge_sort_pairs(keys, xp.asarray(np.zeros(3000, np.int32)))
    with pytest.raises(parprim.InvalidArgumentError, match="merge_sort_pairs"):
        parprim.merge_sort_pairs(keys, xp.asarray(np.zeros(2999, np.int64)))
