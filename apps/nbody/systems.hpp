// The two implementations behind make_body_system (internal to the nbody library).
#pragma once

#include <memory>

#include "body_system.hpp"

namespace parprim::nbody {

template <class T>
std::unique_ptr<body_system<T>> make_cpu_body_system(const context& ctx, const body_set<T>& bodies,
                                                     T eps);
#if PARPRIM_HAVE_CUDA
template <class T>
std::unique_ptr<body_system<T>> make_cuda_body_system(const context& ctx, const body_set<T>& bodies,
                                                      T eps);
#endif

// True when every mass equals the first (the force loops then factor it out).
template <class T>
bool all_masses_equal(const body_set<T>& b) {
  for (auto m : b.mass)
    if (m != b.mass.front()) return false;
  return !b.mass.empty();
}

}  // namespace parprim::nbody
