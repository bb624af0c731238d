// scan on the GPU: the single-pass decoupled look-back scan (the default), and the dispatch
// to the course's scans (scan_textbook.cu).
//
// Launches: one kernel when the input fits one tile; otherwise a cudaMemsetAsync of the tile
// status words and the tile counter, then one kernel: one block per tile, or (tuning
// `persistent`) as many blocks as fit on the device at once, looping over tiles. No host
// synchronization.
#include <algorithm>
#include <atomic>
#include <climits>

#include "core/op_functors.hpp"
#include "core/temp_memory.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/kernels/launch.cuh"
#include "cuda/kernels/scan_internal.hpp"
#include "cuda/kernels/scan_lookback.cuh"
#include "cuda/tuning/scan_tuning.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_kernels {

namespace {

// Blocks of the persistent kernel resident on the context's device at once (SMs x blocks per
// SM). Raising the kernel's shared-memory limit and the occupancy query cost microseconds, as
// much as a small scan, so each kernel instantiation keeps its answer per device in `cache`.
template <class Kernel>
int resident_blocks(const context& ctx, Kernel kernel, int threads, std::size_t smem,
                    std::atomic<int>* cache, int cache_size, const char* who) {
  const int dev = ctx.device();
  if (dev >= 0 && dev < cache_size) {
    const int known = cache[dev].load(std::memory_order_relaxed);
    if (known > 0) return known;
  }
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(smem)));
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                          cudaSharedmemCarveoutMaxShared));
  int sms = 0, per_sm = 0;
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
  const int blocks = std::max(sms, 1) * std::max(per_sm, 1);
  if (dev >= 0 && dev < cache_size) cache[dev].store(blocks, std::memory_order_relaxed);
  return blocks;
}

template <class T, class Op>
void scan_lookback(const context& ctx, const T* in, T* out, std::int64_t n, bool inclusive, T init,
                   workspace* ws, const char* who) {
  using tuning = cuda_tuning::scan_lookback_tuning<sizeof(T)>;
  using shape = lookback_shape<T, tuning>;
  using status_t = cuda_prim::tile_status<T>;
  const std::int64_t tiles = ceil_div(n, shape::tile_items);
  // The persistent kernel's claims run past the last tile by up to `stages` per block.
  const std::int64_t max_tiles = shape::persistent ? INT_MAX - (std::int64_t{1} << 20) : INT_MAX;
  if (tiles > max_tiles)
    throw error(errc::invalid_argument, std::string("parprim::") + who + " [" + ctx.name() +
                                            "]: n=" + std::to_string(n) + " is too large");
  const int num_tiles = static_cast<int>(tiles);
  const bool vectorized = cuda_prim::aligned16(in) && cuda_prim::aligned16(out);
  const T start = inclusive ? Op::identity() : init;
  const cudaStream_t s = stream_of(ctx);

  if constexpr (shape::persistent) {
    // Only this kernel is compiled when the switch is on (one instantiation per type and op).
    auto kernel = scan_lookback_persistent_kernel<T, Op, shape>;
    const std::size_t smem = shape::stages * shape::stage_bytes;
    static std::atomic<int> cache[16];  // per instantiation: resident blocks per device
    const int resident = resident_blocks(ctx, kernel, shape::threads, smem, cache, 16, who);
    if (num_tiles == 1) {
      kernel<<<1, shape::threads, smem, s>>>(in, out, n, 1, status_t{}, nullptr, inclusive, start,
                                             vectorized, tuning::spin_sleep_ns);
      PARPRIM_LAUNCH_CHECK(ctx.state(), who);
      return;
    }
    // At most 2^20 / stages blocks, so the claims cannot overflow (see max_tiles).
    const int grid = std::min({num_tiles, resident, (1 << 20) / shape::stages});
    const std::size_t counter_bytes = 256;
    const std::size_t bytes = counter_bytes + status_t::bytes(num_tiles);
    detail::temp_memory scratch(ctx, ws, bytes);
    auto* base = static_cast<unsigned char*>(scratch.get());
    PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(base, 0, bytes, s));
    const status_t status = status_t::bind(base + counter_bytes, num_tiles);
    kernel<<<static_cast<unsigned>(grid), shape::threads, smem, s>>>(
        in, out, n, num_tiles, status, reinterpret_cast<int*>(base), inclusive, start, vectorized,
        tuning::spin_sleep_ns);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    return;
  } else {
    auto kernel = scan_lookback_kernel<T, Op, shape>;
    if (num_tiles == 1) {
      kernel<<<1, shape::threads, 0, s>>>(in, out, n, 1, status_t{}, nullptr, inclusive, start,
                                          vectorized, tuning::spin_sleep_ns, false);
      PARPRIM_LAUNCH_CHECK(ctx.state(), who);
      return;
    }

    // Scratch: the tile counter (first 256 bytes), then the status slots; all zeroed.
    const std::size_t counter_bytes = 256;
    const std::size_t bytes = counter_bytes + status_t::bytes(num_tiles);
    detail::temp_memory scratch(ctx, ws, bytes);
    auto* base = static_cast<unsigned char*>(scratch.get());
    PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(base, 0, bytes, s));
    const status_t status = status_t::bind(base + counter_bytes, num_tiles);
    kernel<<<static_cast<unsigned>(num_tiles), shape::threads, 0, s>>>(
        in, out, n, num_tiles, status, reinterpret_cast<int*>(base), inclusive, start, vectorized,
        tuning::spin_sleep_ns,
        /*speculate=*/shape::speculate && static_cast<const void*>(in) != out);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  }
}

}  // namespace

}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

template <class T>
void scan(const context& ctx, span<const T> in, span<T> out, op o, bool inclusive, T init,
          scan_algorithm alg, workspace* ws) {
  using namespace cuda_kernels;
  const char* who = inclusive ? "inclusive_scan" : "exclusive_scan";
  const std::int64_t n = in.size();
  if (n == 0) return;
  use_device(ctx, who);
  if (alg != scan_algorithm::decoupled_lookback)
    return scan_textbook<T>(ctx, in.data(), out.data(), n, o, inclusive, init, alg, ws);
  detail::with_op<T>(o, [&](auto f) {
    scan_lookback<T, decltype(f)>(ctx, in.data(), out.data(), n, inclusive, init, ws, who);
  });
}

#define PARPRIM_INSTANTIATE(T)                                                         \
  template void scan<T>(const context&, span<const T>, span<T>, op, bool, T, scan_algorithm, \
                        workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
