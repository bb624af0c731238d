// Launch shapes of merge and the vectorized binary search. Plain constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

struct merge_tuning {
  static constexpr int threads = 256;
  // Outputs per thread, odd: a thread writes its `items` merged keys to shared memory at
  // tid * items + k, and an odd stride puts the 32 lanes of a warp on 32 distinct banks (with
  // 8, as before, 8 lanes shared a bank). 11 as in moderngpu's merge for 4-byte keys; the tile
  // of 2816 keys stages 22 KiB at most (8-byte words), leaving 8 blocks per SM.
  static constexpr int items = 11;
  static constexpr int tile = threads * items;
  static constexpr int partition_threads = 256;
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
};

}  // namespace parprim::cuda_tuning
