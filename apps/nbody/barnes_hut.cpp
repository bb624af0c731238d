// The Barnes-Hut body system (barnes_hut.hpp): plain C++ over the library's primitives and the
// tree passes of tree.hpp, the same class for both backends.
#include "barnes_hut.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "cpu/cpu_forces.hpp"
#include "parprim/buffer.hpp"
#include "parprim/gather_scatter.hpp"
#include "parprim/morton.hpp"
#include "parprim/reduce.hpp"
#include "parprim/sort.hpp"
#include "parprim/timer.hpp"
#include "parprim/workspace.hpp"
#include "systems.hpp"

namespace parprim::nbody {
namespace {

using tree::vec4;

// Indices into bh_phase_times::ms.
enum phase { phase_bbox, phase_codes, phase_sort, phase_tree, phase_moments, phase_walk, phase_integrate };
enum field { fx, fy, fz, fm, fvx, fvy, fvz, field_count };

// Morton codes use 63 bits (21 per axis); the sort looks at those only.
constexpr int code_bits = 3 * morton_bits_per_axis<std::uint64_t>();

template <class T>
class bh_system final : public barnes_hut_system<T> {
  using base = barnes_hut_system<T>;

 public:
  bh_system(const context& ctx, const body_set<T>& bodies, T eps, T theta)
      : base(ctx, 0, eps, theta), ws_(ctx) {
    this->check_bodies(bodies, "nbody::make_body_system");
    this->n_ = bodies.size();
    allocate();
    load(bodies);
  }

  void set_state(const body_set<T>& bodies) override {
    this->check_bodies(bodies, "nbody::body_system::set_state");
    load(bodies);
  }

  body_set<T> state() const override {
    const auto id = id_.to_host();
    body_set<T> out;
    out.resize(this->n_);
    std::vector<T>* to[field_count] = {&out.x, &out.y, &out.z, &out.mass, &out.vx, &out.vy, &out.vz};
    for (int f = 0; f < field_count; ++f) unpermute(fields_[f].to_host(), id, *to[f]);
    return out;
  }

  accel_set<T> accelerations() override {
    if (!acc_valid_) compute_forces();
    const auto id = id_.to_host();
    accel_set<T> out;
    unpermute(acc_[0].to_host(), id, out.x);
    unpermute(acc_[1].to_host(), id, out.y);
    unpermute(acc_[2].to_host(), id, out.z);
    return out;
  }

  std::vector<T> potentials() override {
    buffer<T> phi(this->ctx_, this->n_);
    const T e2 = this->eps_ * this->eps_;
#if PARPRIM_HAVE_CUDA
    if (this->ctx_.kind() == backend::cuda) {
      cuda_tree::pack(this->ctx_, arrays(), sorted_.data());
      cuda::potentials<T>(this->ctx_, sorted_.data(), this->n_, e2, phi.data());
    } else
#endif
      cpu::potentials<T>(this->n_, this->ctx_.threads(), fields_[fx].data(), fields_[fy].data(), fields_[fz].data(),
                         fields_[fm].data(), e2, phi.data());
    std::vector<T> out;
    unpermute(phi.to_host(), id_.to_host(), out);
    return out;
  }

  void advance(std::int64_t steps, T dt) override {
    this->check_step(steps, dt);
    if (steps == 0) return;
    if (!acc_valid_) compute_forces();
    const T half = dt / 2;
    for (std::int64_t s = 0; s < steps; ++s) {
      timed(phase_integrate, [&] { on_backend_kick_drift(half, dt); });
      compute_forces();
      timed(phase_integrate, [&] { on_backend_kick(half); });
      if (timing_) ++times_.steps;
    }
    this->steps_ += steps;
  }

  void time_phases(bool on) override {
    timing_ = on;
    times_ = {};
  }
  bh_phase_times phase_times() const override { return times_; }

  bh_tree_copy<T> tree_copy() override {
    if (!acc_valid_) compute_forces();
    bh_tree_copy<T> c;
    c.n = this->n_;
    c.codes = codes_.to_host();
    c.bodies = sorted_.to_host();
    c.left = left_.to_host(), c.right = right_.to_host(), c.last = last_.to_host();
    c.parent = parent_.to_host(), c.skip = skip_.to_host(), c.id = id_.to_host();
    c.com = com_.to_host(), c.box_lo = box_lo_.to_host(), c.box_hi = box_hi_.to_host();
    c.links = links_.to_host();
    return c;
  }

 private:
  void allocate() {
    const context& ctx = this->ctx_;
    const std::int64_t n = this->n_, inner = n - 1;
    for (int f = 0; f < field_count; ++f) fields_[f] = buffer<T>(ctx, n), spare_[f] = buffer<T>(ctx, n);
    for (auto& a : acc_) a = buffer<T>(ctx, n);
    id_ = buffer<int>(ctx, n), spare_id_ = buffer<int>(ctx, n), order_ = buffer<int>(ctx, n);
    codes_ = buffer<std::uint64_t>(ctx, n);
    bounds_ = buffer<T>(ctx, 6);
    sorted_ = buffer<vec4<T>>(ctx, n);
    left_ = buffer<int>(ctx, inner), right_ = buffer<int>(ctx, inner), last_ = buffer<int>(ctx, inner);
    parent_ = buffer<int>(ctx, 2 * n - 1), skip_ = buffer<int>(ctx, n);
    arrivals_ = buffer<unsigned>(ctx, inner);
    com_ = buffer<vec4<T>>(ctx, inner), box_lo_ = buffer<vec4<T>>(ctx, inner), box_hi_ = buffer<vec4<T>>(ctx, inner);
    links_ = buffer<tree::node_link<T>>(ctx, inner);
    std::vector<int> iota(static_cast<std::size_t>(n));
    std::iota(iota.begin(), iota.end(), 0);
    iota_ = buffer<int>::from_host(ctx, iota);
  }

  void load(const body_set<T>& b) {
    const std::vector<T>* from[field_count] = {&b.x, &b.y, &b.z, &b.mass, &b.vx, &b.vy, &b.vz};
    for (int f = 0; f < field_count; ++f) fields_[f].copy_from_host(from[f]->data(), this->n_);
    this->ctx_.copy(id_.data(), iota_.data(), id_.bytes());
    this->equal_mass_ = all_masses_equal(b);
    acc_valid_ = false;
  }

  // out[id[i]] = v[i]: back to the caller's order.
  static void unpermute(const std::vector<T>& v, const std::vector<int>& id, std::vector<T>& out) {
    out.resize(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[std::size_t(id[i])] = v[i];
  }

  tree::body_arrays<T> arrays() {
    tree::body_arrays<T> a;
    a.n = this->n_;
    a.x = fields_[fx].data(), a.y = fields_[fy].data(), a.z = fields_[fz].data(), a.m = fields_[fm].data();
    a.vx = fields_[fvx].data(), a.vy = fields_[fvy].data(), a.vz = fields_[fvz].data();
    a.ax = acc_[0].data(), a.ay = acc_[1].data(), a.az = acc_[2].data();
    return a;
  }

  tree::tree_arrays<T> tree_view() {
    tree::tree_arrays<T> t;
    t.n = this->n_;
    t.codes = codes_.data(), t.bodies = sorted_.data();
    t.left = left_.data(), t.right = right_.data(), t.last = last_.data();
    t.parent = parent_.data(), t.skip = skip_.data(), t.arrivals = arrivals_.data();
    t.com = com_.data(), t.box_lo = box_lo_.data(), t.box_hi = box_hi_.data(), t.links = links_.data();
    return t;
  }

  template <class F>
  void timed(phase p, F&& fn) {
    if (!timing_) return fn();
    stream_timer timer(this->ctx_, "nbody");
    times_.ms[p] += timer.time_ms(fn);
  }

  // A cube around every body (one small copy to the host: the box parameterizes the codes).
  morton_box<T> bounding_cube() {
    for (int a = 0; a < 3; ++a) {
      reduce_into<T>(this->ctx_, fields_[a], span<T>(bounds_.data() + a, 1), op::min, reduce_algorithm::production, &ws_);
      reduce_into<T>(this->ctx_, fields_[a], span<T>(bounds_.data() + 3 + a, 1), op::max, reduce_algorithm::production,
                     &ws_);
    }
    T b[6];
    bounds_.copy_to_host(b, 6);
    const T lo[3] = {b[0], b[1], b[2]}, hi[3] = {b[3], b[4], b[5]};
    return morton_box<T>::cube(lo, hi);
  }

  void compute_forces() {
    const context& ctx = this->ctx_;
    const std::int64_t n = this->n_;
    morton_box<T> box;
    timed(phase_bbox, [&] { box = bounding_cube(); });
    timed(phase_codes, [&] {
      morton_encode<T, std::uint64_t>(ctx, fields_[fx], fields_[fy], fields_[fz], box, codes_);
    });
    timed(phase_sort, [&] {
      ctx.copy(order_.data(), iota_.data(), order_.bytes());
      radix_sort_pairs<std::uint64_t, int>(ctx, codes_, order_, sort_order::ascending, 0, code_bits,
                                           sort_algorithm::onesweep, &ws_);
      for (int f = 0; f < field_count; ++f) {
        gather<T, int>(ctx, fields_[f], order_, spare_[f]);
        std::swap(fields_[f], spare_[f]);
      }
      gather<int, int>(ctx, id_, order_, spare_id_);
      std::swap(id_, spare_id_);
    });
    const tree::tree_arrays<T> t = tree_view();
    const T e2 = this->eps_ * this->eps_;
#if PARPRIM_HAVE_CUDA
    if (ctx.kind() == backend::cuda) {
      timed(phase_tree, [&] {
        cuda_tree::pack(ctx, arrays(), sorted_.data());
        cuda_tree::build(ctx, t);
      });
      timed(phase_moments, [&] { cuda_tree::moments(ctx, t, this->theta_); });
      timed(phase_walk, [&] { cuda_tree::walk(ctx, t, e2, acc_[0].data(), acc_[1].data(), acc_[2].data()); });
    } else
#endif
    {
      timed(phase_tree, [&] {
        cpu_tree::pack(ctx, arrays(), sorted_.data());
        cpu_tree::build(ctx, t);
      });
      timed(phase_moments, [&] { cpu_tree::moments(ctx, t, this->theta_); });
      timed(phase_walk, [&] { cpu_tree::walk(ctx, t, e2, acc_[0].data(), acc_[1].data(), acc_[2].data()); });
    }
    if (timing_) ++times_.evaluations;
    acc_valid_ = n > 0;
  }

  void on_backend_kick_drift(T half, T dt) {
#if PARPRIM_HAVE_CUDA
    if (this->ctx_.kind() == backend::cuda) return cuda_tree::kick_drift(this->ctx_, arrays(), half, dt);
#endif
    cpu_tree::kick_drift(this->ctx_, arrays(), half, dt);
  }
  void on_backend_kick(T half) {
#if PARPRIM_HAVE_CUDA
    if (this->ctx_.kind() == backend::cuda) return cuda_tree::kick(this->ctx_, arrays(), half);
#endif
    cpu_tree::kick(this->ctx_, arrays(), half);
  }

  workspace ws_;
  buffer<T> fields_[field_count], spare_[field_count], acc_[3], bounds_;
  buffer<int> id_, spare_id_, order_, iota_;
  buffer<std::uint64_t> codes_;
  buffer<vec4<T>> sorted_, com_, box_lo_, box_hi_;
  buffer<int> left_, right_, last_, parent_, skip_;
  buffer<unsigned> arrivals_;
  buffer<tree::node_link<T>> links_;
  bool acc_valid_ = false;
  bool timing_ = false;
  bh_phase_times times_;
};

}  // namespace

template <class T>
std::unique_ptr<barnes_hut_system<T>> make_barnes_hut_system(const context& ctx, const body_set<T>& bodies, T eps,
                                                             T theta) {
  return std::make_unique<bh_system<T>>(ctx, bodies, eps, theta);
}

template std::unique_ptr<barnes_hut_system<float>> make_barnes_hut_system<float>(const context&,
                                                                                 const body_set<float>&, float, float);
template std::unique_ptr<barnes_hut_system<double>> make_barnes_hut_system<double>(const context&,
                                                                                   const body_set<double>&, double,
                                                                                   double);

}  // namespace parprim::nbody
