// The CPU backend of body_system: structure-of-arrays bodies, blocked SIMD force loops
// (cpu_forces.hpp) and OpenMP-parallel leapfrog updates.
#include <omp.h>

#include "../systems.hpp"
#include "cpu_forces.hpp"

namespace parprim::nbody {
namespace {

template <class T>
class cpu_body_system final : public body_system<T> {
  using base = body_system<T>;

 public:
  cpu_body_system(const context& ctx, const body_set<T>& bodies, T eps) : base(ctx, 0, eps) {
    this->check_bodies(bodies, "nbody::make_body_system");
    this->n_ = bodies.size();
    load(bodies);
  }

  void set_state(const body_set<T>& bodies) override {
    this->check_bodies(bodies, "nbody::body_system::set_state");
    load(bodies);
  }

  body_set<T> state() const override { return b_; }

  accel_set<T> accelerations() override {
    if (!acc_valid_) compute_forces();
    return acc_;
  }

  std::vector<T> potentials() override {
    std::vector<T> phi(static_cast<std::size_t>(this->n_));
    cpu::potentials<T>(this->n_, this->ctx_.threads(), b_.x.data(), b_.y.data(), b_.z.data(),
                       b_.mass.data(), eps2(), phi.data());
    return phi;
  }

  void advance(std::int64_t steps, T dt) override {
    this->check_step(steps, dt);
    if (steps == 0) return;
    if (!acc_valid_) compute_forces();
    const T half = dt / 2;
    const std::int64_t n = this->n_;
    const int t = n >= 4096 ? std::max(1, this->ctx_.threads()) : 1;
    for (std::int64_t s = 0; s < steps; ++s) {
      // Kick and drift: v += a dt/2, x += v dt.
#pragma omp parallel for schedule(static) num_threads(t) if (t > 1)
      for (std::int64_t i = 0; i < n; ++i) {
        b_.vx[i] += acc_.x[i] * half, b_.vy[i] += acc_.y[i] * half, b_.vz[i] += acc_.z[i] * half;
        b_.x[i] += b_.vx[i] * dt, b_.y[i] += b_.vy[i] * dt, b_.z[i] += b_.vz[i] * dt;
      }
      compute_forces();
      // Kick: v += a dt/2 with the new accelerations.
#pragma omp parallel for schedule(static) num_threads(t) if (t > 1)
      for (std::int64_t i = 0; i < n; ++i)
        b_.vx[i] += acc_.x[i] * half, b_.vy[i] += acc_.y[i] * half, b_.vz[i] += acc_.z[i] * half;
    }
    this->steps_ += steps;
  }

 private:
  T eps2() const { return this->eps_ * this->eps_; }

  void load(const body_set<T>& bodies) {
    b_ = bodies;
    this->equal_mass_ = all_masses_equal(b_);
    for (auto* v : {&acc_.x, &acc_.y, &acc_.z}) v->assign(static_cast<std::size_t>(this->n_), T(0));
    acc_valid_ = false;
  }

  void compute_forces() {
    cpu::forces<T>(this->n_, this->ctx_.threads(), b_.x.data(), b_.y.data(), b_.z.data(),
                   b_.mass.data(), eps2(), acc_.x.data(), acc_.y.data(), acc_.z.data());
    acc_valid_ = true;
  }

  body_set<T> b_;
  accel_set<T> acc_;
  bool acc_valid_ = false;
};

}  // namespace

template <class T>
std::unique_ptr<body_system<T>> make_cpu_body_system(const context& ctx, const body_set<T>& bodies, T eps) {
  return std::make_unique<cpu_body_system<T>>(ctx, bodies, eps);
}

template std::unique_ptr<body_system<float>> make_cpu_body_system<float>(const context&,
                                                                         const body_set<float>&, float);
template std::unique_ptr<body_system<double>> make_cpu_body_system<double>(const context&,
                                                                           const body_set<double>&, double);

}  // namespace parprim::nbody
