// The --sizes parser: every product is checked before it is formed, so no text can overflow.
#include "common/sizes.hpp"

#include <algorithm>
#include <cctype>

#include "parprim/error.hpp"

namespace parprim::apps {
namespace {

[[noreturn]] void bad(const std::string& who, const std::string& what) {
  throw error(errc::invalid_argument, who + ": " + what);
}

// A run of decimal digits (a leading '-' allowed): its value, saturated at 2 * max_size so
// that any longer number still reads as too large. `end` is one past the digits.
bool read_number(const std::string& text, std::size_t begin, std::size_t& end, bool& negative,
                 std::int64_t& value) {
  std::size_t i = begin;
  negative = i < text.size() && text[i] == '-';
  if (negative) ++i;
  const std::size_t digits = i;
  value = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i)
    value = std::min<std::int64_t>(2 * max_size, value * 10 + (text[i] - '0'));
  end = i;
  return i > digits;
}

}  // namespace

std::int64_t parse_size(const std::string& text, const std::string& who) {
  const std::string not_a_number = "size '" + text + "' is not a number (use e.g. 1048576, 2^20 or 1M)";
  const std::string too_large = "size " + text + " is absurdly large (limit 2^36 elements)";
  std::size_t end = 0;
  bool negative = false;
  std::int64_t value = 0;
  if (!read_number(text, 0, end, negative, value)) bad(who, not_a_number);
  if (end < text.size() && text[end] == '^') {
    std::size_t exp_end = 0;
    bool exp_negative = false;
    std::int64_t exponent = 0;
    if (negative || !read_number(text, end + 1, exp_end, exp_negative, exponent) ||
        exp_end != text.size() || exp_negative || value < 2)
      bad(who, not_a_number);
    std::int64_t result = 1;
    for (std::int64_t i = 0; i < exponent; ++i) {
      if (result > max_size / value) bad(who, too_large);  // checked before multiplying
      result *= value;
    }
    value = result;
  } else {
    const std::string suffix = text.substr(end);
    std::int64_t mult = 1;
    if (suffix == "K" || suffix == "Ki") mult = std::int64_t(1) << 10;
    else if (suffix == "M" || suffix == "Mi") mult = std::int64_t(1) << 20;
    else if (suffix == "G" || suffix == "Gi") mult = std::int64_t(1) << 30;
    else if (!suffix.empty()) bad(who, not_a_number);
    if (negative && value > 0) bad(who, "size " + text + " is negative");
    if (value > max_size / mult) bad(who, too_large);
    value *= mult;
  }
  if (value <= 0) bad(who, "size " + text + " must be at least 1");
  if (value > max_size) bad(who, too_large);
  return value;
}

}  // namespace parprim::apps
