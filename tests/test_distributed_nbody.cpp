// The N-body system on a device group against the single-context system: bitwise on CPU groups
// of 1-4 in-process ranks, to float rounding on NCCL groups of 2-4 GPUs.
#include "initial_conditions.hpp"
#include "multi_gpu.hpp"
#include "support/distributed_cases.hpp"

namespace parprim::testing {
namespace {

class DistributedNbody : public ::testing::TestWithParam<group_case> {
 protected:
  void SetUp() override {
    std::string why;
    if (!group_available(GetParam(), why)) GTEST_SKIP() << why;
  }
};

template <class T>
void check_steps(const group_case& gc, std::int64_t n, std::int64_t steps, bool equal_mass) {
  const auto seed = fresh_seed();
  SCOPED_TRACE("n=" + std::to_string(n) + " steps=" + std::to_string(steps) + " seed=" + std::to_string(seed));
  auto bodies = nbody::plummer(n, seed).as<T>();
  if (!equal_mass)
    for (std::size_t i = 0; i < bodies.mass.size(); ++i) bodies.mass[i] *= T(0.5 + (i % 7) * 0.25);
  auto g = make_group(gc);
  auto single = nbody::make_body_system<T>(reference_context(gc), bodies, T(0.01));
  auto group = nbody::make_group_body_system<T>(g, bodies, T(0.01));
  single->advance(steps, T(1e-3));
  group->advance(steps, T(1e-3));
  const auto a = single->state(), b = group->state();
  const std::vector<T>* fa[] = {&a.x, &a.y, &a.z, &a.vx, &a.vy, &a.vz, &a.mass};
  const std::vector<T>* fb[] = {&b.x, &b.y, &b.z, &b.vx, &b.vy, &b.vz, &b.mass};
  for (int f = 0; f < 7; ++f) {
    if (gc.kind == backend::cpu) {
      expect_bits_equal(*fb[f], *fa[f], "field " + std::to_string(f));
    } else {
      for (std::size_t i = 0; i < fa[f]->size(); ++i)
        ASSERT_NEAR((*fb[f])[i], (*fa[f])[i], 1e-4 * (1 + std::abs((*fa[f])[i]))) << "field " << f << " body " << i;
    }
  }
  const auto acc_single = single->accelerations(), acc_group = group->accelerations();
  if (gc.kind == backend::cpu) expect_bits_equal(acc_group.x, acc_single.x, "accelerations");
  EXPECT_EQ(group->steps_taken(), steps);
}

TEST_P(DistributedNbody, FloatStepsEqualSingleContext) { check_steps<float>(GetParam(), 1000, 5, true); }
TEST_P(DistributedNbody, DoubleUnequalMasses) { check_steps<double>(GetParam(), 777, 3, false); }
TEST_P(DistributedNbody, FewerBodiesThanRanks) { check_steps<float>(GetParam(), 3, 2, true); }

INSTANTIATE_TEST_SUITE_P(Groups, DistributedNbody, ::testing::ValuesIn(all_group_cases()),
                         group_case_name);

}  // namespace
}  // namespace parprim::testing
