// Onesweep LSD radix sort (Adinets & Merrill, "Onesweep: A Faster Least Significant Digit
// Radix Sort for GPUs", 2022): 8-bit digits, one read of the keys for all histograms, then one
// kernel per digit that reads and writes every key exactly once.
//
// Kernels, in stream order:
//   1. histogram  every digit histogram of every pass in one read of the keys
//   2. scan       per pass: where each digit starts (exclusive scan over digits), which passes
//                 are trivial (one digit holds every key: skipped), and which buffer each
//                 executed pass reads (the ping-pong parity, decided on the device)
//   3. pass x P   per tile: rank the keys by digit inside the tile (warp-level multisplit),
//                 publish the tile's digit counts, find the tile's place among the keys of
//                 each digit by decoupled look-back over the predecessor tiles, then scatter
//                 through shared memory so that writes of equal digits are contiguous
//   4. copy back  when an odd number of passes ran, the result is in the temporary buffer
//
// Keys are raw 32- or 64-bit words; the digit is taken from their order-preserving image
// (core/sort_keys.hpp), so signed, float and descending sorts cost nothing extra and the
// kernels exist only for 2 key widths x 3 value widths (none, 4, 8 bytes). Two pass kernels
// exist (tuning::lean_pass, sort_tuning.hpp); the look-back and segment logic is shared.
//
// Look-back words pack a 2-bit state and a 30-bit count: 0 not ready, 1 aggregate (the
// tile's own count), 2 + parity inclusive (count up to and including the tile). One buffer
// serves every pass without clearing: consecutive executed passes have opposite parities, so
// the inclusive words left by the previous pass read as "not ready".
//
// Segments. A 30-bit count caps a look-back chain below 2^30 keys, so the tiles are cut into
// segments of `tiles_per_segment` tiles, each with its own chain, and each pass is launched
// once per segment. Where digit d starts in segment s of a pass's input depends on how many
// keys of digit d the earlier segments of that input hold; the input of pass p > 0 is the
// output of pass p - 1, a permutation of the caller's keys, so those counts are not known
// upfront. The last tile of segment s knows them after its look-back (its inclusive count
// plus the segment's own start) and writes the start of segment s + 1, which the next
// launch reads: segment_base[s][pass][d] is written by the scan kernel for s = 0 and by
// segment s - 1 otherwise.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "core/sort_keys.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "cuda/sort_backend.hpp"
#include "cuda/tuning/sort_tuning.hpp"

namespace parprim::cuda_kernels {

namespace {

using tuning = cuda_tuning::onesweep_tuning;
constexpr int radix = tuning::radix;
constexpr int max_passes = 8;  // 64-bit keys
constexpr unsigned full_mask = 0xffffffffu;
constexpr unsigned count_mask = (1u << 30) - 1;
constexpr unsigned state_aggregate = 1u;
constexpr std::int64_t max_chain_keys = (std::int64_t(1) << 30) - 1;

static_assert(tuning::lean_pass || tuning::threads == radix,
              "the plain pass kernel runs one thread per digit");
static_assert(tuning::threads >= radix && tuning::threads % 32 == 0,
              "the look-back and the tile counts take one thread per digit");

// The tile of one pass-kernel instantiation: 8-byte keys or values may take fewer keys per
// thread (registers, shared memory).
template <class U, class W, bool HasValues>
struct pass_shape {
  static constexpr bool wide = sizeof(U) == 8 || (HasValues && sizeof(W) == 8);
  static constexpr int threads = tuning::threads;
  static constexpr int items = wide ? tuning::items_wide : tuning::items;
  static constexpr int tile = threads * items;
  static constexpr int word_bytes = int(HasValues && sizeof(W) > sizeof(U) ? sizeof(W) : sizeof(U));
  static_assert(tile < (1 << 16), "tile-local ranks");
  static_assert(std::int64_t(tile) <= max_chain_keys, "a segment holds at least one tile");
};

// Decided on the device by the scan kernel; read by the passes and the copy back.
struct onesweep_control {
  unsigned tile_counter[max_passes];  // dynamic tile numbering, one counter per pass
  int skip[max_passes];               // 1: every key has the same digit in this pass
  int source[max_passes + 1];         // buffer each pass reads; [passes]: where the result is
};

struct key_params {
  detail::key_kind kind;
  bool descending;
};

template <class U>
__device__ __forceinline__ unsigned digit_of(U raw, key_params kp, int shift, int width) {
  return detail::key_field(raw, kp.kind, kp.descending, shift, width);
}

__device__ __forceinline__ unsigned load_relaxed(const unsigned* p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(unsigned* p, unsigned v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Exclusive sum over the block of one value per thread (threads past the digits pass 0).
// Contains barriers: every thread calls it.
template <class T>
__device__ __forceinline__ T block_exclusive_sum(T v, T* warp_totals /* blockDim.x / 32 */) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  T inclusive = v;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    T below = __shfl_up_sync(full_mask, inclusive, d);
    if (lane >= d) inclusive += below;
  }
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  T before = 0;
  for (int w = 0; w < warp; ++w) before += warp_totals[w];
  __syncthreads();  // warp_totals may be reused by the caller
  return before + inclusive - v;
}

// ---- 1. Upfront histogram --------------------------------------------------------------------
// Every pass's digit histogram in one read, into 64-bit totals (blocks count in 32 bits: a
// block sees at most n / grid keys).
template <class U>
__global__ void __launch_bounds__(tuning::histogram_threads)
    onesweep_histogram(const U* keys, std::int64_t count, key_params kp, int begin_bit,
                       int end_bit, int passes, unsigned long long* hist /* [max_passes][radix] */) {
  constexpr int key_passes = int(sizeof(U));  // 8-bit digits: 4 or 8 passes at most
  constexpr int threads = tuning::histogram_threads, items = tuning::histogram_items;
  __shared__ unsigned s_hist[key_passes * radix];
  for (int i = threadIdx.x; i < key_passes * radix; i += threads) s_hist[i] = 0;
  __syncthreads();

  // histogram_runs: each thread counts runs of equal digits before touching shared memory,
  // so constant or low-entropy digits (where all lanes would hit the same counter) cost one
  // atomic per run instead of one per key.
  unsigned run_digit[key_passes], run_length[key_passes];
#pragma unroll
  for (int p = 0; p < key_passes; ++p) run_digit[p] = run_length[p] = 0;

  const std::int64_t stride = std::int64_t(gridDim.x) * threads * items;
  for (std::int64_t base = std::int64_t(blockIdx.x) * threads * items; base < count;
       base += stride) {
    U k[items];
#pragma unroll
    for (int j = 0; j < items; ++j) {
      std::int64_t i = base + j * threads + threadIdx.x;
      k[j] = i < count ? keys[i] : U(0);
    }
#pragma unroll
    for (int j = 0; j < items; ++j) {
      if (base + j * threads + threadIdx.x >= count) break;
      const U image = detail::ordered_bits(k[j], kp.kind, kp.descending);
#pragma unroll
      for (int p = 0; p < key_passes; ++p) {
        if (p < passes) {
          const int shift = begin_bit + p * tuning::radix_bits;
          const int width = min(tuning::radix_bits, end_bit - shift);
          const unsigned d = unsigned(image >> shift) & ((1u << width) - 1u);
          if constexpr (tuning::histogram_runs) {
            if (d == run_digit[p]) {
              ++run_length[p];
            } else {
              if (run_length[p]) atomicAdd(&s_hist[p * radix + run_digit[p]], run_length[p]);
              run_digit[p] = d;
              run_length[p] = 1;
            }
          } else {
            atomicAdd(&s_hist[p * radix + d], 1u);
          }
        }
      }
    }
  }
  if constexpr (tuning::histogram_runs) {
#pragma unroll
    for (int p = 0; p < key_passes; ++p)
      if (run_length[p]) atomicAdd(&s_hist[p * radix + run_digit[p]], run_length[p]);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < passes * radix; i += threads)
    if (s_hist[i]) atomicAdd(&hist[i], (unsigned long long)s_hist[i]);
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
  for (int p = 0; p < passes; ++p) {
    const long long total = (long long)hist[p * radix + d];
    const bool trivial = __syncthreads_or(total == n) != 0;
    segment_base[p * radix + d] = block_exclusive_sum(total, warp_totals);
    if (d == 0) {
      control->skip[p] = trivial ? 1 : 0;
      control->source[p] = source;
      if (!trivial) source ^= 1;
    }
  }
  if (d == 0) control->source[passes] = source;
}

// ---- 3. One digit pass ------------------------------------------------------------------------
template <class U, class W>
struct pass_args {
  U* keys[2];    // [0]: the caller's keys, [1]: the temporary copy
  W* values[2];  // null when sorting keys only
  std::int64_t n;
  key_params kp;
  int shift, width;
  unsigned tiles_per_segment;       // each segment's tiles form one look-back chain
  unsigned* lookback;               // [tiles][radix]
  onesweep_control* control;
  long long* segment_base;          // [segments][max_passes][radix]
};

// Where the tile sits in its segment's look-back chain.
struct chain_position {
  unsigned segment;
  bool start;            // the segment's first tile: its counts are inclusive at once
  bool last_of_segment;  // the segment's last tile, with a segment after it
};

__device__ __forceinline__ chain_position chain_of(unsigned tile, unsigned tiles_per_segment,
                                                   std::int64_t tile_end, std::int64_t n) {
  chain_position c;
  c.segment = tile / tiles_per_segment;
  c.start = tile % tiles_per_segment == 0;
  c.last_of_segment = (tile + 1) % tiles_per_segment == 0 && tile_end < n;
  return c;
}

// Look-back phase for thread d: the count of digit d in the tile's predecessors within its
// segment, walking back until a tile with an inclusive count; then publishes the tile's own
// inclusive count. Not called by a segment's first tile.
__device__ __forceinline__ unsigned look_back(unsigned* my_word, unsigned digit_count,
                                              unsigned state_inclusive) {
  unsigned before = 0;
  const unsigned* word = my_word;
  for (;;) {
    word -= radix;
    unsigned w = load_relaxed(word);
    while ((w >> 30) != state_aggregate && (w >> 30) != state_inclusive) w = load_relaxed(word);
    before += w & count_mask;
    if ((w >> 30) == state_inclusive) break;
  }
  store_relaxed(my_word, (state_inclusive << 30) | (before + digit_count));
  return before;
}

// Segment phase for thread d: the global index of digit d's first key in this tile, given
// the count of digit d in the earlier tiles of the segment; the segment's last tile also
// hands the start of digit d in the next segment to the next launch.
template <class U, class W>
__device__ __forceinline__ long long tile_digit_start(const pass_args<U, W>& a, int pass,
                                                      chain_position c, int d,
                                                      unsigned before_tile, unsigned digit_count) {
  const std::size_t at = (std::size_t(c.segment) * max_passes + pass) * radix + d;
  const long long segment_start = a.segment_base[at];
  if (c.last_of_segment)
    a.segment_base[at + std::size_t(max_passes) * radix] = segment_start + before_tile + digit_count;
  return segment_start + before_tile;
}

// 3a. The plain pass kernel (tuning::lean_pass = false).
template <class U, class W, bool HasValues>
__global__ void __launch_bounds__(tuning::threads, tuning::min_blocks)
    onesweep_pass(pass_args<U, W> a, int pass) {
  using shape = pass_shape<U, W, HasValues>;
  constexpr int threads = shape::threads, items = shape::items, tile_keys = shape::tile;
  constexpr int warps = threads / 32, warp_keys = items * 32;
  constexpr int stage_bytes = tile_keys * shape::word_bytes;
  __shared__ unsigned s_tile;
  __shared__ unsigned s_warp_hist[warps * radix];  // per-warp digit counts, then warp offsets
  __shared__ unsigned s_tile_start[radix];         // where each digit starts inside the tile
  __shared__ unsigned s_warp_totals[warps];
  __shared__ long long s_global[radix];            // global index of tile-local position 0
  __shared__ unsigned char s_digit[tile_keys];
  __shared__ alignas(16) unsigned char s_stage[stage_bytes];

  // A trivial pass moves nothing: skip it (the scan kernel already flipped no parity).
  if (a.control->skip[pass]) return;
  const int source = a.control->source[pass];
  // Selects rather than indexes: a run-time index into the parameter arrays would copy them
  // to local memory.
  const U* in_keys = source ? a.keys[1] : a.keys[0];
  U* out_keys = source ? a.keys[0] : a.keys[1];
  const unsigned state_inclusive = 2u + unsigned(source);

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  // Tiles are numbered in the order blocks start, so a tile's predecessors are always
  // running or done: the look-back below can wait for them without deadlock.
  if (tid == 0) s_tile = atomicAdd(&a.control->tile_counter[pass], 1u);
  for (int i = tid; i < warps * radix; i += threads) s_warp_hist[i] = 0;
  __syncthreads();
  const unsigned tile = s_tile;
  const std::int64_t tile_begin = std::int64_t(tile) * tile_keys;
  const int count = int(min(std::int64_t(tile_keys), a.n - tile_begin));
  const chain_position chain = chain_of(tile, a.tiles_per_segment, tile_begin + tile_keys, a.n);

  // Load phase. Warp w owns keys [w * warp_keys, (w + 1) * warp_keys) of the tile; item k of
  // lane l is key w * warp_keys + k * 32 + l, so each load is coalesced and ranking items in
  // k order, lanes in lane order, visits the warp's keys in input order (stability).
  const int warp_first = warp * warp_keys;
  U keys[items];
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const int i = warp_first + k * 32 + lane;
    keys[k] = i < count ? in_keys[tile_begin + i] : U(0);
  }

  // Rank phase (warp-level multisplit). For each item, the lanes holding the same digit find
  // each other with one ballot per digit bit; the highest such lane adds the group's size to
  // the warp's counter for that digit, and each lane's rank is the counter before the add plus
  // the number of group members in lower lanes. Keys past the end join no group.
  const unsigned lanes_below = (1u << lane) - 1u;
  unsigned* warp_hist = s_warp_hist + warp * radix;
  unsigned rank[items];
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const bool valid = warp_first + k * 32 + lane < count;
    const unsigned d = digit_of(keys[k], a.kp, a.shift, a.width);
    unsigned peers = __ballot_sync(full_mask, valid);
    // Always 8 ballots: in a narrower last digit the high bits are 0 in every lane, and
    // their ballots leave `peers` unchanged.
#pragma unroll
    for (int b = 0; b < tuning::radix_bits; ++b) {
      const bool bit = (d >> b) & 1u;
      const unsigned set = __ballot_sync(full_mask, bit);
      peers &= bit ? set : ~set;
    }
    const int leader = 31 - __clz(peers);
    unsigned before = 0;
    if (valid && lane == leader) {
      before = warp_hist[d];
      warp_hist[d] = before + __popc(peers);
    }
    before = __shfl_sync(full_mask, before, valid ? leader : lane);
    rank[k] = before + __popc(peers & lanes_below);
    __syncwarp();  // the counter update is visible to the next item's leader
  }
  __syncthreads();

  // Tile counts phase: thread d turns the warps' counts of digit d into warp offsets and
  // publishes the tile's count of digit d, so successors can look past this tile at once.
  const int d = tid;
  unsigned digit_count = 0;
#pragma unroll
  for (int w = 0; w < warps; ++w) {
    const unsigned c = s_warp_hist[w * radix + d];
    s_warp_hist[w * radix + d] = digit_count;
    digit_count += c;
  }
  unsigned* my_lookback = a.lookback + std::size_t(tile) * radix;
  store_relaxed(my_lookback + d,
                ((chain.start ? state_inclusive : state_aggregate) << 30) | digit_count);
  const unsigned tile_start = block_exclusive_sum(digit_count, s_warp_totals);
  s_tile_start[d] = tile_start;
  __syncthreads();

  // Local scatter phase: the tile sorted by digit in shared memory, so that the global
  // writes below are runs of consecutive addresses. rank[] becomes the tile-local position.
  U* s_keys = reinterpret_cast<U*>(s_stage);
#pragma unroll
  for (int k = 0; k < items; ++k) {
    if (warp_first + k * 32 + lane < count) {
      const unsigned dk = digit_of(keys[k], a.kp, a.shift, a.width);
      rank[k] += s_tile_start[dk] + warp_hist[dk];
      s_keys[rank[k]] = keys[k];
    }
  }

  // Look-back phase: thread d sums the counts of digit d over the predecessors in its
  // segment, then places the tile.
  const unsigned before_tile = chain.start ? 0u : look_back(my_lookback + d, digit_count, state_inclusive);
  s_global[d] = tile_digit_start(a, pass, chain, d, before_tile, digit_count) - tile_start;

  W values[HasValues ? items : 1];
  if constexpr (HasValues) {
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const int i = warp_first + k * 32 + lane;
      values[k] = i < count ? (source ? a.values[1] : a.values[0])[tile_begin + i] : W(0);
    }
  }
  __syncthreads();

  // Write phase: consecutive threads take consecutive tile positions; a run of equal digits
  // lands on consecutive global addresses.
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const int i = k * threads + tid;
    if (i < count) {
      const U key = s_keys[i];
      const unsigned dk = digit_of(key, a.kp, a.shift, a.width);
      s_digit[i] = static_cast<unsigned char>(dk);
      out_keys[s_global[dk] + i] = key;
    }
  }
  if constexpr (HasValues) {
    // Values follow the same tile-local permutation through the same shared buffer.
    W* s_values = reinterpret_cast<W*>(s_stage);
    W* out_values = source ? a.values[0] : a.values[1];
    __syncthreads();  // every key has been read out of s_stage
#pragma unroll
    for (int k = 0; k < items; ++k)
      if (warp_first + k * 32 + lane < count) s_values[rank[k]] = values[k];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const int i = k * threads + tid;
      if (i < count) out_values[s_global[s_digit[i]] + i] = s_values[i];
    }
  }
}

// 3b. The lean pass kernel (tuning::lean_pass = true). Same phases; what differs:
//   - keys become their ordered image at load and raw words again at the write, so a digit
//     is a shift and a mask;
//   - the last tile is padded with the largest image: padding keys take the largest digit
//     and, coming last in input order, the tile positions past the real keys, so no key
//     needs a validity check (the padding is taken off the published count);
//   - the peers of a digit are found with 4 instructions per bit, and the group's leader
//     bumps the warp counter with one shared atomic that returns the old count;
//   - shared memory for the warp counters is reused for the staged tile.

// Lanes of the warp whose `d` has the same low Bits bits: per bit, a ballot of the
// lanes with the bit set, complemented in the lanes without it.
template <int Bits>
__device__ __forceinline__ unsigned match_digit(unsigned d) {
  unsigned peers = full_mask;
#pragma unroll
  for (int b = 0; b < Bits; ++b) {
    unsigned same;
    asm("{\n\t.reg .pred p;\n\t.reg .b32 t;\n\t"
        "and.b32 t, %1, %2;\n\t"
        "setp.ne.u32 p, t, 0;\n\t"
        "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
        "@!p not.b32 %0, %0;\n\t}"
        : "=r"(same)
        : "r"(d), "r"(1u << b));
    peers &= same;
  }
  return peers;
}

// The lean kernel's dynamic shared memory: the warp counters during ranking, the tile
// sorted by digit afterwards (8-byte tiles outgrow the 48 KiB of static shared memory).
template <class U, class W, bool HasValues>
constexpr int lean_shared_bytes() {
  using shape = pass_shape<U, W, HasValues>;
  constexpr int hist_bytes = (shape::threads / 32) * radix * int(sizeof(unsigned));
  constexpr int stage_bytes = shape::tile * shape::word_bytes;
  return hist_bytes > stage_bytes ? hist_bytes : stage_bytes;
}

template <class U, class W, bool HasValues>
__global__ void __launch_bounds__(tuning::threads, tuning::min_blocks)
    onesweep_pass_lean(pass_args<U, W> a, int pass) {
  using shape = pass_shape<U, W, HasValues>;
  constexpr int threads = shape::threads, items = shape::items, tile_keys = shape::tile;
  constexpr int warps = threads / 32, warp_keys = items * 32;
  extern __shared__ __align__(16) unsigned char s_shared[];
  __shared__ unsigned s_tile;
  __shared__ unsigned s_warp_totals[warps];
  // Per digit, where tile-local position 0 would go: out + (global index of the digit's first
  // key in the tile - its tile-local start). Kept as a pointer so that a key's address is one
  // load and one multiply-add; holds key pointers while keys are written, then value pointers.
  __shared__ void* s_dst[radix];
  static_assert(lean_shared_bytes<U, W, HasValues>() + radix * 8 + warps * 4 + 4 <= 227 * 1024,
                "shared memory per block: fewer keys per thread");

  if (a.control->skip[pass]) return;
  const int source = a.control->source[pass];
  const U* in_keys = source ? a.keys[1] : a.keys[0];
  U* out_keys = source ? a.keys[0] : a.keys[1];
  const unsigned state_inclusive = 2u + unsigned(source);
  const bool floating = a.kp.kind == detail::key_kind::floating;
  const bool descending = a.kp.descending;
  // Integer images are the raw bits XOR a constant (sort_keys.hpp); floats take the full map.
  const U flip = detail::ordered_bits(U(0), a.kp.kind, descending);
  const int shift = a.shift;
  const unsigned digit_mask = (1u << a.width) - 1u;  // the largest digit of this pass

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  unsigned* s_hist = reinterpret_cast<unsigned*>(s_shared);
  if (tid == 0) s_tile = atomicAdd(&a.control->tile_counter[pass], 1u);
  for (int i = tid; i < warps * radix; i += threads) s_hist[i] = 0;
  __syncthreads();
  const unsigned tile = s_tile;
  const std::int64_t tile_begin = std::int64_t(tile) * tile_keys;
  const int count = int(min(std::int64_t(tile_keys), a.n - tile_begin));
  const bool full = count == tile_keys;
  const chain_position chain = chain_of(tile, a.tiles_per_segment, tile_begin + tile_keys, a.n);

  // Load phase: warp-striped as in the plain kernel; images, padded with the largest.
  const int warp_first = warp * warp_keys;
  const U* in = in_keys + tile_begin + warp_first + lane;
  U keys[items];
  if (full) {
#pragma unroll
    for (int k = 0; k < items; ++k) keys[k] = in[k * 32];
  } else {
#pragma unroll
    for (int k = 0; k < items; ++k) keys[k] = warp_first + k * 32 + lane < count ? in[k * 32] : U(0);
  }
  if (floating) {
#pragma unroll
    for (int k = 0; k < items; ++k)
      keys[k] = detail::ordered_bits(keys[k], detail::key_kind::floating, descending);
  } else {
#pragma unroll
    for (int k = 0; k < items; ++k) keys[k] ^= flip;
  }
  if (!full) {
#pragma unroll
    for (int k = 0; k < items; ++k)
      if (warp_first + k * 32 + lane >= count) keys[k] = ~U(0);
  }
  W values[HasValues ? items : 1];
  const W* in_values = nullptr;
  if constexpr (HasValues) {
    in_values = (source ? a.values[1] : a.values[0]) + tile_begin + warp_first + lane;
    if constexpr (tuning::prefetch_values) {
#pragma unroll
      for (int k = 0; k < items; ++k)
        values[k] = full || warp_first + k * 32 + lane < count ? in_values[k * 32] : W(0);
    }
  }
  auto digit = [&](U image) { return unsigned(image >> shift) & digit_mask; };

  // Rank phase: as in the plain kernel, with no key left out.
  const unsigned lanes_below = (1u << lane) - 1u;
  unsigned* warp_hist = s_hist + warp * radix;
  unsigned rank[items];
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const unsigned dk = digit(keys[k]);
    const unsigned peers = match_digit<tuning::radix_bits>(dk);
    const int leader = 31 - __clz(peers);
    unsigned before = 0;
    if (lane == leader) before = atomicAdd(&warp_hist[dk], unsigned(__popc(peers)));
    rank[k] = __shfl_sync(full_mask, before, leader) + __popc(peers & lanes_below);
    __syncwarp();  // this item's atomics are done before the next item's (stability)
  }
  __syncthreads();

  // Tile counts phase (thread d < radix): warp offsets, the tile's count of digit d
  // published without the padding, where digit d starts in the tile; then every warp's
  // counter becomes the tile position of its first key of each digit.
  const int d = tid;
  unsigned digit_count = 0;  // with the padding: it only adds to the largest digit
  if (d < radix)
    for (int w = 0; w < warps; ++w) digit_count += s_hist[w * radix + d];
  const unsigned real_count = digit_count - (unsigned(d) == digit_mask ? unsigned(tile_keys - count) : 0u);
  unsigned* my_lookback = a.lookback + std::size_t(tile) * radix + d;
  if (d < radix)
    store_relaxed(my_lookback, ((chain.start ? state_inclusive : state_aggregate) << 30) | real_count);
  const unsigned tile_start = block_exclusive_sum(digit_count, s_warp_totals);
  if (d < radix) {
    unsigned at = tile_start;
    for (int w = 0; w < warps; ++w) {
      const unsigned c = s_hist[w * radix + d];
      s_hist[w * radix + d] = at;
      at += c;
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < items; ++k) rank[k] += warp_hist[digit(keys[k])];
  __syncthreads();  // the counters are read; their space becomes the staged tile

  // Local scatter phase: the tile sorted by digit; padding lands past the real keys.
  U* s_keys = reinterpret_cast<U*>(s_shared);
#pragma unroll
  for (int k = 0; k < items; ++k) s_keys[rank[k]] = keys[k];

  // Look-back phase.
  long long to_global = 0;  // thread d: global index minus tile position for digit d
  if (d < radix) {
    const unsigned before_tile = chain.start ? 0u : look_back(my_lookback, real_count, state_inclusive);
    to_global = tile_digit_start(a, pass, chain, d, before_tile, real_count) - tile_start;
    s_dst[d] = out_keys + to_global;
  }
  __syncthreads();

  // Write phase: consecutive threads take consecutive tile positions. The digits of the
  // written keys are kept for the values, four to a register.
  unsigned out_digits[HasValues ? (items + 3) / 4 : 1] = {};
  auto write_keys = [&](auto to_raw) {
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const int i = k * threads + tid;
      if (full || i < count) {
        const U image = s_keys[i];
        const unsigned dk = digit(image);
        if constexpr (HasValues) out_digits[k / 4] |= dk << (8 * (k % 4));
        static_cast<U*>(s_dst[dk])[i] = to_raw(image);
      }
    }
  };
  if (floating)
    write_keys([&](U image) { return detail::original_bits(image, detail::key_kind::floating, descending); });
  else
    write_keys([&](U image) { return U(image ^ flip); });

  if constexpr (HasValues) {
    if constexpr (!tuning::prefetch_values) {
#pragma unroll
      for (int k = 0; k < items; ++k)
        values[k] = full || warp_first + k * 32 + lane < count ? in_values[k * 32] : W(0);
    }
    W* s_values = reinterpret_cast<W*>(s_shared);
    W* out_values = source ? a.values[0] : a.values[1];
    __syncthreads();  // every key has been read out of the staged tile, and s_dst
#pragma unroll
    for (int k = 0; k < items; ++k) s_values[rank[k]] = values[k];
    if (d < radix) s_dst[d] = out_values + to_global;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const int i = k * threads + tid;
      if (full || i < count)
        static_cast<W*>(s_dst[(out_digits[k / 4] >> (8 * (k % 4))) & 0xffu])[i] = s_values[i];
    }
  }
}

// ---- 4. Copy back -----------------------------------------------------------------------------
template <class U, class W, bool HasValues>
__global__ void onesweep_copy_back(const onesweep_control* control, int passes, pass_args<U, W> a) {
  if (control->source[passes] == 0) return;  // the result is already in the caller's arrays
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < a.n; i += stride) {
    a.keys[0][i] = a.keys[1][i];
    if constexpr (HasValues) a.values[0][i] = a.values[1][i];
  }
}

// ---- Host side ----------------------------------------------------------------------------------
// tiles_per_segment: 0 for the largest segments the look-back words allow; tests ask for
// smaller ones to reach the multi-segment path with small inputs.
template <class U, class W, bool HasValues>
void onesweep_sort(const context& ctx, const detail::sort_request& r, workspace* ws,
                   std::int64_t tiles_per_segment) {
  using shape = pass_shape<U, W, HasValues>;
  const char* who = HasValues ? "radix_sort_pairs" : "radix_sort";
  use_device(ctx, who);
  cudaStream_t stream = stream_of(ctx);
  int sms = 0;
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ctx.device()));

  const std::int64_t n = r.n;
  const int passes = (r.end_bit - r.begin_bit + tuning::radix_bits - 1) / tuning::radix_bits;
  const std::int64_t tiles = ceil_div(n, shape::tile);
  const std::int64_t longest = max_chain_keys / shape::tile;
  const std::int64_t segment_tiles =
      tiles_per_segment > 0 ? std::min(tiles_per_segment, longest) : longest;
  const std::int64_t segments = ceil_div(tiles, segment_tiles);

  // Temporary memory: the ping-pong copies, then the zeroed region (control, histograms,
  // segment starts, look-back words) cleared by one memset.
  using detail::align_up;
  const std::size_t keys_bytes = align_up(std::size_t(n) * sizeof(U));
  const std::size_t values_bytes =
      HasValues ? align_up(std::size_t(n) * sizeof(W)) + tuning::temp_values_skew : 0;
  const std::size_t control_bytes = align_up(sizeof(onesweep_control));
  const std::size_t hist_bytes = align_up(std::size_t(max_passes) * radix * sizeof(unsigned long long));
  const std::size_t base_bytes = align_up(std::size_t(segments) * max_passes * radix * sizeof(long long));
  const std::size_t lookback_bytes = align_up(std::size_t(tiles) * radix * sizeof(unsigned));
  const std::size_t zeroed = control_bytes + hist_bytes + base_bytes + lookback_bytes;
  detail::temp_memory temp(ctx, ws, keys_bytes + values_bytes + zeroed);
  unsigned char* p = temp.as<unsigned char>();

  pass_args<U, W> a{};
  a.keys[0] = static_cast<U*>(r.keys);
  a.keys[1] = reinterpret_cast<U*>(p);
  if constexpr (HasValues) {
    a.values[0] = static_cast<W*>(r.values);
    a.values[1] = reinterpret_cast<W*>(p + keys_bytes + tuning::temp_values_skew);
  }
  unsigned char* z = p + keys_bytes + values_bytes;
  a.control = reinterpret_cast<onesweep_control*>(z);
  auto* hist = reinterpret_cast<unsigned long long*>(z + control_bytes);
  a.segment_base = reinterpret_cast<long long*>(z + control_bytes + hist_bytes);
  a.lookback = reinterpret_cast<unsigned*>(z + control_bytes + hist_bytes + base_bytes);
  a.n = n;
  a.kp = key_params{r.kind, r.descending};
  a.tiles_per_segment = unsigned(segment_tiles);
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(z, 0, zeroed, stream));

  // 1. Histograms.
  constexpr std::int64_t hist_tile = tuning::histogram_threads * tuning::histogram_items;
  const int hist_grid = int(std::min<std::int64_t>(ceil_div(n, hist_tile),
                                                   std::int64_t(sms) * tuning::histogram_blocks_per_sm));
  onesweep_histogram<U><<<hist_grid, tuning::histogram_threads, 0, stream>>>(
      a.keys[0], n, a.kp, r.begin_bit, r.end_bit, passes, hist);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  // 2. Digit starts, skips, parity.
  onesweep_scan<<<1, radix, 0, stream>>>(hist, a.segment_base, a.control, passes, n);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  // 3. One kernel per digit and segment; a skipped pass returns at once.
  constexpr int lean_bytes = tuning::lean_pass ? lean_shared_bytes<U, W, HasValues>() : 0;
  // Static plus dynamic shared memory above 48 KiB needs the kernel's opt-in; the static part
  // is the tile number, the warp totals and the 256 digit starts (plus alignment padding).
  constexpr int lean_static_bytes = 64 + (shape::threads / 32) * 4 + radix * int(sizeof(void*));
  if constexpr (lean_bytes + lean_static_bytes > 48 * 1024) {
    PARPRIM_CUDA_CHECK(ctx.name(), who,
                       cudaFuncSetAttribute(onesweep_pass_lean<U, W, HasValues>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize, lean_bytes));
  }
  for (int pass = 0; pass < passes; ++pass) {
    a.shift = r.begin_bit + pass * tuning::radix_bits;
    a.width = std::min(tuning::radix_bits, r.end_bit - a.shift);
    for (std::int64_t s = 0; s < segments; ++s) {
      const unsigned grid = unsigned(std::min(segment_tiles, tiles - s * segment_tiles));
      if constexpr (tuning::lean_pass)
        onesweep_pass_lean<U, W, HasValues><<<grid, shape::threads, lean_bytes, stream>>>(a, pass);
      else
        onesweep_pass<U, W, HasValues><<<grid, shape::threads, 0, stream>>>(a, pass);
      PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    }
  }
  // 4. Copy back when the result is in the temporary buffer.
  const int grid = int(std::min<std::int64_t>(ceil_div(n, 256), std::int64_t(sms) * 8));
  onesweep_copy_back<U, W, HasValues><<<grid, 256, 0, stream>>>(a.control, passes, a);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

template <class U>
void onesweep_by_value(const context& ctx, const detail::sort_request& r, workspace* ws,
                       std::int64_t tiles_per_segment) {
  if (r.value_bytes == 4) onesweep_sort<U, std::uint32_t, true>(ctx, r, ws, tiles_per_segment);
  else if (r.value_bytes == 8) onesweep_sort<U, std::uint64_t, true>(ctx, r, ws, tiles_per_segment);
  else onesweep_sort<U, std::uint32_t, false>(ctx, r, ws, tiles_per_segment);
}

}  // namespace

}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

void radix_sort_onesweep_segmented(const context& ctx, const detail::sort_request& r,
                                   workspace* ws, std::int64_t tiles_per_segment) {
  if (r.key_bytes == 4) cuda_kernels::onesweep_by_value<std::uint32_t>(ctx, r, ws, tiles_per_segment);
  else cuda_kernels::onesweep_by_value<std::uint64_t>(ctx, r, ws, tiles_per_segment);
}

void radix_sort_onesweep(const context& ctx, const detail::sort_request& r, workspace* ws) {
  radix_sort_onesweep_segmented(ctx, r, ws, 0);
}

}  // namespace parprim::cuda_backend
