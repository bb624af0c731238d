// The sphere ray tracer: CPU and CUDA images (constant and global memory) identical pixel
// for pixel, the constant-memory fallback, scene files good and bad, PNG output.
//
// Tolerance: none. Both renderers use the same IEEE single-precision operations in the same
// order without fused multiply-adds (apps/raytrace/trace.hpp), so images are bitwise equal.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "raytrace/render.hpp"
#include "support/test_support.hpp"

namespace {

using namespace parprim;
using namespace parprim::raytrace;
using namespace parprim::testing;

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("parprim_test_" + name)).string();
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

std::vector<std::uint8_t> render_image(const context& ctx, const scene& s, int w, int h,
                                       sphere_memory m) {
  renderer r(ctx, s, w, h, m);
  r.render();
  return r.image();
}

// Index of the first differing byte, or -1.
std::int64_t first_difference(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  if (a.size() != b.size()) return 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return std::int64_t(i);
  return -1;
}

TEST(Raytrace, OneSphereLooksRight) {
  // A red sphere straight ahead, lit from the camera's side: the centre pixel is lit red,
  // a corner shows the background.
  scene s;
  s.spheres.push_back(make_sphere(0.0f, 0.0f, -10.0f, 3.0f, 1.0f, 0.0f, 0.0f));
  s.light[0] = 0.0f, s.light[1] = 0.0f, s.light[2] = 0.0f;
  const int w = 64, h = 48;
  const auto img = render_image(context::cpu(), s, w, h, sphere_memory::automatic);
  const std::uint8_t* centre = &img[3 * (std::size_t(h / 2) * w + w / 2)];
  EXPECT_GT(centre[0], 200);
  EXPECT_EQ(centre[1], 0);
  EXPECT_EQ(centre[2], 0);
  const std::uint8_t* corner = &img[0];
  EXPECT_LT(corner[0], 40);
  EXPECT_GT(corner[2], corner[0]);  // bluish background
}

TEST(Raytrace, CpuImageIsDeterministicAndNotEmpty) {
  const scene s = random_scene(100, 7);
  const auto a = render_image(context::cpu(), s, 160, 90, sphere_memory::automatic);
  const auto b = render_image(context::cpu(2), s, 160, 90, sphere_memory::automatic);
  EXPECT_EQ(first_difference(a, b), -1);
  // Many distinct colours: spheres were hit and shaded.
  std::vector<bool> seen(1 << 24);
  int distinct = 0;
  for (std::size_t i = 0; i < a.size(); i += 3) {
    const int key = (a[i] << 16) | (a[i + 1] << 8) | a[i + 2];
    if (!seen[key]) seen[key] = true, ++distinct;
  }
  EXPECT_GT(distinct, 200);
}

TEST(Raytrace, CudaImagesMatchCpuBitForBit) {
  if (!cuda_usable()) GTEST_SKIP() << "no CUDA device";
  const auto seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  context gpu = context::cuda(0);
  for (int count : {0, 1, 20, 100, 1000}) {
    for (auto [w, h] : {std::pair{1, 1}, {33, 17}, {640, 360}}) {
      SCOPED_TRACE("spheres=" + std::to_string(count) + " " + std::to_string(w) + "x" + std::to_string(h));
      const scene s = random_scene(count, seed + std::uint64_t(count));
      const auto cpu = render_image(context::cpu(), s, w, h, sphere_memory::automatic);
      renderer rc(gpu, s, w, h, sphere_memory::constant);
      renderer rg(gpu, s, w, h, sphere_memory::global);
      EXPECT_EQ(rc.memory(), sphere_memory::constant);
      EXPECT_EQ(rg.memory(), sphere_memory::global);
      EXPECT_FALSE(rc.fell_back());
      rc.render();
      rg.render();
      EXPECT_EQ(first_difference(rc.image(), cpu), -1) << "constant memory image differs";
      EXPECT_EQ(first_difference(rg.image(), cpu), -1) << "global memory image differs";
    }
  }
}

TEST(Raytrace, TooManySpheresFallBackToGlobalMemory) {
  if (!cuda_usable()) GTEST_SKIP() << "no CUDA device";
  const scene s = random_scene(max_constant_spheres + 1, 3);
  context gpu = context::cuda(0);
  for (auto m : {sphere_memory::constant, sphere_memory::automatic}) {
    renderer r(gpu, s, 96, 54, m);
    EXPECT_TRUE(r.fell_back());
    EXPECT_EQ(r.memory(), sphere_memory::global);
    r.render();
    EXPECT_EQ(first_difference(r.image(), render_image(context::cpu(), s, 96, 54, m)), -1);
  }
  // Exactly at capacity: still constant memory.
  renderer full(gpu, random_scene(max_constant_spheres, 3), 16, 16, sphere_memory::automatic);
  EXPECT_FALSE(full.fell_back());
  EXPECT_EQ(full.memory(), sphere_memory::constant);
}

TEST(Raytrace, SceneFileRoundTrip) {
  const std::string path = write_file("scene_ok.txt",
                                      "# two spheres and a light\n"
                                      "sphere 0 0 -10 2  1 0.5 0\n"
                                      "\n"
                                      "sphere 1.5 -1 -12 1 0 0 1   # blue\n"
                                      "light 1 2 3\n");
  const scene s = load_scene(path);
  ASSERT_EQ(s.spheres.size(), 2u);
  EXPECT_EQ(s.spheres[1].x, 1.5f);
  EXPECT_EQ(s.spheres[1].blue, 1.0f);
  EXPECT_EQ(s.spheres[0].c2_minus_r2, 100.0f - 4.0f);
  EXPECT_EQ(s.light[2], 3.0f);
  std::remove(path.c_str());
}

TEST(Raytrace, BadSceneFilesNameFileAndLine) {
  struct bad {
    const char* text;
    int line;
    const char* mention;
  };
  const bad cases[] = {
      {"sphere 0 0 -10 2 1 1 1\ncube 1 2 3\n", 2, "unknown keyword 'cube'"},
      {"# c\n\nsphere 0 0 -10 2 1 1\n", 3, "needs 7 numbers"},
      {"sphere 0 0 -10 x 1 1 1\n", 1, "'x' is not a number"},
      {"sphere 0 0 -10 -2 1 1 1\n", 1, "radius must be positive"},
      {"sphere 0 0 -10 2 1 2 1\n", 1, "colours"},
      {"light 1 2\n", 1, "'light' needs 3 numbers"},
      {"sphere 0 0 -10 2 1 1 1e\n", 1, "not a number"},
  };
  int i = 0;
  for (const bad& b : cases) {
    const std::string path = write_file("scene_bad" + std::to_string(i++) + ".txt", b.text);
    try {
      load_scene(path);
      ADD_FAILURE() << "no error for: " << b.text;
    } catch (const error& e) {
      const std::string m = e.what();
      EXPECT_EQ(e.code(), errc::invalid_argument) << m;
      EXPECT_NE(m.find(path + ":" + std::to_string(b.line) + ":"), std::string::npos) << m;
      EXPECT_NE(m.find(b.mention), std::string::npos) << m;
    }
    std::remove(path.c_str());
  }
  try {
    load_scene(temp_path("no_such_scene.txt"));
    ADD_FAILURE() << "no error for a missing file";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::io_error) << e.what();
    EXPECT_NE(std::string(e.what()).find("no_such_scene.txt"), std::string::npos) << e.what();
  }
}

TEST(Raytrace, BadArgumentsAreRejected) {
  const scene s = random_scene(5, 1);
  for (backend b : usable_backends()) {
    context ctx = make_context(b);
    EXPECT_THROW(renderer(ctx, s, 0, 10), error);
    EXPECT_THROW(renderer(ctx, s, 10, -1), error);
    EXPECT_THROW(renderer(ctx, s, 20000, 10), error);
    EXPECT_THROW(renderer(ctx, s, 10, 10, static_cast<sphere_memory>(9)), error);
  }
  EXPECT_THROW(random_scene(-1, 1), error);
}

TEST(Raytrace, WritesPng) {
  const std::string path = temp_path("render.png");
  const auto img = render_image(context::cpu(), random_scene(20, 2), 32, 24, sphere_memory::automatic);
  write_png(path, img, 32, 24);
  std::ifstream in(path, std::ios::binary);
  char sig[8] = {};
  in.read(sig, 8);
  EXPECT_EQ(std::string(sig + 1, 3), "PNG");
  EXPECT_GT(std::filesystem::file_size(path), 100u);
  std::remove(path.c_str());
  try {
    write_png("/nonexistent_dir/x.png", img, 32, 24);
    ADD_FAILURE() << "no error for an unwritable path";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::io_error);
    EXPECT_NE(std::string(e.what()).find("/nonexistent_dir/x.png"), std::string::npos);
  }
  EXPECT_THROW(write_png(path, img, 31, 24), error);
}

}  // namespace
