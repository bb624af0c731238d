// Launch shapes of merge and the vectorized binary search. Plain constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

struct merge_tuning {
  static constexpr int threads = 256;
  // Outputs per thread, odd: a thread writes its `items` merged keys to shared memory at
  // tid * items + k, and an odd stride puts the 32 lanes of a warp on 32 distinct banks. 15 as
  // in CUB's merge for 4-byte keys: with 11 (tile 2816) the H100 ran 2 x 2^26 u32 at 46% of
  // DRAM bandwidth, the fixed cost per tile (split reads, the merge-path search in shared
  // memory) weighing on 47663 tiles. The tile of 3840 keys stages 30 KiB at most (8-byte
  // words), within the 48 KiB of static shared memory.
  static constexpr int items = 15;
  static constexpr int tile = threads * items;
  static constexpr int partition_threads = 256;
  // Resident blocks asked of the register allocator, by bytes per merged item (key plus
  // value), the largest count at which ptxas (CUDA 13, sm_90) keeps every kernel free of
  // spills. Uncapped at 11 items, the keys-only u32 kernel took 56 registers: 4 blocks per SM,
  // 50% occupancy, 9.6 cycles per issued instruction on the H100. Keys-only merges keep no
  // source positions: u32 fits 40 registers (6 blocks; at 32 registers, 8 blocks, ptxas
  // spills 20 bytes), u64 takes 63 uncapped (at 48 it spills). Pairs keep `items` source
  // positions as well: u32/u32 and u32/u64 fit 64, u64/u32 80 (spills 40 bytes at 64),
  // u64/u64 95 (spills at 80).
  static constexpr int min_blocks_4_bytes_per_item = 6;
  static constexpr int min_blocks_8_bytes_per_item = 4;
  static constexpr int min_blocks_12_bytes_per_item = 3;
  static constexpr int min_blocks_16_bytes_per_item = 2;
  static constexpr int min_blocks(int key_bytes, int value_bytes) {
    const int bytes = key_bytes + value_bytes;
    return bytes <= 4    ? min_blocks_4_bytes_per_item
           : bytes <= 8  ? min_blocks_8_bytes_per_item
           : bytes <= 12 ? min_blocks_12_bytes_per_item
                         : min_blocks_16_bytes_per_item;
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
};

}  // namespace parprim::cuda_tuning
