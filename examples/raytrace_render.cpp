// The ray tracer's API: render a seeded random scene on the best backend and save it as PNG.
#include "raytrace/render.hpp"

#include <cstdio>

int main() {
  using namespace parprim;
  raytrace::scene scene = raytrace::random_scene(20, 7);
  raytrace::renderer renderer(context::best_available(), scene, 320, 240);
  renderer.render();
  std::vector<std::uint8_t> rgb = renderer.image();  // waits for the frame
  raytrace::write_png("raytrace_render.png", rgb, renderer.width(), renderer.height());

  std::size_t lit = 0;
  for (auto channel : rgb) lit += channel != 0;
  std::printf("%dx%d frame, %zu of %zu channels lit, written to raytrace_render.png\n",
              renderer.width(), renderer.height(), lit, rgb.size());
  return rgb.size() == 320u * 240u * 3u && lit > 0 ? 0 : 1;
}
