// radix_sort_by_key: a stable radix sort of any trivially copyable type by a caller-supplied
// key extractor.
//
//   struct particle { float x, y, z; std::uint32_t cell; };
//   parprim::radix_sort_by_key(ctx, span<particle>(p, n),
//                              [] PARPRIM_HOST_DEVICE (const particle& q) { return q.cell; });
//
// `key_of(element)` returns an unsigned integer (u8, u16, u32 or u64) whose unsigned order is
// the wanted order: the image. Elements with equal images keep their input order (stable);
// descending reverses the image order and stays stable. For a signed or float field, return
// its order-preserving image (for a signed integer: its bits with the sign bit flipped).
//
// How: the images and the element indices are sorted as radix_sort_pairs (Onesweep on CUDA,
// the LSD sort on the CPU), then the elements are gathered by the sorted indices. Header-only
// like merge_sort: on a CUDA context the extractor runs on the device, so the call must be
// compiled by nvcc (this header then brings in parprim/cuda/sort_by_key.cuh); from a file
// compiled by another compiler a CUDA context is a parprim::error saying so.
// Temporary memory: the images, two index arrays and one copy of the elements.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "parprim/merge_sort.hpp"  // PARPRIM_HOST_DEVICE, temp_memory, checks
#include "parprim/sort.hpp"

namespace parprim {

namespace detail {
struct sort_by_key_tag { static constexpr const char* header = "parprim/cuda/sort_by_key.cuh"; };
}  // namespace detail

namespace sort_by_key_detail {

template <class I>
inline constexpr bool is_image_v = std::is_same_v<I, std::uint8_t> || std::is_same_v<I, std::uint16_t> ||
                                   std::is_same_v<I, std::uint32_t> || std::is_same_v<I, std::uint64_t>;

// Where the images, indices and element copy live in one temporary block.
template <class T, class I, class Index>
struct layout {
  std::size_t images, indices, copy, total;
  explicit layout(std::int64_t n) {
    using detail::align_up;
    images = 0;
    indices = align_up(std::size_t(n) * sizeof(I));
    copy = indices + align_up(std::size_t(n) * sizeof(Index));
    total = copy + align_up(std::size_t(n) * sizeof(T));
  }
};

template <class T, class I, class Index, class KeyOf>
void sort_on_cpu(const context& ctx, T* data, std::int64_t n, KeyOf key_of, sort_order order,
                 workspace* ws) {
  layout<T, I, Index> at(n);
  detail::temp_memory temp(ctx, ws, at.total);  // the sort below leases above it
  I* images = reinterpret_cast<I*>(temp.as<unsigned char>() + at.images);
  Index* index = reinterpret_cast<Index*>(temp.as<unsigned char>() + at.indices);
  T* copy = reinterpret_cast<T*>(temp.as<unsigned char>() + at.copy);
  const int threads = ctx.threads() > 0 ? ctx.threads() : 1;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (std::int64_t i = 0; i < n; ++i) {
    images[i] = key_of(data[i]);
    index[i] = Index(i);
    copy[i] = data[i];
  }
  radix_sort_pairs<I, Index>(ctx, span<I>(images, n), span<Index>(index, n), order, 0, -1,
                             sort_algorithm::onesweep, ws);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (std::int64_t i = 0; i < n; ++i) data[i] = copy[index[i]];
}

}  // namespace sort_by_key_detail

inline namespace PARPRIM_TU_NAMESPACE {

template <class T, class KeyOf>
void radix_sort_by_key(const context& ctx, span<T> data, KeyOf key_of,
                       sort_order order = sort_order::ascending, workspace* ws = nullptr) {
  detail::check_element_type<T>();
  using I = std::decay_t<decltype(key_of(std::declval<const T&>()))>;
  static_assert(sort_by_key_detail::is_image_v<I>,
                "parprim::radix_sort_by_key: key_of must return std::uint8_t, std::uint16_t, "
                "std::uint32_t or std::uint64_t (an unsigned image of the key)");
  const char* who = "radix_sort_by_key";
  merge_detail::check_span(ctx, who, data, "data");
  if (order != sort_order::ascending && order != sort_order::descending)
    merge_detail::fail(ctx, who, "order=" + std::to_string(int(order)) + " is not a known option");
  if (ws && &ws->ctx().state() != &ctx.state()) merge_detail::fail(ctx, who, "workspace belongs to another context");
  const std::int64_t n = data.size();
  const bool small = n <= std::int64_t(UINT32_MAX);
  if (ctx.kind() == backend::cuda) {
    if (n > 1)
      detail::cuda_body<detail::sort_by_key_tag, detail::with_nvcc<T>>::run(
          ctx, who, std::bool_constant<true>{}, data.data(), n, key_of, order, ws);
    return;
  }
  if (n <= 1) return;
  if (small) sort_by_key_detail::sort_on_cpu<T, I, std::uint32_t>(ctx, data.data(), n, key_of, order, ws);
  else sort_by_key_detail::sort_on_cpu<T, I, std::uint64_t>(ctx, data.data(), n, key_of, order, ws);
}

}  // namespace PARPRIM_TU_NAMESPACE
}  // namespace parprim

#if PARPRIM_WITH_NVCC
#include "parprim/cuda/sort_by_key.cuh"
#endif
