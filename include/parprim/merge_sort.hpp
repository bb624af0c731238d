// merge_sort and merge_sort_pairs: stable sorts of any trivially copyable type by a comparator.
//
//   parprim::merge_sort(ctx, span<particle>(p, n),
//                       [] PARPRIM_HOST_DEVICE (const particle& a, const particle& b) {
//                         return a.cell < b.cell; });
//
// `comp(a, b)` is a strict weak order ("a before b"); elements that compare equal keep their
// input order (stable), and values[i] travels with keys[i] in merge_sort_pairs. Header-only:
// the comparator is the caller's type, so the sort is compiled where it is called.
//   cpu   any C++17 compiler: per-thread std::stable_sort of one block each, then rounds of
//         pairwise merges, each cut into equal pieces by merge-path splits so that every thread
//         merges the same number of elements.
//   cuda  code compiled by nvcc (this header then brings in parprim/cuda/merge_sort.cuh): block
//         sorts of tiles, then merge passes with merge-path partitioning (see that header).
//         The comparator must be callable on the device (__host__ __device__, or an extended
//         lambda with nvcc's --extended-lambda). A tile of keys plus values must fit 48 KiB
//         of shared memory at 512 elements: up to 96 bytes per key and value (a compile-time
//         message otherwise). Called from a file compiled by another
//         compiler, a CUDA context is a parprim::error that says so: the call never runs
//         elsewhere silently.
// Temporary memory: one copy of the keys (and values) and small tables, from `ws` when given.
// Stream-ordered on CUDA.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "parprim/context.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/merge_path.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/error.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

// Marks a comparator, key extractor or lambda as callable on host and device under nvcc
// (nothing under other compilers).
#if defined(__CUDACC__)
#define PARPRIM_HOST_DEVICE __host__ __device__
#else
#define PARPRIM_HOST_DEVICE
#endif

namespace parprim {

// The default comparator: operator< of the element type, on host and device.
struct less_than {
  template <class T>
  PARPRIM_HOST_DEVICE bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};

namespace detail {
struct merge_sort_tag { static constexpr const char* header = "parprim/cuda/merge_sort.cuh"; };
}  // namespace detail

namespace merge_detail {

[[noreturn]] inline void fail(const context& ctx, const char* who, const std::string& what,
                              errc code = errc::invalid_argument) {
  throw error(code, std::string("parprim::") + who + " [" + ctx.name() + "]: " + what);
}

template <class T>
void check_span(const context& ctx, const char* who, span<T> s, const char* name) {
  if (s.size() < 0) fail(ctx, who, std::string(name) + ".size()=" + std::to_string(s.size()) + " is negative");
  if (s.size() > 0 && s.data() == nullptr)
    fail(ctx, who, std::string(name) + ".data() is null but " + name + ".size()=" + std::to_string(s.size()));
  if (s.size() > 0 && !ctx.can_access(s.data()))
    fail(ctx, who, std::string(name) + " points to memory the " + ctx.name() + " backend cannot access");
}

// Outputs [begin, end) of the stable merge of a[0, na) and b[0, nb), written to dst[0, end -
// begin): a piece of a parallel merge (merge_sort's rounds, parprim::merge on the CPU).
template <class T, class Comp>
void merge_piece(const T* a, std::int64_t na, const T* b, std::int64_t nb, std::int64_t begin,
                 std::int64_t end, T* dst, Comp comp) {
  const std::int64_t i0 = merge_path(a, na, b, nb, begin, comp);
  const std::int64_t i1 = merge_path(a, na, b, nb, end, comp);
  std::merge(a + i0, a + i1, b + (begin - i0), b + (end - i1), dst, comp);
}

// A key and its value, merged as one element on the CPU.
template <class K, class V>
struct keyed {
  K key;
  V value;
};

// The CPU sort: one block per thread sorted by std::stable_sort, then rounds of pairwise merges.
template <class T, class Comp>
void cpu_merge_sort(const context& ctx, T* data, std::int64_t n, Comp comp, T* temp) {
  const int threads = std::max(1, ctx.threads());
  constexpr std::int64_t sequential_below = 1 << 14;
  if (threads == 1 || n < sequential_below) {
    std::stable_sort(data, data + n, comp);
    return;
  }
  const std::int64_t block = (n + threads - 1) / threads;
  const std::int64_t blocks = (n + block - 1) / block;
#pragma omp parallel for schedule(static, 1) num_threads(threads)
  for (std::int64_t b = 0; b < blocks; ++b)
    std::stable_sort(data + b * block, data + std::min(n, (b + 1) * block), comp);

  // Merge rounds: runs of `width` become runs of 2 * width. Each round's output is cut into
  // `threads` equal pieces; a piece lies in one pair of runs and finds its inputs by merge path.
  T* src = data;
  T* dst = temp;
  const std::int64_t piece = (n + threads - 1) / threads;
  for (std::int64_t width = block; width < n; width *= 2) {
    const std::int64_t pieces = (n + piece - 1) / piece;
#pragma omp parallel for schedule(static, 1) num_threads(threads)
    for (std::int64_t p = 0; p < pieces; ++p) {
      std::int64_t out = p * piece;
      const std::int64_t out_end = std::min(n, out + piece);
      while (out < out_end) {  // a piece may straddle pairs of runs
        const std::int64_t pair = out / (2 * width) * (2 * width);
        const std::int64_t a0 = pair, a1 = std::min(n, pair + width), b1 = std::min(n, pair + 2 * width);
        const std::int64_t stop = std::min(out_end, b1);
        const std::int64_t na = a1 - a0, nb = b1 - a1;
        merge_piece(src + a0, na, src + a1, nb, out - pair, stop - pair, dst + out, comp);
        out = stop;
      }
    }
    std::swap(src, dst);
  }
  if (src != data) std::copy(src, src + n, data);
}

}  // namespace merge_detail

inline namespace PARPRIM_TU_NAMESPACE {

template <class K, class Comp = less_than>
void merge_sort(const context& ctx, span<K> keys, Comp comp = {}, workspace* ws = nullptr) {
  detail::check_element_type<K>();
  merge_detail::check_span(ctx, "merge_sort", keys, "keys");
  if (ws && &ws->ctx().state() != &ctx.state()) merge_detail::fail(ctx, "merge_sort", "workspace belongs to another context");
  const std::int64_t n = keys.size();
  if (ctx.kind() == backend::cuda) {
    if (n > 1)
      detail::cuda_body<detail::merge_sort_tag, detail::with_nvcc<K>>::run(
          ctx, "merge_sort", std::false_type{}, keys.data(), static_cast<K*>(nullptr), n, comp, ws);
    return;
  }
  if (n <= 1) return;
  detail::temp_memory temp(ctx, ws, std::size_t(n) * sizeof(K));
  merge_detail::cpu_merge_sort(ctx, keys.data(), n, comp, temp.as<K>());
}

template <class K, class V, class Comp = less_than>
void merge_sort_pairs(const context& ctx, span<K> keys, span<V> values, Comp comp = {},
                      workspace* ws = nullptr) {
  detail::check_element_type<K>();
  detail::check_element_type<V>();
  const char* who = "merge_sort_pairs";
  merge_detail::check_span(ctx, who, keys, "keys");
  merge_detail::check_span(ctx, who, values, "values");
  if (keys.size() != values.size())
    merge_detail::fail(ctx, who, "keys.size()=" + std::to_string(keys.size()) + " but values.size()=" + std::to_string(values.size()));
  const auto* k0 = reinterpret_cast<const unsigned char*>(keys.data());
  const auto* v0 = reinterpret_cast<const unsigned char*>(values.data());
  if (keys.size() > 0 && k0 < v0 + values.size() * sizeof(V) && v0 < k0 + keys.size() * sizeof(K))
    merge_detail::fail(ctx, who, "keys and values overlap");
  if (ws && &ws->ctx().state() != &ctx.state()) merge_detail::fail(ctx, who, "workspace belongs to another context");
  const std::int64_t n = keys.size();
  if (ctx.kind() == backend::cuda) {
    if (n > 1)
      detail::cuda_body<detail::merge_sort_tag, detail::with_nvcc<K>>::run(
          ctx, who, std::true_type{}, keys.data(), values.data(), n, comp, ws);
    return;
  }
  if (n <= 1) return;
  // Keys and values zipped, sorted as one element by the key, unzipped.
  using item = merge_detail::keyed<K, V>;
  detail::temp_memory temp(ctx, ws, 2 * std::size_t(n) * sizeof(item));
  item* zipped = temp.as<item>();
  K* k = keys.data();
  V* v = values.data();
#pragma omp parallel for schedule(static) num_threads(std::max(1, ctx.threads()))
  for (std::int64_t i = 0; i < n; ++i) zipped[i] = item{k[i], v[i]};
  auto by_key = [&comp](const item& a, const item& b) { return comp(a.key, b.key); };
  merge_detail::cpu_merge_sort(ctx, zipped, n, by_key, zipped + n);
#pragma omp parallel for schedule(static) num_threads(std::max(1, ctx.threads()))
  for (std::int64_t i = 0; i < n; ++i) {
    k[i] = zipped[i].key;
    v[i] = zipped[i].value;
  }
}

}  // namespace PARPRIM_TU_NAMESPACE
}  // namespace parprim

#if PARPRIM_WITH_NVCC
#include "parprim/cuda/merge_sort.cuh"
#endif
