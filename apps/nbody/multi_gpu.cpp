// The N-body system on a device group (multi_gpu.hpp): per-rank state and the SPMD step.
#include "multi_gpu.hpp"

#include <cmath>

#include "cpu/cpu_forces.hpp"
#include "systems.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/kernels.hpp"
#endif

namespace parprim::nbody {
namespace {

// What one rank holds: every position, and velocities and accelerations of its own slice.
template <class T>
struct rank_part {
  std::int64_t first = 0, count = 0;  // its slice of the bodies
  // CPU ranks: structure of arrays.
  std::vector<T> x, y, z, m;              // all n bodies
  std::vector<T> vx, vy, vz, ax, ay, az;  // the slice
#if PARPRIM_HAVE_CUDA
  // CUDA ranks: (x, y, z, m) of all n bodies; (vx, vy, vz, -) and accelerations of the slice.
  buffer<cuda::vec4<T>> pos, vel, acc, partial;
  cuda::force_plan plan;
#endif
};

template <class T>
class group_body_system final : public body_system<T> {
  using base = body_system<T>;

 public:
  group_body_system(const device_group& g, const body_set<T>& bodies, T eps)
      : base(g.ctx(g.local_rank(0)), 0, eps), g_(g) {
    this->check_bodies(bodies, "nbody::make_group_body_system");
    this->n_ = bodies.size();
    counts_ = even_counts(this->n_, g.size());
    parts_.resize(static_cast<std::size_t>(g.local_size()));
    load(bodies);
  }

  void set_state(const body_set<T>& bodies) override {
    this->check_bodies(bodies, "nbody::body_system::set_state");
    load(bodies);
  }

  body_set<T> state() const override {
    body_set<T> b;
    b.resize(this->n_);
    std::vector<std::vector<T>*> velocity{&b.vx, &b.vy, &b.vz};
    g_.run([&](int r) {
      const bool first_local = r == g_.local_rank(0);
      rank_part<T>& p = part(r);
      if (is_cuda()) {
#if PARPRIM_HAVE_CUDA
        buffer<cuda::vec4<T>> v(g_.ctx(r), this->n_);
        g_.comm(r).allgatherv(g_.ctx(r), p.vel.data(), v.data(), bytes_of(sizeof(cuda::vec4<T>)));
        if (!first_local) return g_.ctx(r).synchronize();
        const auto pos = p.pos.to_host(), vel = v.to_host();
        for (std::size_t i = 0; i < pos.size(); ++i) {
          b.x[i] = pos[i].x, b.y[i] = pos[i].y, b.z[i] = pos[i].z, b.mass[i] = pos[i].w;
          b.vx[i] = vel[i].x, b.vy[i] = vel[i].y, b.vz[i] = vel[i].z;
        }
#endif
        return;
      }
      const std::vector<T>* mine[] = {&p.vx, &p.vy, &p.vz};
      std::vector<T> all(static_cast<std::size_t>(this->n_));
      for (int k = 0; k < 3; ++k) {
        g_.comm(r).allgatherv(g_.ctx(r), mine[k]->data(), all.data(), bytes_of(sizeof(T)));
        if (first_local) *velocity[static_cast<std::size_t>(k)] = all;
      }
      if (first_local) b.x = p.x, b.y = p.y, b.z = p.z, b.mass = p.m;
    });
    return b;
  }

  accel_set<T> accelerations() override {
    accel_set<T> a;
    for (auto* v : {&a.x, &a.y, &a.z}) v->resize(static_cast<std::size_t>(this->n_));
    g_.run([&](int r) {
      rank_part<T>& p = part(r);
      if (!acc_valid_) compute_forces(r, p);
      const bool first_local = r == g_.local_rank(0);
      if (is_cuda()) {
#if PARPRIM_HAVE_CUDA
        buffer<cuda::vec4<T>> all(g_.ctx(r), this->n_);
        g_.comm(r).allgatherv(g_.ctx(r), p.acc.data(), all.data(), bytes_of(sizeof(cuda::vec4<T>)));
        if (!first_local) return g_.ctx(r).synchronize();
        const auto h = all.to_host();
        for (std::size_t i = 0; i < h.size(); ++i) a.x[i] = h[i].x, a.y[i] = h[i].y, a.z[i] = h[i].z;
#endif
        return;
      }
      const std::vector<T>* mine[] = {&p.ax, &p.ay, &p.az};
      std::vector<T>* out[] = {&a.x, &a.y, &a.z};
      std::vector<T> all(static_cast<std::size_t>(this->n_));
      for (int k = 0; k < 3; ++k) {
        g_.comm(r).allgatherv(g_.ctx(r), mine[k]->data(), all.data(), bytes_of(sizeof(T)));
        if (first_local) *out[k] = all;
      }
    });
    acc_valid_ = true;
    return a;
  }

  std::vector<T> potentials() override {
    return make_body_system<T>(this->ctx_, state(), this->eps_)->potentials();
  }

  void advance(std::int64_t steps, T dt) override {
    this->check_step(steps, dt);
    if (steps == 0) return;
    const bool need_forces = !acc_valid_;
    g_.run([&](int r) {
      rank_part<T>& p = part(r);
      if (need_forces) compute_forces(r, p);
      for (std::int64_t s = 0; s < steps; ++s) {
        kick_drift(r, p, dt);
        exchange_positions(r, p);
        compute_forces(r, p);
        kick(r, p, dt);
      }
      g_.ctx(r).synchronize();
    });
    acc_valid_ = true;
    this->steps_ += steps;
  }

 private:
  bool is_cuda() const { return g_.kind() == backend::cuda; }
  T eps2() const { return this->eps_ * this->eps_; }
  bool guard() const { return !(this->eps_ > 0); }
  rank_part<T>& part(int r) const {
    for (int i = 0; i < g_.local_size(); ++i)
      if (g_.local_rank(i) == r) return parts_[static_cast<std::size_t>(i)];
    throw error(errc::invalid_argument, "nbody: rank " + std::to_string(r) + " is not local");
  }
  std::vector<std::size_t> bytes_of(std::size_t elem) const {
    std::vector<std::size_t> b;
    for (auto c : counts_) b.push_back(static_cast<std::size_t>(c) * elem);
    return b;
  }

  void load(const body_set<T>& b) {
    this->equal_mass_ = all_masses_equal(b);
    mass_ = b.mass.front();
    std::int64_t first = 0;
    for (int r = 0; r < g_.size(); ++r) {
      const std::int64_t count = counts_[static_cast<std::size_t>(r)];
      if (g_.is_local(r)) load_rank(r, b, first, count);
      first += count;
    }
    acc_valid_ = false;
  }

  void load_rank(int r, const body_set<T>& b, std::int64_t first, std::int64_t count) {
    rank_part<T>& p = part(r);
    p.first = first, p.count = count;
    auto slice = [&](const std::vector<T>& v) {
      return std::vector<T>(v.begin() + first, v.begin() + first + count);
    };
    if (!is_cuda()) {
      p.x = b.x, p.y = b.y, p.z = b.z, p.m = b.mass;
      p.vx = slice(b.vx), p.vy = slice(b.vy), p.vz = slice(b.vz);
      for (auto* v : {&p.ax, &p.ay, &p.az}) v->assign(static_cast<std::size_t>(count), T(0));
      return;
    }
#if PARPRIM_HAVE_CUDA
    const context& ctx = g_.ctx(r);
    std::vector<cuda::vec4<T>> pos(static_cast<std::size_t>(this->n_)), vel(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < pos.size(); ++i) pos[i] = {b.x[i], b.y[i], b.z[i], b.mass[i]};
    for (std::int64_t i = 0; i < count; ++i) {
      const auto j = static_cast<std::size_t>(first + i);
      vel[static_cast<std::size_t>(i)] = {b.vx[j], b.vy[j], b.vz[j], T(0)};
    }
    p.pos = buffer<cuda::vec4<T>>::from_host(ctx, pos);
    p.vel = buffer<cuda::vec4<T>>::from_host(ctx, vel);
    p.acc = buffer<cuda::vec4<T>>(ctx, count);
    p.plan = cuda::plan_forces<T>(ctx, this->n_, this->equal_mass_, guard(), count);
    p.partial = buffer<cuda::vec4<T>>(ctx, p.plan.slices > 1 ? p.plan.slices * count : 0);
    ctx.synchronize();
#endif
  }

  void compute_forces(int r, rank_part<T>& p) const {
    if (is_cuda()) {
#if PARPRIM_HAVE_CUDA
      cuda::forces_of<T>(g_.ctx(r), p.plan, p.pos.data(), this->n_, p.first, p.count, eps2(),
                         this->equal_mass_, mass_, guard(), p.partial.data(), p.acc.data());
#endif
      return;
    }
    cpu::forces_of<T>(this->n_, p.first, p.first + p.count, g_.ctx(r).threads(), p.x.data(),
                      p.y.data(), p.z.data(), p.m.data(), eps2(), p.ax.data(), p.ay.data(),
                      p.az.data());
  }

  // v += a dt/2, x += v dt on the slice (the same expressions as the single-context systems).
  void kick_drift(int r, rank_part<T>& p, T dt) const {
    const T half = dt / 2;
    if (p.count == 0) return;
    if (is_cuda()) {
#if PARPRIM_HAVE_CUDA
      cuda::kick_drift<T>(g_.ctx(r), p.pos.data() + p.first, p.vel.data(), p.acc.data(), p.count, half, dt);
#endif
      return;
    }
    for (std::int64_t k = 0; k < p.count; ++k) {
      const std::int64_t i = p.first + k;
      p.vx[k] += p.ax[k] * half, p.vy[k] += p.ay[k] * half, p.vz[k] += p.az[k] * half;
      p.x[i] += p.vx[k] * dt, p.y[i] += p.vy[k] * dt, p.z[i] += p.vz[k] * dt;
    }
  }

  void kick(int r, rank_part<T>& p, T dt) const {
    const T half = dt / 2;
    if (p.count == 0) return;
    if (is_cuda()) {
#if PARPRIM_HAVE_CUDA
      cuda::kick<T>(g_.ctx(r), p.vel.data(), p.acc.data(), p.count, half);
#endif
      return;
    }
    for (std::int64_t k = 0; k < p.count; ++k)
      p.vx[k] += p.ax[k] * half, p.vy[k] += p.ay[k] * half, p.vz[k] += p.az[k] * half;
  }

  // Every rank's slice of positions into every rank's copy (in place).
  void exchange_positions(int r, rank_part<T>& p) const {
    const context& ctx = g_.ctx(r);
    if (is_cuda()) {
#if PARPRIM_HAVE_CUDA
      g_.comm(r).allgatherv(ctx, p.pos.data() + p.first, p.pos.data(), bytes_of(sizeof(cuda::vec4<T>)));
#endif
      return;
    }
    for (auto* v : {&p.x, &p.y, &p.z})
      g_.comm(r).allgatherv(ctx, v->data() + p.first, v->data(), bytes_of(sizeof(T)));
  }

  device_group g_;
  std::vector<std::int64_t> counts_;
  mutable std::vector<rank_part<T>> parts_;
  T mass_ = 0;
  bool acc_valid_ = false;
};

}  // namespace

template <class T>
std::unique_ptr<body_system<T>> make_group_body_system(const device_group& g,
                                                       const body_set<T>& bodies, T eps) {
  if (!(eps >= 0) || !std::isfinite(eps))
    throw error(errc::invalid_argument, "parprim::nbody::make_group_body_system [" + g.name() +
                                            "]: eps must be a finite softening length >= 0");
  return std::make_unique<group_body_system<T>>(g, bodies, eps);
}

template std::unique_ptr<body_system<float>> make_group_body_system<float>(const device_group&,
                                                                           const body_set<float>&, float);
template std::unique_ptr<body_system<double>> make_group_body_system<double>(const device_group&,
                                                                             const body_set<double>&,
                                                                             double);

}  // namespace parprim::nbody
