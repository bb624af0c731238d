// The N-body simulator: forces and potentials of both backends and every ladder step against
// the double-precision oracle, conservation of energy and momentum, a Kepler orbit, and bad
// input. Initial conditions and the body file format: test_nbody/init_and_files.cpp; the
// outputs and the command line: test_nbody/outputs_and_cli.cpp.
#include <cmath>
#include <limits>
#include <fstream>
#include <sstream>

#include "body_system.hpp"
#include "diagnostics.hpp"
#include "initial_conditions.hpp"
#include "ladder.hpp"
#include "reference/nbody_ref.hpp"
#include "support/nbody_cli.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using ::testing::HasSubstr;
using testing::expect_error;
using testing::temp_dir;
using nbody::body_set;

// Bodies with unequal masses: a Plummer sphere whose masses are scaled by random factors in
// [0.5, 1.5) (so the equal-mass shortcut is not taken).
body_set<double> unequal_bodies(std::int64_t n, std::uint64_t seed) {
  auto b = nbody::plummer(n, seed);
  auto r = testing::random_vector<double>(n, seed ^ 0x5EED);
  for (std::size_t i = 0; i < b.mass.size(); ++i) b.mass[i] *= 1.0 + 0.5 * r[i];
  return b;
}

// Recycles poisoned (0xFF = NaN) device memory through the context's caching allocator, so
// buffers made next start out as NaN rather than as some earlier test's right answer.
void poison_allocator(const context& ctx) {
  if (ctx.kind() != backend::cuda) return;
  for (std::int64_t bytes = 1 << 10; bytes <= (std::int64_t(1) << 26); bytes *= 2) {
    buffer<unsigned char> b(ctx, bytes);
    b.fill_bytes(0xFF);
  }
  ctx.synchronize();
}

// Under compute-sanitizer (PARPRIM_TEST_MAX_N set, as scripts/gpu-check.sh does) kernels run
// 10-100x slower, and all-pairs work grows as n^2: the tests then use fewer bodies and steps.
bool sanitizer_sized() { return testing::max_test_size() < std::numeric_limits<std::int64_t>::max(); }

template <class T>
double accel_tolerance() {
  return std::is_same_v<T, float> ? 1e-5 : 1e-12;
}

// ---- Forces and potentials against the oracle ----------------------------------------------

class NbodyBackend : public ::testing::TestWithParam<backend> {
 protected:
  void SetUp() override { PARPRIM_SKIP_IF_NO_BACKEND(GetParam()); }
};

template <class T>
void check_forces(const context& ctx, const body_set<double>& bodies, double eps) {
  const auto b = bodies.as<T>();
  poison_allocator(ctx);
  auto sys = nbody::make_body_system<T>(ctx, b, T(eps));
  const auto a = sys->accelerations();
  ASSERT_EQ(a.size(), b.size());
  const auto e = reference::nbody_accel_error(b, a, double(T(eps)), reference::nbody_sample(b.size(), 512));
  SCOPED_TRACE(std::string(type_name<T>()) + " n=" + std::to_string(b.size()) + " eps=" + std::to_string(eps) +
               (sys->equal_masses() ? " equal masses" : " unequal masses"));
  EXPECT_LE(e.field, accel_tolerance<T>());
  EXPECT_LE(e.worst, 20 * accel_tolerance<T>());
  // Potentials, against the oracle, on a few bodies. A potential sums n terms of one sign, so
  // float rounding grows like sqrt(n) units in the last place of the sum (4 sqrt(n) 2^-24
  // relative; at least 1e-5): at n = 65537 the H100 was 1.08e-5 off the double oracle, past a
  // flat 1e-5 (seed 12008159444971368134).
  const double float_tolerance = std::max(1e-5, 4.0 * std::sqrt(double(b.size())) * 0x1p-24);
  const auto phi = sys->potentials();
  for (auto i : reference::nbody_sample(b.size(), 16)) {
    const double ref = reference::nbody_potential(b, double(T(eps)), i);
    EXPECT_NEAR(phi[std::size_t(i)], ref,
                (std::is_same_v<T, float> ? float_tolerance : 1e-12) * std::max(1.0, std::abs(ref)))
        << "body " << i;
  }
}

TEST_P(NbodyBackend, ForcesMatchTheOracle) {
  const context ctx = testing::make_context(GetParam());
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  // Sizes around the tiles (128 bodies, 8 per thread: 1024 per block) and the CPU blocks.
  for (std::int64_t n : {1, 2, 3, 63, 64, 65, 127, 128, 129, 1023, 1024, 1025, 2049}) {
    if (sanitizer_sized() && n > 1025) continue;
    for (double eps : {0.01, 0.0}) {
      check_forces<float>(ctx, nbody::plummer(n, seed + n), eps);
      check_forces<double>(ctx, nbody::plummer(n, seed + n), eps);
      check_forces<float>(ctx, unequal_bodies(n, seed + n), eps);
      check_forces<double>(ctx, unequal_bodies(n, seed + n), eps);
    }
  }
}

TEST_P(NbodyBackend, ForcesOfLargerSystems) {
  const context ctx = testing::make_context(GetParam());
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  // Enough bodies for several j slices on a GPU; the oracle checks a sample.
  const std::int64_t n = GetParam() == backend::cuda && !sanitizer_sized() ? 65537 : 8193;
  check_forces<float>(ctx, nbody::plummer(n, seed), 0.01);
  check_forces<float>(ctx, nbody::colliding_plummers(n, seed), 0.01);
  check_forces<double>(ctx, unequal_bodies(n, seed), 0.01);
}

TEST_P(NbodyBackend, StateRoundTripAndChecks) {
  const context ctx = testing::make_context(GetParam());
  const auto b = unequal_bodies(300, 5).as<float>();
  auto sys = nbody::make_body_system<float>(ctx, b, 0.01f);
  const auto s = sys->state();
  EXPECT_EQ(s.x, b.x);
  EXPECT_EQ(s.mass, b.mass);
  EXPECT_EQ(s.vz, b.vz);
  EXPECT_FALSE(sys->equal_masses());
  const std::string name = "[" + ctx.name() + "]";
  expect_error([&] { nbody::make_body_system<float>(ctx, b, -1.0f); }, errc::invalid_argument,
               {"parprim::nbody::make_body_system", name, "eps=-1"});
  expect_error([&] { nbody::make_body_system<float>(ctx, body_set<float>{}, 0.01f); },
               errc::invalid_argument, {"empty"});
  auto bad = b;
  bad.x[7] = std::nanf("");
  expect_error([&] { nbody::make_body_system<float>(ctx, bad, 0.01f); }, errc::invalid_argument, {"x[7]"});
  bad = b;
  bad.mass[3] = -1;
  expect_error([&] { sys->set_state(bad); }, errc::invalid_argument, {"mass[3]=-1", name});
  bad = b;
  bad.vy.pop_back();
  expect_error([&] { sys->set_state(bad); }, errc::invalid_argument, {"vy.size()=299"});
  expect_error([&] { sys->advance(1, 0.0f); }, errc::invalid_argument, {"advance", "dt=0"});
  expect_error([&] { sys->advance(-1, 0.1f); }, errc::invalid_argument, {"steps=-1"});
  // Nothing changed.
  EXPECT_EQ(sys->state().x, b.x);
}

// ---- Integration ---------------------------------------------------------------------------

// Energy and momentum over 1000 leapfrog steps of a Plummer sphere (double, eps = 0.01,
// dt = 1e-3): the leapfrog's energy error stays bounded, and pairwise forces conserve
// momentum up to rounding.
template <class T>
void check_conservation(const context& ctx, std::int64_t n, std::int64_t steps, double max_drift) {
  auto sys = nbody::make_body_system<T>(ctx, nbody::plummer(n, 42).as<T>(), T(0.01));
  const auto d0 = nbody::measure(*sys);
  double scale = 0;  // sum m |v|: the size of the momenta that cancel
  const auto s0 = sys->state();
  for (std::size_t i = 0; i < s0.mass.size(); ++i)
    scale += s0.mass[i] * std::hypot(double(s0.vx[i]), double(s0.vy[i]), double(s0.vz[i]));
  sys->advance(steps, T(1e-3));
  const auto d1 = nbody::measure(*sys);
  const double drift = nbody::relative_drift(d1, d0);
  SCOPED_TRACE(ctx.name() + " n=" + std::to_string(n) + " steps=" + std::to_string(steps));
  EXPECT_LE(std::abs(drift), max_drift) << "E0=" << d0.total << " E1=" << d1.total;
  const double dp = std::hypot(d1.px - d0.px, d1.py - d0.py, d1.pz - d0.pz);
  EXPECT_LE(dp, (std::is_same_v<T, float> ? 1e-5 : 1e-12) * scale) << "momentum change " << dp;
  const double dl = std::hypot(d1.lx - d0.lx, d1.ly - d0.ly, d1.lz - d0.lz);
  EXPECT_LE(dl, (std::is_same_v<T, float> ? 1e-4 : 1e-10) * std::max(1.0, scale));
  EXPECT_EQ(sys->steps_taken(), steps);
}

TEST_P(NbodyBackend, EnergyDriftAndMomentum) {
  const context ctx = testing::make_context(GetParam());
  if (sanitizer_sized()) {
    check_conservation<double>(ctx, 512, 20, 1e-5);
    check_conservation<float>(ctx, 512, 20, 1e-4);
  } else if (GetParam() == backend::cuda) {
    // The whole case: 4096 bodies, 1000 steps.
    check_conservation<double>(ctx, 4096, 1000, 1e-5);
    check_conservation<float>(ctx, 4096, 1000, 1e-4);
  } else {
    // The same case on 1024 bodies (16x less work) keeps the CPU test short; the full case
    // runs on CUDA, and on the CPU with PARPRIM_NBODY_FULL=1.
    const bool full = std::getenv("PARPRIM_NBODY_FULL") != nullptr;
    check_conservation<double>(ctx, full ? 4096 : 1024, 1000, 1e-5);
    check_conservation<float>(ctx, 1024, 200, 1e-4);
  }
}

// Two bodies of mass 1/2 a unit apart on a circular orbit (eps = 0): period 2 pi. After one
// period of 10,000 steps both are back where they started.
template <class T>
void check_kepler(const context& ctx, std::int64_t steps, double tolerance) {
  body_set<T> b;
  b.mass = {T(0.5), T(0.5)};
  b.x = {T(-0.5), T(0.5)}, b.y = {0, 0}, b.z = {0, 0};
  b.vx = {0, 0}, b.vy = {T(-0.5), T(0.5)}, b.vz = {0, 0};
  auto sys = nbody::make_body_system<T>(ctx, b, T(0));
  const double period = 2 * 3.14159265358979323846;
  sys->advance(steps, T(period / double(steps)));
  const auto s = sys->state();
  for (int k = 0; k < 2; ++k) {
    const double err = std::hypot(double(s.x[k]) - b.x[k], double(s.y[k]) - b.y[k], double(s.z[k]));
    EXPECT_LE(err / 0.5, tolerance) << type_name<T>() << " body " << k << " at (" << s.x[k] << ", " << s.y[k] << ")";
  }
}

TEST_P(NbodyBackend, KeplerOrbitClosesAfterOnePeriod) {
  const context ctx = testing::make_context(GetParam());
  // Under a sanitizer 1,000 steps (the leapfrog's phase error grows 100-fold).
  const std::int64_t steps = sanitizer_sized() ? 1000 : 10000;
  const double tolerance = sanitizer_sized() ? 1e-2 : 1e-4;
  check_kepler<double>(ctx, steps, tolerance);
  check_kepler<float>(ctx, steps, tolerance);
}

TEST(NbodyCpu, ResultsDoNotDependOnTheThreadCount) {
  const auto b = unequal_bodies(3000, 9).as<float>();
  auto one = nbody::make_body_system<float>(context::cpu(1), b, 0.01f);
  auto two = nbody::make_body_system<float>(context::cpu(2), b, 0.01f);
  one->advance(3, 1e-3f);
  two->advance(3, 1e-3f);
  EXPECT_EQ(one->state().x, two->state().x);
  EXPECT_EQ(one->accelerations().z, two->accelerations().z);
}

TEST(NbodyCuda, MatchesTheCpuBackend) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  const auto b = nbody::plummer(4096, testing::fresh_seed()).as<double>();
  auto cpu = nbody::make_body_system<double>(context::cpu(), b, 0.01);
  auto gpu = nbody::make_body_system<double>(context::cuda(0), b, 0.01);
  cpu->advance(20, 1e-3);
  gpu->advance(20, 1e-3);
  const auto sc = cpu->state(), sg = gpu->state();
  for (std::size_t i = 0; i < sc.x.size(); ++i) ASSERT_NEAR(sg.x[i], sc.x[i], 1e-10) << "body " << i;
}

// ---- The ladder ----------------------------------------------------------------------------

TEST(NbodyCuda, LadderStepsMatchTheOracle) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  const context ctx = context::cuda(0);
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::int64_t n : {1, 2, 255, 256, 257, 1023, 1025, 4099}) {
    if (sanitizer_sized() && n > 1025) continue;
    for (bool equal : {true, false}) {
      const auto b = (equal ? nbody::plummer(n, seed + n) : unequal_bodies(n, seed + n)).as<float>();
      poison_allocator(ctx);
      nbody::gpu_ladder ladder(ctx, b, 0.01f);
      for (auto r : nbody::all_rungs()) {
        if (!ladder.applicable(r)) {
          EXPECT_TRUE(r == nbody::rung::equal_mass && !equal);
          continue;
        }
        ladder.poison();
        ladder.run(r);
        const auto a = ladder.result(r);
        const auto e = reference::nbody_accel_error(b, a, 0.01f, reference::nbody_sample(n, 512));
        EXPECT_LE(e.field, 1e-5) << nbody::to_string(r) << " n=" << n << (equal ? " equal" : " unequal");
        EXPECT_LE(e.worst, 2e-4) << nbody::to_string(r) << " n=" << n;
      }
    }
  }
  ctx.synchronize();
}

TEST(NbodyCuda, LadderNeedsCudaAndSoftening) {
  const auto b = nbody::plummer(10, 1).as<float>();
  if (!testing::cuda_usable()) {
    EXPECT_THROW(nbody::gpu_ladder(context::cpu(), b, 0.01f), error);
    return;
  }
  expect_error([&] { nbody::gpu_ladder(context::cuda(0), b, 0.0f); }, errc::invalid_argument, {"eps=0"});
}

TEST(NbodyLadder, StepsAreFoundByName) {
  for (auto r : nbody::all_rungs()) EXPECT_EQ(nbody::rung_named(nbody::to_string(r)), r);
  EXPECT_FALSE(nbody::rung_named("warp_drive").has_value());
  EXPECT_FALSE(nbody::rung_named("").has_value());
}

TEST(NbodyCuda, LadderRunsOnlyTheChosenSteps) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  nbody::ladder_options o;
  o.n = 3000;
  o.cpu_n = 0;
  o.max_repetitions = 1;
  o.budget_ms = 1;
  o.only = {nbody::rung::gems3_tiled, nbody::rung::equal_mass};
  const auto rep = nbody::run_ladder(context::cuda(0), o);
  EXPECT_TRUE(rep.cpu.empty());
  ASSERT_EQ(rep.gpu.size(), 2u);
  EXPECT_EQ(rep.gpu[0].name, "equal_mass");  // in ladder order, not in the order asked
  EXPECT_EQ(rep.gpu[1].name, "gems3_tiled");
  for (auto& r : rep.gpu) EXPECT_LE(r.field_error, 1e-5) << r.name;
}

TEST(NbodyLadder, CpuRowsRunAndAgree) {
  nbody::ladder_options o;
  o.n = 1500;
  o.cpu_n = 1500;
  o.gpu = false;
  o.max_repetitions = 1;
  o.budget_ms = 1;
  const auto rep = nbody::run_ladder(context::cpu(), o);
  ASSERT_EQ(rep.cpu.size(), 2u);
  for (auto& r : rep.cpu) {
    EXPECT_GT(r.interactions_per_s, 0) << r.name;
    EXPECT_LE(r.field_error, 1e-5) << r.name;
    EXPECT_NEAR(r.gflops, 20 * r.interactions_per_s / 1e9, 1e-9 * r.gflops);
  }
  std::ostringstream out;
  nbody::print_ladder(rep, out);
  EXPECT_THAT(out.str(), HasSubstr("cpu_obvious"));
  EXPECT_THAT(out.str(), HasSubstr("cpu_backend"));
}

INSTANTIATE_TEST_SUITE_P(Backends, NbodyBackend, ::testing::ValuesIn(testing::all_backends()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
