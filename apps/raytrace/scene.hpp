// Scenes for the sphere ray tracer: a seeded random scene or one read from a text file.
//
// Scene file format, one item per line, '#' starts a comment:
//   sphere <x> <y> <z> <radius> <red> <green> <blue>   (radius > 0, colours in [0, 1])
//   light <x> <y> <z>                                   (optional point light)
// The camera sits at the origin looking down -z with a 60 degree vertical field of view.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace parprim::raytrace {

// 32 bytes: eight floats, so that a warp reading one sphere reads one constant-cache line.
struct sphere {
  float x, y, z, radius;
  float red, green, blue;
  float c2_minus_r2;  // |center|^2 - radius^2, computed once on the host for every backend
};

struct scene {
  std::vector<sphere> spheres;
  float light[3] = {-6.0f, 8.0f, 2.0f};
};

// Fills in c2_minus_r2 (the intersection test's constant term).
sphere make_sphere(float x, float y, float z, float radius, float red, float green, float blue);

// `count` spheres in front of the camera, from a seed; the same seed gives the same scene on
// every platform (the generator is our own, not <random>'s distributions).
scene random_scene(int count, std::uint64_t seed);

// The most spheres a scene holds (as `parprim raytrace --spheres` allows).
inline constexpr int max_scene_spheres = 1 << 22;

// Throws parprim::error: io_error when the file cannot be read, invalid_argument naming
// "path:line" for a malformed line (also: more than max_scene_spheres spheres, or a sphere so
// far or large that its squared distance overflows a float).
scene load_scene(const std::string& path);

// The same from a stream; `name` stands for the file in messages.
scene parse_scene(std::istream& in, const std::string& name);

}  // namespace parprim::raytrace
