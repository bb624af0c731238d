// Onesweep kernels 1 and 2 (radix_sort.cu): every digit histogram in one read of the keys,
// then the digit starts, the trivial passes and the buffer parity; and the fill kernel that
// replaces the pass when one digit is the whole key.
#pragma once

#include "cuda/kernels/radix_sort_common.cuh"

namespace parprim::cuda_kernels::onesweep {

// ---- 1. Upfront histogram --------------------------------------------------------------------
// Every pass's digit histogram in one read, into 64-bit totals (blocks count in 32 bits: a
// block sees at most n / grid keys). Several copies of the bins in shared memory, summed at
// the end, laid out by histogram_layout.

// Where the copies of the bins lie: copy c of bin b in word b * copies + c, thread t counting
// into copy t % copies. Keys of up to 4 bytes: one copy per lane, so copy l of every bin is in
// bank l and a warp's 32 atomics hit 32 different banks whatever the digits. With copies
// shared by a warp's lanes, 32 uniform digits fall in random banks of 8 bins each: ~3.5-way
// conflicts, about the 3.4 clocks per warp atomic the H100 spent. ncu (2^27 u32 keys, default
// clocks): two copies per block (warp w into copy w % 2) 295-297 us, CUB's histogram
// 285-286 us, one copy per lane 244-247 us; the sort 2.7308 -> 2.6876 / 2.6926 ms, 1.03x ->
// 1.04-1.05x CUB in the same runs. 4 passes x 256 bins x 32 copies is 128 KiB: one block of
// 1024 threads per SM. 8-byte keys have 8 passes, so 16 copies fit the same 128 KiB: lanes l
// and l + 16 share copy l % 16's bank for bins of one parity, at most 2-way conflicts; against
// one copy per block of 256 threads (4 blocks per SM) the u64 sort at 2^27 went from 8.4015
// to 8.3426 / 8.3031 ms (1.02x -> 1.03x CUB, same call). Both in bench/results/
// 2026-11-21-h100-experiments.md ("one copy of the bins per lane").
constexpr int warp_lanes = 32;

template <class U>
struct histogram_layout {
  static constexpr int copies = sizeof(U) <= 4 ? warp_lanes : warp_lanes / 2;
  static constexpr int threads = tuning::histogram_threads;
  static constexpr int bins = int(sizeof(U)) * radix;  // 8-bit digits: one pass per key byte
  static constexpr int stride = copies;                // words from bin b to bin b + 1
  static constexpr int shared_bytes = copies * bins * int(sizeof(unsigned));
  static_assert(shared_bytes <= 128 * 1024, "one block per SM");
  __device__ static int slot(int copy, int bin) { return bin * copies + copy; }
  __device__ static int own_copy() { return int(threadIdx.x) % copies; }
};

// Counts one key's digits of every pass into the thread's copy of the bins.
template <class L, class U>
__device__ __forceinline__ void count_digits(unsigned* bins, U key, key_params kp, int begin_bit,
                                             int end_bit, int passes) {
  constexpr int key_passes = int(sizeof(U));  // 8-bit digits: 1, 2, 4 or 8 passes at most
  const U image = detail::ordered_bits(key, kp.kind, kp.descending);
#pragma unroll
  for (int p = 0; p < key_passes; ++p) {
    if (p < passes) {
      const int shift = begin_bit + p * tuning::radix_bits;
      const int width = min(tuning::radix_bits, end_bit - shift);
      const unsigned d = unsigned(image >> shift) & ((1u << width) - 1u);
      atomicAdd(&bins[(p * radix + int(d)) * L::stride], 1u);
    }
  }
}

// Keys 16-byte aligned: each thread loads `items` keys as 16-byte vectors, all loads of a
// round in flight before the first count, and full rounds (all but the grid's last) skip the
// bounds checks. The keys past the last whole vector (fewer than 16 / sizeof(U)) go to block
// 0. On the H100 the scalar loop with a check per key took 273 us at 2^27 u32 keys, CUB's
// histogram 234 us (ncu --clock-control none, 2026-11-23); with vectors and two copies of the
// bins the u32 sort went from 2.7428 to 2.7173 / 2.7154 ms at 2^27 (1.02x -> 1.03x CUB).
// 8-byte keys keep the scalar loop: vectors made their sort 1% slower (8.3696 -> 8.4451 ms).
template <class L, class U>
__device__ __forceinline__ void count_vectors(unsigned* bins, const U* keys, std::int64_t count,
                                              key_params kp, int begin_bit, int end_bit,
                                              int passes) {
  constexpr int threads = L::threads;
  constexpr int per_vector = 16 / int(sizeof(U));
  constexpr int vectors = tuning::histogram_items / per_vector;  // per thread per round
  static_assert(tuning::histogram_items % per_vector == 0, "whole vectors per thread");
  const uint4* v = reinterpret_cast<const uint4*>(keys);
  const std::int64_t whole = count / per_vector;
  const std::int64_t round = std::int64_t(threads) * vectors;
  for (std::int64_t base = std::int64_t(blockIdx.x) * round; base < whole;
       base += std::int64_t(gridDim.x) * round) {
    const bool full = base + round <= whole;
    uint4 r[vectors];
#pragma unroll
    for (int j = 0; j < vectors; ++j) {
      const std::int64_t i = base + j * threads + threadIdx.x;
      if (full || i < whole) r[j] = __ldg(v + i);
    }
#pragma unroll
    for (int j = 0; j < vectors; ++j) {
      if (!full && base + j * threads + threadIdx.x >= whole) break;
      U k[per_vector];
      memcpy(k, &r[j], sizeof(r[j]));
#pragma unroll
      for (int e = 0; e < per_vector; ++e) count_digits<L>(bins, k[e], kp, begin_bit, end_bit, passes);
    }
  }
  if (blockIdx.x == 0)
    for (std::int64_t i = whole * per_vector + threadIdx.x; i < count; i += threads)
      count_digits<L>(bins, keys[i], kp, begin_bit, end_bit, passes);
}

// Dynamic shared memory: L::shared_bytes (up to 128 KiB: the launch opts in).
template <class U, class L = histogram_layout<U>>
__global__ void __launch_bounds__(L::threads, 1)
    onesweep_histogram(const U* keys, std::int64_t count, key_params kp, int begin_bit,
                       int end_bit, int passes, unsigned long long* hist /* [max_passes][radix] */) {
  constexpr int threads = L::threads, items = tuning::histogram_items;
  extern __shared__ unsigned s_hist[];  // [L::copies * L::bins], placed by L::slot
  for (int i = threadIdx.x; i < L::copies * L::bins; i += threads) s_hist[i] = 0;
  __syncthreads();
  unsigned* mine = s_hist + L::slot(L::own_copy(), 0);

  if (sizeof(U) <= 4 && reinterpret_cast<std::uintptr_t>(keys) % 16 == 0) {
    count_vectors<L>(mine, keys, count, kp, begin_bit, end_bit, passes);
  } else {
    const std::int64_t stride = std::int64_t(gridDim.x) * threads * items;
    for (std::int64_t base = std::int64_t(blockIdx.x) * threads * items; base < count;
         base += stride) {
      U k[items];
#pragma unroll
      for (int j = 0; j < items; ++j) {
        const std::int64_t i = base + j * threads + threadIdx.x;
        k[j] = i < count ? keys[i] : U(0);
      }
#pragma unroll
      for (int j = 0; j < items; ++j) {
        if (base + j * threads + threadIdx.x >= count) break;
        count_digits<L>(mine, k[j], kp, begin_bit, end_bit, passes);
      }
    }
  }
  __syncthreads();
  // Thread t sums its bins' copies starting at copy t % copies: by lane, the 32 lanes of a
  // warp then read 32 different banks.
  for (int i = threadIdx.x; i < passes * radix; i += threads) {
    unsigned total = 0;
    for (int c = 0; c < L::copies; ++c)
      total += s_hist[L::slot((c + int(threadIdx.x)) % L::copies, i)];
    if (total) atomicAdd(&hist[i], (unsigned long long)total);
  }
}

// ---- 2. Digit starts, trivial passes and buffer parity (one block, thread d = digit d) ----------
// Writes the starts of segment 0; the passes chain the later segments' starts.
__global__ void __launch_bounds__(radix)
    onesweep_scan(const unsigned long long* hist /* [max_passes][radix] */,
                  long long* segment_base /* [segments][max_passes][radix] */,
                  onesweep_control* control, int passes, std::int64_t n) {
  __shared__ long long warp_totals[radix / 32];
  const int d = threadIdx.x;
  int source = 0;
  int first_pass = passes;
  for (int p = 0; p < passes; ++p) {
    const long long total = (long long)hist[p * radix + d];
    const bool trivial = __syncthreads_or(total == n) != 0;
    segment_base[p * radix + d] = block_exclusive_sum(total, warp_totals);
    if (d == 0) {
      control->skip[p] = trivial ? 1 : 0;
      control->source[p] = source;
      if (!trivial) source ^= 1;
      if (!trivial && first_pass == passes) first_pass = p;
    }
  }
  if (d == 0) {
    control->source[passes] = source;
    control->first_pass = first_pass;
  }
}


// ---- Keys only, one digit that covers every key bit (1-byte keys, full range) ---------------
// The digit counts then determine the sorted keys: position i holds the key whose image is the
// digit d with start[d] <= i < start[d + 1], and equal keys are identical bits, so order among
// them is moot. One read (the histogram) and one write, where a pass would read and write the
// keys and an odd pass count would copy them back. Each thread writes fill_bytes consecutive
// keys, 16 bytes at a time when the keys are 16-byte aligned.
constexpr int fill_bytes = 16;

__global__ void __launch_bounds__(radix)
    onesweep_fill(const long long* digit_start /* [radix] */, std::int64_t n, key_params kp,
                  std::uint8_t* keys) {
  __shared__ long long s_start[radix + 1];
  s_start[threadIdx.x] = digit_start[threadIdx.x];
  if (threadIdx.x == 0) s_start[radix] = n;
  __syncthreads();
  const bool aligned = (reinterpret_cast<std::uintptr_t>(keys) % fill_bytes) == 0;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x * fill_bytes;
  for (std::int64_t first = (std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x) * fill_bytes;
       first < n; first += stride) {
    int lo = 0, hi = radix - 1;  // the last digit starting at or before `first`
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (s_start[mid] <= first) lo = mid;
      else hi = mid - 1;
    }
    int d = lo;
    std::uint8_t out[fill_bytes];
#pragma unroll
    for (int j = 0; j < fill_bytes; ++j) {
      while (s_start[d + 1] <= first + j && d < radix - 1) ++d;
      out[j] = detail::original_bits(std::uint8_t(d), kp.kind, kp.descending);
    }
    if (aligned && first + fill_bytes <= n) {
      uint4 v;
      memcpy(&v, out, fill_bytes);
      *reinterpret_cast<uint4*>(keys + first) = v;
    } else {
      for (int j = 0; j < fill_bytes && first + j < n; ++j) keys[first + j] = out[j];
    }
  }
}

}  // namespace parprim::cuda_kernels::onesweep
