// The CUDA half of the renderer (render_cuda.cu), behind a plain C++ interface.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "parprim/context.hpp"
#include "scene.hpp"
#include "trace.hpp"

namespace parprim::raytrace {

class cuda_frames {
 public:
  cuda_frames(const context& ctx, const scene& s, const camera& cam, bool use_constant);
  ~cuda_frames();
  void render();
  double time_frames(int frames);
  std::vector<std::uint8_t> image() const;

 private:
  struct state;
  std::unique_ptr<state> s_;
};

}  // namespace parprim::raytrace
