// Frames: splat, tone-map, colour; PNG output through the applications' shared writer.
#include "render.hpp"

#include <algorithm>
#include <cmath>

#include "common/png_writer.hpp"
#include "parprim/error.hpp"

namespace parprim::nbody {
namespace {

// Spreads weight w (and w * speed) of a body at (x, y) over the four nearest pixel centres
// (bilinear), which smooths the grain of single bodies.
void splat(const camera& cam, int size, double x, double y, double w, double speed,
           std::vector<double>& mass, std::vector<double>& wspeed) {
  const double u = ((x - cam.cx) / (2 * cam.half_width) + 0.5) * size - 0.5;
  const double v = (0.5 - (y - cam.cy) / (2 * cam.half_width)) * size - 0.5;  // y up
  if (!(u > -1 && u < size && v > -1 && v < size)) return;
  const int u0 = int(std::floor(u)), v0 = int(std::floor(v));
  const double fu = u - u0, fv = v - v0;
  for (int dv = 0; dv < 2; ++dv)
    for (int du = 0; du < 2; ++du) {
      const int px = u0 + du, py = v0 + dv;
      if (px < 0 || px >= size || py < 0 || py >= size) continue;
      const double f = (du ? fu : 1 - fu) * (dv ? fv : 1 - fv) * w;
      mass[std::size_t(py) * size + px] += f;
      wspeed[std::size_t(py) * size + px] += f * speed;
    }
}

// Two passes of a separable [1 2 1] / 4 filter: bodies become soft dots a few pixels wide,
// which reads better than single-pixel grain (and compresses far better).
void blur(std::vector<double>& g, int size) {
  std::vector<double> t(g.size());
  for (int pass = 0; pass < 2; ++pass) {
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) {
        const std::size_t i = std::size_t(y) * size + x;
        t[i] = 0.5 * g[i] + 0.25 * ((x > 0 ? g[i - 1] : 0.0) + (x + 1 < size ? g[i + 1] : 0.0));
      }
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) {
        const std::size_t i = std::size_t(y) * size + x;
        g[i] = 0.5 * t[i] + 0.25 * ((y > 0 ? t[i - size] : 0.0) + (y + 1 < size ? t[i + size] : 0.0));
      }
  }
}

template <class T>
double speed_of(const body_set<T>& b, std::size_t i) {
  return std::sqrt(double(b.vx[i]) * b.vx[i] + double(b.vy[i]) * b.vy[i] + double(b.vz[i]) * b.vz[i]);
}

// Slow (0) to fast (1): deep blue, white, orange. t comes from user data (a body file may hold
// speeds whose square overflows): NaN counts as slow and the table index stays in range.
void palette(double t, double rgb[3]) {
  static const double stops[3][3] = {{0.25, 0.45, 1.00}, {1.00, 0.95, 0.90}, {1.00, 0.50, 0.10}};
  t = (t >= 0 ? std::min(t, 1.0) : 0.0) * 2;
  const int k = std::min(1, int(t));
  const double f = t - k;
  for (int c = 0; c < 3; ++c) rgb[c] = stops[k][c] * (1 - f) + stops[k + 1][c] * f;
}

}  // namespace

template <class T>
camera frame_camera(const body_set<T>& b, int size) {
  camera cam;
  double m = 0, cx = 0, cy = 0, v2 = 0;
  for (std::size_t i = 0; i < b.mass.size(); ++i) {
    m += b.mass[i], cx += b.mass[i] * b.x[i], cy += b.mass[i] * b.y[i];
    v2 += b.mass[i] * (double(b.vx[i]) * b.vx[i] + double(b.vy[i]) * b.vy[i] + double(b.vz[i]) * b.vz[i]);
  }
  if (m > 0) cam.cx = cx / m, cam.cy = cy / m;
  // Half width: the 90th percentile of the distance from the centre (in the max norm), with
  // a margin: the bulk fills the frame while the long tails of a Plummer sphere fall outside.
  std::vector<double> d(b.mass.size());
  for (std::size_t i = 0; i < d.size(); ++i) {
    const double di = std::max(std::abs(b.x[i] - cam.cx), std::abs(b.y[i] - cam.cy));
    d[i] = std::isnan(di) ? HUGE_VAL : di;  // NaN would break nth_element's ordering
  }
  if (!d.empty()) {
    auto k = d.begin() + std::ptrdiff_t(0.90 * double(d.size() - 1));
    std::nth_element(d.begin(), k, d.end());
    cam.half_width = *k > 0 ? 1.3 * *k : 1.0;
  }
  // Bodies far out or fast enough to overflow the sums here get a camera that still works
  // (they fall outside it or show as the fastest colour) instead of infinite or NaN scales.
  if (!std::isfinite(cam.cx) || !std::isfinite(cam.cy)) cam.cx = cam.cy = 0;
  if (!std::isfinite(cam.half_width)) cam.half_width = 1;
  // Density scale: the mean mass per covered pixel of this first frame.
  std::vector<double> grid(std::size_t(size) * size, 0.0), unused(grid.size(), 0.0);
  for (std::size_t i = 0; i < b.mass.size(); ++i) splat(cam, size, b.x[i], b.y[i], b.mass[i], 0.0, grid, unused);
  blur(grid, size);
  double sum = 0;
  std::size_t covered = 0;
  for (double g : grid)
    if (g > 0) sum += g, ++covered;
  cam.density_ref = covered ? sum / double(covered) : 1.0;
  const double rms = m > 0 ? std::sqrt(v2 / m) : 0.0;
  cam.speed_ref = rms > 0 ? 1.6 * rms : 1.0;
  if (!std::isfinite(cam.density_ref) || !(cam.density_ref > 0)) cam.density_ref = 1;
  if (!std::isfinite(cam.speed_ref)) cam.speed_ref = 1;
  return cam;
}

template <class T>
std::vector<std::uint8_t> render_frame(const body_set<T>& b, const camera& cam, int size) {
  const std::size_t pixels = std::size_t(size) * size;
  std::vector<double> mass(pixels, 0.0), speed(pixels, 0.0);
  for (std::size_t i = 0; i < b.mass.size(); ++i) {
    // Massless bodies still show: they count as a tiny mass.
    const double w = b.mass[i] > 0 ? double(b.mass[i]) : 1e-3 * cam.density_ref;
    splat(cam, size, b.x[i], b.y[i], w, speed_of(b, i), mass, speed);
  }
  blur(mass, size);
  blur(speed, size);
  std::vector<std::uint8_t> rgb(3 * pixels, 0);
  // Brightness: log of density relative to the first frame's mean; 16 x the mean saturates.
  const double top = std::log1p(16.0);
  for (std::size_t p = 0; p < pixels; ++p) {
    if (!(mass[p] > 1e-6 * cam.density_ref)) continue;
    const double bright = std::min(1.0, std::log1p(mass[p] / cam.density_ref) / top);
    if (!(bright >= 0)) continue;  // NaN from an overflowed pixel: leave it dark
    double c[3];
    palette(speed[p] / mass[p] / cam.speed_ref, c);
    for (int k = 0; k < 3; ++k)
      rgb[3 * p + k] = std::uint8_t(std::lround(255.0 * bright * c[k]));
  }
  return rgb;
}

void write_png(const std::string& path, const std::vector<std::uint8_t>& rgb, int width, int height) {
  apps::write_rgb_png(path, rgb, width, height, "parprim nbody: frame");
}

template camera frame_camera<float>(const body_set<float>&, int);
template camera frame_camera<double>(const body_set<double>&, int);
template std::vector<std::uint8_t> render_frame<float>(const body_set<float>&, const camera&, int);
template std::vector<std::uint8_t> render_frame<double>(const body_set<double>&, const camera&, int);

}  // namespace parprim::nbody
