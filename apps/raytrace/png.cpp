// write_png: RGB bytes to an 8-bit PNG through libpng.
#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <memory>

#include "parprim/error.hpp"
#include "render.hpp"

namespace parprim::raytrace {

void write_png(const std::string& path, const std::vector<std::uint8_t>& rgb, int width, int height) {
  auto fail = [&](const std::string& what) {
    throw error(errc::io_error, "parprim::raytrace: cannot write '" + path + "': " + what);
  };
  if (width < 1 || height < 1 || rgb.size() != std::size_t(width) * height * 3)
    throw error(errc::invalid_argument, "parprim::raytrace: write_png: " + std::to_string(rgb.size()) +
                                            " bytes do not make a " + std::to_string(width) + "x" +
                                            std::to_string(height) + " RGB image");
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!file) fail("cannot open the file");
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  if (!png) fail("png_create_write_struct failed");
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    fail("png_create_info_struct failed");
  }
  // libpng reports errors by longjmp: nothing with a destructor may be created below.
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    fail("libpng error");
  }
  png_init_io(png, file.get());
  png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y)
    png_write_row(png, const_cast<png_bytep>(rgb.data() + std::size_t(y) * width * 3));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  if (std::fflush(file.get()) != 0) fail("write failed");
}

}  // namespace parprim::raytrace
