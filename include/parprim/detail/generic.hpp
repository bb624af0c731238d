// What every generic primitive shares: the element-type checks, operator traits, and the
// hook through which a generic call reaches its CUDA body.
//
// The CUDA hook. A generic call with a caller's operator needs a kernel compiled for that
// operator, which only nvcc can build. Each primitive has a tag (reduce_tag, ...) and
// `cuda_body<Tag, WithNvcc>`:
//   * WithNvcc = false (a file compiled by any other compiler): the primary template below,
//     whose run() throws parprim::error saying to compile the call with nvcc;
//   * WithNvcc = true (a file compiled by nvcc): the specialization in parprim/cuda/<X>.cuh,
//     which parprim/<X>.hpp includes by itself under nvcc.
// The generic front ends live in an inline namespace named after the compiler kind
// (`with_nvcc` / `without_nvcc`), so parprim::reduce<T, Op> compiled by g++ and by nvcc
// are two different functions: a program that calls the same <T, Op> from both kinds of
// files cannot have one definition replace the other at link time (one definition rule).
#pragma once

#include <string>
#include <type_traits>

#include "parprim/context.hpp"
#include "parprim/error.hpp"
#include "parprim/span.hpp"

#if defined(__CUDACC__)
#define PARPRIM_WITH_NVCC 1
#define PARPRIM_TU_NAMESPACE with_nvcc
#else
#define PARPRIM_WITH_NVCC 0
#define PARPRIM_TU_NAMESPACE without_nvcc
#endif

namespace parprim {

// Operators that may combine operands in either order. Only operators marked here (the
// library's own plus/min/max functors) get the reduction layouts that reorder elements; a
// caller may mark its own: template <> struct is_commutative<my_op> : std::true_type {};
template <class Op>
struct is_commutative : std::false_type {};

namespace detail {

template <class T>
struct type_identity {
  using type = T;
};
// A parameter that does not take part in template argument deduction.
template <class T>
using no_deduce_t = typename type_identity<T>::type;

template <class...>
inline constexpr bool dependent_false = false;

// Generic primitives take their inputs as span<T> or span<const T>: element type E, value T.
template <class E>
using value_t = std::remove_const_t<E>;
template <class E>
span<const value_t<E>> as_input(span<E> s) {
  return span<const value_t<E>>(s.data(), s.size());
}

// Elements move between host and device and through shuffles and shared memory as bytes.
template <class T>
constexpr void check_element_type() {
  static_assert(std::is_trivially_copyable_v<T>,
                "parprim's generic primitives need a trivially copyable element type (no "
                "user-provided copy/move/destructor): elements are copied as bytes");
  static_assert(std::is_default_constructible_v<T>,
                "parprim's generic primitives need a default-constructible element type");
}

// Operators with a static identity() (the library's functors) let kernels pad partial tiles
// with it; any other associative operator works without one.
template <class Op, class = void>
struct has_identity : std::false_type {};
template <class Op>
struct has_identity<Op, std::void_t<decltype(Op::identity())>> : std::true_type {};

template <class Op>
inline constexpr bool reorderable_v = is_commutative<Op>::value && has_identity<Op>::value;

// The primitives' tags.
struct reduce_tag { static constexpr const char* header = "parprim/cuda/reduce.cuh"; };
struct scan_tag { static constexpr const char* header = "parprim/cuda/scan.cuh"; };
struct select_tag { static constexpr const char* header = "parprim/cuda/partition.cuh"; };
struct transform_tag { static constexpr const char* header = "parprim/cuda/transform.cuh"; };
struct merge_tag { static constexpr const char* header = "parprim/cuda/merge.cuh"; };
struct search_tag { static constexpr const char* header = "parprim/cuda/search.cuh"; };

[[noreturn]] inline void throw_needs_nvcc(const context& ctx, const char* function,
                                          const char* header) {
  throw error(errc::backend_unavailable,
              std::string("parprim::") + function + " [" + ctx.name() +
                  "]: a caller-supplied operator on a CUDA context needs its kernel compiled "
                  "by nvcc: call it from a .cu file compiled with nvcc --extended-lambda (" +
                  header + " is then included by parprim/parprim.hpp, or include it "
                  "yourself), or use the precompiled op/predicate overloads from this file");
}

// PARPRIM_WITH_NVCC as a value that depends on T, so that naming cuda_body<Tag,
// with_nvcc<T>> inside a template waits for the call (after parprim/cuda/X.cuh is seen).
template <class T>
inline constexpr bool with_nvcc = PARPRIM_WITH_NVCC != 0;

// Primary template: the caller's file was not compiled by nvcc, so no kernel exists.
template <class Tag, bool WithNvcc>
struct cuda_body {
  static_assert(!WithNvcc, "parprim::detail::cuda_body: include the parprim/cuda/*.cuh header");
  template <class... Args>
  [[noreturn]] static void run(const context& ctx, const char* function, Args&&...) {
    throw_needs_nvcc(ctx, function, Tag::header);
  }
};

}  // namespace detail
}  // namespace parprim
