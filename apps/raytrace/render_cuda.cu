// The ray tracer on CUDA: spheres in __constant__ memory or in global memory.
//
// Every thread shades one pixel and walks the whole sphere list in the same order, so at
// each step all lanes of a warp read the same sphere: the constant cache serves that with a
// single broadcast, the seed's reason for putting the spheres there. The global variant
// reads the same bytes through L1. This file is compiled with -fmad=false so that its float
// arithmetic rounds exactly like the CPU renderer's (see trace.hpp).
#include <cuda_runtime.h>

#include <map>
#include <mutex>

#include "parprim/cuda/detail/check.hpp"
#include "cuda_frames.hpp"
#include "parprim/buffer.hpp"
#include "parprim/timer.hpp"
#include "render.hpp"

namespace parprim::raytrace {

namespace {

__constant__ sphere c_spheres[max_constant_spheres];

struct constant_spheres {
  __device__ __forceinline__ const sphere& operator[](int i) const { return c_spheres[i]; }
};
struct global_spheres {
  const sphere* __restrict__ p;
  __device__ __forceinline__ const sphere& operator[](int i) const { return p[i]; }
};

constexpr int block_x = 32, block_y = 8;  // a warp shades 32 neighbouring pixels of a row

template <class Spheres>
__global__ void __launch_bounds__(block_x* block_y)
    trace_kernel(Spheres spheres, int count, camera cam, std::uint8_t* __restrict__ rgb) {
  const int px = blockIdx.x * block_x + threadIdx.x;
  const int py = blockIdx.y * block_y + threadIdx.y;
  if (px >= cam.width || py >= cam.height) return;  // no barriers: early exit is safe
  trace_pixel(spheres, count, cam, px, py, rgb + 3 * (std::size_t(py) * cam.width + px));
}

// Which renderer last filled each device's constant memory.
std::mutex owner_mutex;
std::map<int, std::uint64_t> constant_owner;
std::uint64_t next_id = 1;

cudaStream_t stream_of(const context& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }

}  // namespace

struct cuda_frames::state {
  context ctx;
  camera cam;
  bool use_constant;
  int count;
  buffer<sphere> spheres;
  buffer<std::uint8_t> image;
  std::uint64_t id;
  state(const context& c, const scene& s, const camera& cm, bool constant)
      : ctx(c), cam(cm), use_constant(constant), count(int(s.spheres.size())),
        spheres(buffer<sphere>::from_host(c, s.spheres)),
        image(c, std::int64_t(cm.width) * cm.height * 3) {
    std::lock_guard<std::mutex> lock(owner_mutex);
    id = next_id++;
  }
};

cuda_frames::cuda_frames(const context& ctx, const scene& s, const camera& cam, bool use_constant)
    : s_(std::make_unique<state>(ctx, s, cam, use_constant)) {}

cuda_frames::~cuda_frames() = default;

void cuda_frames::render() {
  state& s = *s_;
  if (s.use_constant && s.count > 0) {
    std::lock_guard<std::mutex> lock(owner_mutex);
    auto& owner = constant_owner[s.ctx.device()];
    if (owner != s.id) {
      PARPRIM_CUDA_CHECK(s.ctx.name(), "raytrace",
                         cudaMemcpyToSymbolAsync(c_spheres, s.spheres.data(),
                                                 std::size_t(s.count) * sizeof(sphere), 0,
                                                 cudaMemcpyDeviceToDevice, stream_of(s.ctx)));
      owner = s.id;
    }
  }
  const dim3 block(block_x, block_y);
  const dim3 grid((s.cam.width + block_x - 1) / block_x, (s.cam.height + block_y - 1) / block_y);
  if (s.use_constant)
    trace_kernel<<<grid, block, 0, stream_of(s.ctx)>>>(constant_spheres{}, s.count, s.cam, s.image.data());
  else
    trace_kernel<<<grid, block, 0, stream_of(s.ctx)>>>(global_spheres{s.spheres.data()}, s.count,
                                                       s.cam, s.image.data());
  PARPRIM_LAUNCH_CHECK(s.ctx.state(), "raytrace");
}

double cuda_frames::time_frames(int frames) {
  state& s = *s_;
  render();  // warm-up (and the constant-memory upload, if any)
  stream_timer timer(s.ctx, "raytrace");
  const double ms = timer.time_ms([&] {
    for (int f = 0; f < frames; ++f) render();
  });
  return ms / frames;
}

std::vector<std::uint8_t> cuda_frames::image() const { return s_->image.to_host(); }

}  // namespace parprim::raytrace
