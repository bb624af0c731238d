// Frames: splat, tone-map, colour, and libpng.
#include "render.hpp"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <cstdio>

#include "parprim/error.hpp"

namespace parprim::nbody {
namespace {

// Where a body falls on the frame, or false when outside.
bool pixel_of(const camera& cam, int size, double x, double y, int& px, int& py) {
  const double u = (x - cam.cx) / (2 * cam.half_width) + 0.5;
  const double v = 0.5 - (y - cam.cy) / (2 * cam.half_width);  // y up
  if (!(u >= 0 && u < 1 && v >= 0 && v < 1)) return false;
  px = std::min(size - 1, int(u * size)), py = std::min(size - 1, int(v * size));
  return true;
}

// Slow (0) to fast (1): deep blue, white, orange.
void palette(double t, double rgb[3]) {
  static const double stops[3][3] = {{0.30, 0.50, 1.00}, {1.00, 1.00, 1.00}, {1.00, 0.55, 0.15}};
  t = std::clamp(t, 0.0, 1.0) * 2;
  const int k = std::min(1, int(t));
  const double f = t - k;
  for (int c = 0; c < 3; ++c) rgb[c] = stops[k][c] * (1 - f) + stops[k + 1][c] * f;
}

// libpng reports errors by longjmp back here: no object with a destructor and no local that
// changes after setjmp lives in this frame.
bool write_rows(png_structp png, png_infop info, std::FILE* f, const std::vector<std::uint8_t>& rgb,
                int width, int height) {
  if (setjmp(png_jmpbuf(png)) != 0) return false;
  png_init_io(png, f);
  png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y)
    png_write_row(png, const_cast<png_bytep>(rgb.data() + std::size_t(y) * width * 3));
  png_write_end(png, nullptr);
  return true;
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
  // Half width: the 99th percentile of the distance from the centre (in the max norm), with
  // a margin.
  std::vector<double> d(b.mass.size());
  for (std::size_t i = 0; i < d.size(); ++i)
    d[i] = std::max(std::abs(b.x[i] - cam.cx), std::abs(b.y[i] - cam.cy));
  if (!d.empty()) {
    auto k = d.begin() + std::ptrdiff_t(0.99 * double(d.size() - 1));
    std::nth_element(d.begin(), k, d.end());
    cam.half_width = *k > 0 ? 1.15 * *k : 1.0;
  }
  // Density scale: the mean mass per covered pixel of this first frame.
  std::vector<double> grid(std::size_t(size) * size, 0.0);
  for (std::size_t i = 0; i < b.mass.size(); ++i) {
    int px, py;
    if (pixel_of(cam, size, b.x[i], b.y[i], px, py)) grid[std::size_t(py) * size + px] += b.mass[i];
  }
  double sum = 0;
  std::size_t covered = 0;
  for (double g : grid)
    if (g > 0) sum += g, ++covered;
  cam.density_ref = covered ? sum / double(covered) : 1.0;
  const double rms = m > 0 ? std::sqrt(v2 / m) : 0.0;
  cam.speed_ref = rms > 0 ? 2.0 * rms : 1.0;
  return cam;
}

template <class T>
std::vector<std::uint8_t> render_frame(const body_set<T>& b, const camera& cam, int size) {
  const std::size_t pixels = std::size_t(size) * size;
  std::vector<double> mass(pixels, 0.0), speed(pixels, 0.0);
  for (std::size_t i = 0; i < b.mass.size(); ++i) {
    int px, py;
    if (!pixel_of(cam, size, b.x[i], b.y[i], px, py)) continue;
    const double v = std::sqrt(double(b.vx[i]) * b.vx[i] + double(b.vy[i]) * b.vy[i] + double(b.vz[i]) * b.vz[i]);
    // Massless bodies still show: they count as a tiny mass.
    const double w = b.mass[i] > 0 ? double(b.mass[i]) : 1e-3 * cam.density_ref;
    mass[std::size_t(py) * size + px] += w;
    speed[std::size_t(py) * size + px] += w * v;
  }
  std::vector<std::uint8_t> rgb(3 * pixels, 0);
  // Brightness: log of density relative to the first frame's mean; 64 x the mean saturates.
  const double top = std::log1p(64.0);
  for (std::size_t p = 0; p < pixels; ++p) {
    if (mass[p] <= 0) continue;
    const double bright = std::min(1.0, std::log1p(mass[p] / cam.density_ref) / top);
    double c[3];
    palette(speed[p] / mass[p] / cam.speed_ref, c);
    for (int k = 0; k < 3; ++k)
      rgb[3 * p + k] = std::uint8_t(std::lround(255.0 * std::pow(bright, 0.8) * c[k]));
  }
  return rgb;
}

void write_png(const std::string& path, const std::vector<std::uint8_t>& rgb, int width, int height) {
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw error(errc::io_error, "parprim nbody: cannot write frame " + path);
  // Silent handlers: the one error line is ours.
  png_structp png = png_create_write_struct(
      PNG_LIBPNG_VER_STRING, nullptr, [](png_structp p, png_const_charp) { png_longjmp(p, 1); },
      [](png_structp, png_const_charp) {});
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  bool ok = png && info && write_rows(png, info, f, rgb, width, height);
  png_destroy_write_struct(png ? &png : nullptr, info ? &info : nullptr);
  ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw error(errc::io_error, "parprim nbody: error while writing frame " + path);
  }
}

template camera frame_camera<float>(const body_set<float>&, int);
template camera frame_camera<double>(const body_set<double>&, int);
template std::vector<std::uint8_t> render_frame<float>(const body_set<float>&, const camera&, int);
template std::vector<std::uint8_t> render_frame<double>(const body_set<double>&, const camera&, int);

}  // namespace parprim::nbody
