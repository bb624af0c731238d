// Bindings of transform, reduce, argmin/argmax, the scans, dot, gemm and histogram. Each entry takes
// (device, stream, element type code, then every array as address and element count, then
// options) from the Python layer, which checks types and devices and allocates outputs.
#include <cstdint>

#include "common.hpp"
#include "parprim/dot.hpp"
#include "parprim/extremum.hpp"
#include "parprim/gemm.hpp"
#include "parprim/histogram.hpp"
#include "parprim/reduce.hpp"
#include "parprim/scan.hpp"
#include "parprim/transform.hpp"

namespace parprim::python {

namespace {

using address = std::uintptr_t;
using count = std::int64_t;

void transform_unary(int device, address stream, int dtype, address in, count n_in, address out,
                     count n_out, int f) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      transform<T>(ctx, as_span<const T>(in, n_in), as_span<T>(out, n_out), unary_op(f));
    });
  });
}

void transform_binary(int device, address stream, int dtype, address a, count n_a, address b,
                      count n_b, address out, count n_out, int f) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      transform<T>(ctx, as_span<const T>(a, n_a), as_span<const T>(b, n_b), as_span<T>(out, n_out),
                   binary_op(f));
    });
  });
}

void reduce_to(int device, address stream, int dtype, address in, count n_in, address out,
               count n_out, int o, int algorithm) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      reduce_into<T>(ctx, as_span<const T>(in, n_in), as_span<T>(out, n_out), op(o),
                     reduce_algorithm(algorithm));
    });
  });
}

// argmin_into / argmax_into: the value and the int64 index into one-element arrays.
void extremum_to(int device, address stream, int dtype, address in, count n_in, address value,
                 count n_value, address index, count n_index, bool largest) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      const auto x = as_span<const T>(in, n_in);
      const auto v = as_span<T>(value, n_value);
      const auto i = as_span<std::int64_t>(index, n_index);
      if (largest) argmax_into<T>(ctx, x, v, i);
      else argmin_into<T>(ctx, x, v, i);
    });
  });
}

// from_init: out[i] = init op x[0] op ... op x[i], `init` a Python number converted as
// exclusive_scan's below (nanobind refuses None for a handle, so the flag travels apart).
void scan_inclusive(int device, address stream, int dtype, address in, count n_in, address out,
                    count n_out, bool from_init, nb::handle init, int o, int algorithm) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T first = nb::cast<T>(init);
    run_on(device, stream, [&](const context& ctx) {
      const auto x = as_span<const T>(in, n_in);
      const auto y = as_span<T>(out, n_out);
      if (from_init) inclusive_scan<T>(ctx, x, y, first, op(o), scan_algorithm(algorithm));
      else inclusive_scan<T>(ctx, x, y, op(o), scan_algorithm(algorithm));
    });
  });
}

// `init` arrives as a Python number and is converted to the element type before the GIL is
// released (an integer that does not fit raises TypeError there).
void scan_exclusive(int device, address stream, int dtype, address in, count n_in, address out,
                    count n_out, nb::handle init, int o, int algorithm) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T first = nb::cast<T>(init);
    run_on(device, stream, [&](const context& ctx) {
      exclusive_scan<T>(ctx, as_span<const T>(in, n_in), as_span<T>(out, n_out), first, op(o),
                        scan_algorithm(algorithm));
    });
  });
}

void dot_to(int device, address stream, int dtype, address x, count n_x, address y, count n_y,
            address out, count n_out, int algorithm) {
  dispatch<float, double>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      dot_into<T>(ctx, as_span<const T>(x, n_x), as_span<const T>(y, n_y), as_span<T>(out, n_out),
                  dot_algorithm(algorithm));
    });
  });
}

void gemm_to(int device, address stream, int dtype, address a, count n_a, address b, count n_b,
             address c, count n_c, count m, count n, count k, double alpha, double beta,
             bool trans_a, bool trans_b, int algorithm) {
  dispatch<float, double>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_on(device, stream, [&](const context& ctx) {
      gemm<T>(ctx, as_span<const T>(a, n_a), as_span<const T>(b, n_b), as_span<T>(c, n_c), m, n, k,
              T(alpha), T(beta), trans_a ? transpose::yes : transpose::no,
              trans_b ? transpose::yes : transpose::no, gemm_algorithm(algorithm));
    });
  });
}

void histogram_to(int device, address stream, int dtype, address samples, count n_samples,
                  address bins, count n_bins_out, count num_bins, nb::handle lower,
                  nb::handle upper) {
  dispatch<PARPRIM_PY_ALL_TYPES>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T lo = nb::cast<T>(lower), hi = nb::cast<T>(upper);
    run_on(device, stream, [&](const context& ctx) {
      histogram<T>(ctx, as_span<const T>(samples, n_samples),
                   as_span<std::uint64_t>(bins, n_bins_out), num_bins, lo, hi);
    });
  });
}

}  // namespace

void bind_elementwise(nb::module_& m) {
  m.def("transform_unary", &transform_unary);
  m.def("transform_binary", &transform_binary);
  m.def("reduce_into", &reduce_to);
  m.def("extremum_into", &extremum_to);
  m.def("inclusive_scan", &scan_inclusive);
  m.def("exclusive_scan", &scan_exclusive);
  m.def("dot_into", &dot_to);
  m.def("gemm", &gemm_to);
  m.def("histogram", &histogram_to);
}

}  // namespace parprim::python
