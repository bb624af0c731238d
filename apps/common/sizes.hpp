// The element counts of `parprim bench --sizes`: "1048576", "2^20", or a count with a binary
// suffix K, M or G (also Ki, Mi, Gi): "16M" is 16 * 2^20.
#pragma once

#include <cstdint>
#include <string>

namespace parprim::apps {

// Largest size accepted: 2^36 elements (half a TiB of 8-byte words).
inline constexpr std::int64_t max_size = std::int64_t(1) << 36;

// Parses one size. Throws parprim::error (invalid_argument) starting with `who`: not a number,
// negative or zero, or above max_size. Never overflows, whatever the text.
std::int64_t parse_size(const std::string& text, const std::string& who);

}  // namespace parprim::apps
