// PNG frames of a body system for movies: the bodies projected on the x-y plane, brightness
// from the projected density (log scale), colour from the mean speed in each pixel (blue slow,
// white, orange fast). The camera and both scales are fixed by the first frame, so the frames
// of one run can be played as a movie.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "body_system.hpp"

namespace parprim::nbody {

struct camera {
  double cx = 0, cy = 0;       // centre of the view
  double half_width = 1;       // half the side of the square seen
  double density_ref = 1;      // mass per pixel that maps to a mid brightness
  double speed_ref = 1;        // speed that maps to the hottest colour
};

// A camera that frames the bulk (99% of the mass) of `bodies`, for size x size frames.
template <class T>
camera frame_camera(const body_set<T>& bodies, int size);

// RGB pixels, row by row from the top.
template <class T>
std::vector<std::uint8_t> render_frame(const body_set<T>& bodies, const camera& cam, int size);

// Writes an 8-bit RGB PNG through a temporary file (apps::write_rgb_png).
void write_png(const std::string& path, const std::vector<std::uint8_t>& rgb, int width, int height);

}  // namespace parprim::nbody
