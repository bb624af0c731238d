// Front ends of lower_bound and upper_bound: validate, then search on raw key words.
#include "parprim/search.hpp"

#include "parprim/detail/validate.hpp"
#include "cpu/search_merge_backend.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/search_merge_backend.hpp"
#endif

namespace parprim {

template <class T>
static void search_front_end(const char* name, const context& ctx, span<const T> sorted,
                             span<const T> queries, span<std::int64_t> out, bool upper) {
  detail::checker c(ctx, name);
  detail::check_search(c, sorted, queries, out);
  if (queries.size() == 0) return;
  using U = detail::key_word_t<T>;
  const detail::key_order<U> ord{detail::kind_of<T>(), false};
  auto* s = reinterpret_cast<const U*>(sorted.data());
  auto* q = reinterpret_cast<const U*>(queries.data());
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda)
    return cuda_backend::search(ctx, s, sorted.size(), q, queries.size(), out.data(), ord, upper);
#endif
  cpu_backend::search(ctx, s, sorted.size(), q, queries.size(), out.data(), ord, upper);
}

template <class T>
void lower_bound(const context& ctx, span<const T> sorted, span<const T> queries,
                 span<std::int64_t> out) {
  search_front_end("lower_bound", ctx, sorted, queries, out, false);
}

template <class T>
void upper_bound(const context& ctx, span<const T> sorted, span<const T> queries,
                 span<std::int64_t> out) {
  search_front_end("upper_bound", ctx, sorted, queries, out, true);
}

#define PARPRIM_INSTANTIATE(T)                                                                 \
  template void lower_bound<T>(const context&, span<const T>, span<const T>, span<std::int64_t>); \
  template void upper_bound<T>(const context&, span<const T>, span<const T>, span<std::int64_t>);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim
