"""Segmented reduce, scans and sorts, and Morton codes, on arrays of any supported library (see
_primitives.py for the conventions).

Segments by offsets: an int64 array of S + 1 non-decreasing positions; segment s is
x[offsets[s]:offsets[s+1]] (empty segments allowed; elements before offsets[0] or from
offsets[S] on are neither read nor written). Offsets that decrease, are negative or exceed
len(x) raise InvalidArgumentError before anything is written (on CUDA the call waits for the
device's check). Segments by head flags: a uint8 (or bool) array as long as x; a segment starts
at element 0 and wherever a flag is non-zero.
"""

from . import _core
from ._arrays import (ALL_DTYPES, FLOAT_DTYPES, check_1d, check_dtype, check_same_dtype, output,
                      scalar_for, _refuse)
from ._primitives import _OPS, _choice, _inputs

OFFSET_DTYPES = ("int64",)
FLAG_DTYPES = ("uint8", "bool")
MORTON_CODE_DTYPES = ("uint32", "uint64")


def _segment_inputs(fn, stream, x_name, x, segments_name, segments, segment_dtypes):
    (a, g), s = _inputs(fn, stream, [(x_name, x), (segments_name, segments)], ALL_DTYPES)
    check_1d(fn, a, x_name), check_1d(fn, g, segments_name)
    check_dtype(fn, g, segments_name, segment_dtypes)
    return a, g, s


def _segment_pair_inputs(fn, stream, keys, values, offsets):
    """_segment_inputs for keys with values: three 1-D arrays on one device, int64 offsets."""
    (k, v, g), s = _inputs(fn, stream, [("keys", keys), ("values", values), ("offsets", offsets)],
                           ALL_DTYPES)
    for name, arr in (("keys", k), ("values", v), ("offsets", g)):
        check_1d(fn, arr, name)
    check_dtype(fn, g, "offsets", OFFSET_DTYPES)
    return k, v, g, s


def segmented_reduce(x, offsets, init=0, op="plus", *, out=None, stream=None):
    """out[s] = init op x[offsets[s]] op ... op x[offsets[s+1]-1] (op: plus, min, max), left
    to right; an empty segment gives init. Returns out (len(offsets) - 1 elements)."""
    fn = "segmented_reduce"
    a, g, s = _segment_inputs(fn, stream, "x", x, "offsets", offsets, OFFSET_DTYPES)
    if g.size < 1:
        _refuse(fn, a.device, "offsets must hold at least one position (S + 1 for S segments)")
    code = _choice(fn, a.device, "op", op, _OPS)
    out, o = output(fn, a, out, "out", (g.size - 1,), a.dtype, stream)
    _core.segmented_reduce(a.device, s, a.code, a.ptr, a.size, g.ptr, g.size, o.ptr, o.size,
                           scalar_for(fn, a, "init", init), code)
    return out


def _segmented_scan(fn, x, segments, by_flags, init, op, out, stream):
    name, dtypes = ("flags", FLAG_DTYPES) if by_flags else ("offsets", OFFSET_DTYPES)
    a, g, s = _segment_inputs(fn, stream, "x", x, name, segments, dtypes)
    code = _choice(fn, a.device, "op", op, _OPS)
    out, o = output(fn, a, out, "out", a.shape, a.dtype, stream)
    first = 0 if init is None else scalar_for(fn, a, "init", init)
    _core.segmented_scan(a.device, s, a.code, a.ptr, a.size, g.ptr, g.size, by_flags, o.ptr,
                         o.size, init is not None, first, code)
    return out


def segmented_inclusive_scan(x, offsets, op="plus", *, out=None, stream=None):
    """out[i] = the fold (op: plus, min, max) of i's segment up to and including i. `out` may
    be x (in place); elements outside the segments are left as they are."""
    return _segmented_scan("segmented_inclusive_scan", x, offsets, False, None, op, out, stream)


def segmented_exclusive_scan(x, offsets, init=0, op="plus", *, out=None, stream=None):
    """out[i] = init op (fold of i's segment before i): every segment starts at init."""
    return _segmented_scan("segmented_exclusive_scan", x, offsets, False, init, op, out, stream)


def segmented_inclusive_scan_by_flags(x, flags, op="plus", *, out=None, stream=None):
    """segmented_inclusive_scan with segments given by head flags (uint8 or bool, len(x))."""
    return _segmented_scan("segmented_inclusive_scan_by_flags", x, flags, True, None, op, out,
                           stream)


def segmented_exclusive_scan_by_flags(x, flags, init=0, op="plus", *, out=None, stream=None):
    """segmented_exclusive_scan with segments given by head flags (uint8 or bool, len(x))."""
    return _segmented_scan("segmented_exclusive_scan_by_flags", x, flags, True, init, op, out,
                           stream)


def segmented_sort(keys, offsets, *, descending=False, out=None, stream=None):
    """Stable sort of every segment of a 1-D array, in sort()'s order (NaNs last; descending:
    the exact reverse). Returns a new array (elements outside the segments copied as they are),
    or sorts into `out` (out=keys: in place)."""
    fn = "segmented_sort"
    k, g, s = _segment_inputs(fn, stream, "keys", keys, "offsets", offsets, OFFSET_DTYPES)
    out, o = output(fn, k, out, "out", k.shape, k.dtype, stream)
    _core.segmented_sort(k.device, s, k.code, k.ptr, k.size, g.ptr, g.size, o.ptr, o.size,
                         bool(descending))
    return out


_SAME_WIDTH = {4: ("int32", "uint32", "float32"), 8: ("int64", "uint64", "float64")}


def segmented_sort_pairs(keys, values, offsets, *, descending=False, keys_out=None,
                         values_out=None, stream=None):
    """segmented_sort carrying values[i] with keys[i]. Values have the keys' width (int32,
    uint32, float32 with 4-byte keys; int64, uint64, float64 with 8-byte keys).
    Returns (keys, values)."""
    fn = "segmented_sort_pairs"
    k, v, g, s = _segment_pair_inputs(fn, stream, keys, values, offsets)
    check_dtype(fn, v, "values", _SAME_WIDTH[4 if k.dtype.endswith("32") else 8])
    keys_out, ko = output(fn, k, keys_out, "keys_out", k.shape, k.dtype, stream)
    values_out, vo = output(fn, k, values_out, "values_out", v.shape, v.dtype, stream)
    _core.segmented_sort_pairs(k.device, s, k.code, v.code, k.ptr, k.size, v.ptr, v.size, g.ptr,
                               g.size, ko.ptr, ko.size, vo.ptr, vo.size, bool(descending))
    return keys_out, values_out


def morton_encode(x, y, z, lo, hi, *, cube=False, code_dtype="uint64", out=None, stream=None):
    """Morton (Z-order) codes of the points (x[i], y[i], z[i]) (float32 or float64, equally
    long) in the box lo = (x, y, z) .. hi (finite, lo <= hi on each axis). Each coordinate is
    quantized onto 2^b cells (b = 10 for uint32 codes, 21 for uint64), clamped to the box; bit
    3k+2 of a code is bit k of the x cell, 3k+1 of y, 3k of z. cube=True uses the cube with
    corner lo and the box's largest extent as edge (cubic cells, as an octree's)."""
    fn = "morton_encode"
    (a, b, c), s = _inputs(fn, stream, [("x", x), ("y", y), ("z", z)], FLOAT_DTYPES)
    check_same_dtype(fn, b, "y", a.dtype), check_same_dtype(fn, c, "z", a.dtype)
    for name, arr in (("x", a), ("y", b), ("z", c)):
        check_1d(fn, arr, name)
    if code_dtype not in MORTON_CODE_DTYPES:
        _refuse(fn, a.device, "code_dtype=%r; supported: %s"
                % (code_dtype, ", ".join(MORTON_CODE_DTYPES)))
    lo, hi = [float(v) for v in lo], [float(v) for v in hi]
    if len(lo) != 3 or len(hi) != 3:
        _refuse(fn, a.device, "lo and hi must have 3 coordinates (x, y, z)")
    out, o = output(fn, a, out, "out", a.shape, code_dtype, stream)
    _core.morton_encode(a.device, s, a.code, o.code, a.ptr, a.size, b.ptr, b.size, c.ptr,
                        c.size, *lo, *hi, bool(cube), o.ptr, o.size)
    return out
