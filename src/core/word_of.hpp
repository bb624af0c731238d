// The unsigned word of a given size: kernels that only move 4- or 8-byte elements are built
// once per width rather than once per element type.
#pragma once

#include <cstdint>

namespace parprim::detail {

template <int Bytes>
struct word_of;
template <>
struct word_of<4> {
  using type = std::uint32_t;
};
template <>
struct word_of<8> {
  using type = std::uint64_t;
};

}  // namespace parprim::detail
