// The words of an out-of-range report, shared by the immediate (cpu) and the deferred (cuda)
// checks so that both backends raise the same message.
#pragma once

#include <cstdint>
#include <string>

namespace parprim::detail {

// "indices[17] is outside [0, 100) (values.size()); it is the first out-of-range index"
inline std::string bad_index_what(std::int64_t pos, const char* bound_name, std::int64_t size) {
  return "indices[" + std::to_string(pos) + "] is outside [0, " + std::to_string(size) + ") (" +
         bound_name + ".size()); it is the first out-of-range index";
}

// "keys_in[5] is outside [10, 10 + 16); it is the first out-of-range key"
inline std::string bad_key_what(std::int64_t pos, long long min_key, std::int64_t key_range) {
  return "keys_in[" + std::to_string(pos) + "] is outside [" + std::to_string(min_key) + ", " +
         std::to_string(min_key) + " + " + std::to_string(key_range) +
         "); it is the first out-of-range key";
}

}  // namespace parprim::detail
