// The renderer's front end and its CPU backend (OpenMP over rows).
#include <chrono>
#include <string>

#include "common/png_writer.hpp"
#include "parprim/error.hpp"
#include "render.hpp"
#include "trace.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda_frames.hpp"
#endif

namespace parprim::raytrace {

const char* to_string(sphere_memory m) noexcept {
  switch (m) {
    case sphere_memory::constant: return "constant";
    case sphere_memory::global: return "global";
    case sphere_memory::automatic: return "auto";
  }
  return "unknown";
}

struct renderer::impl {
  context ctx;
  scene sc;
  camera cam{};
  sphere_memory used = sphere_memory::global;
  bool fell_back = false;
  std::vector<std::uint8_t> host_image;  // the CPU backend's frame
#if PARPRIM_HAVE_CUDA
  std::unique_ptr<cuda_frames> gpu;
#endif
  explicit impl(const context& c) : ctx(c) {}

  void render_cpu() {
    const int w = cam.width, h = cam.height, n = int(sc.spheres.size());
    const sphere* spheres = sc.spheres.data();
    std::uint8_t* out = host_image.data();
    const camera c = cam;
#pragma omp parallel for schedule(dynamic, 4) num_threads(ctx.threads())
    for (int py = 0; py < h; ++py)
      for (int px = 0; px < w; ++px)
        trace_pixel(spheres, n, c, px, py, out + 3 * (std::size_t(py) * w + px));
  }
};

renderer::renderer(const context& ctx, const scene& s, int width, int height, sphere_memory memory)
    : impl_(std::make_unique<impl>(ctx)) {
  auto fail = [&](const std::string& what) {
    throw error(errc::invalid_argument, "parprim::raytrace [" + ctx.name() + "]: " + what);
  };
  if (width < 1 || width > 16384) fail("width=" + std::to_string(width) + " must lie in [1, 16384]");
  if (height < 1 || height > 16384) fail("height=" + std::to_string(height) + " must lie in [1, 16384]");
  if (memory != sphere_memory::constant && memory != sphere_memory::global &&
      memory != sphere_memory::automatic)
    fail("memory=" + std::to_string(int(memory)) + " is not a known option");
  impl_->sc = s;
  impl_->cam = camera{width, height, float(width) / float(height), s.light[0], s.light[1], s.light[2]};
  if (ctx.kind() == backend::cuda) {
    const bool fits = s.spheres.size() <= std::size_t(max_constant_spheres);
    const bool wants_constant = memory != sphere_memory::global;
    impl_->used = wants_constant && fits ? sphere_memory::constant : sphere_memory::global;
    impl_->fell_back = wants_constant && !fits;
#if PARPRIM_HAVE_CUDA
    impl_->gpu = std::make_unique<cuda_frames>(ctx, impl_->sc, impl_->cam,
                                               impl_->used == sphere_memory::constant);
#endif
  } else {
    impl_->host_image.assign(std::size_t(width) * height * 3, 0);
  }
}

renderer::~renderer() = default;

sphere_memory renderer::memory() const { return impl_->used; }
bool renderer::fell_back() const { return impl_->fell_back; }
int renderer::width() const { return impl_->cam.width; }
int renderer::height() const { return impl_->cam.height; }

void renderer::render() {
#if PARPRIM_HAVE_CUDA
  if (impl_->gpu) return impl_->gpu->render();
#endif
  impl_->render_cpu();
}

double renderer::time_frames(int frames) {
  if (frames < 1)
    throw error(errc::invalid_argument, "parprim::raytrace [" + impl_->ctx.name() +
                                            "]: frames=" + std::to_string(frames) + " must be at least 1");
#if PARPRIM_HAVE_CUDA
  if (impl_->gpu) return impl_->gpu->time_frames(frames);
#endif
  const auto t0 = std::chrono::steady_clock::now();
  for (int f = 0; f < frames; ++f) impl_->render_cpu();
  const std::chrono::duration<double, std::milli> dt = std::chrono::steady_clock::now() - t0;
  return dt.count() / frames;
}

std::vector<std::uint8_t> renderer::image() const {
#if PARPRIM_HAVE_CUDA
  if (impl_->gpu) return impl_->gpu->image();
#endif
  return impl_->host_image;
}

void write_png(const std::string& path, const std::vector<std::uint8_t>& rgb, int width, int height) {
  apps::write_rgb_png(path, rgb, width, height, "parprim::raytrace");
}

}  // namespace parprim::raytrace
