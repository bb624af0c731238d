// What the Barnes-Hut test files share: the fixture over both backends (one type in a named
// namespace, so that test_barnes_hut.cpp's instantiation covers the cases of every file) and
// the system makers.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>

#include "barnes_hut.hpp"
#include "body_system.hpp"
#include "initial_conditions.hpp"
#include "support/test_support.hpp"

namespace parprim::testing {

class BarnesHut : public ::testing::TestWithParam<backend> {
 protected:
  void SetUp() override { PARPRIM_SKIP_IF_NO_BACKEND(GetParam()); }
};

// Under compute-sanitizer (PARPRIM_TEST_MAX_N set) the tests use fewer bodies and steps.
inline bool sanitizer_sized() { return max_test_size() < std::numeric_limits<std::int64_t>::max(); }

inline nbody::force_options tree_forces(double theta) { return {nbody::force_method::barnes_hut, theta}; }

template <class T>
std::unique_ptr<nbody::barnes_hut_system<T>> make_tree(const context& ctx, const nbody::body_set<T>& b, T eps,
                                                       T theta) {
  return nbody::make_barnes_hut_system<T>(ctx, b, eps, theta);
}

}  // namespace parprim::testing
