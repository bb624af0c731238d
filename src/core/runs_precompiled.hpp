// The precompiled by-key, unique and run-length entry points' common call (by_key.cpp,
// unique.cpp): keys compared with ==, signed keys run as their unsigned type, the library's
// operators; the CPU body with the operator's functor, or the CUDA dispatch
// (src/cuda/runs_backend.hpp), which picks the operator on the device.
#pragma once

#include <cstdint>
#include <type_traits>

#include "parprim/by_key.hpp"
#include "parprim/detail/op_functors.hpp"
#include "parprim/detail/runs_front.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/runs_backend.hpp"
#endif

namespace parprim::detail {

// Values that are only copied (the heads kind) travel as words of their size.
template <class V>
using copied_value_t = std::conditional_t<sizeof(V) == 4, std::uint32_t, std::uint64_t>;

template <runs_kind Kind, class K, class V>
std::int64_t run_precompiled(const checker& c, const runs_io<K, V>& io, op o,
                             const run_outputs& outs, workspace* ws) {
  c.own_workspace(ws);
  const auto keyed = rekey<equality_key_t<K>>(io);
  if constexpr (Kind == runs_kind::heads) {
    static_assert(sizeof(V) == 4 || sizeof(V) == 8, "copied values are 4- or 8-byte words");
    using W = copied_value_t<V>;
    const auto words = revalue<W>(keyed);
    return run_runs<Kind>(c, words, equal_to{}, no_fold{}, outs, [&]() -> std::int64_t {
#if PARPRIM_HAVE_CUDA
      return cuda_backend::heads_by_key(c.ctx(), words, ws);
#else
      return -1;  // never called: without the CUDA backend no context is a CUDA one
#endif
    });
  } else if constexpr (Kind == runs_kind::lengths) {
    static_assert(std::is_same_v<V, std::int64_t>, "run lengths are 64-bit");
    const plus_op<std::int64_t> plus{};
    return run_runs<Kind>(c, keyed, equal_to{}, plus, outs, [&]() -> std::int64_t {
#if PARPRIM_HAVE_CUDA
      return cuda_backend::lengths_by_key(c.ctx(), keyed, ws);
#else
      return -1;  // never called: without the CUDA backend no context is a CUDA one
#endif
    });
  } else {
    return with_op<V>(o, [&](auto f) {
      return run_runs<Kind>(c, keyed, equal_to{}, f, outs, [&]() -> std::int64_t {
#if PARPRIM_HAVE_CUDA
        return cuda_backend::runs_by_key<Kind>(c.ctx(), keyed, o, ws);
#else
        return -1;  // never called: without the CUDA backend no context is a CUDA one
#endif
      });
    });
  }
}

}  // namespace parprim::detail
