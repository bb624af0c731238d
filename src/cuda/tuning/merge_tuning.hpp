// Launch shapes of merge and the vectorized binary search. Plain constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

// A merge tile shape: Threads threads merging Items outputs each. Items odd: a thread writes
// its outputs to shared memory at tid * Items + k, and an odd stride puts the 32 lanes of a
// warp on 32 distinct banks.
template <int Threads, int Items>
struct merge_shape {
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  static constexpr int tile = Threads * Items;
  static_assert(Threads % 32 == 0 && Items % 2 == 1, "whole warps, odd items");
};

struct merge_tuning {
  // 256 x 15 (tile 3840): 15 items as in CUB's merge for 4-byte keys. With 11 (tile 2816) the
  // H100 ran 2 x 2^26 u32 at 46% of DRAM bandwidth, the fixed cost per tile (split reads, the
  // merge-path search in shared memory) weighing on 47663 tiles.
  static constexpr int threads = 256;
  static constexpr int items = 15;
  static constexpr int tile = threads * items;
  // 4-byte keys take tiles twice as wide (512 x 15 = 7680, CUB's tile for them): ncu on the
  // H100 (2 x 2^27 u32, 2026-11-23) timed our merge kernel at 718.5 us against thrust's
  // 716.7 us, but our partition at 102.7 us against its 52.2 us, one merge-path search per
  // 3840 outputs against one per 7680. 8-byte keys stay at 3840: 7680 of them would not fit
  // the 48 KiB of static shared memory.
  static constexpr int threads_4_byte_keys = 512;
  static constexpr int tile_4_byte_keys = threads_4_byte_keys * items;
  template <int KeyBytes>
  using shape = merge_shape<KeyBytes <= 4 ? threads_4_byte_keys : threads, items>;
  static constexpr int partition_threads = 256;
  // Resident threads per SM asked of the register allocator (65536 / threads registers each).
  // The merge is bound by DRAM: a block's phases (load, merge, store) do not overlap, so the
  // other resident blocks must keep the loads in flight. ncu on the H100, 2 x 2^26 u32 keys: at
  // 1536 threads (40 registers, 75% occupancy) DRAM ran at 74.8% with 14.3 cycles per issued
  // instruction; CUB's merge at 2048 threads (32 registers) at 87%. ptxas (CUDA 13, sm_90) at
  // these counts, 256 x 15, no spills: u32 keys 32 registers; u64 keys 64 (at 40 they spill
  // 16 bytes); pairs write their source positions to shared memory as they merge and hold
  // only the merged keys in registers: u32/u32 40, u32/u64 62, u64/u32 and u64/u64 80.
  static constexpr int resident_threads_u32_keys = 2048;
  static constexpr int resident_threads_u64_keys = 1024;
  static constexpr int resident_threads_u32_u32_pairs = 1536;
  static constexpr int resident_threads_u32_u64_pairs = 1024;
  static constexpr int resident_threads_u64_key_pairs = 768;
  static constexpr int resident_threads(int key_bytes, int value_bytes) {
    if (value_bytes == 0) return key_bytes <= 4 ? resident_threads_u32_keys : resident_threads_u64_keys;
    if (key_bytes > 4) return resident_threads_u64_key_pairs;
    return value_bytes <= 4 ? resident_threads_u32_u32_pairs : resident_threads_u32_u64_pairs;
  }
};

struct search_tuning {
  static constexpr int threads = 256;
  static constexpr int items = 8;  // queries per thread: a tile of 2048 queries shares one key range
  static constexpr int tile = threads * items;
  static constexpr int stage_items = 8;  // keys per thread per staged chunk (2048 keys)
  // Resident blocks asked of the register allocator, by key word: 4 (64 registers) lets 1024
  // threads per SM keep 8 staged loads each in flight; uncapped, the 4-byte kernel took 78
  // registers (768 threads). The 8-byte kernel spills under 64 registers, so it asks for 3.
  static constexpr int min_blocks_4_bytes = 4;
  static constexpr int min_blocks_8_bytes = 3;
  static constexpr int chunk = threads * stage_items;
  // A tile of queries streams its key range through shared memory when the range holds at most
  // this many bytes per query, and binary-searches it in global memory otherwise. Crossover
  // estimate: thrust's per-query binary search took 35 ps per query at 16 u32 keys per query
  // on the H100 (0.594 ms for 2^24 queries), streaming at ~3 TB/s costs 35 ps per ~100 bytes.
  static constexpr int stage_bytes_per_query = 96;
  // Up to this many tiles per SM, one thread per query searches the whole range instead: a
  // grid of few tiles leaves most SMs idle while each block searches 2048 queries one after
  // another. H100, u32 keys, n = 16 m, ms, tiles / one thread per query (sorted; unsorted):
  // m = 2^13 (4 tiles) 0.033 / 0.011 (0.037 / 0.011), 2^17 (64) 0.036 / 0.012 (0.049 /
  // 0.018), 2^19 (256) 0.045 / 0.027 (0.080 / 0.071), 2^20 (512) 0.063 / 0.055 (0.159 /
  // 0.156), 2^21 (1024) 0.101 / 0.093 (0.354 / 0.369), 2^22 (2048) 0.171 / 0.170 (0.829 /
  // 0.872), 2^24 0.577 / 0.637 (5.18 / 5.68): bench/results/2026-11-24-h100-search-per-query.md.
  static constexpr int per_query_max_tiles_per_sm = 4;
};

}  // namespace parprim::cuda_tuning
