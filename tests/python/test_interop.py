"""Arrays in and out: output types, out=, non-contiguous and read-only inputs, element types,
devices, __cuda_array_interface__ and DLPack producers, streams, errors and build facts."""

import numpy as np
import pytest

import parprim
from conftest import gpu_usable


def test_build_info():
    info = parprim.build_info()
    assert info["backends"] in ("cpu", "cpu, cuda")
    assert info["cuda_built"] == (info["backends"] == "cpu, cuda")
    assert info["version"] == parprim.__version__
    if not info["cuda_built"]:
        assert info["cuda_devices"] == 0


def test_outputs_are_the_callers_type(xp):
    x = xp.asarray(np.arange(100, 0, -1, dtype=np.int32))
    for result in (parprim.sort(x), parprim.inclusive_scan(x), parprim.argsort(x),
                   parprim.transform(x, "negate"), parprim.copy_if(x, "<", 50)):
        assert isinstance(result, xp.array_type())
    if xp.gpu:
        assert parprim.sort(x).device == x.device
    r = parprim.reduce(x)
    assert isinstance(r, np.integer) if xp.name == "numpy" else tuple(r.shape) == ()


def test_out_is_written_and_returned(xp):
    x = xp.asarray(np.array([3, 1, 2], dtype=np.float32))
    out = xp.asarray(np.zeros(3, dtype=np.float32))
    assert parprim.sort(x, out=out) is out
    np.testing.assert_array_equal(xp.to_numpy(out), [1, 2, 3])
    np.testing.assert_array_equal(xp.to_numpy(x), [3, 1, 2])  # the input is left alone
    total = xp.asarray(np.zeros(1, dtype=np.float32))
    assert parprim.reduce(x, out=total) is total
    assert xp.to_numpy(total)[0] == 6


def test_out_of_the_wrong_type_or_size(xp):
    x = xp.asarray(np.arange(10, dtype=np.float32))
    with pytest.raises(TypeError, match="out has element type float64 but must be float32"):
        parprim.sort(x, out=xp.asarray(np.zeros(10, dtype=np.float64)))
    with pytest.raises(ValueError, match="10 elements but its output has 9"):
        parprim.sort(x, out=xp.asarray(np.zeros(9, dtype=np.float32)))
    with pytest.raises(ValueError, match=r"in.size\(\)=10 but out.size\(\)=11"):
        parprim.inclusive_scan(x, out=xp.asarray(np.zeros(11, dtype=np.float32)))


def test_non_contiguous_input_is_refused(xp):
    base = xp.asarray(np.arange(20, dtype=np.float32))
    strided = base[::2]
    with pytest.raises(ValueError, match="keys is not .*contiguous"):
        parprim.sort(strided)
    matrix = xp.asarray(np.arange(12, dtype=np.float64).reshape(3, 4))
    transposed = matrix.T if xp.name != "torch_cpu" and xp.name != "torch_cuda" else matrix.t()
    with pytest.raises(parprim.InvalidArgumentError, match="a is not .*contiguous"):
        parprim.gemm(transposed, matrix)


def test_read_only_output_is_refused():
    x = np.arange(5, dtype=np.int32)
    out = np.zeros(5, dtype=np.int32)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="out is read-only"):
        parprim.sort(x, out=out)


def test_numpy_arrays_of_every_spelling():
    """NumPy arrays are read through the buffer protocol: every spelling of a supported type
    (int64 as 'l' and 'q', read-only inputs, 0-d outputs) is taken, other types and
    byte-swapped arrays are refused by name."""
    for dtype in (np.intc, np.uintc, np.int_, np.longlong, np.ulonglong, np.uint, np.single,
                  np.double):
        x = np.arange(1, 9, dtype=dtype)
        x.flags.writeable = False
        out = np.zeros((), dtype=dtype)
        assert parprim.reduce(x, out=out) is out and out == 36
    with pytest.raises(parprim.UnsupportedDtypeError, match="float32 .byte-swapped."):
        parprim.reduce(np.arange(4, dtype=">f4"))
    for dtype in (np.int8, np.uint16, np.float16, np.bool_, np.complex64):
        with pytest.raises(parprim.UnsupportedDtypeError, match=np.dtype(dtype).name):
            parprim.reduce(np.zeros(4, dtype=dtype))


def test_unsupported_dtype_names_the_supported_ones(xp):
    x = xp.asarray(np.arange(8, dtype=np.int16))
    with pytest.raises(parprim.UnsupportedDtypeError,
                       match="int16; supported: int32, uint32, int64, uint64, float32, float64"):
        parprim.sort(x)
    with pytest.raises(TypeError, match="supported: float32, float64"):
        parprim.dot(xp.asarray(np.arange(8, dtype=np.int32)), xp.asarray(np.arange(8, dtype=np.int32)))
    with pytest.raises(TypeError, match="supported: int32, int64"):
        parprim.gather(xp.asarray(np.arange(8.0)), xp.asarray(np.arange(8, dtype=np.uint32)))


def test_bad_options():
    x = np.arange(8, dtype=np.float32)
    with pytest.raises(ValueError, match="op='prod' is not one of"):
        parprim.reduce(x, "prod")
    with pytest.raises(ValueError, match="compare='~' is not one of"):
        parprim.copy_if(x, "~", 1.0)
    with pytest.raises(ValueError, match="1-D"):
        parprim.sort(x.reshape(2, 4))
    with pytest.raises(ValueError, match="must be a NumPy, CuPy or PyTorch array"):
        parprim.sort([3, 2, 1])
    with pytest.raises(parprim.Error):
        parprim.histogram(x, 0, 0.0, 1.0)
    with pytest.raises(ValueError, match=r"init=-1 does not fit uint32 \(integers 0 to 4294967295\)"):
        parprim.exclusive_scan(np.arange(4, dtype=np.uint32), -1)
    with pytest.raises(ValueError, match=r"value=1099511627776 does not fit int32"):
        parprim.copy_if(np.arange(4, dtype=np.int32), "<", 2**40)
    with pytest.raises(ValueError, match=r"value=0.5 does not fit int64"):
        parprim.partition(np.arange(4, dtype=np.int64), "<", 0.5)


class _DLPackOnly:
    """An array that offers nothing but the DLPack protocol."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, **kwargs):
        return self._a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


def test_dlpack_producer_on_the_cpu():
    host = np.array([5, 3, 9, 1], dtype=np.int64)
    got = parprim.sort(_DLPackOnly(host))
    np.testing.assert_array_equal(got, [1, 3, 5, 9])
    assert isinstance(got, np.ndarray)


def test_torch_cpu_tensors_stay_on_the_cpu():
    torch = pytest.importorskip("torch")
    x = torch.tensor([3.0, 1.0, 2.0])
    got = parprim.sort(x)
    assert isinstance(got, torch.Tensor) and got.device.type == "cpu"
    assert got.tolist() == [1.0, 2.0, 3.0]


# ---- GPU interop (skips without cupy/torch or without a device) --------------------------------

def _need_gpu():
    if not gpu_usable():
        pytest.skip("no CUDA device (or a CPU-only build of parprim)")


def test_mixed_devices_are_refused(gpu_xp):
    x = gpu_xp.asarray(np.arange(10, dtype=np.float32))
    with pytest.raises(ValueError, match="out is on cpu but the call runs on cuda:0"):
        parprim.sort(x, out=np.zeros(10, dtype=np.float32))
    with pytest.raises(ValueError, match="indices is on cpu but the call runs on cuda:0"):
        parprim.gather(x, np.arange(10, dtype=np.int64))
    with pytest.raises(ValueError, match="y is on cuda:0 but the call runs on cpu"):
        parprim.dot(np.arange(10, dtype=np.float32), x)


def test_cuda_array_interface_producer():
    _need_gpu()
    cupy = pytest.importorskip("cupy")

    class Wrapped:
        def __init__(self, a):
            self.__cuda_array_interface__ = a.__cuda_array_interface__

    a = cupy.asarray(np.array([4, 2, 8, 6], dtype=np.uint32))
    got = parprim.sort(Wrapped(a))
    assert isinstance(got, cupy.ndarray)  # outputs for foreign producers come from CuPy
    assert cupy.asnumpy(got).tolist() == [2, 4, 6, 8]
    strided = Wrapped(cupy.arange(10, dtype=cupy.float32)[::2])
    with pytest.raises(ValueError, match="not C-contiguous"):
        parprim.sort(strided)


def test_dlpack_producer_on_the_gpu():
    _need_gpu()
    torch = pytest.importorskip("torch")
    x = torch.tensor([7, 5, 6], dtype=torch.int32, device="cuda")
    got = parprim.sort(_DLPackOnly(x))
    assert [int(v) for v in (got.tolist() if hasattr(got, "tolist") else got)] == [5, 6, 7]


def test_torch_stream_is_used():
    _need_gpu()
    torch = pytest.importorskip("torch")
    host = np.random.default_rng(3).permutation(1 << 20).astype(np.float32)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        x = torch.from_numpy(host).cuda()
        y = parprim.sort(x)             # queued on s, the current stream
        z = parprim.inclusive_scan(y)
    s.synchronize()
    np.testing.assert_array_equal(y.cpu().numpy(), np.sort(host))
    x2 = torch.from_numpy(host).cuda()
    torch.cuda.synchronize()
    y2 = parprim.sort(x2, stream=s)     # an explicit stream object
    s.synchronize()
    np.testing.assert_array_equal(y2.cpu().numpy(), np.sort(host))
    assert z.shape == y.shape


def test_cupy_stream_is_used():
    _need_gpu()
    cupy = pytest.importorskip("cupy")
    host = np.random.default_rng(4).integers(0, 1 << 30, 1 << 20).astype(np.uint32)
    s = cupy.cuda.Stream(non_blocking=True)
    with s:
        x = cupy.asarray(host)
        y = parprim.sort(x, descending=True)
        h = parprim.histogram(x, 64, 0, 1 << 30)
    s.synchronize()
    np.testing.assert_array_equal(cupy.asnumpy(y), np.sort(host)[::-1])
    np.testing.assert_array_equal(cupy.asnumpy(h), np.histogram(host, 64, (0, 1 << 30))[0])
    y2 = parprim.sort(x, stream=s.ptr)  # a raw cudaStream_t
    s.synchronize()
    np.testing.assert_array_equal(cupy.asnumpy(y2), np.sort(host))


def test_gpu_gather_error_with_check_false_is_raised_by_synchronize(gpu_xp):
    values = gpu_xp.asarray(np.arange(100, dtype=np.float32))
    bad = np.arange(100, dtype=np.int64)
    bad[42] = 100
    parprim.gather(values, gpu_xp.asarray(bad), check=False)
    with pytest.raises(IndexError, match=r"indices\[42\]"):
        parprim.synchronize(values)


def test_calls_do_not_wait_for_the_device():
    """With the stream held busy by a long kernel, sort, scan, reduce and histogram return at
    once (nothing synchronizes the device or the stream) and run after that kernel."""
    _need_gpu()
    torch = pytest.importorskip("torch")
    import time
    host = np.random.default_rng(5).random(1 << 20).astype(np.float32)
    x = torch.from_numpy(host).cuda()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())

    def calls():
        y = parprim.sort(x)
        return y, parprim.inclusive_scan(y), parprim.reduce(x), parprim.histogram(x, 16, 0.0, 1.0)

    with torch.cuda.stream(s):
        calls()  # first use of the stream: its context allocates its temporary memory
        s.synchronize()
        torch.cuda._sleep(int(2e9))  # about a second of busy waiting on s
        start = time.perf_counter()
        y, z, total, counts = calls()
        queued_s = time.perf_counter() - start
        busy = not s.query()
    assert busy, "the stream finished early: the timing below proves nothing"
    assert queued_s < 0.2, "the calls waited %.3f s for the device" % queued_s
    s.synchronize()
    np.testing.assert_array_equal(y.cpu().numpy(), np.sort(host))
    np.testing.assert_allclose(z.cpu().numpy(), np.cumsum(np.sort(host), dtype=np.float64),
                               rtol=1e-3)
    # A float32 total of 2^20 values near 0.5 is about 5e5, where one float32 step is 0.0625:
    # compare relative to the exact sum.
    exact = host.astype(np.float64).sum()
    assert abs(float(total) - exact) <= 1e-6 * exact
    np.testing.assert_array_equal(counts.cpu().numpy(), np.histogram(host, 16, (0.0, 1.0))[0])


def test_stream_objects():
    _need_gpu()
    torch = pytest.importorskip("torch")

    class CudaStreamProtocol:
        def __init__(self, handle):
            self.handle_ = handle

        def __cuda_stream__(self):
            return (0, self.handle_)

    s = torch.cuda.Stream()
    x = torch.arange(1000, 0, -1, dtype=torch.int64, device="cuda")
    torch.cuda.synchronize()
    y = parprim.sort(x, stream=CudaStreamProtocol(s.cuda_stream))
    s.synchronize()
    assert y.tolist() == list(range(1, 1001))
    with pytest.raises(ValueError, match="stream must be"):
        parprim.sort(x, stream="default")
