// The N-body application's API: a small cluster of bodies, advanced by the leapfrog on the
// best backend; the total momentum must stay (almost) where it started: zero.
#include "nbody/body_system.hpp"

#include <cmath>
#include <cstdio>
#include <random>

int main() {
  using namespace parprim;
  nbody::body_set<double> bodies;
  bodies.resize(512);
  std::mt19937 rng(1);
  std::normal_distribution<double> around(0.0, 1.0);
  for (std::int64_t i = 0; i < bodies.size(); ++i) {
    bodies.mass[i] = 1.0 / 512;
    bodies.x[i] = around(rng), bodies.y[i] = around(rng), bodies.z[i] = around(rng);
    bodies.vx[i] = bodies.vy[i] = bodies.vz[i] = 0.0;
  }
  auto system = nbody::make_body_system<double>(context::best_available(), bodies, 0.05);
  system->advance(100, 0.01);  // 100 leapfrog steps of dt = 0.01
  nbody::body_set<double> now = system->state();

  double px = 0, py = 0, pz = 0;
  for (std::int64_t i = 0; i < now.size(); ++i) {
    px += now.mass[i] * now.vx[i], py += now.mass[i] * now.vy[i], pz += now.mass[i] * now.vz[i];
  }
  double momentum = std::sqrt(px * px + py * py + pz * pz);
  std::printf("%s: %lld steps, body 0 at (%.3f, %.3f, %.3f), total momentum %.1e\n",
              system->ctx().name().c_str(), static_cast<long long>(system->steps_taken()),
              now.x[0], now.y[0], now.z[0], momentum);
  return system->steps_taken() == 100 && momentum < 1e-9 ? 0 : 1;
}
