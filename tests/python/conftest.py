"""Backends for the Python tests: NumPy (CPU backend) always; PyTorch CPU tensors, CuPy arrays
and PyTorch CUDA tensors where installed (GPU cases skip without a CUDA build or a device).

Sizes lie around the kernels' tile boundaries (warps of 32, blocks of 1024, 2^k tiles);
PARPRIM_TEST_MAX_N caps them, as for the C++ tests."""

import importlib
import zlib
import os

import numpy as np
import pytest

import parprim

ALL_DTYPES = ("int32", "uint32", "int64", "uint64", "float32", "float64")
FLOAT_DTYPES = ("float32", "float64")
_SIZES = (0, 1, 2, 31, 32, 33, 255, 257, 1023, 1024, 1025, 2049, 4097, 65537)


def edge_sizes(large=False):
    """The sizes a test loops over; large=True adds one of a million (many tiles per
    block of the multi-pass kernels). The kernels' own C++ tests cover the sizes in depth."""
    limit = int(os.environ.get("PARPRIM_TEST_MAX_N", 1 << 62))
    return [n for n in _SIZES + (((1 << 20) + 17,) if large else ()) if n <= limit]


def _module(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def gpu_usable():
    return parprim.build_info()["cuda_devices"] > 0


class Backend:
    """Turns NumPy oracle data into the backend's arrays and back."""

    def __init__(self, name):
        self.name = name
        self.gpu = name in ("cupy", "torch_cuda")
        self.lib = {"numpy": np, "cupy": _module("cupy")}.get(name) or _module("torch")

    def asarray(self, a):
        a = np.array(a, order="C")  # a copy: calls that write in place leave the oracle's data alone
        if self.name == "numpy":
            return a
        if self.name == "cupy":
            return self.lib.asarray(a)
        return self.lib.from_numpy(a).to("cuda" if self.gpu else "cpu")

    def to_numpy(self, x):
        if self.name == "numpy":
            return np.asarray(x)
        if self.name == "cupy":
            return self.lib.asnumpy(x)
        return x.cpu().numpy()

    def array_type(self):
        return {"numpy": np.ndarray, "cupy": getattr(self.lib, "ndarray", None)}.get(
            self.name) or self.lib.Tensor

    def synchronize(self):
        if self.name == "cupy":
            self.lib.cuda.get_current_stream().synchronize()
        elif self.name == "torch_cuda":
            self.lib.cuda.synchronize()


def backend_skip_reason(name):
    if name == "numpy":
        return None
    lib = _module("cupy" if name == "cupy" else "torch")
    if lib is None:
        return "%s is not installed" % ("cupy" if name == "cupy" else "torch")
    if name in ("cupy", "torch_cuda") and not gpu_usable():
        return "no CUDA device (or a CPU-only build of parprim)"
    return None


BACKENDS = ("numpy", "torch_cpu", "cupy", "torch_cuda")


@pytest.fixture(params=BACKENDS)
def xp(request):
    reason = backend_skip_reason(request.param)
    if reason:
        pytest.skip(reason)
    return Backend(request.param)


@pytest.fixture(params=("cupy", "torch_cuda"))
def gpu_xp(request):
    reason = backend_skip_reason(request.param)
    if reason:
        pytest.skip(reason)
    return Backend(request.param)


def supported_by(xp, dtype):
    """PyTorch has uint32/uint64 tensors from 2.3 on, with few operations on them."""
    if xp.name.startswith("torch") and dtype in ("uint32", "uint64"):
        return getattr(xp.lib, dtype, None) is not None
    return True


def random_values(rng, dtype, n, low=None, high=None):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return rng.uniform(-100.0 if low is None else low, 100.0 if high is None else high,
                           n).astype(dt)
    lo = (0 if dt.kind == "u" else -1000) if low is None else low
    return rng.integers(lo, 1000 if high is None else high, n, dtype=dt)


@pytest.fixture
def rng(request):
    return np.random.default_rng(zlib.crc32(request.node.name.encode()))
