"""Arrays in and out: reading the caller's arrays without copying them, and making outputs.

Every array is described by its address, shape, element type, device (-1: host memory, run on
the CPU backend) and library. NumPy arrays, PyTorch tensors and CuPy arrays are read through
their own attributes (the cheapest route: no DLPack capsule per call); anything else through
``__cuda_array_interface__`` or ``__dlpack__``. An array that is not C-contiguous, is of an
unsupported element type, lives on another device or is read-only where it must be written is
refused with a message that names the function, the argument and the remedy; nothing is ever
copied behind the caller's back.

Outputs are made by the caller's library (numpy.empty, torch.empty, cupy.empty), on the input's
device, so they come back as the caller's array type and from its memory pool.
"""

import sys

import numpy as np

from . import _core
from ._errors import InvalidArgumentError, UnsupportedDtypeError

# Element types and their codes in the extension (python/src/common.hpp, dtype_code).
DTYPE_CODES = {"int32": 0, "uint32": 1, "int64": 2, "uint64": 3, "float32": 4, "float64": 5}
ALL_DTYPES = tuple(DTYPE_CODES)
FLOAT_DTYPES = ("float32", "float64")
INDEX_DTYPES = ("int32", "int64")
COUNTING_KEY_DTYPES = ("int32", "uint32")

_KDLCPU, _KDLCUDA, _KDLCUDAHOST, _KDLCUDAMANAGED = 1, 2, 3, 13


class Array:
    """One argument of a call: the caller's object and what the extension needs of it (code:
    the element type's code in the extension, -1 for a type it does not take)."""

    __slots__ = ("obj", "lib", "ptr", "shape", "size", "dtype", "code", "device", "stream", "keep")

    def __init__(self, obj, lib, ptr, shape, size, dtype, device, stream=None, keep=None):
        self.obj, self.lib, self.ptr, self.shape, self.size = obj, lib, ptr, shape, size
        self.dtype, self.code, self.device = dtype, DTYPE_CODES.get(dtype, -1), device
        self.stream, self.keep = stream, keep


def backend_name(device):
    return "cpu" if device < 0 else "cuda:%d" % device


def _refuse(fn, device, message, cls=InvalidArgumentError):
    raise cls("parprim.%s [%s]: %s" % (fn, backend_name(device), message))


def _torch_dtypes(torch):
    names = {}
    for name in ALL_DTYPES:
        dt = getattr(torch, name, None)  # torch.uint32/uint64 exist from PyTorch 2.3
        if dt is not None:
            names[dt] = name
    return names


_TORCH_DTYPES = {}


def _from_torch(obj, fn, name, torch):
    if obj.is_cuda:
        device = obj.get_device()
    elif obj.device.type == "cpu":
        device = -1
    else:
        _refuse(fn, -1, "%s is a PyTorch tensor on %s; parprim runs on CPU and CUDA tensors"
                % (name, obj.device))
    if not _TORCH_DTYPES:
        _TORCH_DTYPES.update(_torch_dtypes(torch))
    dtype = _TORCH_DTYPES.get(obj.dtype) or str(obj.dtype).replace("torch.", "")
    if not obj.is_contiguous():
        _refuse(fn, device, "%s is not contiguous (shape %s, strides %s); pass %s.contiguous() "
                "to copy it" % (name, tuple(obj.shape), obj.stride(), name))
    # torch.Size is a tuple already.
    return Array(obj, "torch", obj.data_ptr(), obj.shape, obj.numel(), dtype, device)


# NumPy dtypes of the supported types (native byte order), by value: a lookup here costs a
# hundredth of dtype.name, which NumPy computes in Python on every access.
_NUMPY_NAMES = {np.dtype(name): name for name in ALL_DTYPES}


def _numpy_dtype_name(dt):
    name = _NUMPY_NAMES.get(dt)
    if name is not None:
        return name
    return dt.name if dt.isnative else "%s (byte-swapped)" % dt.name


def _from_cupy(obj, fn, name):
    device = obj.device.id
    if not obj.flags.c_contiguous:
        _refuse(fn, device, "%s is not C-contiguous (shape %s, strides %s); pass "
                "cupy.ascontiguousarray(%s) to copy it" % (name, obj.shape, obj.strides, name))
    return Array(obj, "cupy", obj.data.ptr, obj.shape, obj.size, _numpy_dtype_name(obj.dtype),
                 device)


def _from_numpy(obj, fn, name, writable):
    ptr, code = _core.host_buffer(obj, writable)
    if code >= 0:  # the common case, without a Python-level look at flags or dtype
        return Array(obj, "numpy", ptr, obj.shape, obj.size, ALL_DTYPES[code], -1)
    if not obj.flags.c_contiguous:
        _refuse(fn, -1, "%s is not C-contiguous (shape %s, strides %s); pass "
                "numpy.ascontiguousarray(%s) to copy it" % (name, obj.shape, obj.strides, name))
    if writable and not obj.flags.writeable:
        _refuse(fn, -1, "%s is read-only but the call writes to it" % name)
    return Array(obj, "numpy", obj.__array_interface__["data"][0], obj.shape, obj.size,
                 _numpy_dtype_name(obj.dtype), -1)


def _c_strides(shape, itemsize):
    strides, step = [], itemsize
    for extent in reversed(shape):
        strides.append(step)
        step *= extent
    return tuple(reversed(strides))


def _from_cuda_array_interface(obj, cai, fn, name):
    ptr = cai["data"][0]
    shape = tuple(cai["shape"])
    dt = np.dtype(cai["typestr"])
    device = _core.pointer_device(ptr) if ptr else 0
    strides = cai.get("strides")
    if strides is not None and tuple(strides) != _c_strides(shape, dt.itemsize):
        nonunit = [s for s, e in zip(strides, shape) if e != 1]
        expected = [s for s, e in zip(_c_strides(shape, dt.itemsize), shape) if e != 1]
        if nonunit != expected:
            _refuse(fn, device, "%s is not C-contiguous (shape %s, strides %s)"
                    % (name, shape, tuple(strides)))
    size = int(np.prod(shape)) if shape else 1
    return Array(obj, "cai", ptr, shape, size, _numpy_dtype_name(dt), device,
                 stream=cai.get("stream"))


def _from_dlpack(obj, fn, name, stream):
    device_type, device_id = obj.__dlpack_device__()
    device_type = int(device_type)
    if device_type in (_KDLCPU, _KDLCUDAHOST):
        capsule, device = obj.__dlpack__(), -1
    elif device_type in (_KDLCUDA, _KDLCUDAMANAGED):
        device = int(device_id)
        # Per the DLPack protocol the producer makes our stream wait for its pending work.
        capsule = obj.__dlpack__(stream=1 if not stream else stream)
    else:
        _refuse(fn, -1, "%s lives on DLPack device type %d; parprim runs on CPU and CUDA memory"
                % (name, device_type))
    ptr, shape, dtype, contiguous, _, _, keep = _core.describe_dlpack(capsule)
    if not contiguous:
        _refuse(fn, device, "%s is not C-contiguous (shape %s)" % (name, shape))
    size = int(np.prod(shape)) if shape else 1
    return Array(obj, "dlpack", ptr, tuple(shape), size, dtype, device, keep=keep)


def adapt(obj, fn, name, stream=None, writable=False):
    """Describes `obj` (argument `name` of parprim.`fn`) without copying it."""
    if isinstance(obj, np.ndarray):
        return _from_numpy(obj, fn, name, writable)
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(obj, torch.Tensor):
        return _from_torch(obj, fn, name, torch)
    cupy = sys.modules.get("cupy")
    if cupy is not None and isinstance(obj, cupy.ndarray):
        return _from_cupy(obj, fn, name)
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        return _from_cuda_array_interface(obj, cai, fn, name)
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        return _from_dlpack(obj, fn, name, stream)
    _refuse(fn, -1, "%s must be a NumPy, CuPy or PyTorch array, or provide "
            "__cuda_array_interface__ or __dlpack__; got %s" % (name, type(obj).__name__))


def check_dtype(fn, arr, name, allowed):
    if arr.dtype not in allowed:
        _refuse(fn, arr.device, "%s has element type %s; supported: %s"
                % (name, arr.dtype, ", ".join(allowed)), UnsupportedDtypeError)


def check_same_dtype(fn, arr, name, dtype):
    if arr.dtype != dtype:
        _refuse(fn, arr.device, "%s has element type %s but must be %s" % (name, arr.dtype, dtype),
                UnsupportedDtypeError)


def check_same_device(fn, first, arrays):
    """All arrays on first's device (host memory counts as one device)."""
    for name, arr in arrays:
        if arr.device != first.device:
            _refuse(fn, first.device, "%s is on %s but the call runs on %s (the first array's "
                    "device); move it there first" % (name, backend_name(arr.device),
                                                      backend_name(first.device)))


def check_1d(fn, arr, name):
    if len(arr.shape) != 1:
        _refuse(fn, arr.device, "%s must be 1-D; it has shape %s" % (name, tuple(arr.shape)))


def _stream_handle(stream):
    """A cudaStream_t as an integer, from any of the usual stream objects."""
    if isinstance(stream, int):
        return stream
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None:
        return int(protocol()[1])
    for attribute in ("cuda_stream", "ptr", "handle"):  # torch.cuda.Stream, cupy Stream
        handle = getattr(stream, attribute, None)
        if handle is not None:
            return int(handle)
    raise InvalidArgumentError("parprim: stream must be an int (cudaStream_t), an object with "
                               "__cuda_stream__, a torch.cuda.Stream or a cupy.cuda.Stream; got %s"
                               % type(stream).__name__)


_TORCH_RAW_STREAM = []  # torch._C._cuda_getCurrentRawStream (or None), looked up once


def _torch_current_stream(torch, device):
    if not _TORCH_RAW_STREAM:
        _TORCH_RAW_STREAM.append(getattr(torch._C, "_cuda_getCurrentRawStream", None))
    raw = _TORCH_RAW_STREAM[0]
    if raw is not None:
        return raw(device)
    return torch.cuda.current_stream(device).cuda_stream


def _cupy_current_stream(cupy, device):
    if cupy.cuda.runtime.getDevice() == device:
        return cupy.cuda.get_current_stream().ptr
    with cupy.cuda.Device(device):
        return cupy.cuda.get_current_stream().ptr


def call_stream(arr, stream):
    """The stream a call on `arr` is queued on: `stream` when given, else the current stream of
    the array's library (0, the legacy default stream, for other producers); 0 on the CPU."""
    if arr.device < 0:
        return 0
    if stream is not None:
        return _stream_handle(stream)
    if arr.lib == "torch":
        raw = _TORCH_RAW_STREAM[0] if _TORCH_RAW_STREAM else None
        if raw is not None:  # the common case, without another call level
            return raw(arr.device)
        return _torch_current_stream(sys.modules["torch"], arr.device)
    if arr.lib == "cupy":
        return _cupy_current_stream(sys.modules["cupy"], arr.device)
    if arr.lib == "cai" and arr.stream is not None:
        return int(arr.stream)
    if sys.modules.get("cupy") is not None:
        return _cupy_current_stream(sys.modules["cupy"], arr.device)
    return 0


def _torch_empty(torch, like, shape, dtype):
    if not _TORCH_DTYPES:
        _TORCH_DTYPES.update(_torch_dtypes(torch))
    torch_dtype = getattr(torch, dtype, None)
    if torch_dtype not in _TORCH_DTYPES:
        raise UnsupportedDtypeError("parprim: this PyTorch has no %s tensors" % dtype)
    device = like.obj.device if like.lib == "torch" else torch.device("cuda", like.device)
    return torch.empty(shape, dtype=torch_dtype, device=device)


def _cupy_empty(cupy, like, shape, dtype):
    if cupy.cuda.runtime.getDevice() == like.device:
        return cupy.empty(shape, dtype=dtype)
    with cupy.cuda.Device(like.device):
        return cupy.empty(shape, dtype=dtype)


def empty(fn, like, shape, dtype):
    """A new array of the caller's library on like's device; returns (object, Array)."""
    lib = like.lib
    if lib == "numpy":
        obj = np.empty(shape, dtype=dtype)
    elif lib == "torch":
        obj = _torch_empty(sys.modules["torch"], like, shape, dtype)
    elif lib == "cupy":
        obj = _cupy_empty(sys.modules["cupy"], like, shape, dtype)
    elif like.device < 0:
        obj = np.empty(shape, dtype=dtype)
    elif sys.modules.get("cupy") is not None or _importable("cupy"):
        obj = _cupy_empty(sys.modules["cupy"], like, shape, dtype)
    elif sys.modules.get("torch") is not None or _importable("torch"):
        obj = _torch_empty(sys.modules["torch"], like, shape, dtype)
    else:
        _refuse(fn, like.device, "outputs for %s arrays are made with CuPy or PyTorch, and "
                "neither is installed; pass out=" % type(like.obj).__name__)
    return obj, adapt(obj, fn, "output")


def _importable(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def output(fn, like, out, name, shape, dtype, stream):
    """The output argument `out` checked (type, device, writability), or a new array."""
    if out is None:
        return empty(fn, like, shape, dtype)
    arr = adapt(out, fn, name, stream, writable=True)
    if arr.dtype != dtype:
        check_same_dtype(fn, arr, name, dtype)
    if arr.device != like.device:
        check_same_device(fn, like, [(name, arr)])
    return out, arr


def scalar_for(fn, arr, name, value, dtype=None):
    """`value` as a Python number of arr's element type (or `dtype`), refused when it does not
    fit (the extension converts it exactly, with no wrap-around)."""
    dtype = dtype or arr.dtype
    if dtype in ("float32", "float64"):
        return float(value)
    info = np.iinfo(dtype)
    integer = int(value)
    if integer != value or not info.min <= integer <= info.max:
        _refuse(fn, arr.device, "%s=%r does not fit %s (integers %d to %d)"
                % (name, value, dtype, info.min, info.max))
    return integer
