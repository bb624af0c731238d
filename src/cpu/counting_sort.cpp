// CPU counting sort: histogram -> exclusive scan -> stable scatter, over fixed-size blocks.
//
// 1. Each block counts its keys: counts[key * blocks + block] (parallel over blocks).
// 2. An exclusive scan of counts in that key-major order gives every (key, block) pair the
//    position of its first element (sequential: key_range * blocks values).
// 3. Each block walks its keys in order and places each at its pair's next position
//    (parallel over blocks). Within a block equal keys keep their order, and blocks of the
//    same key were laid out in block order, so the sort is stable.
#include <vector>

#include "cpu/gather_scatter_backend.hpp"
#include "cpu/parallel.hpp"
#include "parprim/types.hpp"

namespace parprim::cpu_backend {

namespace {
constexpr std::int64_t sort_block = 1 << 16;

template <class K>
std::uint32_t digit(K key, K min_key) {
  return static_cast<std::uint32_t>(key) - static_cast<std::uint32_t>(min_key);
}
}  // namespace

template <class K>
std::int64_t first_key_outside(const context& ctx, span<const K> keys, K min_key,
                               std::int64_t key_range) {
  const std::int64_t n = keys.size();
  const K* k = keys.data();
  const std::uint32_t range = static_cast<std::uint32_t>(key_range);
  std::vector<std::int64_t> first(static_cast<std::size_t>(block_count(n, sort_block)), -1);
  blocked_for(ctx, n, sort_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    for (std::int64_t i = s; i < e; ++i)
      if (digit(k[i], min_key) >= range) {
        first[static_cast<std::size_t>(b)] = i;
        return;
      }
  });
  for (std::int64_t f : first)
    if (f >= 0) return f;
  return -1;
}

template <class K, class V>
void counting_sort(const context& ctx, span<const K> keys_in, span<const V> values_in,
                   span<K> keys_out, span<V> values_out, std::int64_t key_range, K min_key) {
  const std::int64_t n = keys_in.size();
  const std::int64_t blocks = block_count(n, sort_block);
  const K* kin = keys_in.data();
  const V* vin = values_in.data();
  K* kout = keys_out.data();
  V* vout = values_out.data();
  const bool with_values = values_in.size() > 0;
  std::vector<std::int64_t> pos(static_cast<std::size_t>(key_range * blocks), 0);
  auto at = [&](std::uint32_t key, std::int64_t b) -> std::int64_t& {
    return pos[static_cast<std::size_t>(std::int64_t(key) * blocks + b)];
  };
  // Phase 1: per-block counts.
  blocked_for(ctx, n, sort_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    for (std::int64_t i = s; i < e; ++i) ++at(digit(kin[i], min_key), b);
  });
  // Phase 2: exclusive scan in key-major order.
  std::int64_t running = 0;
  for (auto& p : pos) {
    std::int64_t c = p;
    p = running;
    running += c;
  }
  // Phase 3: stable scatter.
  blocked_for(ctx, n, sort_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    for (std::int64_t i = s; i < e; ++i) {
      std::int64_t d = at(digit(kin[i], min_key), b)++;
      kout[d] = kin[i];
      if (with_values) vout[d] = vin[i];
    }
  });
}

template std::int64_t first_key_outside<std::int32_t>(const context&, span<const std::int32_t>,
                                                      std::int32_t, std::int64_t);
template std::int64_t first_key_outside<std::uint32_t>(const context&, span<const std::uint32_t>,
                                                       std::uint32_t, std::int64_t);
#define PARPRIM_INSTANTIATE(K, V)                                                              \
  template void counting_sort<K, V>(const context&, span<const K>, span<const V>, span<K>,     \
                                    span<V>, std::int64_t, K);
#define PARPRIM_INSTANTIATE_I32(V) PARPRIM_INSTANTIATE(std::int32_t, V)
#define PARPRIM_INSTANTIATE_U32(V) PARPRIM_INSTANTIATE(std::uint32_t, V)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE_I32)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE_U32)
#undef PARPRIM_INSTANTIATE_U32
#undef PARPRIM_INSTANTIATE_I32
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
