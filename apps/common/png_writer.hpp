// One PNG writer for the applications (N-body frames, ray-traced images).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace parprim::apps {

// Writes width x height RGB bytes (row by row from the top) as an 8-bit PNG through an
// output_file (output_file.hpp): a temporary file renamed into place when complete, only over
// a missing or regular file. Throws parprim::error: invalid_argument when rgb does not hold width x height pixels,
// io_error naming the path when the file cannot be written. `who` starts every message.
void write_rgb_png(const std::string& path, const std::vector<std::uint8_t>& rgb, int width,
                   int height, const std::string& who);

}  // namespace parprim::apps
