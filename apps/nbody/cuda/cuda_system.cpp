// The CUDA backend of body_system: host glue (plain C++) around the kernels in force.cu.
// Bodies live on the device as (x, y, z, m) and (vx, vy, vz, -) records; a step is
// kick+drift, forces (+ the slice sum), kick: three or four launches on the context's stream
// and no host synchronization.
#include <algorithm>

#include "../systems.hpp"
#include "kernels.hpp"
#include "parprim/buffer.hpp"

namespace parprim::nbody {
namespace {

using cuda::vec4;

template <class T>
class cuda_body_system final : public body_system<T> {
  using base = body_system<T>;

 public:
  cuda_body_system(const context& ctx, const body_set<T>& bodies, T eps) : base(ctx, 0, eps) {
    this->check_bodies(bodies, "nbody::make_body_system");
    this->n_ = bodies.size();
    pos_ = buffer<vec4<T>>(ctx, this->n_);
    vel_ = buffer<vec4<T>>(ctx, this->n_);
    acc_ = buffer<vec4<T>>(ctx, this->n_);
    load(bodies);
  }

  void set_state(const body_set<T>& bodies) override {
    this->check_bodies(bodies, "nbody::body_system::set_state");
    load(bodies);
  }

  body_set<T> state() const override {
    auto p = pos_.to_host(), v = vel_.to_host();
    body_set<T> b;
    b.resize(this->n_);
    for (std::size_t i = 0; i < p.size(); ++i) {
      b.mass[i] = p[i].w, b.x[i] = p[i].x, b.y[i] = p[i].y, b.z[i] = p[i].z;
      b.vx[i] = v[i].x, b.vy[i] = v[i].y, b.vz[i] = v[i].z;
    }
    return b;
  }

  accel_set<T> accelerations() override {
    if (!acc_valid_) compute_forces();
    auto a = acc_.to_host();
    accel_set<T> out;
    for (auto* v : {&out.x, &out.y, &out.z}) v->resize(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) out.x[i] = a[i].x, out.y[i] = a[i].y, out.z[i] = a[i].z;
    return out;
  }

  std::vector<T> potentials() override {
    buffer<T> phi(this->ctx_, this->n_);
    cuda::potentials<T>(this->ctx_, pos_.data(), this->n_, eps2(), phi.data());
    return phi.to_host();
  }

  void advance(std::int64_t steps, T dt) override {
    this->check_step(steps, dt);
    if (steps == 0) return;
    if (!acc_valid_) compute_forces();
    const T half = dt / 2;
    for (std::int64_t s = 0; s < steps; ++s) {
      cuda::kick_drift<T>(this->ctx_, pos_.data(), vel_.data(), acc_.data(), this->n_, half, dt);
      compute_forces();
      cuda::kick<T>(this->ctx_, vel_.data(), acc_.data(), this->n_, half);
    }
    this->steps_ += steps;
  }

 private:
  T eps2() const { return this->eps_ * this->eps_; }

  void load(const body_set<T>& b) {
    const auto n = static_cast<std::size_t>(this->n_);
    std::vector<vec4<T>> p(n), v(n);
    for (std::size_t i = 0; i < n; ++i) {
      p[i] = vec4<T>{b.x[i], b.y[i], b.z[i], b.mass[i]};
      v[i] = vec4<T>{b.vx[i], b.vy[i], b.vz[i], T(0)};
    }
    pos_.copy_from_host(p.data(), this->n_);
    vel_.copy_from_host(v.data(), this->n_);
    this->equal_mass_ = all_masses_equal(b);
    mass_ = b.mass.front();
    plan_ = cuda::plan_forces<T>(this->ctx_, this->n_, this->equal_mass_, guard());
    const std::int64_t partial = plan_.slices > 1 ? plan_.slices * this->n_ : 0;
    if (partial_.size() != partial) partial_ = buffer<vec4<T>>(this->ctx_, partial);
    acc_valid_ = false;
    // The host vectors p and v may go away now: copies from pageable memory are staged
    // before cudaMemcpyAsync returns.
  }

  // Without softening, 1/sqrt(0) for a body and itself must be mapped to 0.
  bool guard() const { return !(this->eps_ > 0); }

  void compute_forces() {
    cuda::forces<T>(this->ctx_, plan_, pos_.data(), this->n_, eps2(), this->equal_mass_, mass_,
                    guard(), partial_.data(), acc_.data());
    acc_valid_ = true;
  }

  buffer<vec4<T>> pos_, vel_, acc_, partial_;
  cuda::force_plan plan_;
  T mass_ = 0;
  bool acc_valid_ = false;
};

}  // namespace

template <class T>
std::unique_ptr<body_system<T>> make_cuda_body_system(const context& ctx, const body_set<T>& bodies, T eps) {
  return std::make_unique<cuda_body_system<T>>(ctx, bodies, eps);
}

template std::unique_ptr<body_system<float>> make_cuda_body_system<float>(const context&,
                                                                          const body_set<float>&, float);
template std::unique_ptr<body_system<double>> make_cuda_body_system<double>(const context&,
                                                                            const body_set<double>&,
                                                                            double);

}  // namespace parprim::nbody
