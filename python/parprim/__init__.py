"""parprim: data-parallel primitives on NumPy, CuPy and PyTorch arrays.

NumPy arrays (and CPU tensors) run on the OpenMP CPU backend; CuPy arrays, PyTorch CUDA tensors
and anything with ``__cuda_array_interface__`` or ``__dlpack__`` run on the GPU they live on,
queued on the caller's current stream (or ``stream=``). Arrays are used in place, never copied;
outputs come back as the caller's array type, or are written into ``out=``. The kernels are
compiled ahead of time: ``build_info()`` says which backends this build has.
"""

from . import _core
from ._errors import (BackendUnavailableError, DeviceError, Error, FileError,
                      InvalidArgumentError, OutOfMemoryError, OutOfRangeError,
                      UnsupportedDtypeError)
from ._ordering import (argsort, copy_if, copy_if_into, counting_sort, counting_sort_pairs,
                        gather, merge_sort, merge_sort_pairs, partition, scatter, sort, sort_pairs,
                        split, synchronize, unstable_partition)
from ._keyed import (exclusive_scan_by_key, inclusive_scan_by_key, lower_bound, merge,
                     merge_by_key, reduce_by_key, reduce_by_key_into, run_length_encode,
                     run_length_encode_into, segmented_top_k, segmented_top_k_pairs, top_k,
                     top_k_pairs, unique, unique_by_key,
                     unique_by_key_into, unique_count, unique_count_into, unique_into,
                     upper_bound)
from ._primitives import (argmax, argmin, dot, exclusive_scan, gemm, histogram, inclusive_scan,
                          reduce, transform)
from ._segmented import (morton_encode, segmented_exclusive_scan,
                         segmented_exclusive_scan_by_flags, segmented_inclusive_scan,
                         segmented_inclusive_scan_by_flags, segmented_reduce, segmented_sort,
                         segmented_sort_pairs)
from ._raytrace import raytrace
from . import nbody

__version__ = _core.build_info()["version"]


def build_info():
    """What this build contains: version, backends ("cpu" or "cpu, cuda"), cuda_built,
    cuda_devices (how many answer now), and for CUDA builds the architectures and runtime."""
    return dict(_core.build_info())


def release_cached_memory():
    """Returns the device memory parprim keeps cached for its temporaries to the system."""
    _core.release_cached_memory()


__all__ = [
    "Error", "InvalidArgumentError", "UnsupportedDtypeError", "OutOfRangeError",
    "BackendUnavailableError", "OutOfMemoryError", "DeviceError", "FileError", "argmax", "argmin",
    "argsort",
    "build_info", "copy_if", "counting_sort", "counting_sort_pairs", "dot", "exclusive_scan",
    "gather", "gemm", "histogram", "inclusive_scan", "nbody", "partition", "raytrace", "reduce",
    "release_cached_memory", "scatter", "sort", "sort_pairs", "split", "synchronize", "transform",
    "unstable_partition", "copy_if_into",
    "exclusive_scan_by_key", "inclusive_scan_by_key", "lower_bound", "merge", "merge_by_key",
    "merge_sort", "merge_sort_pairs", "morton_encode", "reduce_by_key", "run_length_encode",
    "segmented_exclusive_scan", "segmented_exclusive_scan_by_flags", "segmented_inclusive_scan",
    "segmented_inclusive_scan_by_flags", "segmented_reduce", "segmented_sort",
    "segmented_sort_pairs", "segmented_top_k", "segmented_top_k_pairs", "top_k", "top_k_pairs",
    "unique", "unique_by_key", "unique_count",
    "upper_bound", "reduce_by_key_into", "unique_into", "unique_by_key_into", "unique_count_into",
    "run_length_encode_into",
]
