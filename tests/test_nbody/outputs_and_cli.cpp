// The N-body simulator's outputs (diagnostics, snapshots, frames) and its command line: bad
// options refused with a message naming them, a run from a body file written as JSON.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "initial_conditions.hpp"
#include "render.hpp"
#include "simulate.hpp"
#include "support/nbody_cli.hpp"
#include "support/test_support.hpp"

// The CLI's main() normally defines this; the tests call the subcommand directly.
std::string& parprim::cli::invoked_command() {
  static std::string line = "parprim nbody (test)";
  return line;
}

namespace parprim {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::temp_dir;

TEST(NbodyRun, WritesDiagnosticsSnapshotsAndFrames) {
  temp_dir dir;
  nbody::run_options o;
  o.n = 200;
  o.steps = 20;
  o.init = "collision";
  o.diag_every = 5;
  o.diag_path = dir.file("diag.csv");
  o.snapshot_every = 10;
  o.snapshot_dir = dir.file("snaps");
  o.frame_dir = dir.file("frames");
  o.frame_every = 10;
  o.frame_size = 64;
  std::ostringstream out;
  const auto doc = nbody::run_simulation(context::cpu(), o, out);
  EXPECT_THAT(out.str(), HasSubstr("200 bodies"));
  EXPECT_EQ(doc["diagnostics"].size(), 5u);  // steps 0, 5, 10, 15, 20
  std::ifstream diag(o.diag_path);
  std::string header, line;
  std::getline(diag, header);
  EXPECT_EQ(header, "step,time,kinetic,potential,total,rel_energy_drift,px,py,pz,lx,ly,lz");
  int rows = 0;
  while (std::getline(diag, line)) ++rows;
  EXPECT_EQ(rows, 5);
  for (const char* snap : {"snapshot_000010.csv", "snapshot_000020.csv"})
    EXPECT_EQ(nbody::read_bodies_csv(o.snapshot_dir + "/" + snap).size(), 200) << snap;
  for (const char* frame : {"frame_000000.png", "frame_000001.png", "frame_000002.png"}) {
    std::ifstream png(o.frame_dir + "/" + frame, std::ios::binary);
    char sig[8] = {};
    png.read(sig, 8);
    EXPECT_EQ(std::string(sig + 1, 3), "PNG") << frame;
  }
  EXPECT_FALSE(fs::exists(o.frame_dir + "/frame_000003.png"));
}

TEST(NbodyRun, FrameShowsTheCluster) {
  const auto b = nbody::plummer(5000, 2);
  const auto cam = nbody::frame_camera(b, 128);
  const auto rgb = nbody::render_frame(b, cam, 128);
  ASSERT_EQ(rgb.size(), 3u * 128 * 128);
  int lit = 0, centre = 0;
  for (int y = 0; y < 128; ++y)
    for (int x = 0; x < 128; ++x) {
      int v = rgb[3 * (y * 128 + x)] + rgb[3 * (y * 128 + x) + 1] + rgb[3 * (y * 128 + x) + 2];
      lit += v > 0;
      if (std::abs(x - 64) < 8 && std::abs(y - 64) < 8) centre += v;
    }
  EXPECT_GT(lit, 1000);
  EXPECT_GT(centre / 256, 200);  // the core is bright
}

TEST(NbodyCli, RejectsBadOptions) {
  const auto rejects = testing::expect_nbody_cli_rejects;
  rejects({"--n", "0", "--backend", "cpu"}, "--n=0");
  rejects({"--n", "-5", "--backend", "cpu"}, "--n=-5");
  rejects({"--dt", "0", "--backend", "cpu"}, "--dt=0");
  rejects({"--dt", "-1e-3", "--backend", "cpu"}, "--dt");
  rejects({"--eps", "-0.1", "--backend", "cpu"}, "--eps=-0.1");
  rejects({"--steps", "-1", "--backend", "cpu"}, "--steps=-1");
  rejects({"--init", "file", "--backend", "cpu"}, "--file");
  rejects({"--init", "galaxy"}, "--init");
  rejects({"--precision", "half"}, "--precision");
  rejects({"--frobnicate"}, "frobnicate");
  rejects({"--frame-size", "4", "--backend", "cpu"}, "--frame-size");
  rejects({"--ladder", "--compare"}, "excludes");
  rejects({"--ladder", "--precision", "double"}, "float");
  rejects({"--ladder", "--eps", "0", "--backend", "cpu"}, "eps");
  rejects({"--ladder", "--ladder-steps", "warp_drive", "--backend", "cpu"}, "warp_drive");
  rejects({"--ladder", "--ladder-cpu", "-2", "--backend", "cpu"}, "--ladder-cpu=-2");
  rejects({"--ladder-steps", "equal_mass", "--backend", "cpu"}, "requires");
  rejects({"--snapshot-every", "5", "--backend", "cpu"}, "--snapshots");
  temp_dir dir;
  std::ofstream(dir.file("bodies.csv")) << "1,0,0,0,0,0,0\n1,1,0,0,0,0\n";
  rejects({"--file", dir.file("bodies.csv"), "--backend", "cpu"}, "bodies.csv:2:");
  std::ofstream(dir.file("two.csv")) << "1,0,0,0,0,0,0\n1,1,0,0,0,0,0\n";
  rejects({"--file", dir.file("two.csv"), "--n", "3", "--backend", "cpu"}, "holds 2 bodies");
  rejects({"--n", "10", "--steps", "1", "--backend", "cpu", "--json", "/nonexistent/dir/x.json"}, "cannot write");
  if (!testing::cuda_usable()) {
    rejects({"--n", "10", "--backend", "cuda"}, "cuda");
    rejects({"--compare", "--n", "10"}, "--compare");
  }
}

TEST(NbodyCli, RunsAFileAndWritesJson) {
  temp_dir dir;
  std::ofstream(dir.file("two.csv")) << "mass,x,y,z,vx,vy,vz\n0.5,-0.5,0,0,0,-0.5,0\n0.5,0.5,0,0,0,0.5,0\n";
  ::testing::internal::CaptureStdout();
  const int rc = testing::run_nbody_cli({"--file", dir.file("two.csv"), "--eps", "0", "--steps", "100", "--dt", "0.01",
                          "--precision", "double", "--backend", "cpu", "--json", dir.file("out.json")});
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(rc, 0);
  EXPECT_THAT(out, HasSubstr("2 bodies"));
  const auto doc = nlohmann::json::parse(std::ifstream(dir.file("out.json")));
  EXPECT_EQ(doc["run"]["n"], 2);
  EXPECT_EQ(doc["run"]["steps"], 100);
  EXPECT_LT(std::abs(doc["run"]["rel_energy_drift"].get<double>()), 1e-4);
}

}  // namespace
}  // namespace parprim
