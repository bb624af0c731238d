"""transform, reduce, argmin/argmax, scans, dot, gemm and histogram against NumPy oracles, on every backend,
every element type and sizes around the tile boundaries."""

import numpy as np
import pytest

import parprim
from conftest import ALL_DTYPES, FLOAT_DTYPES, edge_sizes, random_values, supported_by


def _close(got, want, dtype, n, scale):
    if np.dtype(dtype).kind != "f":
        np.testing.assert_array_equal(got, want)
    else:  # float results are combined in another order than the oracle's
        eps = np.finfo(dtype).eps
        np.testing.assert_allclose(got, want, rtol=0, atol=4 * eps * max(n, 1) * scale + 1e-30)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("op", ["plus", "min", "max"])
def test_reduce(xp, rng, dtype, op):
    if not supported_by(xp, dtype):
        pytest.skip("no %s tensors in this PyTorch" % dtype)
    for n in edge_sizes():
        host = random_values(rng, dtype, n)
        got = parprim.reduce(xp.asarray(host), op)
        got = xp.to_numpy(got) if xp.name != "numpy" else got
        if n == 0:
            floating = host.dtype.kind == "f"
            identity = {"plus": 0, "min": np.inf if floating else np.iinfo(dtype).max,
                        "max": -np.inf if floating else np.iinfo(dtype).min}[op]
            assert got == np.array(identity, dtype=dtype), (n, got)
            continue
        want = {"plus": lambda h: h.sum(dtype=h.dtype), "min": np.min, "max": np.max}[op](host)
        _close(np.asarray(got, dtype=dtype), want, dtype, n, np.abs(host.astype(np.float64)).sum())


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_argmin_argmax(xp, rng, dtype):
    if not supported_by(xp, dtype):
        pytest.skip("no %s tensors in this PyTorch" % dtype)
    for n in [m for m in edge_sizes(large=True) if m > 0]:
        for few in (False, True):  # few distinct values: ties go to the first
            host = random_values(rng, dtype, n)
            if few:
                host = (host % 3).astype(dtype)
            if host.dtype.kind == "f" and n > 2:
                host[rng.integers(0, n)] = np.nan  # numpy's rule: the first NaN wins
            for fn, want in ((parprim.argmin, np.argmin(host)), (parprim.argmax, np.argmax(host))):
                got = fn(xp.asarray(host))
                got = xp.to_numpy(got) if xp.name != "numpy" else got
                assert int(got) == int(want), (fn.__name__, n, few, int(got), int(want))
    out = xp.asarray(np.zeros(1, dtype=np.int64))
    parprim.argmax(xp.asarray(np.array([1, 5, 5, 2], dtype=dtype)), out=out)
    assert int(xp.to_numpy(out)[0]) == 1
    with pytest.raises(parprim.InvalidArgumentError, match="in is empty"):
        parprim.argmin(xp.asarray(np.zeros(0, dtype=dtype)))


def _scan_oracle(host, op, form, init):
    ufunc = {"plus": np.add, "min": np.minimum, "max": np.maximum}[op]
    if not host.size:
        return host.copy()
    if form == "inclusive":
        return ufunc.accumulate(host, dtype=host.dtype)
    start = np.array([init], dtype=host.dtype)
    if form == "inclusive_init":
        return ufunc.accumulate(np.concatenate([start, host]), dtype=host.dtype)[1:]
    return ufunc.accumulate(np.concatenate([start, host[:-1]]), dtype=host.dtype)


def _scan(x, op, form, init):
    if form == "inclusive":
        return parprim.inclusive_scan(x, op)
    if form == "inclusive_init":
        return parprim.inclusive_scan(x, op, init=init)
    return parprim.exclusive_scan(x, init, op)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("op", ["plus", "max"])
@pytest.mark.parametrize("form", ["inclusive", "inclusive_init", "exclusive"])
def test_scan(xp, rng, dtype, op, form):
    if not supported_by(xp, dtype):
        pytest.skip("no %s tensors in this PyTorch" % dtype)
    # max from init: a value above some of the elements (0..50), so init shows in the output.
    init = 7 if op == "plus" else 20
    for n in edge_sizes(large=True):
        host = random_values(rng, dtype, n, 0, 50)
        x = xp.asarray(host)
        got = _scan(x, op, form, init)
        assert isinstance(got, xp.array_type())
        want = _scan_oracle(host, op, form, init)
        _close(xp.to_numpy(got), want, dtype, n, np.abs(host.astype(np.float64)).sum() + init)


def test_scan_in_place(xp, rng):
    host = random_values(rng, "int64", 5000)
    x = xp.asarray(host)
    assert parprim.inclusive_scan(x, out=x) is x
    np.testing.assert_array_equal(xp.to_numpy(x), np.cumsum(host))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_transform(xp, rng, dtype):
    if not supported_by(xp, dtype):
        pytest.skip("no %s tensors in this PyTorch" % dtype)
    for n in (0, 1, 33, 1025, 65537):
        a, b = random_values(rng, dtype, n), random_values(rng, dtype, n)
        x, y = xp.asarray(a), xp.asarray(b)
        with np.errstate(over="ignore"):
            unary = {"identity": a, "negate": -a, "abs": np.abs(a), "square": a * a}
            binary = {"plus": a + b, "minus": a - b, "multiply": a * b,
                      "min": np.minimum(a, b), "max": np.maximum(a, b)}
        for name, want in unary.items():
            if name in ("negate", "abs") and np.dtype(dtype).kind == "u":
                continue  # unsigned negation wraps in C++ as in NumPy, but NumPy warns
            np.testing.assert_array_equal(xp.to_numpy(parprim.transform(x, name)), want)
        for name, want in binary.items():
            np.testing.assert_array_equal(xp.to_numpy(parprim.transform(x, name, y)), want)


def test_transform_keeps_shape(xp, rng):
    host = random_values(rng, "float32", 6 * 7).reshape(6, 7)
    got = parprim.transform(xp.asarray(host), "square")
    assert tuple(got.shape) == (6, 7)
    np.testing.assert_array_equal(xp.to_numpy(got), host * host)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_dot(xp, rng, dtype):
    for n in edge_sizes():
        a, b = random_values(rng, dtype, n, -1, 1), random_values(rng, dtype, n, -1, 1)
        got = parprim.dot(xp.asarray(a), xp.asarray(b))
        got = float(xp.to_numpy(got)) if xp.name != "numpy" else float(got)
        want = float(np.dot(a.astype(np.float64), b.astype(np.float64)))
        assert abs(got - want) <= 8 * np.finfo(dtype).eps * max(n, 1) + 1e-12, (n, got, want)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("trans_a,trans_b", [(False, False), (True, False), (False, True)])
def test_gemm(xp, rng, dtype, trans_a, trans_b):
    for m, n, k in [(1, 1, 1), (17, 33, 5), (64, 64, 64), (129, 65, 31)]:
        a = random_values(rng, dtype, m * k, -1, 1).reshape((k, m) if trans_a else (m, k))
        b = random_values(rng, dtype, k * n, -1, 1).reshape((n, k) if trans_b else (k, n))
        c0 = random_values(rng, dtype, m * n, -1, 1).reshape(m, n)
        c = xp.asarray(c0)
        got = parprim.gemm(xp.asarray(a), xp.asarray(b), c, alpha=0.5, beta=2.0,
                           trans_a=trans_a, trans_b=trans_b)
        assert got is c
        want = 0.5 * ((a.T if trans_a else a).astype(np.float64) @
                      (b.T if trans_b else b).astype(np.float64)) + 2.0 * c0
        np.testing.assert_allclose(xp.to_numpy(got), want, atol=8 * np.finfo(dtype).eps * k + 1e-12)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_histogram(xp, rng, dtype):
    if not supported_by(xp, dtype):
        pytest.skip("no %s tensors in this PyTorch" % dtype)
    for bins in (1, 7, 256, 5000):
        for n in (0, 1, 1025, 65537):
            host = random_values(rng, dtype, n, 0, 1000)
            lower, upper = (10, 900)
            got = xp.to_numpy(parprim.histogram(xp.asarray(host), bins, lower, upper))
            inside = host[(host >= lower) & (host < upper)]
            if np.dtype(dtype).kind == "f":  # bin = min(bins - 1, floor((s - lower) * scale)) in T
                scale = np.asarray(bins, dtype) / (np.asarray(upper, dtype) - np.asarray(lower, dtype))
                index = np.minimum(bins - 1, np.floor((inside - np.asarray(lower, dtype)) * scale))
            else:
                index = (inside.astype(np.int64) - lower) * bins // (upper - lower)
            want = np.bincount(index.astype(np.int64), minlength=bins)
            assert got.dtype == np.uint64
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_algorithm_variants(xp, rng, dtype):
    from parprim._primitives import (DOT_ALGORITHMS, GEMM_ALGORITHMS, REDUCE_ALGORITHMS,
                                     SCAN_ALGORITHMS)
    for n in (0, 1, 1025, 65537):
        host = random_values(rng, dtype, n, 0, 50)
        x = xp.asarray(host)
        scale = np.abs(host.astype(np.float64)).sum()
        for algorithm in REDUCE_ALGORITHMS:
            got = parprim.reduce(x, algorithm=algorithm)
            got = xp.to_numpy(got) if xp.name != "numpy" else got
            _close(np.asarray(got, dtype=dtype), host.sum(dtype=host.dtype), dtype, n, scale)
        for algorithm in SCAN_ALGORITHMS:
            _close(xp.to_numpy(parprim.inclusive_scan(x, algorithm=algorithm)),
                   _scan_oracle(host, "plus", "inclusive", 0), dtype, n, scale)
            _close(xp.to_numpy(parprim.exclusive_scan(x, 3, algorithm=algorithm)),
                   _scan_oracle(host, "plus", "exclusive", 3), dtype, n, scale)
    if dtype == "float64":
        a, b = random_values(rng, dtype, 40 * 24, -1, 1), random_values(rng, dtype, 24 * 33, -1, 1)
        for algorithm in GEMM_ALGORITHMS:
            got = parprim.gemm(xp.asarray(a.reshape(40, 24)), xp.asarray(b.reshape(24, 33)),
                               algorithm=algorithm)
            np.testing.assert_allclose(xp.to_numpy(got), a.reshape(40, 24) @ b.reshape(24, 33),
                                       atol=1e-12)
        for algorithm in DOT_ALGORITHMS:
            got = parprim.dot(xp.asarray(a), xp.asarray(a), algorithm=algorithm)
            got = float(xp.to_numpy(got)) if xp.name != "numpy" else float(got)
            assert abs(got - float(a @ a)) < 1e-10
