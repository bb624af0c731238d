// The applications' rules for files and parsers: an output replaces only a missing or regular
// file and only when completely written (a failed write leaves the old file whole), the size
// parser never overflows, the body-file and scene parsers refuse what they cannot run, and
// N-body frames of bodies with overflowing speeds render instead of crashing.
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/output_file.hpp"
#include "common/png_writer.hpp"
#include "common/sizes.hpp"
#include "nbody/initial_conditions.hpp"
#include "nbody/render.hpp"
#include "raytrace/scene.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::expect_error;

class scratch_dir {
 public:
  scratch_dir() {
    char name[] = "/tmp/parprim_reliability_XXXXXX";
    path_ = ::mkdtemp(name);
  }
  ~scratch_dir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Names in the directory (a temporary left behind would show here).
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    if (DIR* d = ::opendir(path_.c_str())) {
      while (dirent* e = ::readdir(d))
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.push_back(e->d_name);
      ::closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  std::string path_;
};

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void put(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

bool is_fifo(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

TEST(OutputFile, ReplacesARegularFileOnlyWhenCommitted) {
  scratch_dir dir;
  const std::string path = dir.file("r.json");
  put(path, "old data");
  {
    apps::output_file f(path, "test");
    f.write("new");
    EXPECT_EQ(read_all(path), "old data");  // nothing visible before commit
  }  // not committed: the temporary goes away, the old file stays
  EXPECT_EQ(read_all(path), "old data");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"r.json"});
  apps::write_file(path, "new data", "test");
  EXPECT_EQ(read_all(path), "new data");
  apps::write_file(dir.file("fresh.csv"), "a,b\n", "test");
  EXPECT_EQ(read_all(dir.file("fresh.csv")), "a,b\n");
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"fresh.csv", "r.json"}));
}

TEST(OutputFile, KeepsTheModeOfTheFileItReplaces) {
  scratch_dir dir;
  const std::string path = dir.file("m.csv");
  put(path, "x");
  ::chmod(path.c_str(), 0640);
  apps::write_file(path, "y", "test");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST(OutputFile, RefusesWhatIsNotARegularFile) {
  scratch_dir dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // The FIFO stands for a device node: it used to be replaced by a regular file.
  expect_error([&] { apps::write_file(fifo, "x", "who"); }, errc::io_error,
               {"who: cannot write '" + fifo + "'", "not a regular file"});
  EXPECT_TRUE(is_fifo(fifo));
  expect_error([&] { apps::check_output_path(dir.file(""), "who"); }, errc::io_error, {"names a directory"});
  ::mkdir(dir.file("sub").c_str(), 0700);
  expect_error([&] { apps::write_file(dir.file("sub"), "x", "who"); }, errc::io_error, {"not a regular file"});
  expect_error([&] { apps::write_file(dir.file("missing/x.json"), "x", "who"); }, errc::io_error,
               {"directory '" + dir.file("missing") + "' does not exist"});
  expect_error([&] { apps::check_output_path("", "who"); }, errc::io_error, {"empty"});
  // A link to a non-regular file and a dangling link are refused; the links stay.
  ASSERT_EQ(::symlink(fifo.c_str(), dir.file("to_pipe").c_str()), 0);
  expect_error([&] { apps::write_file(dir.file("to_pipe"), "x", "who"); }, errc::io_error,
               {"links to something that is not a regular file"});
  ASSERT_EQ(::symlink(dir.file("nothing").c_str(), dir.file("dangling").c_str()), 0);
  expect_error([&] { apps::write_file(dir.file("dangling"), "x", "who"); }, errc::io_error,
               {"symbolic link to nothing"});
  EXPECT_TRUE(is_fifo(fifo));
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"dangling", "pipe", "sub", "to_pipe"}));
}

TEST(OutputFile, WritesThroughALinkToARegularFile) {
  scratch_dir dir;
  put(dir.file("real.csv"), "old");
  ASSERT_EQ(::symlink("real.csv", dir.file("link.csv").c_str()), 0);
  apps::write_file(dir.file("link.csv"), "new", "test");
  EXPECT_EQ(read_all(dir.file("real.csv")), "new");
  struct stat st {};
  ASSERT_EQ(::lstat(dir.file("link.csv").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));  // the link itself is kept
}

// A write that fails (here: past a file-size limit, as on a full device) is an error, and the
// file it was to replace is left whole.
TEST(OutputFile, FailedWriteIsAnErrorAndLeavesTheOldFile) {
  scratch_dir dir;
  const std::string path = dir.file("big.json");
  put(path, "precious");
  struct rlimit saved {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = saved;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  bool threw = false;
  std::string message;
  try {
    apps::write_file(path, std::string(100000, 'x'), "parprim bench: --json");
  } catch (const error& e) {
    threw = e.code() == errc::io_error;
    message = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_TRUE(threw);
  EXPECT_THAT(message, ::testing::HasSubstr("writing failed"));
  EXPECT_EQ(read_all(path), "precious");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"big.json"});
}

TEST(PngWriter, RefusesToReplaceANonRegularFile) {
  scratch_dir dir;
  const std::string fifo = dir.file("frame.png");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::vector<std::uint8_t> rgb(4 * 4 * 3, 200);
  expect_error([&] { apps::write_rgb_png(fifo, rgb, 4, 4, "parprim raytrace"); }, errc::io_error,
               {"parprim raytrace: cannot write", "not a regular file"});
  EXPECT_TRUE(is_fifo(fifo));
  apps::write_rgb_png(dir.file("ok.png"), rgb, 4, 4, "parprim raytrace");
  EXPECT_EQ(read_all(dir.file("ok.png")).substr(1, 3), "PNG");
}

TEST(SizeParser, AcceptsTheDocumentedForms) {
  EXPECT_EQ(apps::parse_size("1048576", "b"), 1048576);
  EXPECT_EQ(apps::parse_size("2^20", "b"), 1 << 20);
  EXPECT_EQ(apps::parse_size("3^3", "b"), 27);
  EXPECT_EQ(apps::parse_size("16M", "b"), 16 << 20);
  EXPECT_EQ(apps::parse_size("2Ki", "b"), 2048);
  EXPECT_EQ(apps::parse_size("64G", "b"), std::int64_t(64) << 30);
  EXPECT_EQ(apps::parse_size("2^36", "b"), apps::max_size);
}

TEST(SizeParser, RefusesWithoutOverflow) {
  // 4000000000^2 used to overflow a signed 64-bit product (UBSan abort; past the checks in a
  // release build).
  expect_error([] { (void)apps::parse_size("4000000000^2", "parprim bench"); }, errc::invalid_argument,
               {"parprim bench: size 4000000000^2 is absurdly large"});
  for (const char* big : {"2^37", "3^40", "99999999999999999999999", "9223372036854775807^9223372036854775807",
                          "65G", "68719476737"})
    expect_error([&] { (void)apps::parse_size(big, "b"); }, errc::invalid_argument, {"absurdly large"});
  for (const char* bad : {"", "lots", "2^", "^2", "2^x", "1^5", "-2^3", "2^-1", "1.5M", "1T", "2^3^4", " 5"})
    expect_error([&] { (void)apps::parse_size(bad, "b"); }, errc::invalid_argument, {"is not a number"});
  expect_error([] { (void)apps::parse_size("-5", "b"); }, errc::invalid_argument, {"is negative"});
  expect_error([] { (void)apps::parse_size("0", "b"); }, errc::invalid_argument, {"at least 1"});
}

TEST(BodyFile, RefusesMoreBodiesThanTheLimit) {
  std::istringstream five("mass,x,y,z,vx,vy,vz\n1,0,0,0,0,0,0\n1,1,0,0,0,0,0\n1,2,0,0,0,0,0\n"
                          "1,3,0,0,0,0,0\n1,4,0,0,0,0,0\n");
  expect_error([&] { (void)nbody::parse_bodies_csv(five, "five.csv", 3); }, errc::invalid_argument,
               {"five.csv:5: more than 3 bodies"});
  std::istringstream three("1,0,0,0,0,0,0\n1,1,0,0,0,0,0\n1,2,0,0,0,0,0\n");
  EXPECT_EQ(nbody::parse_bodies_csv(three, "three.csv", 3).size(), 3);
  EXPECT_EQ(nbody::max_bodies, std::int64_t(1) << 30);
}

// A body whose speed squared overflows (1e200^2): the colour scale became infinite and the
// palette indexed its table at int(NaN).
TEST(NbodyFrames, OverflowingSpeedsRenderWithoutCrashing) {
  nbody::body_set<double> b;
  b.resize(2);
  b.mass = {1.0, 1.0};
  b.x = {0.0, 0.5};
  b.vx = {1e200, 0.0};
  for (auto* v : {&b.y, &b.z, &b.vy, &b.vz}) *v = {0.0, 0.0};
  const auto cam = nbody::frame_camera(b, 32);
  EXPECT_TRUE(std::isfinite(cam.speed_ref) && std::isfinite(cam.density_ref) && std::isfinite(cam.half_width));
  const auto rgb = nbody::render_frame(b, cam, 32);
  ASSERT_EQ(rgb.size(), 32u * 32u * 3u);
  std::size_t lit = 0;
  for (auto c : rgb) lit += c != 0;
  EXPECT_GT(lit, 0u);  // the bodies still show
  // Positions that overflow the centre of mass: an empty but valid frame.
  b.x = {1e300, -1e300};
  b.mass = {1e10, 1e10};
  const auto far = nbody::frame_camera(b, 16);
  EXPECT_EQ(nbody::render_frame(b, far, 16).size(), 16u * 16u * 3u);
}

TEST(SceneFile, RefusesSpheresWhoseDistanceOverflows) {
  std::istringstream far("sphere 1e20 0 -10 1 0.5 0.5 0.5\n");
  expect_error([&] { (void)raytrace::parse_scene(far, "far.scene"); }, errc::invalid_argument,
               {"far.scene:1:", "too far or too large"});
  std::istringstream ok("# a comment\nsphere 0 0 -10 1 0.5 0.5 0.5\nlight 1 2 3\n");
  const auto s = raytrace::parse_scene(ok, "ok.scene");
  ASSERT_EQ(s.spheres.size(), 1u);
  EXPECT_EQ(s.light[2], 3.0f);
}

}  // namespace
}  // namespace parprim
