"""Sorting and moving elements: radix sorts, argsort, gather/scatter, copy_if/partition/split
and counting sort, on arrays of any supported library (see _primitives.py for conventions)."""

from . import _core
from ._arrays import (ALL_DTYPES, COUNTING_KEY_DTYPES, INDEX_DTYPES, adapt, call_stream,
                      check_1d, check_dtype, output, scalar_for, _refuse)
from ._keyed import _count_output, _into_output
from ._primitives import _COMPARE, _choice, _input, _inputs


SORT_ALGORITHMS = {"split_1bit": 0, "onesweep": 1}


def _bits(end_bit):
    return -1 if end_bit is None else int(end_bit)


def sort(keys, *, descending=False, begin_bit=0, end_bit=None, algorithm="onesweep", out=None,
         stream=None):
    """Stable LSD radix sort of a 1-D array (every element type).

    Floats sort as -inf < ... < -0.0 < +0.0 < ... < +inf < NaN; descending is the exact reverse
    (NaNs first). Only bits [begin_bit, end_bit) of the order-preserving key image take part
    (end_bit=None: all). Returns a new sorted array, or sorts into `out` (out=keys sorts in
    place, with no copy). algorithm: "onesweep" (the default) or "split_1bit" (the course's
    one-bit split per pass)."""
    fn = "sort"
    k, s = _input(fn, stream, "keys", keys, ALL_DTYPES)
    check_1d(fn, k, "keys")
    out, o = output(fn, k, out, "out", k.shape, k.dtype, stream)
    alg = _choice(fn, k.device, "algorithm", algorithm, SORT_ALGORITHMS)
    _core.sort(k.device, s, k.code, k.ptr, k.size, o.ptr, o.size, bool(descending),
               int(begin_bit), _bits(end_bit), alg)
    return out


def sort_pairs(keys, values, *, descending=False, begin_bit=0, end_bit=None,
               algorithm="onesweep", keys_out=None, values_out=None, stream=None):
    """Sorts keys as sort() does, carrying values[i] with keys[i] (any element types).
    Returns (sorted keys, values in the same order); keys_out=keys, values_out=values sort in
    place."""
    fn = "sort_pairs"
    (k, v), s = _inputs(fn, stream, [("keys", keys), ("values", values)], ALL_DTYPES)
    check_dtype(fn, v, "values", ALL_DTYPES)
    check_1d(fn, k, "keys"), check_1d(fn, v, "values")
    keys_out, ko = output(fn, k, keys_out, "keys_out", k.shape, k.dtype, stream)
    values_out, vo = output(fn, k, values_out, "values_out", v.shape, v.dtype, stream)
    _core.sort_pairs(k.device, s, k.code, v.code, k.ptr, k.size, v.ptr, v.size, ko.ptr, ko.size,
                     vo.ptr, vo.size, bool(descending), int(begin_bit), _bits(end_bit),
                     _choice(fn, k.device, "algorithm", algorithm, SORT_ALGORITHMS))
    return keys_out, values_out


def argsort(keys, *, descending=False, begin_bit=0, end_bit=None, index_dtype="int64", out=None,
            stream=None):
    """The stable order of a 1-D array: keys[result] is sorted (as sort() orders it); equal keys
    keep their input order. Indices are int64 (or int32); keys are left as they are."""
    fn = "argsort"
    k, s = _input(fn, stream, "keys", keys, ALL_DTYPES)
    check_1d(fn, k, "keys")
    if index_dtype not in INDEX_DTYPES:
        _refuse(fn, k.device, "index_dtype=%r; supported: %s" % (index_dtype, ", ".join(INDEX_DTYPES)))
    out, o = output(fn, k, out, "out", k.shape, index_dtype, stream)
    _core.argsort(k.device, s, k.code, o.code, k.ptr, k.size, o.ptr, o.size, bool(descending),
                  int(begin_bit), _bits(end_bit))
    return out


def merge_sort(keys, *, out=None, stream=None):
    """Stable comparison sort (merge sort, ascending by <) of a 1-D array of any element type.
    NaN keys have no place in < and end up in an unspecified order: use sort() for floats with
    NaNs. Returns a new sorted array, or sorts into `out` (out=keys: in place)."""
    fn = "merge_sort"
    k, s = _input(fn, stream, "keys", keys, ALL_DTYPES)
    check_1d(fn, k, "keys")
    out, o = output(fn, k, out, "out", k.shape, k.dtype, stream)
    _core.merge_sort(k.device, s, k.code, k.ptr, k.size, o.ptr, o.size)
    return out


def merge_sort_pairs(keys, values, *, keys_out=None, values_out=None, stream=None):
    """merge_sort carrying int64 values (say, the positions arange(n)) with their keys.
    Returns (sorted keys, values in the same order)."""
    fn = "merge_sort_pairs"
    (k, v), s = _inputs(fn, stream, [("keys", keys), ("values", values)], ALL_DTYPES)
    check_dtype(fn, v, "values", ("int64",))
    check_1d(fn, k, "keys"), check_1d(fn, v, "values")
    keys_out, ko = output(fn, k, keys_out, "keys_out", k.shape, k.dtype, stream)
    values_out, vo = output(fn, k, values_out, "values_out", v.shape, v.dtype, stream)
    _core.merge_sort_pairs(k.device, s, k.code, k.ptr, k.size, v.ptr, v.size, ko.ptr, ko.size,
                           vo.ptr, vo.size)
    return keys_out, values_out


def gather(values, indices, *, out=None, check=True, stream=None):
    """out[i] = values[indices[i]] (1-D values, int32 or int64 indices of any shape; out has
    the indices' size). An index outside [0, len(values)) raises OutOfRangeError (an
    IndexError) naming the first bad position; on CUDA check=True waits for the stream to
    report it, check=False leaves it to parprim.synchronize()."""
    fn = "gather"
    (v, i), s = _inputs(fn, stream, [("values", values), ("indices", indices)], ALL_DTYPES)
    check_1d(fn, v, "values")
    check_dtype(fn, i, "indices", INDEX_DTYPES)
    out, o = output(fn, v, out, "out", (i.size,), v.dtype, stream)
    _core.gather(v.device, s, v.code, i.code, v.ptr, v.size, i.ptr, i.size, o.ptr, o.size,
                 bool(check))
    return out


def scatter(values, indices, out, *, algorithm="single_pass", passes=0, check=True, stream=None):
    """out[indices[i]] = values[i] for every i (out is given and written in place; which of
    colliding values lands is unspecified). algorithm="multi_pass" writes cache-sized slices of
    out one pass at a time (passes=0: the cost model picks). Bad indices as for gather."""
    fn = "scatter"
    (v, i), s = _inputs(fn, stream, [("values", values), ("indices", indices)], ALL_DTYPES)
    check_dtype(fn, i, "indices", INDEX_DTYPES)
    if out is None:
        _refuse(fn, v.device, "out is required: scatter writes into a given array")
    out, o = output(fn, v, out, "out", None, v.dtype, stream)
    multi = _choice(fn, v.device, "algorithm", algorithm, {"single_pass": 0, "multi_pass": 1})
    _core.scatter(v.device, s, v.code, i.code, v.ptr, v.size, i.ptr, i.size, o.ptr, o.size,
                  bool(multi), int(passes), bool(check))
    return out


def copy_if(x, compare, value, *, out=None, stream=None):
    """The elements e of a 1-D array with `e <compare> value`, in input order (stream
    compaction). compare: less/<, less_equal/<=, greater/>, greater_equal/>=, equal/==,
    not_equal/!=, bits_set/& ((bits of e & bits of value) != 0). Floats compare as IEEE (NaN is
    only not_equal). Returns a view of the first `count` elements of out (out, when given,
    needs at least len(x) elements). Waits for the device, since the count sizes the result."""
    fn = "copy_if"
    a, s = _input(fn, stream, "x", x, ALL_DTYPES)
    check_1d(fn, a, "x")
    code = _choice(fn, a.device, "compare", compare, _COMPARE)
    out, o = output(fn, a, out, "out", a.shape, a.dtype, stream)
    count = _core.select(a.device, s, a.code, a.ptr, a.size, o.ptr, o.size, code,
                         scalar_for(fn, a, "value", value), 0)
    return out[:count]


def copy_if_into(x, compare, value, out, count, *, stream=None):
    """copy_if without waiting for the device: the number selected goes to count (one int64
    element on x's device); out (x's element type, 1-D, at least len(x) elements) receives the
    selected elements in out[:count], the rest is left as it was. Returns (out, count)."""
    fn = "copy_if_into"
    a, s = _input(fn, stream, "x", x, ALL_DTYPES)
    check_1d(fn, a, "x")
    code = _choice(fn, a.device, "compare", compare, _COMPARE)
    o = _into_output(fn, a, out, "out", a.dtype, stream, "every element may be selected, and "
                     "the count is not known before the call returns")
    c = _count_output(fn, a, count, stream)
    _core.copy_if_into(a.device, s, a.code, a.ptr, a.size, o.ptr, o.size, c.ptr, c.size, code,
                       scalar_for(fn, a, "value", value))
    return out, count


def _partition(fn, x, compare, value, out, stream, mode):
    a, s = _input(fn, stream, "x", x, ALL_DTYPES)
    check_1d(fn, a, "x")
    code = _choice(fn, a.device, "compare", compare, _COMPARE)
    out, o = output(fn, a, out, "out", a.shape, a.dtype, stream)
    count = _core.select(a.device, s, a.code, a.ptr, a.size, o.ptr, o.size, code,
                         scalar_for(fn, a, "value", value), mode)
    return out, count


def partition(x, compare, value, *, out=None, stream=None):
    """Stable partition of a 1-D array: the elements that satisfy the predicate (see copy_if)
    in input order, then the others in input order. Returns (out, number selected)."""
    return _partition("partition", x, compare, value, out, stream, 1)


def unstable_partition(x, compare, value, *, out=None, stream=None):
    """partition with the rejected elements in reverse input order: one pass over the input
    where partition reads it twice (on the GPU, as CUB's DevicePartition::If orders them).
    Returns (out, number selected)."""
    return _partition("unstable_partition", x, compare, value, out, stream, 2)


def split(x, *, key_bits=None, even_range=None, out=None, stream=None):
    """Stable split of a 1-D array into buckets, bucket 0 first: key_bits=(shift, width) takes
    bits [shift, shift+width) of the sort-key image (2^width buckets, width 1..12);
    even_range=(lower, upper, buckets) makes equal-width buckets over [lower, upper) (below:
    bucket 0, above and NaN: the last). Returns (out, offsets): offsets[b] is where bucket b
    starts in out, offsets[-1] == len(x)."""
    fn = "split"
    a, s = _input(fn, stream, "x", x, ALL_DTYPES)
    check_1d(fn, a, "x")
    if (key_bits is None) == (even_range is None):
        _refuse(fn, a.device, "give exactly one of key_bits=(shift, width) and "
                "even_range=(lower, upper, buckets)")
    if key_bits is not None:
        shift, width = (int(b) for b in key_bits)
        lower, upper, buckets = 0.0, 1.0, (1 << width if 1 <= width <= 12 else 0)
    else:
        lower, upper, buckets = float(even_range[0]), float(even_range[1]), int(even_range[2])
        shift, width = 0, 1
    if buckets < 1:
        _refuse(fn, a.device, "width=%d is outside [1, 12]" % width)
    out, o = output(fn, a, out, "out", a.shape, a.dtype, stream)
    offsets, f = output(fn, a, None, "offsets", (buckets + 1,), "int64", stream)
    _core.split(a.device, s, a.code, a.ptr, a.size, o.ptr, o.size, even_range is not None, shift,
                width, lower, upper, buckets, f.ptr, f.size)
    return out, offsets


def counting_sort(keys, key_range, min_key=0, *, out=None, check=True, stream=None):
    """Stable counting sort of int32/uint32 keys in [min_key, min_key + key_range), key_range
    at most 4096 (histogram, scan, scatter). A key outside the range raises OutOfRangeError
    (check as for gather)."""
    fn = "counting_sort"
    k, s = _input(fn, stream, "keys", keys, COUNTING_KEY_DTYPES)
    check_1d(fn, k, "keys")
    out, o = output(fn, k, out, "out", k.shape, k.dtype, stream)
    _core.counting_sort(k.device, s, k.code, k.ptr, k.size, o.ptr, o.size, int(key_range),
                        scalar_for(fn, k, "min_key", min_key), bool(check))
    return out


def counting_sort_pairs(keys, values, key_range, min_key=0, *, keys_out=None, values_out=None,
                        check=True, stream=None):
    """counting_sort carrying values (any element type) with their keys.
    Returns (sorted keys, values in the same order)."""
    fn = "counting_sort_pairs"
    (k, v), s = _inputs(fn, stream, [("keys", keys), ("values", values)], COUNTING_KEY_DTYPES)
    check_dtype(fn, v, "values", ALL_DTYPES)
    check_1d(fn, k, "keys"), check_1d(fn, v, "values")
    keys_out, ko = output(fn, k, keys_out, "keys_out", k.shape, k.dtype, stream)
    values_out, vo = output(fn, k, values_out, "values_out", v.shape, v.dtype, stream)
    lowest = scalar_for(fn, k, "min_key", min_key)
    _core.counting_sort_pairs(k.device, s, k.code, v.code, k.ptr, k.size, v.ptr, v.size, ko.ptr,
                              ko.size, vo.ptr, vo.size, int(key_range), lowest, bool(check))
    return keys_out, values_out


def synchronize(like, *, stream=None):
    """Waits for the work parprim queued for `like`'s device on its stream (as the calls choose
    it) and raises any error found meanwhile (e.g. a bad index with check=False)."""
    a = adapt(like, "synchronize", "like", stream)
    _core.synchronize(a.device, call_stream(a, stream))
