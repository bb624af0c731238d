// Bindings of the primitives that move elements: radix sorts (and argsort), gather/scatter,
// copy_if/partition/split and counting sort. Same calling convention as bind_elementwise.cpp.
#include <cstdint>
#include <string>

#include "common.hpp"
#include "parprim/buffer.hpp"
#include "parprim/counting_sort.hpp"
#include "parprim/error.hpp"
#include "parprim/gather_scatter.hpp"
#include "parprim/partition.hpp"
#include "parprim/scan.hpp"
#include "parprim/sort.hpp"
#include "parprim/transform.hpp"
#include "merge_sort_entry.hpp"

namespace parprim::python {

namespace {

using address = std::uintptr_t;
using count = std::int64_t;

#define PARPRIM_PY_INDEX_TYPES std::int32_t, std::int64_t

void sort_keys(int device, address stream, int dtype, address in, count n_in, address out,
               count n_out, bool descending, int begin_bit, int end_bit, int algorithm) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using K = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      copy_into<K>(ctx, "sort", "keys", in, n_in, out, n_out);
      radix_sort<K>(ctx, as_span<K>(out, n_out), order_of(descending), begin_bit, end_bit,
                    sort_algorithm(algorithm));
    });
  });
}

void sort_pairs(int device, address stream, int key_dtype, int value_dtype, address keys_in,
                count n_keys_in, address values_in, count n_values_in, address keys_out,
                count n_keys_out, address values_out, count n_values_out, bool descending,
                int begin_bit, int end_bit, int algorithm) {
  dispatch<PARPRIM_PY_ALL_TYPES>(key_dtype, [&](auto key_tag) {
    using K = typename decltype(key_tag)::type;
    dispatch<PARPRIM_PY_ALL_TYPES>(value_dtype, [&](auto value_tag) {
      using V = typename decltype(value_tag)::type;
      run_on(device, stream, [&](const context& ctx) {
        copy_into<K>(ctx, "sort_pairs", "keys", keys_in, n_keys_in, keys_out, n_keys_out);
        copy_into<V>(ctx, "sort_pairs", "values", values_in, n_values_in, values_out, n_values_out);
        radix_sort_pairs<K, V>(ctx, as_span<K>(keys_out, n_keys_out),
                               as_span<V>(values_out, n_values_out), order_of(descending),
                               begin_bit, end_bit, sort_algorithm(algorithm));
      });
    });
  });
}

// parprim::argsort: the keys stay as they are; the sort makes the indices itself.
void argsort(int device, address stream, int key_dtype, int index_dtype, address keys, count n_keys,
             address indices, count n_indices, bool descending, int begin_bit, int end_bit) {
  dispatch<PARPRIM_PY_ALL_TYPES>(key_dtype, [&](auto key_tag) {
    using K = typename decltype(key_tag)::type;
    dispatch<PARPRIM_PY_INDEX_TYPES>(index_dtype, [&](auto index_tag) {
      using I = typename decltype(index_tag)::type;
      run_on(device, stream, [&](const context& ctx) {
        parprim::argsort<K, I>(ctx, as_span<const K>(keys, n_keys), as_span<I>(indices, n_indices),
                               order_of(descending), begin_bit, end_bit);
      });
    });
  });
}

// check: on CUDA, wait for the stream so that an out-of-range index is raised by this call
// (the CPU backend raises it before writing anything either way).
void gather_values(int device, address stream, int value_dtype, int index_dtype, address values,
                   count n_values, address indices, count n_indices, address out, count n_out,
                   bool check) {
  dispatch<PARPRIM_PY_ALL_TYPES>(value_dtype, [&](auto value_tag) {
    using T = typename decltype(value_tag)::type;
    dispatch<PARPRIM_PY_INDEX_TYPES>(index_dtype, [&](auto index_tag) {
      using I = typename decltype(index_tag)::type;
      run_on(device, stream, [&](const context& ctx) {
        gather<T, I>(ctx, as_span<const T>(values, n_values), as_span<const I>(indices, n_indices),
                     as_span<T>(out, n_out));
        if (check) ctx.synchronize();
      });
    });
  });
}

void scatter_values(int device, address stream, int value_dtype, int index_dtype, address values,
                    count n_values, address indices, count n_indices, address out, count n_out,
                    bool multi_pass, int passes, bool check) {
  dispatch<PARPRIM_PY_ALL_TYPES>(value_dtype, [&](auto value_tag) {
    using T = typename decltype(value_tag)::type;
    dispatch<PARPRIM_PY_INDEX_TYPES>(index_dtype, [&](auto index_tag) {
      using I = typename decltype(index_tag)::type;
      scatter_options options;
      options.algorithm = multi_pass ? scatter_algorithm::multi_pass : scatter_algorithm::single_pass;
      options.passes = passes;
      run_on(device, stream, [&](const context& ctx) {
        scatter<T, I>(ctx, as_span<const T>(values, n_values), as_span<const I>(indices, n_indices),
                      as_span<T>(out, n_out), options);
        if (check) ctx.synchronize();
      });
    });
  });
}

// copy_if and the partitions return their count, so they wait for the stream (as the C++ calls
// do). mode: 0 copy_if, 1 partition, 2 unstable_partition.
count select(int device, address stream, int dtype, address in, count n_in, address out,
             count n_out, int cmp, nb::handle value, int mode) {
  return dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) -> count {
    using T = typename decltype(tag)::type;
    predicate<T> pred{compare(cmp), nb::cast<T>(value)};
    return run_on(device, stream, [&](const context& ctx) -> count {
      auto from = as_span<const T>(in, n_in);
      auto to = as_span<T>(out, n_out);
      if (mode == 1) return partition<T>(ctx, from, to, pred);
      if (mode == 2) return unstable_partition<T>(ctx, from, to, pred);
      return copy_if<T>(ctx, from, to, pred);
    });
  });
}

// copy_if without waiting: the count goes to count_to[0] on the device.
void copy_if_into_of(int device, address stream, int dtype, address in, count n_in, address out,
                     count n_out, address count_to, count n_count_to, int cmp, nb::handle value) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    predicate<T> pred{compare(cmp), nb::cast<T>(value)};
    run_on(device, stream, [&](const context& ctx) {
      copy_if_into<T>(ctx, as_span<const T>(in, n_in), as_span<T>(out, n_out),
                      as_span<std::int64_t>(count_to, n_count_to), pred);
    });
  });
}

void split_buckets(int device, address stream, int dtype, address in, count n_in, address out,
                   count n_out, bool even_range, int shift, int width, double lower, double upper,
                   count buckets, address offsets, count n_offsets) {
  bucket_fn f = even_range ? bucket_fn::even_range(lower, upper, buckets)
                           : bucket_fn::key_bits(shift, width);
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      split<T>(ctx, as_span<const T>(in, n_in), as_span<T>(out, n_out), f,
               as_span<std::int64_t>(offsets, n_offsets));
    });
  });
}

void counting_sort_keys(int device, address stream, int key_dtype, address keys_in, count n_in,
                        address keys_out, count n_out, count key_range, nb::handle min_key,
                        bool check) {
  dispatch<std::int32_t, std::uint32_t>(key_dtype, [&](auto tag) {
    using K = typename decltype(tag)::type;
    K lowest = nb::cast<K>(min_key);
    run_on(device, stream, [&](const context& ctx) {
      counting_sort<K>(ctx, as_span<const K>(keys_in, n_in), as_span<K>(keys_out, n_out),
                       key_range, lowest);
      if (check) ctx.synchronize();
    });
  });
}

void counting_sort_pairs_of(int device, address stream, int key_dtype, int value_dtype,
                            address keys_in, count n_keys_in, address values_in,
                            count n_values_in, address keys_out, count n_keys_out,
                            address values_out, count n_values_out, count key_range,
                            nb::handle min_key, bool check) {
  dispatch<std::int32_t, std::uint32_t>(key_dtype, [&](auto key_tag) {
    using K = typename decltype(key_tag)::type;
    K lowest = nb::cast<K>(min_key);
    dispatch<PARPRIM_PY_ALL_TYPES>(value_dtype, [&](auto value_tag) {
      using V = typename decltype(value_tag)::type;
      run_on(device, stream, [&](const context& ctx) {
        counting_sort_pairs<K, V>(ctx, as_span<const K>(keys_in, n_keys_in),
                                  as_span<const V>(values_in, n_values_in),
                                  as_span<K>(keys_out, n_keys_out),
                                  as_span<V>(values_out, n_values_out), key_range, lowest);
        if (check) ctx.synchronize();
      });
    });
  });
}

void merge_sort_into(int device, address stream, int dtype, address in, count n_in, address out,
                     count n_out) {
  run_on(device, stream, [&](const context& ctx) {
    dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
      copy_into<typename decltype(tag)::type>(ctx, "merge_sort", "keys", in, n_in, out, n_out);
    });
    merge_sort_keys(ctx, dtype, out, n_out);
  });
}

void merge_sort_pairs_into(int device, address stream, int key_dtype, address keys_in,
                           count n_keys_in, address values_in, count n_values_in,
                           address keys_out, count n_keys_out, address values_out,
                           count n_values_out) {
  run_on(device, stream, [&](const context& ctx) {
    dispatch<PARPRIM_PY_ALL_TYPES>(key_dtype, [&](auto tag) {
      copy_into<typename decltype(tag)::type>(ctx, "merge_sort_pairs", "keys", keys_in, n_keys_in,
                                              keys_out, n_keys_out);
    });
    copy_into<std::int64_t>(ctx, "merge_sort_pairs", "values", values_in, n_values_in, values_out,
                            n_values_out);
    merge_sort_keys_with_indices(ctx, key_dtype, keys_out, n_keys_out, values_out, n_values_out);
  });
}

}  // namespace

void bind_ordering(nb::module_& m) {
  m.def("sort", &sort_keys);
  m.def("sort_pairs", &sort_pairs);
  m.def("argsort", &argsort);
  m.def("gather", &gather_values);
  m.def("scatter", &scatter_values);
  m.def("select", &select);
  m.def("copy_if_into", &copy_if_into_of);
  m.def("split", &split_buckets);
  m.def("counting_sort", &counting_sort_keys);
  m.def("counting_sort_pairs", &counting_sort_pairs_of);
  m.def("merge_sort", &merge_sort_into);
  m.def("merge_sort_pairs", &merge_sort_pairs_into);
}

}  // namespace parprim::python
