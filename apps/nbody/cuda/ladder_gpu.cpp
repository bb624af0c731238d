// gpu_ladder: the same bodies in every layout the ladder's kernels use (array of records,
// padded scalar arrays, padded float4 records) and the dispatch of each step to its kernel.
#include <cmath>

#include "../ladder.hpp"
#include "../systems.hpp"
#include "parprim/detail/validate.hpp"
#include "kernels.hpp"
#include "parprim/buffer.hpp"

namespace parprim::nbody {

using cuda::vec4;

struct gpu_ladder::impl {
  static constexpr std::int64_t pad = 256;  // the seed's block size

  impl(const context& c, const body_set<float>& b, float eps) : ctx(c) {
    detail::checker check(ctx, "nbody::gpu_ladder");
    if (ctx.kind() != backend::cuda) check.fail("the ladder's kernels need a CUDA context");
    if (!(eps > 0) || !std::isfinite(eps))
      check.fail("eps=" + std::to_string(eps) + " must be > 0 (the steps without an i != j test rely on softening)");
    n = b.size();
    if (n < 1 || n > (std::int64_t(1) << 30)) check.fail("n=" + std::to_string(n) + " is outside [1, 2^30]");
    padded = (n + pad - 1) / pad * pad;
    equal = all_masses_equal(b);
    mass0 = b.mass.front();

    // Host copies in each layout; the padding bodies are massless and sit at the origin.
    std::vector<cuda::aos_body> aos(static_cast<std::size_t>(n));
    std::vector<float> m(padded, 0.0f), x(padded, 0.0f), y(padded, 0.0f), z(padded, 0.0f);
    std::vector<vec4<float>> p4(static_cast<std::size_t>(padded), vec4<float>{0, 0, 0, 0});
    for (std::size_t i = 0; i < std::size_t(n); ++i) {
      aos[i] = cuda::aos_body{b.mass[i], b.x[i], b.y[i], b.z[i], b.vx[i], b.vy[i], b.vz[i], 0, 0, 0};
      m[i] = b.mass[i], x[i] = b.x[i], y[i] = b.y[i], z[i] = b.z[i];
      p4[i] = vec4<float>{b.x[i], b.y[i], b.z[i], b.mass[i]};
    }
    bodies = buffer<cuda::aos_body>::from_host(ctx, aos);
    mass = buffer<float>::from_host(ctx, m);
    posx = buffer<float>::from_host(ctx, x);
    posy = buffer<float>::from_host(ctx, y);
    posz = buffer<float>::from_host(ctx, z);
    accx = buffer<float>(ctx, padded);
    accy = buffer<float>(ctx, padded);
    accz = buffer<float>(ctx, padded);
    pos4 = buffer<vec4<float>>::from_host(ctx, p4);
    acc4 = buffer<vec4<float>>(ctx, padded);
    acc = buffer<vec4<float>>(ctx, n);

    data.n = n, data.padded = padded, data.eps2 = eps * eps;
    data.bodies = bodies.data();
    data.mass = mass.data(), data.posx = posx.data(), data.posy = posy.data(), data.posz = posz.data();
    data.accx = accx.data(), data.accy = accy.data(), data.accz = accz.data();
    data.pos4 = pos4.data(), data.acc4 = acc4.data();

    one_slice = cuda::plan_forces<float>(ctx, n, false, false);
    one_slice.tiles_per_slice = static_cast<int>((n + cuda::force_tuning::block - 1) / cuda::force_tuning::block);
    one_slice.slices = 1;
    sliced = cuda::plan_forces<float>(ctx, n, false, false);
    sliced_equal = cuda::plan_forces<float>(ctx, n, true, false);
    std::int64_t slices = std::max(sliced.slices, sliced_equal.slices);
    if (slices > 1) partial = buffer<vec4<float>>(ctx, slices * n);
  }

  const cuda::force_plan* plan_of(rung r) const {
    if (r == rung::register_blocking) return &one_slice;
    if (r == rung::j_slices) return &sliced;
    if (r == rung::equal_mass) return &sliced_equal;
    return nullptr;
  }

  context ctx;
  std::int64_t n = 0, padded = 0;
  bool equal = false;
  float mass0 = 0;
  buffer<cuda::aos_body> bodies;
  buffer<float> mass, posx, posy, posz, accx, accy, accz;
  buffer<vec4<float>> pos4, acc4, acc, partial;
  cuda::ladder_data data;
  cuda::force_plan one_slice, sliced, sliced_equal;
};

namespace {

cuda::ladder_step step_of(rung r) {
  switch (r) {
    case rung::one_thread: return cuda::ladder_step::one_thread;
    case rung::n_threads: return cuda::ladder_step::n_threads;
    case rung::scalar_arrays: return cuda::ladder_step::scalar_arrays;
    case rung::constant_params: return cuda::ladder_step::constant_params;
    case rung::rsqrtf: return cuda::ladder_step::rsqrtf;
    case rung::two_loops: return cuda::ladder_step::two_loops;
    case rung::shared_blocking: return cuda::ladder_step::shared_blocking;
    case rung::loop_unrolling: return cuda::ladder_step::loop_unrolling;
    case rung::if_elimination: return cuda::ladder_step::if_elimination;
    case rung::fma_order: return cuda::ladder_step::fma_order;
    case rung::unroll_128: return cuda::ladder_step::unroll_full;
    case rung::fast_math: return cuda::ladder_step::fast_math;
    case rung::float4_tiles: return cuda::ladder_step::float4_tiles;
    case rung::gems3_tiled: return cuda::ladder_step::gems3_tiled;
    default: return cuda::ladder_step::gems3_tiled;  // production rungs never get here
  }
}

}  // namespace

gpu_ladder::gpu_ladder(const context& ctx, const body_set<float>& bodies, float eps)
    : p_(std::make_unique<impl>(ctx, bodies, eps)) {}
gpu_ladder::~gpu_ladder() = default;

bool gpu_ladder::applicable(rung r) const { return r != rung::equal_mass || p_->equal; }

std::string gpu_ladder::configuration(rung r) const {
  if (const auto* plan = p_->plan_of(r)) {
    return std::to_string(cuda::force_tuning::block) + " thr x " +
           std::to_string(cuda::force_tuning::bodies_per_thread_f32) + " bodies, " +
           std::to_string(plan->slices) + (plan->slices == 1 ? " slice" : " slices");
  }
  switch (r) {
    case rung::one_thread: return "1 thread";
    case rung::n_threads: case rung::scalar_arrays: case rung::constant_params:
    case rung::rsqrtf: case rung::two_loops: return "256 thr/block";
    case rung::float4_tiles: return "256-body float4 tiles";
    case rung::gems3_tiled: return "256-body float4 tiles";
    default: return "256-body tiles";
  }
}

void gpu_ladder::run(rung r) {
  auto& p = *p_;
  if (const auto* plan = p.plan_of(r)) {
    if (!applicable(r))
      throw error(errc::invalid_argument, "parprim::nbody::gpu_ladder [" + p.ctx.name() +
                                              "]: the equal_mass step needs bodies of equal mass");
    cuda::forces<float>(p.ctx, *plan, p.pos4.data(), p.n, p.data.eps2, r == rung::equal_mass,
                        p.mass0, false, p.partial.data(), p.acc.data());
    return;
  }
  cuda::ladder_forces(p.ctx, step_of(r), p.data);
}

accel_set<float> gpu_ladder::result(rung r) {
  auto& p = *p_;
  const auto n = static_cast<std::size_t>(p.n);
  accel_set<float> out;
  for (auto* v : {&out.x, &out.y, &out.z}) v->resize(n);
  if (r == rung::one_thread || r == rung::n_threads) {
    auto b = p.bodies.to_host();
    for (std::size_t i = 0; i < n; ++i) out.x[i] = b[i].accx, out.y[i] = b[i].accy, out.z[i] = b[i].accz;
  } else if (p.plan_of(r) || r == rung::float4_tiles || r == rung::gems3_tiled) {
    auto a = (p.plan_of(r) ? p.acc : p.acc4).to_host();
    for (std::size_t i = 0; i < n; ++i) out.x[i] = a[i].x, out.y[i] = a[i].y, out.z[i] = a[i].z;
  } else {
    auto x = p.accx.to_host(), y = p.accy.to_host(), z = p.accz.to_host();
    for (std::size_t i = 0; i < n; ++i) out.x[i] = x[i], out.y[i] = y[i], out.z[i] = z[i];
  }
  return out;
}

void gpu_ladder::poison() {
  auto& p = *p_;
  // NaN everywhere a step writes, so a step that writes nothing cannot pass on old results.
  p.accx.fill_bytes(0xFF), p.accy.fill_bytes(0xFF), p.accz.fill_bytes(0xFF);
  p.acc4.fill_bytes(0xFF), p.acc.fill_bytes(0xFF);
  auto b = p.bodies.to_host();
  for (auto& r : b) r.accx = r.accy = r.accz = std::nanf("");
  p.bodies.copy_from_host(b.data(), p.n);
}

}  // namespace parprim::nbody
