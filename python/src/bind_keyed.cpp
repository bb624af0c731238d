// Bindings of the primitives on runs of keys and on sorted ranges: reduce/scan by key, unique
// and run-length encoding (and their stream-ordered _into forms), merge, vectorized binary
// search, top-k and segmented top-k. Same calling convention as bind_elementwise.cpp:
// (device, stream, element type codes, every array as address and element count, options);
// the Python layer has checked types and devices and made outputs.
#include <cstdint>

#include "common.hpp"
#include "parprim/by_key.hpp"
#include "parprim/merge.hpp"
#include "parprim/search.hpp"
#include "parprim/top_k.hpp"
#include "parprim/unique.hpp"

namespace parprim::python {

namespace {

using address = std::uintptr_t;
using count = std::int64_t;

// Calls f(key_tag, value_tag) for the key and value types given by their codes.
template <class F>
decltype(auto) dispatch_pair(int key_dtype, int value_dtype, F&& f) {
  return dispatch<PARPRIM_PY_ALL_TYPES>(key_dtype, [&](auto key_tag) {
    return dispatch<PARPRIM_PY_ALL_TYPES>(value_dtype,
                                          [&](auto value_tag) { return f(key_tag, value_tag); });
  });
}

count reduce_by_key_of(int device, address stream, int key_dtype, int value_dtype, address keys,
                       count n_keys, address values, count n_values, address keys_out,
                       count n_keys_out, address values_out, count n_values_out, int o) {
  return dispatch_pair(key_dtype, value_dtype, [&](auto key_tag, auto value_tag) -> count {
    using K = typename decltype(key_tag)::type;
    using V = typename decltype(value_tag)::type;
    return run_on(device, stream, [&](const context& ctx) {
      return reduce_by_key<K, V>(ctx, as_span<const K>(keys, n_keys),
                                 as_span<const V>(values, n_values), as_span<K>(keys_out, n_keys_out),
                                 as_span<V>(values_out, n_values_out), op(o));
    });
  });
}

// init: the exclusive scan's first value (unused by the inclusive scan).
void scan_by_key_of(int device, address stream, int key_dtype, int value_dtype, address keys,
                    count n_keys, address values, count n_values, address out, count n_out,
                    bool exclusive, nb::handle init, int o) {
  dispatch_pair(key_dtype, value_dtype, [&](auto key_tag, auto value_tag) {
    using K = typename decltype(key_tag)::type;
    using V = typename decltype(value_tag)::type;
    V first = nb::cast<V>(init);
    run_on(device, stream, [&](const context& ctx) {
      auto k = as_span<const K>(keys, n_keys);
      auto v = as_span<const V>(values, n_values);
      auto to = as_span<V>(out, n_out);
      if (exclusive) exclusive_scan_by_key<K, V>(ctx, k, v, to, first, op(o));
      else inclusive_scan_by_key<K, V>(ctx, k, v, to, op(o));
    });
  });
}

count unique_of(int device, address stream, int dtype, address in, count n_in, address out,
                count n_out) {
  return dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) -> count {
    using K = typename decltype(tag)::type;
    return run_on(device, stream, [&](const context& ctx) {
      return unique<K>(ctx, as_span<const K>(in, n_in), as_span<K>(out, n_out));
    });
  });
}

count unique_count_of(int device, address stream, int dtype, address in, count n_in) {
  return dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) -> count {
    using K = typename decltype(tag)::type;
    return run_on(device, stream, [&](const context& ctx) {
      return unique_count<K>(ctx, as_span<const K>(in, n_in));
    });
  });
}

count unique_by_key_of(int device, address stream, int key_dtype, int value_dtype, address keys,
                       count n_keys, address values, count n_values, address keys_out,
                       count n_keys_out, address values_out, count n_values_out) {
  return dispatch_pair(key_dtype, value_dtype, [&](auto key_tag, auto value_tag) -> count {
    using K = typename decltype(key_tag)::type;
    using V = typename decltype(value_tag)::type;
    return run_on(device, stream, [&](const context& ctx) {
      return unique_by_key<K, V>(ctx, as_span<const K>(keys, n_keys),
                                 as_span<const V>(values, n_values), as_span<K>(keys_out, n_keys_out),
                                 as_span<V>(values_out, n_values_out));
    });
  });
}

count run_length_encode_of(int device, address stream, int dtype, address in, count n_in,
                           address unique_out, count n_unique_out, address lengths,
                           count n_lengths) {
  return dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) -> count {
    using K = typename decltype(tag)::type;
    return run_on(device, stream, [&](const context& ctx) {
      return run_length_encode<K>(ctx, as_span<const K>(in, n_in),
                                  as_span<K>(unique_out, n_unique_out),
                                  as_span<std::int64_t>(lengths, n_lengths));
    });
  });
}

// The _into forms: the run count goes to count_to[0] (an int64 array on the call's backend),
// stream-ordered; nothing waits for the device.
void reduce_by_key_into_of(int device, address stream, int key_dtype, int value_dtype,
                           address keys, count n_keys, address values, count n_values,
                           address keys_out, count n_keys_out, address values_out,
                           count n_values_out, address count_to, count n_count_to, int o) {
  dispatch_pair(key_dtype, value_dtype, [&](auto key_tag, auto value_tag) {
    using K = typename decltype(key_tag)::type;
    using V = typename decltype(value_tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      reduce_by_key_into<K, V>(ctx, as_span<const K>(keys, n_keys),
                               as_span<const V>(values, n_values),
                               as_span<K>(keys_out, n_keys_out), as_span<V>(values_out, n_values_out),
                               as_span<std::int64_t>(count_to, n_count_to), op(o));
    });
  });
}

void unique_into_of(int device, address stream, int dtype, address in, count n_in, address out,
                    count n_out, address count_to, count n_count_to) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using K = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      unique_into<K>(ctx, as_span<const K>(in, n_in), as_span<K>(out, n_out),
                     as_span<std::int64_t>(count_to, n_count_to));
    });
  });
}

void unique_count_into_of(int device, address stream, int dtype, address in, count n_in,
                          address count_to, count n_count_to) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using K = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      unique_count_into<K>(ctx, as_span<const K>(in, n_in),
                           as_span<std::int64_t>(count_to, n_count_to));
    });
  });
}

void unique_by_key_into_of(int device, address stream, int key_dtype, int value_dtype,
                           address keys, count n_keys, address values, count n_values,
                           address keys_out, count n_keys_out, address values_out,
                           count n_values_out, address count_to, count n_count_to) {
  dispatch_pair(key_dtype, value_dtype, [&](auto key_tag, auto value_tag) {
    using K = typename decltype(key_tag)::type;
    using V = typename decltype(value_tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      unique_by_key_into<K, V>(ctx, as_span<const K>(keys, n_keys),
                               as_span<const V>(values, n_values),
                               as_span<K>(keys_out, n_keys_out), as_span<V>(values_out, n_values_out),
                               as_span<std::int64_t>(count_to, n_count_to));
    });
  });
}

void run_length_encode_into_of(int device, address stream, int dtype, address in, count n_in,
                               address unique_out, count n_unique_out, address lengths,
                               count n_lengths, address count_to, count n_count_to) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using K = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      run_length_encode_into<K>(ctx, as_span<const K>(in, n_in),
                                as_span<K>(unique_out, n_unique_out),
                                as_span<std::int64_t>(lengths, n_lengths),
                                as_span<std::int64_t>(count_to, n_count_to));
    });
  });
}

// check: on CUDA, wait for the stream so that an unsorted input is raised by this call.
void merge_of(int device, address stream, int dtype, address a, count n_a, address b, count n_b,
              address out, count n_out, bool descending, bool check) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      merge<T>(ctx, as_span<const T>(a, n_a), as_span<const T>(b, n_b), as_span<T>(out, n_out),
               order_of(descending));
      if (check) ctx.synchronize();
    });
  });
}

void merge_by_key_of(int device, address stream, int key_dtype, int value_dtype, address a_keys,
                     count n_a_keys, address a_values, count n_a_values, address b_keys,
                     count n_b_keys, address b_values, count n_b_values, address keys_out,
                     count n_keys_out, address values_out, count n_values_out, bool descending,
                     bool check) {
  dispatch_pair(key_dtype, value_dtype, [&](auto key_tag, auto value_tag) {
    using K = typename decltype(key_tag)::type;
    using V = typename decltype(value_tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      merge_by_key<K, V>(ctx, as_span<const K>(a_keys, n_a_keys),
                         as_span<const V>(a_values, n_a_values), as_span<const K>(b_keys, n_b_keys),
                         as_span<const V>(b_values, n_b_values), as_span<K>(keys_out, n_keys_out),
                         as_span<V>(values_out, n_values_out), order_of(descending));
      if (check) ctx.synchronize();
    });
  });
}

void search_of(int device, address stream, int dtype, address sorted, count n_sorted,
               address queries, count n_queries, address out, count n_out, bool upper) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      auto s = as_span<const T>(sorted, n_sorted);
      auto q = as_span<const T>(queries, n_queries);
      auto to = as_span<std::int64_t>(out, n_out);
      if (upper) upper_bound<T>(ctx, s, q, to);
      else lower_bound<T>(ctx, s, q, to);
    });
  });
}

void top_k_of(int device, address stream, int dtype, address in, count n_in, count k, address out,
              count n_out, bool largest, bool sorted) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      top_k<T>(ctx, as_span<const T>(in, n_in), k, as_span<T>(out, n_out), order_of(largest),
               sorted);
    });
  });
}

void top_k_pairs_of(int device, address stream, int key_dtype, int value_dtype, address keys,
                    count n_keys, address values, count n_values, count k, address keys_out,
                    count n_keys_out, address values_out, count n_values_out, bool largest,
                    bool sorted) {
  dispatch_pair(key_dtype, value_dtype, [&](auto key_tag, auto value_tag) {
    using K = typename decltype(key_tag)::type;
    using V = typename decltype(value_tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      top_k_pairs<K, V>(ctx, as_span<const K>(keys, n_keys), as_span<const V>(values, n_values), k,
                        as_span<K>(keys_out, n_keys_out), as_span<V>(values_out, n_values_out),
                        order_of(largest), sorted);
    });
  });
}

// Segmented: out holds k slots per segment; a fresh output (zero_first, zero_keys,
// zero_values) is zeroed first on the call's stream, so the slots past a segment shorter
// than k read 0.
void segmented_top_k_of(int device, address stream, int dtype, address in, count n_in,
                        address offsets, count n_offsets, count k, address out, count n_out,
                        bool largest, bool sorted, bool zero_first) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      if (zero_first)
        ctx.fill_bytes(reinterpret_cast<void*>(out), 0, std::size_t(n_out) * sizeof(T));
      segmented_top_k<T>(ctx, as_span<const T>(in, n_in),
                         as_span<const std::int64_t>(offsets, n_offsets), k, as_span<T>(out, n_out),
                         order_of(largest), sorted);
    });
  });
}

void segmented_top_k_pairs_of(int device, address stream, int key_dtype, int value_dtype,
                              address keys, count n_keys, address values, count n_values,
                              address offsets, count n_offsets, count k, address keys_out,
                              count n_keys_out, address values_out, count n_values_out,
                              bool largest, bool sorted, bool zero_keys, bool zero_values) {
  dispatch_pair(key_dtype, value_dtype, [&](auto key_tag, auto value_tag) {
    using K = typename decltype(key_tag)::type;
    using V = typename decltype(value_tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      if (zero_keys)
        ctx.fill_bytes(reinterpret_cast<void*>(keys_out), 0,
                       std::size_t(n_keys_out) * sizeof(K));
      if (zero_values)
        ctx.fill_bytes(reinterpret_cast<void*>(values_out), 0,
                       std::size_t(n_values_out) * sizeof(V));
      segmented_top_k_pairs<K, V>(ctx, as_span<const K>(keys, n_keys),
                                  as_span<const V>(values, n_values),
                                  as_span<const std::int64_t>(offsets, n_offsets), k,
                                  as_span<K>(keys_out, n_keys_out),
                                  as_span<V>(values_out, n_values_out), order_of(largest), sorted);
    });
  });
}

}  // namespace

void bind_keyed(nb::module_& m) {
  m.def("reduce_by_key", &reduce_by_key_of);
  m.def("scan_by_key", &scan_by_key_of);
  m.def("unique", &unique_of);
  m.def("unique_count", &unique_count_of);
  m.def("unique_by_key", &unique_by_key_of);
  m.def("run_length_encode", &run_length_encode_of);
  m.def("reduce_by_key_into", &reduce_by_key_into_of);
  m.def("unique_into", &unique_into_of);
  m.def("unique_count_into", &unique_count_into_of);
  m.def("unique_by_key_into", &unique_by_key_into_of);
  m.def("run_length_encode_into", &run_length_encode_into_of);
  m.def("merge", &merge_of);
  m.def("merge_by_key", &merge_by_key_of);
  m.def("search", &search_of);
  m.def("top_k", &top_k_of);
  m.def("top_k_pairs", &top_k_pairs_of);
  m.def("segmented_top_k", &segmented_top_k_of);
  m.def("segmented_top_k_pairs", &segmented_top_k_pairs_of);
}

}  // namespace parprim::python
