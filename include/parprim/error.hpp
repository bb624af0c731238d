// parprim::error: the one exception type the library throws.
//
// Every message names the function, the backend and the offending argument, e.g.
//   parprim::radix_sort_pairs [cuda:0]: keys.size()=1000 but values.size()=999
#pragma once

#include <stdexcept>
#include <string>

namespace parprim {

enum class errc {
  invalid_argument,     // a size, pointer, option or index the call cannot accept
  out_of_range,         // an index outside its array (gather/scatter), found on the device
  backend_unavailable,  // asked for CUDA where there is no device or no CUDA build
  out_of_memory,        // an allocation failed
  device_error,         // a CUDA runtime or launch error
  io_error,             // a file could not be read or written
};

const char* to_string(errc code) noexcept;

class error : public std::runtime_error {
 public:
  error(errc code, const std::string& message) : std::runtime_error(message), code_(code) {}
  errc code() const noexcept { return code_; }

 private:
  errc code_;
};

}  // namespace parprim
