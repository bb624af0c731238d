// The per-pixel work of the ray tracer, shared word for word by the CPU and CUDA renderers.
//
// Only +, -, *, / and sqrt appear, each correctly rounded in IEEE single precision on both
// sides, and both sides are compiled without contracting a*b+c into fused multiply-adds
// (g++ -ffp-contract=off, nvcc -fmad=false for this code): so the CPU and the GPU images are
// bitwise identical, with either sphere memory.
#pragma once

#include <math.h>

#include <cstdint>

#include "scene.hpp"

#if defined(__CUDACC__)
#define PARPRIM_RT_HD __host__ __device__ __forceinline__
#else
#define PARPRIM_RT_HD inline
#endif

namespace parprim::raytrace {

struct camera {
  int width, height;
  float aspect;  // width / height
  float light_x, light_y, light_z;
};

inline constexpr float tan_half_fov = 0.57735027f;  // 60 degree vertical field of view
inline constexpr float attenuation = 0.001f;        // light falls off as 1 / (1 + k d^2)
inline constexpr float ambient = 0.08f;

PARPRIM_RT_HD std::uint8_t to_byte(float v) {
  // NaN (shading of a degenerate sphere from a scene file) becomes 0: a float-to-integer
  // conversion of NaN is undefined.
  v = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
  return std::uint8_t(v * 255.0f + 0.5f);
}

// Shades pixel (px, py), reading the spheres through `spheres[i]` (constant memory, global
// memory or a host array), and writes its three bytes to rgb.
template <class Spheres>
PARPRIM_RT_HD void trace_pixel(const Spheres& spheres, int count, const camera& cam, int px,
                               int py, std::uint8_t* rgb) {
  // Primary ray from the origin through the pixel's centre.
  const float u = (2.0f * ((float(px) + 0.5f) / float(cam.width)) - 1.0f) * cam.aspect * tan_half_fov;
  const float v = (1.0f - 2.0f * ((float(py) + 0.5f) / float(cam.height))) * tan_half_fov;
  const float inv_len = 1.0f / sqrtf(u * u + v * v + 1.0f);
  const float dx = u * inv_len, dy = v * inv_len, dz = -inv_len;

  // Nearest hit: |t d - c|^2 = r^2  =>  t^2 - 2 t (c.d) + |c|^2 - r^2 = 0.
  float best = 3.0e38f;
  int hit = -1;
  for (int i = 0; i < count; ++i) {
    const sphere& s = spheres[i];
    const float b = s.x * dx + s.y * dy + s.z * dz;  // c . d
    const float disc = b * b - s.c2_minus_r2;
    if (disc > 0.0f) {
      const float t = b - sqrtf(disc);
      if (t > 1.0e-3f && t < best) {
        best = t;
        hit = i;
      }
    }
  }

  float red, green, blue;
  if (hit < 0) {
    // Background: a dark vertical gradient.
    const float g = 0.5f * (dy + 1.0f);
    red = 0.02f + 0.10f * g;
    green = 0.03f + 0.12f * g;
    blue = 0.06f + 0.20f * g;
  } else {
    // Diffuse (Lambert) shading from the point light, with distance attenuation.
    const sphere& s = spheres[hit];
    const float hx = best * dx, hy = best * dy, hz = best * dz;
    const float inv_r = 1.0f / s.radius;
    const float nx = (hx - s.x) * inv_r, ny = (hy - s.y) * inv_r, nz = (hz - s.z) * inv_r;
    const float lx = cam.light_x - hx, ly = cam.light_y - hy, lz = cam.light_z - hz;
    const float d2 = lx * lx + ly * ly + lz * lz;
    const float cos_theta = (nx * lx + ny * ly + nz * lz) / sqrtf(d2);
    const float diffuse = cos_theta > 0.0f ? cos_theta / (1.0f + attenuation * d2) : 0.0f;
    const float shade = ambient + (1.0f - ambient) * diffuse;
    red = s.red * shade;
    green = s.green * shade;
    blue = s.blue * shade;
  }
  rgb[0] = to_byte(red);
  rgb[1] = to_byte(green);
  rgb[2] = to_byte(blue);
}

}  // namespace parprim::raytrace
