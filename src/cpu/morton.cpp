// CPU morton_encode: one parallel, vectorizable pass over the points.
#include "core/morton_code.hpp"
#include "cpu/parallel.hpp"

namespace parprim::cpu_backend {

template <class T, class C>
void morton_encode(const context& ctx, span<const T> x, span<const T> y, span<const T> z,
                   const detail::morton_scale<T>& s, span<C> codes) {
  const T *px = x.data(), *py = y.data(), *pz = z.data();
  C* out = codes.data();
  blocked_for(ctx, x.size(), 1 << 16, [&](std::int64_t, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) out[i] = detail::morton_code<C>(px[i], py[i], pz[i], s);
  });
}

#define PARPRIM_INSTANTIATE(T, C)                                                                       \
  template void morton_encode<T, C>(const context&, span<const T>, span<const T>, span<const T>, \
                                    const detail::morton_scale<T>&, span<C>);
PARPRIM_INSTANTIATE(float, std::uint32_t)
PARPRIM_INSTANTIATE(float, std::uint64_t)
PARPRIM_INSTANTIATE(double, std::uint32_t)
PARPRIM_INSTANTIATE(double, std::uint64_t)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
