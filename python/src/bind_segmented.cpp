// Bindings of the segmented primitives (reduce, scans by offsets or head flags, sorts) and of
// Morton codes. Same calling convention as bind_elementwise.cpp.
#include <cstdint>

#include "common.hpp"
#include "parprim/morton.hpp"
#include "parprim/segmented.hpp"
#include "parprim/segmented_sort.hpp"

namespace parprim::python {

namespace {

using address = std::uintptr_t;
using count = std::int64_t;

void segmented_reduce_of(int device, address stream, int dtype, address in, count n_in,
                         address offsets, count n_offsets, address out, count n_out,
                         nb::handle init, int o) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T first = nb::cast<T>(init);
    run_on(device, stream, [&](const context& ctx) {
      segmented_reduce<T>(ctx, as_span<const T>(in, n_in),
                          as_span<const std::int64_t>(offsets, n_offsets), as_span<T>(out, n_out),
                          first, op(o));
    });
  });
}

// Segments by offsets (int64) or by head flags (uint8): by_flags says which `segments` holds.
// init: the exclusive scan's first value (unused by the inclusive scan).
void segmented_scan_of(int device, address stream, int dtype, address in, count n_in,
                       address segments, count n_segments, bool by_flags, address out, count n_out,
                       bool exclusive, nb::handle init, int o) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T first = nb::cast<T>(init);
    run_on(device, stream, [&](const context& ctx) {
      auto from = as_span<const T>(in, n_in);
      auto to = as_span<T>(out, n_out);
      if (by_flags) {
        auto flags = as_span<const std::uint8_t>(segments, n_segments);
        if (exclusive) segmented_exclusive_scan_by_flags<T>(ctx, from, flags, to, first, op(o));
        else segmented_inclusive_scan_by_flags<T>(ctx, from, flags, to, op(o));
      } else {
        auto offsets = as_span<const std::int64_t>(segments, n_segments);
        if (exclusive) segmented_exclusive_scan<T>(ctx, from, offsets, to, first, op(o));
        else segmented_inclusive_scan<T>(ctx, from, offsets, to, op(o));
      }
    });
  });
}

void segmented_sort_of(int device, address stream, int dtype, address in, count n_in,
                       address offsets, count n_offsets, address out, count n_out,
                       bool descending) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using K = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      copy_into<K>(ctx, "segmented_sort", "keys", in, n_in, out, n_out);
      segmented_sort<K>(ctx, as_span<K>(out, n_out),
                        as_span<const std::int64_t>(offsets, n_offsets), order_of(descending));
    });
  });
}

// Values of the key's width only (what the library precompiles): the Python layer checks it.
void segmented_sort_pairs_of(int device, address stream, int key_dtype, int value_dtype,
                             address keys_in, count n_keys_in, address values_in,
                             count n_values_in, address offsets, count n_offsets,
                             address keys_out, count n_keys_out, address values_out,
                             count n_values_out, bool descending) {
  dispatch<PARPRIM_PY_ALL_TYPES>(key_dtype, [&](auto key_tag) {
    using K = typename decltype(key_tag)::type;
    auto sort_with = [&](auto value_tag) {
      using V = typename decltype(value_tag)::type;
      run_on(device, stream, [&](const context& ctx) {
        copy_into<K>(ctx, "segmented_sort_pairs", "keys", keys_in, n_keys_in, keys_out, n_keys_out);
        copy_into<V>(ctx, "segmented_sort_pairs", "values", values_in, n_values_in, values_out,
                     n_values_out);
        segmented_sort_pairs<K, V>(ctx, as_span<K>(keys_out, n_keys_out),
                                   as_span<V>(values_out, n_values_out),
                                   as_span<const std::int64_t>(offsets, n_offsets),
                                   order_of(descending));
      });
    };
    if constexpr (sizeof(K) == 4) dispatch<std::int32_t, std::uint32_t, float>(value_dtype, sort_with);
    else dispatch<std::int64_t, std::uint64_t, double>(value_dtype, sort_with);
  });
}

void morton_encode_of(int device, address stream, int coordinate_dtype, int code_dtype, address x,
                      count n_x, address y, count n_y, address z, count n_z, double lo_x,
                      double lo_y, double lo_z, double hi_x, double hi_y, double hi_z, bool cube,
                      address codes, count n_codes) {
  dispatch<float, double>(coordinate_dtype, [&](auto coordinate_tag) {
    using T = typename decltype(coordinate_tag)::type;
    const T lo[3] = {T(lo_x), T(lo_y), T(lo_z)};
    const T hi[3] = {T(hi_x), T(hi_y), T(hi_z)};
    morton_box<T> box;
    if (cube) {
      box = morton_box<T>::cube(lo, hi);
    } else {
      for (int a = 0; a < 3; ++a) box.lo[a] = lo[a], box.hi[a] = hi[a];
    }
    dispatch<std::uint32_t, std::uint64_t>(code_dtype, [&](auto code_tag) {
      using C = typename decltype(code_tag)::type;
      run_on(device, stream, [&](const context& ctx) {
        morton_encode<T, C>(ctx, as_span<const T>(x, n_x), as_span<const T>(y, n_y),
                            as_span<const T>(z, n_z), box, as_span<C>(codes, n_codes));
      });
    });
  });
}

}  // namespace

void bind_segmented(nb::module_& m) {
  m.def("segmented_reduce", &segmented_reduce_of);
  m.def("segmented_scan", &segmented_scan_of);
  m.def("segmented_sort", &segmented_sort_of);
  m.def("segmented_sort_pairs", &segmented_sort_pairs_of);
  m.def("morton_encode", &morton_encode_of);
}

}  // namespace parprim::python
