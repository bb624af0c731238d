// CUDA dispatch of the segmented primitives' runs jobs: the segmented scans run the
// single-pass by-key scan with u8 head flags as the keys (parprim/cuda/segmented_scan.cuh,
// with scan_by_heads of by_key.cu); segmented_reduce runs the two-pass runs engine
// (parprim/cuda/segmented.cuh) with flags or offsets as the head source, the chunked segmented_reduce for
// long segments (segmented_reduce.cuh), and the device check of segment offsets. The runs
// engine's entry sends a segmented_reduce of short-to-medium segments to one warp per segment
// (parprim/cuda/segment_warps.cuh), of medium ones to one block per segment
// (parprim/cuda/segment_blocks.cuh), and runs the two passes for the rest (the order of the
// paths: segment_blocks.cuh). segmented_reduce may instead queue the warp or block kernel on
// the host's guess right behind the offsets check (segmented_reduce_speculated, gated on the
// verdict the check kernel publishes; src/core/segmented.cpp).
#include <algorithm>

#include "cuda/kernels/segmented_reduce.cuh"
#include "cuda/runs_backend.hpp"
#include "cuda/segmented_backend.hpp"
#include "parprim/cuda/segmented.cuh"
#include "parprim/cuda/segmented_scan.cuh"
#include "parprim/detail/op_functors.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_kernels {

// The built-in operators, chosen at run time (one uniform branch per combine): one kernel
// per type serves op::plus, op::min and op::max.
template <class V>
struct runtime_op {
  op o;
  __device__ __forceinline__ V operator()(V a, V b) const {
    switch (o) {
      case op::min: return parprim::detail::min_op<V>{}(a, b);
      case op::max: return parprim::detail::max_op<V>{}(a, b);
      default: return parprim::detail::plus_op<V>{}(a, b);
    }
  }
};

}  // namespace parprim::cuda_kernels

namespace parprim {
// plus, min and max all commute: one block or warp per segment takes the units of a segment
// striped over its threads or lanes (segment_blocks::fold_part), so each warp load reads 512
// contiguous bytes; the fold order stays fixed by the offsets.
template <class V>
struct is_commutative<cuda_kernels::runtime_op<V>> : std::true_type {};
}  // namespace parprim

namespace parprim::cuda_kernels {

// The check of segment offsets, into the scratch words of a verdict slot
// (cuda_tuning::offsets_verdict_words, cuda/runtime/verdict_slot.hpp; zero on entry): ~s for
// the lowest s with an offset outside [0, limit] or offsets[s+1] < offsets[s] into `bad` (0:
// none; the complement lets zeroed words start the check); offsets[0] and offsets[segments]
// into `first`, `last`; the longest segment's length into `longest` (meaningless when some
// offset is bad): one atomicMax per block at most, and only where the block's longest beats
// the value already there, so uniform lengths cost a few atomics, not one per block. The last
// block to finish (counted in `finished_blocks`) publishes them with the path the rule picks
// for them (cuda_tuning::per_segment_path) to the device copy that gated kernels queued after
// this one read, and to the pinned host words the host reads once the event after this
// kernel has fired, so nothing is copied back on the stream; then it zeroes the scratch words
// for the slot's next check. With `heads` (zeroed before) it also marks the head flags of the
// covered range, heads[offsets[s] - offsets[0]] = 1 for every non-empty segment s (several
// empty segments may share a start, so only non-empty ones mark it), guarded to [0, limit)
// where the offsets are bad: the segmented scans then read the offsets once. A separate
// marking kernel read them a second time: for 2^28 f32 in segments of 1, 2 GiB of offsets
// against the scan's 2 GiB of values in and out (0.41x CUB's scan over u32 segment ids).
// A bounded grid, each thread looping over offsets: every block ends with a fence and an
// atomic on the one finished-blocks counter, and one block per 256 offsets made that 262,144
// serialized atomics for 2^26 segments (segmented_reduce of 2^26 f32 in segments of 1:
// 1.678 -> 2.198 ms on the H100 when the count was introduced).
constexpr int check_threads = 256;
constexpr int check_blocks_per_sm = 8;
__global__ void __launch_bounds__(check_threads)
    check_offsets_kernel(const std::int64_t* offsets, std::int64_t segments, std::int64_t limit,
                         unsigned long long* words, unsigned long long* host_words,
                         std::uint8_t* heads) {
  using w = cuda_tuning::offsets_verdict_words;
  using longest_reduce = cuda_prim::block_reduce<std::int64_t, parprim::detail::max_op<std::int64_t>,
                                                 check_threads>;
  __shared__ typename longest_reduce::storage shared;
  std::int64_t length = 0;
  const std::int64_t first = offsets[0];
  for (std::int64_t s = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; s <= segments;
       s += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t o = offsets[s];
    const bool bad = o < 0 || o > limit || (s < segments && offsets[s + 1] < o);
    if (bad) atomicMax(&words[w::bad], ~static_cast<unsigned long long>(s));
    if (s == 0) words[w::first] = static_cast<unsigned long long>(o);
    if (s == segments) words[w::last] = static_cast<unsigned long long>(o);
    if (bad || s == segments) continue;
    const std::int64_t next = offsets[s + 1];
    if (next - o > length) length = next - o;
    if (heads && next > o && o - first >= 0 && o - first < limit) heads[o - first] = 1;
  }
  length = longest_reduce::reduce(shared, length, parprim::detail::max_op<std::int64_t>{});
  volatile unsigned long long* seen = words;
  if (threadIdx.x == 0 && length > 0 &&
      static_cast<unsigned long long>(length) > seen[w::longest])
    atomicMax(&words[w::longest], static_cast<unsigned long long>(length));
  __threadfence();  // this block's words are visible to the last block before it counts
  __syncthreads();
  if (threadIdx.x != 0 || atomicAdd(&words[w::finished_blocks], 1ull) != gridDim.x - 1) return;
  __threadfence();
  unsigned long long verdict[w::published];
  for (int k = w::bad; k <= w::longest; ++k) verdict[k] = seen[k];
  const std::int64_t covered = std::int64_t(verdict[w::last]) - std::int64_t(verdict[w::first]);
  verdict[w::path] = static_cast<unsigned long long>(
      verdict[w::bad] != 0 ? cuda_tuning::segment_path::neither
                           : cuda_tuning::per_segment_path(covered, segments,
                                                           std::int64_t(verdict[w::longest])));
  volatile unsigned long long* host = host_words;
  for (int k = 0; k < w::published; ++k) {
    words[w::scratch_words + k] = verdict[k];
    host[k] = verdict[k];
  }
  for (int k = 0; k < w::scratch_words; ++k) seen[k] = 0;
  // No system-wide fence: the host reads the pinned words after the event behind this kernel,
  // and a finished kernel's writes are visible to the host by then.
}

}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

namespace {
// The segmented scans with the library's operators (parprim/cuda/segmented_scan.cuh): by_key.cu's
// precompiled scan_by_heads on the job's head flags.
template <class V>
void segmented_scan(const context& ctx, const detail::runs_job<std::uint32_t, V>& job,
                    workspace* ws) {
  scan_by_heads(ctx, cuda_kernels::segmented_scan::scan_io<V>(job), job.o, ws);
}
}  // namespace

template <class V>
void runs_by_segments(const context& ctx, const detail::runs_job<std::uint32_t, V>& job,
                      workspace* ws) {
  if (job.scan_out)
    segmented_scan(ctx, job, ws);
  else
    cuda_kernels::runs::reduce(ctx, job, cuda_kernels::runtime_op<V>{job.o}, ws, "segmented");
}

template <class T>
void segmented_reduce_chunked(const context& ctx, const T* in, const std::int64_t* offsets,
                              std::int64_t segments, std::int64_t first, std::int64_t last,
                              T* out, T init, op o, workspace* ws) {
  using namespace cuda_kernels;
  using tuning = cuda_tuning::segmented_reduce_tuning;
  using op_t = runtime_op<T>;
  const char* who = "segmented_reduce";
  use_device(ctx, who);
  cudaStream_t stream = stream_of(ctx);
  const std::int64_t chunks = std::max<std::int64_t>(1, ceil_div(last - first, tuning::chunk));
  const std::size_t partial_bytes = detail::align_up(std::size_t(chunks) * sizeof(T));
  const std::size_t arrival_bytes = detail::align_up(std::size_t(chunks) * sizeof(unsigned));
  detail::temp_memory temp(ctx, ws, 2 * partial_bytes + arrival_bytes);
  auto* base = temp.as<unsigned char>();
  auto* arrivals = reinterpret_cast<unsigned*>(base + 2 * partial_bytes);
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(arrivals, 0, arrival_bytes, stream));
  const segmented::chunk_args<T, op_t> a{in,
                                         offsets,
                                         segments,
                                         first,
                                         last,
                                         chunks,
                                         init,
                                         op_t{o},
                                         out,
                                         reinterpret_cast<T*>(base),
                                         reinterpret_cast<T*>(base + partial_bytes),
                                         arrivals};
  segmented::reduce_chunks_kernel<T, op_t><<<unsigned(chunks), tuning::threads, 0, stream>>>(a);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

offsets_check_in_flight::offsets_check_in_flight(const context& ctx,
                                                 const std::int64_t* offsets,
                                                 std::int64_t segments, std::int64_t limit,
                                                 std::uint8_t* heads)
    : lease_(ctx, "segment offsets") {
  using namespace cuda_kernels;
  const char* who = "segment offsets";
  use_device(ctx, who);
  if (heads)
    PARPRIM_CUDA_CHECK(ctx.name(), who,
                       cudaMemsetAsync(heads, 0, std::size_t(limit), stream_of(ctx)));
  const std::int64_t blocks = std::min<std::int64_t>(
      ceil_div(segments + 1, check_threads), std::int64_t(ctx.multiprocessors()) * check_blocks_per_sm);
  check_offsets_kernel<<<unsigned(blocks), check_threads, 0, stream_of(ctx)>>>(
      offsets, segments, limit, lease_.slot().device_words, lease_.slot().host_words_on_device,
      heads);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  lease_.record(who);
}

const unsigned long long* offsets_check_in_flight::device_verdict() const {
  return lease_.slot().device_words + cuda_tuning::offsets_verdict_words::scratch_words;
}

offsets_verdict offsets_check_in_flight::wait() {
  using w = cuda_tuning::offsets_verdict_words;
  lease_.wait("segment offsets");
  const volatile unsigned long long* host = lease_.slot().host_words;
  offsets_verdict v;
  v.bad = host[w::bad] == 0 ? -1 : static_cast<std::int64_t>(~host[w::bad]);
  v.first = static_cast<std::int64_t>(host[w::first]);
  v.last = static_cast<std::int64_t>(host[w::last]);
  v.longest = static_cast<std::int64_t>(host[w::longest]);
  return v;
}

offsets_verdict check_offsets(const context& ctx, const std::int64_t* offsets,
                              std::int64_t segments, std::int64_t limit) {
  return offsets_check_in_flight(ctx, offsets, segments, limit).wait();
}

template <class T>
cuda_tuning::segment_path segmented_reduce_speculated(const context& ctx, const T* in,
                                                      std::int64_t n,
                                                      const std::int64_t* offsets,
                                                      std::int64_t segments, T* out, T init,
                                                      op o, const unsigned long long* verdict) {
  return cuda_kernels::launch_guessed_reduce(ctx, in, n, offsets, segments, init,
                                             cuda_kernels::runtime_op<T>{o}, out, verdict,
                                             "segmented_reduce");
}

#define PARPRIM_INSTANTIATE(V)                                                            \
  template void runs_by_segments<V>(const context&, const detail::runs_job<std::uint32_t, V>&, \
                                    workspace*);                                            \
  template void segmented_reduce_chunked<V>(const context&, const V*, const std::int64_t*, \
                                            std::int64_t, std::int64_t, std::int64_t, V*, V, \
                                            op, workspace*);                               \
  template cuda_tuning::segment_path segmented_reduce_speculated<V>(                         \
      const context&, const V*, std::int64_t, const std::int64_t*, std::int64_t, V*, V, op,   \
      const unsigned long long*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
