// Size classes and launch shapes of the segmented sort (segmented_sort.cuh). Plain constants.
#pragma once

namespace parprim::cuda_tuning {

struct segmented_sort_tuning {
  // A warp sorts segments of up to 32 * warp_items keys in registers, no shared memory, no
  // block barrier: up to 32 keys by a 15-step bitonic network across the lanes, up to 64 by
  // ranking each key against every other through shuffles (64 compare steps).
  static constexpr int warp_items = 2;
  static constexpr int warp_segment = 32 * warp_items;
  static constexpr int classify_threads = 256;  // 8 warps, 8 segments per block
  // A block sorts segments up to block_tile keys in shared memory (bitonic network over the
  // next power of two). 4096 keys: 40 KiB of images and positions for 8-byte keys, within
  // the 48 KiB every block may take without opting in.
  static constexpr int block_threads = 512;
  static constexpr int block_tile = 4096;
  // Segments up to big_tile keys: one 1024-thread block each, 160 KiB of shared memory for
  // 8-byte keys (opted in; Hopper allows 227 KiB). Each large segment beyond costs a
  // host-launched radix sort, so this bounds their number by n / 16384.
  static constexpr int big_threads = 1024;
  static constexpr int big_tile = 16384;
};

}  // namespace parprim::cuda_tuning
