// CPU radix sort: parallel least-significant-digit passes with 8-bit digits.
//
// The keys are cut into one contiguous block per worker thread. Each pass:
//   1. every block counts its digits (a private 256-bin histogram per thread);
//   2. a sequential prefix over (digit, block) gives every block its write position for
//      each digit: all of digit 0 from block 0, then from block 1, ..., then digit 1, ...;
//   3. every block scatters its keys (and values) in input order to those positions.
// Step 3 keeps equal digits in input order, so each pass is stable and LSD order works.
// A pass whose digit is the same for every key would not move anything: it is skipped.
// Digits come from the order-preserving image of the raw key bits (core/sort_keys.hpp), so
// signed and float keys need no conversion pass.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "parprim/detail/temp_memory.hpp"
#include "cpu/parallel.hpp"
#include "cpu/sort_backend.hpp"

namespace parprim::cpu_backend {

namespace {

constexpr int digit_bits = 8;
constexpr int radix = 1 << digit_bits;

template <class U, class W>
void lsd_sort(const context& ctx, const detail::sort_request& r, U* keys, W* values,
              workspace* ws) {
  const std::int64_t n = r.n;
  const int workers = workers_for(ctx, n);
  const std::int64_t chunk = block_count(n, workers);
  const std::int64_t blocks = block_count(n, chunk);
  const std::size_t key_bytes = detail::align_up(std::size_t(n) * sizeof(U));
  const std::size_t value_bytes = values ? std::size_t(n) * sizeof(W) : 0;
  detail::temp_memory temp(ctx, ws, key_bytes + value_bytes);
  U* src_k = keys;
  U* dst_k = temp.as<U>();
  W* src_v = values;
  W* dst_v = values ? reinterpret_cast<W*>(temp.as<unsigned char>() + key_bytes) : nullptr;
  std::vector<std::int64_t> hist(static_cast<std::size_t>(blocks * radix));

  for (int shift = r.begin_bit; shift < r.end_bit; shift += digit_bits) {
    const int width = std::min(digit_bits, r.end_bit - shift);
    auto digit = [&](U k) { return detail::key_field(k, r.kind, r.descending, shift, width); };

    // Step 1: per-block digit counts.
    blocked_for(ctx, n, chunk, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
      std::int64_t* h = &hist[static_cast<std::size_t>(b * radix)];
      std::fill(h, h + radix, 0);
      for (std::int64_t i = s; i < e; ++i) ++h[digit(src_k[i])];
    });

    // Step 2: digit-major prefix; a digit holding every key means nothing would move.
    bool trivial = false;
    std::int64_t running = 0;
    for (int d = 0; d < radix; ++d) {
      std::int64_t digit_total = 0;
      for (std::int64_t b = 0; b < blocks; ++b) {
        std::int64_t& c = hist[static_cast<std::size_t>(b * radix + d)];
        std::int64_t t = c;
        c = running;
        running += t;
        digit_total += t;
      }
      trivial = trivial || digit_total == n;
    }
    if (trivial) continue;

    // Step 3: stable scatter.
    blocked_for(ctx, n, chunk, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
      std::int64_t* pos = &hist[static_cast<std::size_t>(b * radix)];
      for (std::int64_t i = s; i < e; ++i) {
        std::int64_t p = pos[digit(src_k[i])]++;
        dst_k[p] = src_k[i];
        if (values) dst_v[p] = src_v[i];
      }
    });
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }

  // An odd number of executed passes leaves the result in the temporary copy.
  if (src_k != keys) {
    blocked_for(ctx, n, chunk, [&](std::int64_t, std::int64_t s, std::int64_t e) {
      std::memcpy(keys + s, src_k + s, std::size_t(e - s) * sizeof(U));
      if (values) std::memcpy(values + s, src_v + s, std::size_t(e - s) * sizeof(W));
    });
  }
}

}  // namespace

// Key and value widths select the instance: keys only run with a null 4-byte value pointer.
void radix_sort_lsd(const context& ctx, const detail::sort_request& r, workspace* ws) {
  if (r.key_bytes == 4) {
    auto* k = static_cast<std::uint32_t*>(r.keys);
    if (r.value_bytes == 8) lsd_sort(ctx, r, k, static_cast<std::uint64_t*>(r.values), ws);
    else lsd_sort(ctx, r, k, static_cast<std::uint32_t*>(r.values), ws);
  } else {
    auto* k = static_cast<std::uint64_t*>(r.keys);
    if (r.value_bytes == 8) lsd_sort(ctx, r, k, static_cast<std::uint64_t*>(r.values), ws);
    else lsd_sort(ctx, r, k, static_cast<std::uint32_t*>(r.values), ws);
  }
}

}  // namespace parprim::cpu_backend
