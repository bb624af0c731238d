// write_rgb_png through libpng.
#include "common/png_writer.hpp"

#include <png.h>

#include <csetjmp>
#include <cstdio>

#include "common/output_file.hpp"
#include "parprim/error.hpp"

namespace parprim::apps {
namespace {

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

void write_rgb_png(const std::string& path, const std::vector<std::uint8_t>& rgb, int width,
                   int height, const std::string& who) {
  if (width < 1 || height < 1 || rgb.size() != std::size_t(width) * height * 3)
    throw error(errc::invalid_argument, who + ": write_png: " + std::to_string(rgb.size()) +
                                            " bytes do not make a " + std::to_string(width) + "x" +
                                            std::to_string(height) + " RGB image");
  output_file out(path, who);
  // Silent handlers: the one error line is ours.
  png_structp png = png_create_write_struct(
      PNG_LIBPNG_VER_STRING, nullptr, [](png_structp p, png_const_charp) { png_longjmp(p, 1); },
      [](png_structp, png_const_charp) {});
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  const bool ok = png && info && write_rows(png, info, out.stream(), rgb, width, height);
  png_destroy_write_struct(png ? &png : nullptr, info ? &info : nullptr);
  if (!ok) throw error(errc::io_error, who + ": cannot write '" + path + "': libpng failed");
  out.commit();  // checks every write; the temporary is removed on any failure
}

}  // namespace parprim::apps
