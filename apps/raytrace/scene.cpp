// Random scenes and the scene-file reader.
#include "scene.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "parprim/error.hpp"

namespace parprim::raytrace {

sphere make_sphere(float x, float y, float z, float radius, float red, float green, float blue) {
  sphere s{x, y, z, radius, red, green, blue, 0.0f};
  s.c2_minus_r2 = x * x + y * y + z * z - radius * radius;
  return s;
}

namespace {

// splitmix64: a tiny generator whose output is the same everywhere.
struct splitmix {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  float uniform(float lo, float hi) {  // 24 random bits, exact in a float
    return lo + (hi - lo) * (float(next() >> 40) * (1.0f / 16777216.0f));
  }
};

[[noreturn]] void bad_line(const std::string& path, int line, const std::string& what) {
  throw error(errc::invalid_argument,
              "parprim::raytrace: " + path + ":" + std::to_string(line) + ": " + what);
}

}  // namespace

scene random_scene(int count, std::uint64_t seed) {
  if (count < 0)
    throw error(errc::invalid_argument,
                "parprim::raytrace: spheres=" + std::to_string(count) + " is negative");
  scene s;
  splitmix g{seed};
  // Keep the picture similarly filled as the count grows: radii shrink like 1/sqrt(count).
  const float scale = count > 30 ? std::sqrt(30.0f / float(count)) : 1.0f;
  s.spheres.reserve(std::size_t(count));
  for (int i = 0; i < count; ++i) {
    const float z = g.uniform(-24.0f, -8.0f);
    const float half_h = -z * 0.57735f;  // tan(30 degrees): the visible half height at z
    const float x = g.uniform(-1.7f, 1.7f) * half_h;
    const float y = g.uniform(-1.0f, 1.0f) * half_h;
    const float r = g.uniform(0.6f, 2.0f) * scale;
    const float red = g.uniform(0.2f, 1.0f), green = g.uniform(0.2f, 1.0f), blue = g.uniform(0.2f, 1.0f);
    s.spheres.push_back(make_sphere(x, y, z, r, red, green, blue));
  }
  return s;
}

scene load_scene(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw error(errc::io_error, "parprim::raytrace: cannot open scene file '" + path + "'");
  return parse_scene(in, path);
}

scene parse_scene(std::istream& in, const std::string& path) {
  scene s;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (auto hash = text.find('#'); hash != std::string::npos) text.erase(hash);
    std::istringstream words(text);
    std::string keyword;
    if (!(words >> keyword)) continue;  // blank or comment
    std::vector<float> v;
    std::string word;
    while (words >> word) {
      try {
        std::size_t used = 0;
        const float f = std::stof(word, &used);
        if (used != word.size() || !std::isfinite(f)) throw std::invalid_argument(word);
        v.push_back(f);
      } catch (const std::exception&) {
        bad_line(path, line, "'" + word + "' is not a number");
      }
    }
    if (keyword == "sphere") {
      if (v.size() != 7)
        bad_line(path, line, "'sphere' needs 7 numbers (x y z radius red green blue), got " +
                                 std::to_string(v.size()));
      if (!(v[3] > 0.0f)) bad_line(path, line, "sphere radius must be positive");
      for (int c = 4; c < 7; ++c)
        if (v[c] < 0.0f || v[c] > 1.0f) bad_line(path, line, "colours must lie in [0, 1]");
      if (s.spheres.size() >= std::size_t(max_scene_spheres))
        bad_line(path, line, "more than " + std::to_string(max_scene_spheres) + " spheres");
      const sphere sp = make_sphere(v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
      // The intersection test squares distances in float: beyond ~1e19 they overflow.
      if (!std::isfinite(sp.c2_minus_r2))
        bad_line(path, line, "sphere is too far or too large (its squared distance overflows a float)");
      s.spheres.push_back(sp);
    } else if (keyword == "light") {
      if (v.size() != 3)
        bad_line(path, line, "'light' needs 3 numbers (x y z), got " + std::to_string(v.size()));
      for (int c = 0; c < 3; ++c) s.light[c] = v[c];
    } else {
      bad_line(path, line, "unknown keyword '" + keyword + "' (expected 'sphere' or 'light')");
    }
  }
  if (in.bad()) throw error(errc::io_error, "parprim::raytrace: error reading '" + path + "'");
  return s;
}

}  // namespace parprim::raytrace
