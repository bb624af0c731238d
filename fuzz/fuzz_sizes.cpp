// libFuzzer target: the `parprim bench --sizes` parser on any text. A result is in
// [1, max_size]; anything else is a parprim::error. Overflow is caught by UBSan.
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/sizes.hpp"
#include "parprim/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const std::int64_t n = parprim::apps::parse_size(text, "fuzz");
    if (n < 1 || n > parprim::apps::max_size) __builtin_trap();
  } catch (const parprim::error& e) {
    if (e.code() != parprim::errc::invalid_argument) __builtin_trap();
  }
  return 0;
}
