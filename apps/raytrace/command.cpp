// `parprim raytrace`: render spheres to a PNG and report the frame time.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <string>

#include "apps/cli/commands.hpp"
#include "common/output_file.hpp"
#include "parprim/context.hpp"
#include "parprim/error.hpp"
#include "render.hpp"

namespace parprim::cli {

namespace {

struct raytrace_options {
  int width = 1280;
  int height = 720;
  int spheres = 20;
  std::uint64_t seed = 1;
  std::string scene_file;
  std::string backend = "auto";
  std::string variant = "auto";
  std::string out = "raytrace.png";
  int frames = 10;
};

int run_raytrace(const raytrace_options& o) {
  using namespace parprim::raytrace;
  apps::check_output_path(o.out, "parprim raytrace: --out");  // before the frames are timed
  context ctx = o.backend == "cpu"    ? context::cpu()
                : o.backend == "cuda" ? context::cuda(0)
                                      : context::best_available();
  const scene sc = o.scene_file.empty() ? random_scene(o.spheres, o.seed) : load_scene(o.scene_file);
  const sphere_memory wanted = o.variant == "constant" ? sphere_memory::constant
                               : o.variant == "global" ? sphere_memory::global
                                                       : sphere_memory::automatic;
  renderer r(ctx, sc, o.width, o.height, wanted);
  if (r.fell_back())
    std::printf("note: %zu spheres do not fit in constant memory (at most %d): using global memory\n",
                sc.spheres.size(), max_constant_spheres);
  const double ms = r.time_frames(o.frames);
  write_png(o.out, r.image(), o.width, o.height);
  const char* where = ctx.kind() == backend::cuda ? to_string(r.memory()) : "host";
  std::printf("raytrace [%s]: %dx%d, %zu spheres in %s memory: %.3f ms per frame (%.1f FPS), wrote %s\n",
              ctx.name().c_str(), o.width, o.height, sc.spheres.size(), where, ms, 1000.0 / ms,
              o.out.c_str());
  return 0;
}

}  // namespace

void add_raytrace_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<raytrace_options>();
  CLI::App* cmd = app.add_subcommand("raytrace", "render spheres to a PNG (constant vs global memory)");
  cmd->add_option("--width", opts->width, "image width in pixels")->check(CLI::Range(1, 16384));
  cmd->add_option("--height", opts->height, "image height in pixels")->check(CLI::Range(1, 16384));
  cmd->add_option("--spheres", opts->spheres, "number of random spheres")->check(CLI::Range(0, 1 << 22));
  cmd->add_option("--seed", opts->seed, "seed of the random scene");
  cmd->add_option("--scene", opts->scene_file, "scene file (instead of a random scene)");
  cmd->add_option("--backend", opts->backend, "cpu, cuda or auto")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd->add_option("--variant", opts->variant, "sphere memory on CUDA: constant, global or auto")
      ->check(CLI::IsMember({"auto", "constant", "global"}));
  cmd->add_option("--out", opts->out, "output PNG file");
  cmd->add_option("--frames", opts->frames, "frames to time")->check(CLI::Range(1, 100000));
  cmd->callback([opts, &exit_code] { exit_code = run_raytrace(*opts); });
}

}  // namespace parprim::cli
