// Launch shapes of the single-pass by-key kernel (parprim/cuda/by_key.cuh), by the larger of
// the key and value sizes, and of unique's compaction. Plain constants, no CUDA headers.
#pragma once

#include "parprim/cuda/tuning/partition_tuning.hpp"

namespace parprim::cuda_tuning {

// Reduction: the shape of reduce_by_key's kernels, which may differ from the scans' (only
// the two kernels of one kind, pipelined and one block per tile, must fold alike).
template <int Bytes, bool Reduction = false>
struct by_key_tuning {
  // Reductions of 5-16 byte elements take 128-thread tiles (128 x 17 up to 8 bytes, 128 x 9
  // up to 16) where the scans keep 256 x 9 and 256 x 5. On the H100 (2^27 u64/f64, u32/f64,
  // u64/f32 pairs, runs of 8 / 512, one probe program built from each shape, CUB on the same
  // buffers; bench/results/2026-11-24-h100-by_key-8byte-reduce-tiles.md) 128 x 17 made the
  // pipelined reductions 13-25% faster (0.86-1.02x -> 1.15-1.25x CUB) and the one-block ones
  // 2-17%; 128 x 15 at 6 blocks gained less and slowed the one-block reductions of u64/f64 by
  // 11%. The scans lost up to 9% with 128-thread tiles (experiments file, 2026-11-24) and
  // keep theirs. 16-byte values (2^26 u32 and u64 keys, {double, double} sums;
  // bench/results/2026-11-24-h100-by_key-16byte.md): 128 x 9 pipelined reductions 17-19%
  // faster than 256 x 5 (one block per tile), 0-10% when misaligned; 256 x 5 pipelined
  // ones 12-24% slower.
  static constexpr bool narrow_reduction = Reduction && Bytes > 4 && Bytes <= 16;
  // 4-byte keys and values: blocks of 128 threads x 29 elements, 7 per SM. The kernel's time
  // goes with the tile bytes an SM holds in flight, not with its threads: each block works
  // one tile through a serial chain (claim, load, scan, look-back, store), and only the
  // tiles in their load phase keep DRAM busy. Static shared memory caps a block at 48 KiB,
  // so 256-thread blocks held 4 tiles of 256 x 15 (120 KiB of keys and values per SM) and
  // 128-thread blocks hold 7 of 128 x 29 (208 KiB). Same build, one shape per rebuild, on the
  // H100 at 2^28 u32 keys / f32 values, runs of 1 / 8 / 512, CUB in the same run
  // (`parprim bench by_key --sizes 2^28 --reps 20`, 2026-11-23-h100-by_key-shape-*.json):
  //   threads x items @ blocks/SM   reduce_by_key_into vs CUB   inclusive_scan_by_key vs CUB
  //   256 x 15 @4 (before)          0.93 / 0.93 / 0.97x         0.89 / 0.87 / 0.88x
  //   128 x 15 @8                   0.85 / 0.81 / 0.83x         0.84 / 0.83 / 0.83x
  //   128 x 23 @8                   0.97 / 0.99 / 1.04x         0.93 / 0.92 / 0.92x
  //   128 x 25 @8                   0.98 / 1.03 / 1.10x         0.94 / 0.94 / 0.93x
  //   128 x 31 @6                   0.97 / 0.99 / 1.06x         0.95 / 0.94 / 0.94x
  //   128 x 29 @7 (now)             1.00 / 1.06 / 1.13x         0.96 / 0.96 / 0.95x
  // (128 x 31 does not fit 7 blocks: 233 KiB.) Larger keys or values keep 256 threads in the
  // scans; their reductions take the narrow shapes above.
  static constexpr int threads = Bytes <= 4 || narrow_reduction ? 128 : 256;
  // Consecutive elements per thread, read from shared memory. Odd, so the 32 threads of a
  // warp reading their j-th element hit 32 different banks (4-byte elements) or 16 different
  // bank pairs per half-warp (8-byte elements). At most 32: a thread's head flags are one
  // 32-bit word. Tiles of 256 x 15 x 4 B and 256 x 9 x 8 B keep keys and values staged in
  // about 30-39 KiB of shared memory (static, under 48 KiB), 4 blocks in 120-158 KiB of an
  // SM's 228. Registers do not grow with the tile (the elements stay in shared memory until
  // phase 5): 256 x 11 tiles compiled to the same counts, and would only add look-backs (a
  // third more tiles). The tile shape also fixes the float fold order (thread chunks, then
  // the warp and block scans). The register and shared-memory tables below were taken with
  // 256 x 15 tiles of 4-byte elements; the counts of 128 x 29 follow them.
  static constexpr int items = Bytes <= 4           ? 29
                               : narrow_reduction ? (Bytes <= 8 ? 17 : 9)
                               : Bytes <= 8       ? 9
                               : Bytes <= 16      ? 5
                                                  : 1;
  // Resident blocks per SM the compiler must allow (__launch_bounds__): registers per thread
  // are capped at 65536 / (threads * min_blocks_per_sm), 64 for 4 blocks of 256. No thread
  // keeps its elements in registers across the block scan and the look-back (only a 32-bit
  // head mask and its run state), so what remains is the look-back warps' windows.
  // At 3 blocks per SM the kernel waited on latency, not on DRAM: the scan by key of 2^28
  // u32/f32 moved its 3 GiB in 1.555 ms (2.07 TB/s; a copy reaches ~3.0) and ncu (2^24,
  // the earlier look-back) counted 71.5% of stalls at barriers. Each block works its tile
  // through one serial chain (claim, load, scan, look-back, store: ~8.8 us per tile at
  // 2^28), so the SM overlaps only as many chains as it holds blocks; a fourth block
  // keeps a third more tiles in flight (90 -> 120 KiB of 4-byte keys and values per SM).
  // ptxas (sm_90, CUDA 13.0), registers of the 80 kernels of src/cuda/kernels/by_key.cu,
  // 3 blocks per SM (before) -> 4 (now); 0 spill bytes in every kernel, before and after.
  // The scans are one kernel for inclusive and exclusive (io.inclusive).
  //   key/value bytes   reduce plus   reduce min/max   scan plus   scan min/max
  //   4 / 4 (u32/f32)   68 -> 64      71 -> 62         71 -> 62    71 -> 59-60
  //   4 / 8 (f64, i64)  70 -> 62-63   74 -> 62         71 -> 59    71 -> 59-60
  //   8 / 4 (u64 keys)  69 -> 64      72 -> 61         71 -> 62    71 -> 59-60
  //   8 / 8             69 -> 62-63   72 -> 62         71 -> 59    71 -> 59
  // (stack frame 0 bytes in all 80.)
  // Shared memory per block, unchanged: 33,072 B (4 / 4), 30,144 B (4 / 8), 30,016 B (8 / 4),
  // 39,360 B (8 / 8). The generic CUDA test's kernels (8-byte struct keys and values):
  // 59-64 registers, no spills. 5 blocks (48 registers) spilled 4-64 bytes in every kind.
  // After the cuts of instructions per element (Whole paths, the packed tile_state of the
  // block scan; by_key_thread.cuh), still 0 spill bytes and 0 stack in all 80:
  //   4 / 4: 64 in every kind and operator but scan min/max of integers (60);
  //   4 / 8: 56-57; 8 / 4: reduce plus 62, the others 60-64; 8 / 8: 56-58.
  // Shared memory 31,920 B (4 / 4), 28,976 B (4 / 8), 28,848 B (8 / 4), 38,208 B (8 / 8);
  // the generic CUDA test's kernels 56-64 registers, no spills.
  // With the carry window on 16-byte boundaries (by_key.cuh's storage), still 0 spill bytes
  // and 0 stack in all 80: 4 / 4: reduce 62, scan 60-61; 4 / 8: 56-57; 8 / 4: reduce plus 60,
  // the others 59-62; 8 / 8: 56-58. Shared memory 28,992 B for 4 / 8 (16 bytes of padding),
  // the others unchanged; the generic CUDA test's kernels 56 (group_key / affine) and 60
  // (u32 / f32 lambdas) registers, no spills.
  // 128 x 29 (ptxas sm_90, CUDA 13.0): 4 / 4 kernels 70-72 registers, 30,832 B of shared
  // memory (7 blocks: 223 KiB with the 1 KiB each block reserves, of 228); u8 head flags with
  // 4-byte values (the segmented scans) 64, 19,696 B; 0 spill bytes and 0 stack in all.
  // 4-byte elements: 7 blocks of 128 threads (73 registers at most; the shape table above).
  // Narrow reductions: 5 blocks of 128 x 17 (37 KiB of static shared memory each for
  // u64/f64) or 128 x 9 (28 KiB for u64 keys and 16-byte values).
  static constexpr int min_blocks_per_sm = Bytes <= 4 ? 7 : narrow_reduction ? 5 : 4;
  // Tiles each lane of a look-back warp polls per round (a window of 32 x this many), as for
  // the scan's 4-byte tiles (scan_tuning.hpp): a window of 32 limited the scan to about
  // 22 ns per tile on the H100. Used for carries of at most 8 bytes (values of at most 4
  // bytes); 16-byte carries poll half as many, larger ones 1 (by_key::shape). The run count
  // polls 64 tiles per round with look_back_count.
  static constexpr int lookback_per_lane = 4;
  // Back-off (ns) between polls of a tile status that is not yet published.
  static constexpr unsigned spin_sleep_ns = 0;
  // The pipelined scans and reductions by key (parprim/cuda/by_key_pipelined.cuh), with this
  // tile shape:
  // persistent blocks of two squads of `threads` and two warps, pipelined_blocks_per_sm of
  // them per SM, each with as many tile stages (keys, values, and 12-28 bytes per thread) as
  // fit pipeline_shared_bytes, at most max_pipeline_stages; for inputs of at least
  // pipelined_min_tiles tiles (the pipelined scan's threshold) whose keys and values start on
  // 16-byte boundaries. 4-byte elements: 2 blocks of 4 + 4 + 2 warps (3 stages of u32 keys and
  // f32 values, 5 of u8 head flags); 8-byte ones: 1 block of 8 + 8 + 2 warps (4-6 stages).
  // 0 bytes turn it off (larger elements). On the H100 (experiments file, 2026-11-24) 3 blocks
  // of 66 KiB for 4-byte elements lost 1.5-2%, 2 blocks of 100 KiB for 8-byte scans 3-6%.
  // Narrow reductions: 2 blocks of 110 KiB, 3 stages of u64/f64 (37,504 B each; 100 KiB
  // held 2, which lost to 256 x 9 by 4%), 3 of u32/f64, 4 of u64/f32; 3 of u64 keys with
  // 16-byte values, 4 of u32 keys. Scans of 9-16 byte elements: 1 block of 200 KiB, 5-6
  // stages of 256 x 5 (16-byte values): 15-18% faster than one block per tile.
  static constexpr int pipelined_blocks_per_sm = Bytes <= 4 || narrow_reduction ? 2 : 1;
  static constexpr int pipeline_shared_bytes = Bytes <= 4           ? 100 * 1024
                                               : narrow_reduction ? 110 * 1024
                                               : Bytes <= 16      ? 200 * 1024
                                                                  : 0;
  static constexpr int max_pipeline_stages = 6;
  static constexpr int pipelined_min_tiles = 128;
};

// unique, unique_by_key, unique_count and run_length_encode, by key size: copy_if's kernel and
// shape (32 KiB tiles of keys in registers, 4 blocks per SM) selecting run heads. On the H100
// that kernel ran copy_if of 2^26 u32 in 185 us at 0.98x CUB (ncu: 59 registers, 48.6%
// occupancy), where the by-key kernel took 347 us for unique (shared-memory tiles, 3 blocks
// per SM, barrier stalls first). At 2^28 u32 keys unique then took 22.6-22.9 ns per tile at
// mean runs of 8 and 512 (0.742-0.751 ms), as copy_if at 50% does (0.722 ms), although it
// reads only: the tile's time was its look-back's, not its traffic. The heads kernels
// therefore count with look_back_count (one backward pass, 64 tiles per round trip) and load
// the key before each warp's stretch with the tile (ptxas sm_90: 62-64 registers for every key
// type, no spills, 32816 bytes of shared memory: 4 blocks per SM).
template <int Bytes>
struct heads_tuning : select_lookback_tuning<Bytes> {
  // look_back_count polls 32 x lookback_per_lane (2, as copy_if) = 64 tiles per round trip.
  // 128 (4 per lane) spilled 20-44 bytes per thread for 4-byte keys at the 64-register cap
  // of 4 blocks per SM (ptxas sm_90).
  // run_length_encode's fix-up of the runs that leave their tile: one thread per tile.
  static constexpr int fixup_threads = 256;
};

}  // namespace parprim::cuda_tuning
