// Shared pieces of the Python extension: how arrays, element types and streams arrive from
// the Python layer, and the contexts they run on.
//
// The Python layer (python/parprim/_arrays.py) reads every array's pointer, size, element type
// and device straight from the caller's library (NumPy, CuPy, PyTorch, __cuda_array_interface__
// or DLPack), checks contiguity, type and device there, and passes plain integers here. That
// keeps a call free of DLPack capsules and temporary objects (the per-call overhead budget is a
// few microseconds), and every array stays owned by the caller: nothing is copied.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

#include "parprim/context.hpp"
#include "parprim/error.hpp"
#include "parprim/sort.hpp"
#include "parprim/span.hpp"

namespace parprim::python {

namespace nb = nanobind;

// Element-type codes shared with _arrays.py (DTYPE_CODES there).
enum class dtype_code : int { i32 = 0, u32 = 1, i64 = 2, u64 = 3, f32 = 4, f64 = 5 };

template <class T>
constexpr dtype_code code_of() {
  if constexpr (std::is_same_v<T, std::int32_t>) return dtype_code::i32;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return dtype_code::u32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return dtype_code::i64;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return dtype_code::u64;
  else if constexpr (std::is_same_v<T, float>) return dtype_code::f32;
  else return dtype_code::f64;
}

template <class T>
struct type_tag {
  using type = T;
};

// Calls f(type_tag<T>{}) for the T among Ts whose code is `code`. The Python layer has already
// rejected other types with a message naming the supported ones, so a miss here is a bug in
// that layer, reported as such.
template <class... Ts, class F>
decltype(auto) dispatch(int code, F&& f) {
  using R = decltype(f(type_tag<std::tuple_element_t<0, std::tuple<Ts...>>>{}));
  if constexpr (std::is_void_v<R>) {
    bool found = ((static_cast<int>(code_of<Ts>()) == code ? (f(type_tag<Ts>{}), true) : false) || ...);
    if (!found) throw nb::type_error("parprim: element type code not supported by this call");
  } else {
    R result{};
    bool found = ((static_cast<int>(code_of<Ts>()) == code ? (result = f(type_tag<Ts>{}), true)
                                                          : false) || ...);
    if (!found) throw nb::type_error("parprim: element type code not supported by this call");
    return result;
  }
}

#define PARPRIM_PY_ALL_TYPES std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double

// An array as the Python layer passes it: its address and element count.
template <class T>
span<T> as_span(std::uintptr_t address, std::int64_t count) {
  return span<T>(reinterpret_cast<T*>(address), count);
}

// The context for a device (-1: the CPU backend) and a cudaStream_t given as an integer
// (0, the legacy default stream, is passed on as cudaStreamLegacy, since a null stream makes
// context::cuda create a stream of its own). Contexts are kept per (device, stream), so the
// caching allocator's blocks are reused from call to call on the same stream, and are returned
// by reference (no reference count touched per call).
const context& context_for(int device, std::uintptr_t stream);

// Makes `device` current for the duration of a call on it (the library launches on the
// current device) and restores the caller's device afterwards. Does nothing for the CPU.
class device_scope {
 public:
  explicit device_scope(int device);
  ~device_scope();
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  int previous_ = -1;
};

// Runs f(ctx) with the GIL released and the device current.
template <class F>
decltype(auto) run_on(int device, std::uintptr_t stream, F&& f) {
  nb::gil_scoped_release no_gil;
  device_scope scope(device);
  const context& ctx = context_for(device, stream);
  return f(ctx);
}

// The sorts work in place; a sort into another array first copies the input there
// (stream-ordered on the same context).
template <class T>
void copy_into(const context& ctx, const char* who, const char* what, std::uintptr_t from,
               std::int64_t n_from, std::uintptr_t to, std::int64_t n_to) {
  if (n_from != n_to)
    throw error(errc::invalid_argument, std::string("parprim.") + who + " [" + ctx.name() + "]: " +
                                            what + " has " + std::to_string(n_from) +
                                            " elements but its output has " + std::to_string(n_to));
  if (from != to && n_from > 0)
    ctx.copy(reinterpret_cast<void*>(to), reinterpret_cast<const void*>(from),
             static_cast<std::size_t>(n_from) * sizeof(T));
}

inline sort_order order_of(bool descending) {
  return descending ? sort_order::descending : sort_order::ascending;
}

void bind_elementwise(nb::module_& m);  // transform, reduce, scans, dot, gemm, histogram
void bind_ordering(nb::module_& m);     // sorts, gather/scatter, copy_if/partition/split
void bind_keyed(nb::module_& m);       // by-key, unique, merge, search, top_k
void bind_segmented(nb::module_& m);   // segmented reduce/scans/sorts, morton codes
void bind_apps(nb::module_& m);         // nbody, raytrace

}  // namespace parprim::python
