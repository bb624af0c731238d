// `parprim nbody --gpus N` (one process driving N GPUs) and `--gpus-from-env` (one process
// per GPU, see device_group::cuda_process_from_env): the all-pairs system on a device group,
// timed step by step, plus the one-GPU baseline when asked.
#include <chrono>
#include <cmath>

#include "initial_conditions.hpp"
#include "multi_gpu.hpp"
#include "multi_gpu_run.hpp"

namespace parprim::nbody {
namespace {

body_set<double> group_initial_bodies(const run_options& o) {
  if (o.init == "cube") return uniform_cube(o.n, o.seed);
  if (o.init == "collision") return colliding_plummers(o.n, o.seed);
  if (o.init == "file") return read_bodies_csv(o.file);
  return plummer(o.n, o.seed);
}

// Milliseconds per whole step (kick, drift, exchange, forces, kick) over o.steps steps, after
// one untimed step that also builds the first accelerations.
template <class T>
double ms_per_step(body_system<T>& sys, const run_options& o) {
  sys.advance(1, T(o.dt));
  sys.synchronize();
  const auto t0 = std::chrono::steady_clock::now();
  sys.advance(o.steps, T(o.dt));
  sys.synchronize();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
         double(o.steps);
}

// A position checksum: runs on one or several processes can be compared at a glance.
template <class T>
double position_checksum(const body_set<T>& b) {
  double s = 0;
  for (std::size_t i = 0; i < b.x.size(); ++i) s += double(b.x[i]) + 2.0 * double(b.y[i]) + 3.0 * double(b.z[i]);
  return s;
}

template <class T>
nlohmann::json run_group(const device_group& g, const run_options& o, std::ostream& out) {
  const auto bodies = group_initial_bodies(o).template as<T>();
  auto sys = make_group_body_system<T>(g, bodies, T(o.eps));
  const double ms = ms_per_step(*sys, o);
  const double checksum = position_checksum(sys->state());
  const double rate = double(bodies.size()) * double(bodies.size()) / (ms * 1e-3);
  const bool report = g.is_local(0);
  if (report)
    out << "nbody on " << g.name() << ": gpus " << g.size() << ", n " << bodies.size() << ", "
        << o.steps << " timed steps, ms per step " << ms << ", " << rate / 1e9
        << " G interactions/s, position checksum " << checksum << "\n";
  return {{"group", g.name()}, {"gpus", g.size()}, {"n", bodies.size()}, {"steps", o.steps},
          {"ms_per_step", ms}, {"interactions_per_s", rate}, {"checksum", checksum}};
}

}  // namespace

nlohmann::json run_group_simulation(const device_group& g, const run_options& o, std::ostream& out) {
  return o.double_precision ? run_group<double>(g, o, out) : run_group<float>(g, o, out);
}

}  // namespace parprim::nbody
