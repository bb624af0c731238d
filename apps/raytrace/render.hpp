// The sphere ray tracer: one API over the CPU and CUDA backends.
//
// On CUDA the spheres live either in __constant__ memory (the course's version: every lane
// of a warp reads the same sphere at the same time, which the constant cache serves with one
// broadcast) or in global memory (through L1). Constant memory holds at most
// max_constant_spheres; asking for more falls back to global memory, and the renderer says
// so (fell_back()). The CPU backend ignores the choice.
//
// Constant memory is one array per device for the whole program: a renderer copies its
// scene there before each frame unless it was the last one to do so on that device.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "parprim/context.hpp"
#include "scene.hpp"

namespace parprim::raytrace {

enum class sphere_memory { constant, global, automatic };
const char* to_string(sphere_memory m) noexcept;

// 2000 spheres of 32 bytes: 64,000 of the 65,536 bytes of constant memory.
inline constexpr int max_constant_spheres = 2000;

class renderer {
 public:
  // width, height in [1, 16384]. Throws parprim::error on bad arguments.
  renderer(const context& ctx, const scene& s, int width, int height,
           sphere_memory memory = sphere_memory::automatic);
  ~renderer();
  renderer(const renderer&) = delete;
  renderer& operator=(const renderer&) = delete;

  // What the frames use: constant or global on CUDA (after any fallback), global on the CPU.
  sphere_memory memory() const;
  // True when constant memory was asked for (or automatic) but the scene did not fit.
  bool fell_back() const;

  void render();                          // one frame (stream-ordered on CUDA)
  double time_frames(int frames);         // mean ms per frame over `frames` frames
  std::vector<std::uint8_t> image() const;  // RGB bytes, row by row from the top (waits)
  int width() const;
  int height() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// Writes RGB bytes as an 8-bit PNG (apps::write_rgb_png); throws parprim::error naming the path.
void write_png(const std::string& path, const std::vector<std::uint8_t>& rgb, int width, int height);

}  // namespace parprim::raytrace
