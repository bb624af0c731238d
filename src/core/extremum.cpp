// Front end of argmin, argmax and their _into forms: validate, then dispatch (CPU:
// src/cpu/extremum.cpp; CUDA: src/cuda/kernels/extremum.cu).
#include "parprim/extremum.hpp"

#include <cstring>

#include "cpu/extremum_backend.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/detail/validate.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/extremum_backend.hpp"
#endif

namespace parprim::detail {

namespace {
template <class T>
void check_input(const checker& c, span<const T> in, workspace* ws) {
  c.valid(in, "in");
  if (in.size() == 0) c.fail("in is empty: an empty range has no smallest or largest element");
  c.own_workspace(ws);
}
}  // namespace

template <class T>
extremum<T> find_extremum(const context& ctx, span<const T> in, bool largest, workspace* ws) {
  checker c(ctx, largest ? "argmax" : "argmin");
  check_input(c, in, ws);
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) {
    // The answer goes through two device words, copied back at once (waiting for the stream).
    temp_memory result(ctx, nullptr, 2 * sizeof(std::int64_t));
    auto* index = result.as<std::int64_t>();
    cuda_backend::find_extremum(ctx, in, largest, reinterpret_cast<T*>(index + 1), index, ws);
    std::int64_t words[2];
    ctx.copy_to_host(words, result.get(), sizeof words);
    extremum<T> m{};
    m.index = words[0];
    std::memcpy(&m.value, &words[1], sizeof(T));
    return m;
  }
#endif
  return cpu_backend::find_extremum(ctx, in, largest);
}

template <class T>
void find_extremum_into(const context& ctx, span<const T> in, bool largest, span<T> value,
                        span<std::int64_t> index, workspace* ws) {
  checker c(ctx, largest ? "argmax_into" : "argmin_into");
  check_input(c, in, ws);
  c.valid(value, "value");
  c.valid(index, "index");
  if (value.size() != 1) c.fail("value.size()=" + std::to_string(value.size()) + " but must be 1");
  if (index.size() != 1) c.fail("index.size()=" + std::to_string(index.size()) + " but must be 1");
  c.no_overlap(in, "in", value, "value", false);
  c.no_overlap(in, "in", index, "index", false);
  c.no_overlap(value, "value", index, "index", false);
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda)
    return cuda_backend::find_extremum(ctx, in, largest, value.data(), index.data(), ws);
#endif
  const extremum<T> m = cpu_backend::find_extremum(ctx, in, largest);
  value[0] = m.value;
  index[0] = m.index;
}

#define PARPRIM_INSTANTIATE(T)                                                            \
  template extremum<T> find_extremum<T>(const context&, span<const T>, bool, workspace*); \
  template void find_extremum_into<T>(const context&, span<const T>, bool, span<T>,       \
                                      span<std::int64_t>, workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::detail
