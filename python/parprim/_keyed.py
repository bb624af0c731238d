"""Runs of keys and sorted ranges: reduce/scan by key, unique and run-length encoding, merge,
binary search and top-k, on arrays of any supported library (see _primitives.py for the
conventions). Calls whose result size is only known on the device (reduce_by_key, unique,
unique_by_key, unique_count, run_length_encode) wait for it and return views of their outputs'
first R elements; their _into forms (reduce_by_key_into, ...) do not wait: they write R into a
one-element int64 array on the call's device, and their outputs must hold len(input) elements."""

from . import _core
from ._arrays import (ALL_DTYPES, _refuse, adapt, check_1d, check_dtype, check_same_device,
                      check_same_dtype, output, scalar_for)
from ._primitives import _OPS, _choice, _input, _inputs
from ._segmented import OFFSET_DTYPES, _segment_inputs, _segment_pair_inputs


def _pair_inputs(fn, stream, named):
    """Key and value arrays (1-D, equally long, any element types, one device)."""
    arrays, s = _inputs(fn, stream, named, ALL_DTYPES)
    for (name, _), arr in zip(named, arrays):
        check_dtype(fn, arr, name, ALL_DTYPES)
        check_1d(fn, arr, name)
    return arrays, s


def reduce_by_key(keys, values, op="plus", *, keys_out=None, values_out=None, stream=None):
    """Folds the values of every run of consecutive equal keys (op: plus, min, max), left to
    right; keys need not be sorted (equal keys apart form separate runs; NaN keys are runs of
    their own; -0.0 and +0.0 share one). Returns (first key of each run, folded values), views
    of the first R elements of keys_out and values_out (which need at least R; by default they
    have len(keys)). Integers wrap; float results are bitwise reproducible."""
    fn = "reduce_by_key"
    (k, v), s = _pair_inputs(fn, stream, [("keys", keys), ("values", values)])
    code = _choice(fn, k.device, "op", op, _OPS)
    keys_out, ko = output(fn, k, keys_out, "keys_out", k.shape, k.dtype, stream)
    values_out, vo = output(fn, k, values_out, "values_out", v.shape, v.dtype, stream)
    runs = _core.reduce_by_key(k.device, s, k.code, v.code, k.ptr, k.size, v.ptr, v.size, ko.ptr,
                               ko.size, vo.ptr, vo.size, code)
    return keys_out[:runs], values_out[:runs]


def _scan_by_key(fn, keys, values, init, op, out, stream):
    (k, v), s = _pair_inputs(fn, stream, [("keys", keys), ("values", values)])
    code = _choice(fn, k.device, "op", op, _OPS)
    out, o = output(fn, k, out, "out", v.shape, v.dtype, stream)
    first = 0 if init is None else scalar_for(fn, v, "init", init)
    _core.scan_by_key(k.device, s, k.code, v.code, k.ptr, k.size, v.ptr, v.size, o.ptr, o.size,
                      init is not None, first, code)
    return out


def inclusive_scan_by_key(keys, values, op="plus", *, out=None, stream=None):
    """out[i] = the fold (op: plus, min, max) of the values of i's run of equal keys up to and
    including i. `out` (values' element type) may be values (in place)."""
    return _scan_by_key("inclusive_scan_by_key", keys, values, None, op, out, stream)


def exclusive_scan_by_key(keys, values, init=0, op="plus", *, out=None, stream=None):
    """out[i] = init op (fold of the values of i's run before i): every run starts at init."""
    return _scan_by_key("exclusive_scan_by_key", keys, values, init, op, out, stream)


def unique(x, *, out=None, stream=None):
    """The first element of every run of consecutive equal elements of a 1-D array (as
    std::unique and torch.unique_consecutive: only adjacent duplicates are removed; sort first
    for the distinct values). Returns a view of out's first R elements."""
    fn = "unique"
    a, s = _input(fn, stream, "x", x, ALL_DTYPES)
    check_1d(fn, a, "x")
    out, o = output(fn, a, out, "out", a.shape, a.dtype, stream)
    return out[:_core.unique(a.device, s, a.code, a.ptr, a.size, o.ptr, o.size)]


def unique_count(x, *, stream=None):
    """The number of runs of consecutive equal elements of a 1-D array (what unique returns
    the size of), as a Python int."""
    fn = "unique_count"
    a, s = _input(fn, stream, "x", x, ALL_DTYPES)
    check_1d(fn, a, "x")
    return _core.unique_count(a.device, s, a.code, a.ptr, a.size)


def unique_by_key(keys, values, *, keys_out=None, values_out=None, stream=None):
    """The first key of every run of consecutive equal keys and the value beside it.
    Returns views of the first R elements of keys_out and values_out."""
    fn = "unique_by_key"
    (k, v), s = _pair_inputs(fn, stream, [("keys", keys), ("values", values)])
    keys_out, ko = output(fn, k, keys_out, "keys_out", k.shape, k.dtype, stream)
    values_out, vo = output(fn, k, values_out, "values_out", v.shape, v.dtype, stream)
    runs = _core.unique_by_key(k.device, s, k.code, v.code, k.ptr, k.size, v.ptr, v.size, ko.ptr,
                               ko.size, vo.ptr, vo.size)
    return keys_out[:runs], values_out[:runs]


def run_length_encode(x, *, unique_out=None, lengths_out=None, stream=None):
    """Runs of consecutive equal elements as (first element of each run, its length as int64),
    views of the first R elements of unique_out and lengths_out."""
    fn = "run_length_encode"
    a, s = _input(fn, stream, "x", x, ALL_DTYPES)
    check_1d(fn, a, "x")
    unique_out, u = output(fn, a, unique_out, "unique_out", a.shape, a.dtype, stream)
    lengths_out, n = output(fn, a, lengths_out, "lengths_out", a.shape, "int64", stream)
    runs = _core.run_length_encode(a.device, s, a.code, a.ptr, a.size, u.ptr, u.size, n.ptr,
                                   n.size)
    return unique_out[:runs], lengths_out[:runs]


# ---- the stream-ordered _into forms ----------------------------------------------------------

def _into_output(fn, like, obj, name, dtype, stream, why="every element may start a run, and "
                 "the run count is not known before the call returns"):
    """A caller's output of the _into forms: 1-D, `dtype`, on like's device, and at least
    len(like) elements long (every element may start a run, or be selected, and the count is
    only known on the device once the call has run)."""
    arr = adapt(obj, fn, name, stream, writable=True)
    check_same_dtype(fn, arr, name, dtype)
    check_same_device(fn, like, [(name, arr)])
    check_1d(fn, arr, name)
    if arr.size < like.size:
        _refuse(fn, like.device, "%s has %d elements but must hold at least n=%d (%s)"
                % (name, arr.size, like.size, why))
    return arr


def _count_output(fn, like, obj, stream):
    """The array that receives the run count: one int64 element on like's device."""
    arr = adapt(obj, fn, "count", stream, writable=True)
    check_same_dtype(fn, arr, "count", "int64")
    check_same_device(fn, like, [("count", arr)])
    if arr.size != 1:
        _refuse(fn, like.device, "count has shape %s but must hold exactly one element (e.g. "
                "shape (1,))" % (tuple(arr.shape),))
    return arr


def reduce_by_key_into(keys, values, keys_out, values_out, count, op="plus", *, stream=None):
    """reduce_by_key without waiting for the device: the number of runs R goes to count (a
    one-element int64 array on the keys' device), stream-ordered, and nothing is copied to the
    host. keys_out and values_out (keys' and values' element types, 1-D) must hold at least
    len(keys) elements; their first R elements receive the runs, the rest are left as they
    were. Returns (keys_out, values_out, count), the caller's arrays, whole."""
    fn = "reduce_by_key_into"
    (k, v), s = _pair_inputs(fn, stream, [("keys", keys), ("values", values)])
    code = _choice(fn, k.device, "op", op, _OPS)
    ko = _into_output(fn, k, keys_out, "keys_out", k.dtype, stream)
    vo = _into_output(fn, k, values_out, "values_out", v.dtype, stream)
    c = _count_output(fn, k, count, stream)
    _core.reduce_by_key_into(k.device, s, k.code, v.code, k.ptr, k.size, v.ptr, v.size, ko.ptr,
                             ko.size, vo.ptr, vo.size, c.ptr, c.size, code)
    return keys_out, values_out, count


def unique_into(x, out, count, *, stream=None):
    """unique without waiting for the device: R goes to count (one int64 element on x's
    device); out (x's element type, 1-D, at least len(x) elements) receives the first element
    of every run in out[:R], the rest is left as it was. Returns (out, count)."""
    fn = "unique_into"
    a, s = _input(fn, stream, "x", x, ALL_DTYPES)
    check_1d(fn, a, "x")
    o = _into_output(fn, a, out, "out", a.dtype, stream)
    c = _count_output(fn, a, count, stream)
    _core.unique_into(a.device, s, a.code, a.ptr, a.size, o.ptr, o.size, c.ptr, c.size)
    return out, count


def unique_count_into(x, count, *, stream=None):
    """unique_count without waiting for the device: the number of runs of consecutive equal
    elements of x goes to count (one int64 element on x's device). Returns count."""
    fn = "unique_count_into"
    a, s = _input(fn, stream, "x", x, ALL_DTYPES)
    check_1d(fn, a, "x")
    c = _count_output(fn, a, count, stream)
    _core.unique_count_into(a.device, s, a.code, a.ptr, a.size, c.ptr, c.size)
    return count


def unique_by_key_into(keys, values, keys_out, values_out, count, *, stream=None):
    """unique_by_key without waiting for the device: R goes to count (one int64 element on
    the keys' device); keys_out[:R] and values_out[:R] receive the first key of every run and
    the value beside it (both at least len(keys) elements, 1-D; the rest is left as it was).
    Returns (keys_out, values_out, count)."""
    fn = "unique_by_key_into"
    (k, v), s = _pair_inputs(fn, stream, [("keys", keys), ("values", values)])
    ko = _into_output(fn, k, keys_out, "keys_out", k.dtype, stream)
    vo = _into_output(fn, k, values_out, "values_out", v.dtype, stream)
    c = _count_output(fn, k, count, stream)
    _core.unique_by_key_into(k.device, s, k.code, v.code, k.ptr, k.size, v.ptr, v.size, ko.ptr,
                             ko.size, vo.ptr, vo.size, c.ptr, c.size)
    return keys_out, values_out, count


def run_length_encode_into(x, unique_out, lengths_out, count, *, stream=None):
    """run_length_encode without waiting for the device: R goes to count (one int64 element on
    x's device); unique_out[:R] (x's element type) and lengths_out[:R] (int64) receive each
    run's first element and length (both at least len(x) elements, 1-D; the rest is left as
    it was). Returns (unique_out, lengths_out, count)."""
    fn = "run_length_encode_into"
    a, s = _input(fn, stream, "x", x, ALL_DTYPES)
    check_1d(fn, a, "x")
    u = _into_output(fn, a, unique_out, "unique_out", a.dtype, stream)
    n = _into_output(fn, a, lengths_out, "lengths_out", "int64", stream)
    c = _count_output(fn, a, count, stream)
    _core.run_length_encode_into(a.device, s, a.code, a.ptr, a.size, u.ptr, u.size, n.ptr,
                                 n.size, c.ptr, c.size)
    return unique_out, lengths_out, count


# ---- sorted ranges ---------------------------------------------------------------------------

def merge(a, b, *, descending=False, out=None, check=True, stream=None):
    """Stable merge of two 1-D arrays sorted in sort()'s order (NaNs last; descending: its
    reverse); on equal keys a's elements come first. Returns out (len(a) + len(b) elements).
    Unsorted input raises InvalidArgumentError: at once on the CPU; on CUDA check=True waits
    for the stream to report it, check=False leaves it to parprim.synchronize()."""
    fn = "merge"
    (x, y), s = _inputs(fn, stream, [("a", a), ("b", b)], ALL_DTYPES)
    check_1d(fn, x, "a"), check_1d(fn, y, "b")
    check_same_dtype(fn, y, "b", x.dtype)
    out, o = output(fn, x, out, "out", (x.size + y.size,), x.dtype, stream)
    _core.merge(x.device, s, x.code, x.ptr, x.size, y.ptr, y.size, o.ptr, o.size,
                bool(descending), bool(check))
    return out


def merge_by_key(a_keys, a_values, b_keys, b_values, *, descending=False, keys_out=None,
                 values_out=None, check=True, stream=None):
    """merge() of the keys, each value travelling with its key. Returns (keys, values)."""
    fn = "merge_by_key"
    named = [("a_keys", a_keys), ("a_values", a_values), ("b_keys", b_keys),
             ("b_values", b_values)]
    (ak, av, bk, bv), s = _pair_inputs(fn, stream, named)
    check_same_dtype(fn, bk, "b_keys", ak.dtype)
    check_same_dtype(fn, bv, "b_values", av.dtype)
    n = ak.size + bk.size
    keys_out, ko = output(fn, ak, keys_out, "keys_out", (n,), ak.dtype, stream)
    values_out, vo = output(fn, ak, values_out, "values_out", (n,), av.dtype, stream)
    _core.merge_by_key(ak.device, s, ak.code, av.code, ak.ptr, ak.size, av.ptr, av.size, bk.ptr,
                       bk.size, bv.ptr, bv.size, ko.ptr, ko.size, vo.ptr, vo.size,
                       bool(descending), bool(check))
    return keys_out, values_out


def _search(fn, sorted_values, queries, out, stream, upper):
    (a, q), s = _inputs(fn, stream, [("sorted", sorted_values), ("queries", queries)], ALL_DTYPES)
    check_1d(fn, a, "sorted")
    check_same_dtype(fn, q, "queries", a.dtype)
    out, o = output(fn, a, out, "out", q.shape, "int64", stream)
    _core.search(a.device, s, a.code, a.ptr, a.size, q.ptr, q.size, o.ptr, o.size, upper)
    return out


def lower_bound(sorted, queries, *, out=None, stream=None):
    """For every query, the first position i with not sorted[i] < query (numpy.searchsorted
    with side="left"), as int64 of the queries' shape. `sorted` is 1-D and ascending in sort()'s
    order (NaNs last); that is not checked (results then stay within [0, len(sorted)])."""
    return _search("lower_bound", sorted, queries, out, stream, False)


def upper_bound(sorted, queries, *, out=None, stream=None):
    """For every query, the first position i with query < sorted[i] (numpy.searchsorted with
    side="right"); otherwise as lower_bound."""
    return _search("upper_bound", sorted, queries, out, stream, True)


def top_k(x, k, *, largest=True, sorted=True, out=None, stream=None):
    """The k largest (largest=False: smallest) elements of a 1-D array, k in [1, len(x)], by
    radix select (no full sort). Order as sort(): NaNs count as the largest; ties at the k-th
    element take the earliest. sorted=True: in order, largest first (smallest first with
    largest=False); sorted=False: the chosen elements in input order."""
    fn = "top_k"
    a, s = _input(fn, stream, "x", x, ALL_DTYPES)
    check_1d(fn, a, "x")
    out, o = output(fn, a, out, "out", (max(int(k), 0),), a.dtype, stream)
    _core.top_k(a.device, s, a.code, a.ptr, a.size, int(k), o.ptr, o.size, bool(largest),
                bool(sorted))
    return out


def top_k_pairs(keys, values, k, *, largest=True, sorted=True, keys_out=None, values_out=None,
                stream=None):
    """top_k of the keys with each value travelling with its key (values=arange(n) gives the
    indices, as torch.topk does). Returns (keys, values)."""
    fn = "top_k_pairs"
    (a, v), s = _pair_inputs(fn, stream, [("keys", keys), ("values", values)])
    k = int(k)
    keys_out, ko = output(fn, a, keys_out, "keys_out", (max(k, 0),), a.dtype, stream)
    values_out, vo = output(fn, a, values_out, "values_out", (max(k, 0),), v.dtype, stream)
    _core.top_k_pairs(a.device, s, a.code, v.code, a.ptr, a.size, v.ptr, v.size, k, ko.ptr,
                      ko.size, vo.ptr, vo.size, bool(largest), bool(sorted))
    return keys_out, values_out


def _slots(fn, a, g, k):
    """S * k, the segmented top-k's output size, for offsets g of S + 1 positions (refused when
    empty)."""
    if g.size < 1:
        _refuse(fn, a.device, "offsets must hold at least one position (S + 1 for S segments)")
    return (g.size - 1) * max(int(k), 0)


def segmented_top_k(x, offsets, k, *, largest=True, sorted=True, out=None, stream=None):
    """top_k in every segment of a 1-D array (offsets: int64, S + 1 non-decreasing positions;
    segment s is x[offsets[s]:offsets[s+1]]). Segment s's min(k, length) chosen elements go to
    out[s*k:], ordered as top_k orders them; the slots after them (a segment shorter than k)
    read 0 in a new output and are left as they were in `out`. Returns out (S * k elements;
    out.reshape(S, k) puts segment s in row s). k >= 1; bad offsets raise InvalidArgumentError
    before anything is written."""
    fn = "segmented_top_k"
    a, g, s = _segment_inputs(fn, stream, "x", x, "offsets", offsets, OFFSET_DTYPES)
    size = _slots(fn, a, g, k)
    fresh = out is None
    out, o = output(fn, a, out, "out", (size,), a.dtype, stream)
    _core.segmented_top_k(a.device, s, a.code, a.ptr, a.size, g.ptr, g.size, int(k), o.ptr, o.size,
                          bool(largest), bool(sorted), fresh)
    return out


def segmented_top_k_pairs(keys, values, offsets, k, *, largest=True, sorted=True, keys_out=None,
                          values_out=None, stream=None):
    """segmented_top_k of the keys with each value travelling with its key (values =
    arange(n) gives the chosen positions). Returns (keys, values), S * k elements each; slots
    past a short segment read 0 in new outputs."""
    fn = "segmented_top_k_pairs"
    a, v, g, s = _segment_pair_inputs(fn, stream, keys, values, offsets)
    check_dtype(fn, v, "values", ALL_DTYPES)
    size = _slots(fn, a, g, k)
    fresh_keys, fresh_values = keys_out is None, values_out is None
    keys_out, ko = output(fn, a, keys_out, "keys_out", (size,), a.dtype, stream)
    values_out, vo = output(fn, a, values_out, "values_out", (size,), v.dtype, stream)
    _core.segmented_top_k_pairs(a.device, s, a.code, v.code, a.ptr, a.size, v.ptr, v.size, g.ptr,
                                g.size, int(k), ko.ptr, ko.size, vo.ptr, vo.size, bool(largest),
                                bool(sorted), fresh_keys, fresh_values)
    return keys_out, values_out


__all__ = ["exclusive_scan_by_key", "inclusive_scan_by_key", "lower_bound", "merge",
           "merge_by_key", "reduce_by_key", "reduce_by_key_into", "run_length_encode",
           "run_length_encode_into", "segmented_top_k", "segmented_top_k_pairs", "top_k",
           "top_k_pairs", "unique", "unique_by_key", "unique_by_key_into", "unique_count",
           "unique_count_into", "unique_into", "upper_bound"]
