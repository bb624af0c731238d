"""parprim's exceptions: one base class, and one subclass per kind of failure.

Each also derives from the built-in exception a Python caller would expect, so
``except ValueError`` catches a bad argument and ``except IndexError`` an index outside its
array. Messages are the library's own: they name the function, the backend and the argument,
e.g. ``parprim.sort [cuda:0]: keys is not contiguous``.
"""

from . import _core


class Error(RuntimeError):
    """Base class of every error parprim raises."""


class InvalidArgumentError(Error, ValueError):
    """A size, option, element type, device or array layout the call cannot accept."""


class UnsupportedDtypeError(InvalidArgumentError, TypeError):
    """An element type the call is not compiled for; the message names the supported ones."""


class OutOfRangeError(Error, IndexError):
    """An index outside its array (gather, scatter) or a key outside its range (counting sort)."""


class BackendUnavailableError(Error):
    """A CUDA array was given, but this build has no CUDA backend or no device answers."""


class OutOfMemoryError(Error, MemoryError):
    """A temporary allocation failed."""


class DeviceError(Error):
    """A CUDA runtime or kernel launch error."""


class FileError(Error, OSError):
    """A file (scene, body file) could not be read or written."""


# The order of parprim::errc (include/parprim/error.hpp).
_BY_CODE = {
    0: InvalidArgumentError,
    1: OutOfRangeError,
    2: BackendUnavailableError,
    3: OutOfMemoryError,
    4: DeviceError,
    5: FileError,
}
_core._set_error_classes(_BY_CODE)
