// The closed set of element types the library is precompiled for.
#pragma once

#include <cstdint>
#include <type_traits>

namespace parprim {

template <class T>
inline constexpr bool is_arithmetic_type_v =
    std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
    std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, double>;

// Short names used in messages, benchmark rows and test names: i32 u32 i64 u64 f32 f64.
template <class T>
constexpr const char* type_name() {
  if constexpr (std::is_same_v<T, std::int32_t>) return "i32";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "u32";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "i64";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "u64";
  else if constexpr (std::is_same_v<T, float>) return "f32";
  else if constexpr (std::is_same_v<T, double>) return "f64";
  else return "?";
}

}  // namespace parprim

// The static_assert message of a precompiled entry point called with another type.
#define PARPRIM_PRECOMPILED_TYPES_MESSAGE(function)                                            \
  "parprim::" #function " with an op/predicate description is precompiled for i32, u32, i64, " \
  "u64, f32 and f64 only; for any other trivially copyable type use the generic overload "     \
  "that takes a functor or lambda (see parprim/" #function ".hpp)"

// X(type) for every precompiled element type; used for explicit instantiations.
#define PARPRIM_FOR_EACH_TYPE(X) \
  X(std::int32_t)                \
  X(std::uint32_t)               \
  X(std::int64_t)                \
  X(std::uint64_t)               \
  X(float)                       \
  X(double)

// X(A, type) for every precompiled element type: the inner list of a two-type instantiation
// (PARPRIM_FOR_EACH_TYPE over K, this over V). A macro of its own, not PARPRIM_FOR_EACH_TYPE
// again: a macro does not expand inside its own expansion.
#define PARPRIM_FOR_EACH_TYPE_WITH(X, A) \
  X(A, std::int32_t)                     \
  X(A, std::uint32_t)                    \
  X(A, std::int64_t)                     \
  X(A, std::uint64_t)                    \
  X(A, float)                            \
  X(A, double)
