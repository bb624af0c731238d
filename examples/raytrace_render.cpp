// The ray tracer's API: render a seeded random scene on the best backend and save it as PNG.
#include "raytrace/render.hpp"

#include <cstdio>
#include <set>
#include <tuple>

int main() {
  using namespace parprim;
  raytrace::scene scene = raytrace::random_scene(20, 7);
  raytrace::renderer renderer(context::best_available(), scene, 320, 240);
  renderer.render();
  std::vector<std::uint8_t> rgb = renderer.image();  // waits for the frame
  raytrace::write_png("raytrace_render.png", rgb, renderer.width(), renderer.height());

  // Spheres, shading and background: a frame of one flat colour would mean nothing was hit.
  std::set<std::tuple<int, int, int>> colours;
  for (std::size_t i = 0; i + 2 < rgb.size(); i += 3) colours.insert({rgb[i], rgb[i + 1], rgb[i + 2]});
  std::printf("%dx%d frame with %zu distinct colours, written to raytrace_render.png\n",
              renderer.width(), renderer.height(), colours.size());
  return rgb.size() == 320u * 240u * 3u && colours.size() > 20 ? 0 : 1;
}
