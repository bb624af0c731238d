// The gravitational N-body system behind `parprim nbody`: one interface, a CPU (OpenMP) and a
// CUDA implementation, float or double.
//
// Units are N-body units (G = 1). Forces are softened with the Plummer kernel:
//   a_i = sum_{j != i} m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2)
// and time is advanced with the leapfrog in kick-drift-kick form with a fixed step:
//   v += a dt/2;  x += v dt;  a = forces(x);  v += a dt/2
// which is symplectic and time-reversible, so the energy error stays bounded instead of
// drifting.
//
//   auto sys = nbody::make_body_system<float>(context::best_available(), bodies, 0.01f);
//   sys->advance(1000, 0.001f);
//   auto now = sys->state();
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "parprim/context.hpp"

namespace parprim::nbody {

// Bodies on the host, one array per field (structure of arrays).
template <class T>
struct body_set {
  std::vector<T> mass, x, y, z, vx, vy, vz;

  std::int64_t size() const { return static_cast<std::int64_t>(mass.size()); }
  void resize(std::int64_t n) {
    for (auto* v : {&mass, &x, &y, &z, &vx, &vy, &vz}) v->resize(static_cast<std::size_t>(n));
  }
  // The same bodies in another precision.
  template <class U>
  body_set<U> as() const {
    body_set<U> out;
    auto cast = [](const std::vector<T>& from, std::vector<U>& to) { to.assign(from.begin(), from.end()); };
    cast(mass, out.mass), cast(x, out.x), cast(y, out.y), cast(z, out.z);
    cast(vx, out.vx), cast(vy, out.vy), cast(vz, out.vz);
    return out;
  }
};

// Accelerations on the host.
template <class T>
struct accel_set {
  std::vector<T> x, y, z;
  std::int64_t size() const { return static_cast<std::int64_t>(x.size()); }
};

template <class T>
class body_system {
 public:
  virtual ~body_system() = default;

  const context& ctx() const { return ctx_; }
  std::int64_t size() const { return n_; }
  T softening() const { return eps_; }
  // True when every body has the same mass: the force loops then factor the mass out of the
  // sum (one multiplication less per interaction).
  bool equal_masses() const { return equal_mass_; }
  std::int64_t steps_taken() const { return steps_; }

  // Replaces the bodies (same count). Accelerations are recomputed on the next use.
  virtual void set_state(const body_set<T>& bodies) = 0;
  // A host copy of masses, positions and velocities (velocities at the same time as positions).
  virtual body_set<T> state() const = 0;

  // Accelerations at the current positions, copied to the host.
  virtual accel_set<T> accelerations() = 0;
  // Per-body potential phi_i = -sum_{j != i} m_j / sqrt(r_ij^2 + eps^2), copied to the host.
  virtual std::vector<T> potentials() = 0;

  // `steps` leapfrog steps of length dt. Returns when the work is queued (CUDA) or done (CPU);
  // state() and the diagnostics wait for it.
  virtual void advance(std::int64_t steps, T dt) = 0;
  // Waits for queued work and raises any device error.
  void synchronize() const { ctx_.synchronize(); }

 protected:
  body_system(const context& ctx, std::int64_t n, T eps) : ctx_(ctx), n_(n), eps_(eps) {}
  // Argument checks shared by both backends; they name the call and the backend.
  void check_bodies(const body_set<T>& b, const char* who) const;
  void check_step(std::int64_t steps, T dt) const;

  context ctx_;
  std::int64_t n_;
  T eps_;
  bool equal_mass_ = false;
  std::int64_t steps_ = 0;
};

// How forces are computed: every pair (exact, n^2 work), or a Barnes-Hut tree (n log n work;
// barnes_hut.hpp) that replaces a group of far bodies by its centre of mass when the group's
// size / distance is below theta (theta in [0, 1]; 0 opens every node, giving the exact sum).
enum class force_method { all_pairs, barnes_hut };

struct force_options {
  force_method method = force_method::all_pairs;
  double theta = 0.5;
};

// A body system on ctx's backend holding `bodies`, with softening length eps >= 0 (eps = 0:
// pure Newtonian gravity; a pair of bodies at exactly the same place then exerts no force).
// Throws parprim::error for an empty or inconsistent body set, a negative or non-finite mass,
// coordinate or eps.
template <class T>
std::unique_ptr<body_system<T>> make_body_system(const context& ctx, const body_set<T>& bodies, T eps);
// The same with a choice of force method (throws for a theta outside [0, 1]).
template <class T>
std::unique_ptr<body_system<T>> make_body_system(const context& ctx, const body_set<T>& bodies, T eps,
                                                 const force_options& forces);

}  // namespace parprim::nbody
