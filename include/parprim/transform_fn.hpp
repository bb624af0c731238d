// transform with any callable, for the CPU backend: out[i] = f(in[i]).
//
// Header-only (the callable is the caller's type, so it cannot be precompiled). For device
// lambdas on the CUDA backend use parprim/cuda/transform.cuh, which also accepts this call on a
// CPU context.
#pragma once

#include <string>

#include "parprim/context.hpp"
#include "parprim/error.hpp"
#include "parprim/span.hpp"

namespace parprim {

template <class T, class U, class F>
void transform_fn(const context& ctx, span<const T> in, span<U> out, F f) {
  auto fail = [&](const std::string& what) {
    throw error(errc::invalid_argument, "parprim::transform_fn [" + ctx.name() + "]: " + what);
  };
  if (ctx.kind() != backend::cpu)
    fail("needs a cpu context; include parprim/cuda/transform.cuh for device callables");
  if (in.size() != out.size())
    fail("in.size()=" + std::to_string(in.size()) + " but out.size()=" + std::to_string(out.size()));
  if (in.size() < 0) fail("in.size()=" + std::to_string(in.size()) + " is negative");
  if (in.size() > 0 && (in.data() == nullptr || out.data() == nullptr)) fail("null data with in.size() > 0");
  const std::int64_t n = in.size();
  const T* x = in.data();
  U* y = out.data();
#pragma omp parallel for schedule(static) num_threads(ctx.threads()) if (n >= (1 << 14))
  for (std::int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
}

}  // namespace parprim
