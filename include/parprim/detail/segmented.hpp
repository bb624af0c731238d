// What the segmented primitives' front ends (parprim/segmented.hpp, src/core/segmented.cpp)
// and their two bodies (detail/cpu/segmented.hpp, cuda/segmented.cuh) share: the description
// of one call, and the check of segment offsets the library compiles.
//
// A call is a fold along runs of consecutive elements. Runs start at element 0 and at
//   flags:   every i with flags[i] != 0 (tag = i);
//   offsets: offsets[s] - offsets[0] for every non-empty segment s (tag = s).
// Each run's fold restarts at its head: folds never cross a head, so the caller's operator
// only needs to be associative (no identity, not commutative).
#pragma once

#include <cstdint>

#include "parprim/detail/generic.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/span.hpp"

namespace parprim::detail {

struct segmented_tag { static constexpr const char* header = "parprim/cuda/segmented.cuh"; };

enum class head_source { flags, offsets };

template <class V>
struct segments_job {
  std::int64_t n = 0;                     // elements covered (values[0 .. n))
  const std::uint8_t* flags = nullptr;    // head flags, or null for offsets
  const std::int64_t* offsets = nullptr;  // segments + 1 entries, non-decreasing, checked
  std::int64_t segments = 0;
  std::int64_t longest = 0;  // offsets: the most elements one segment holds
  std::int64_t first = 0;    // offsets: offsets[0], the position of values[0] in the input

  const V* values = nullptr;
  bool has_init = false;  // the first value of every run is folded as init op v
  V init{};

  // Outputs, each optional. r is the run's index (0, 1, ...); with by_segment the reduced
  // value goes to the segment's index instead, and every empty segment gets init.
  V* reduced_out = nullptr;  // [r] = fold of run r
  V* scan_out = nullptr;     // [i] = fold of run up to i (inclusive) or before i
  bool inclusive = true;
  bool by_segment = false;
};

// The data range [first, last) that checked offsets cover, and the most elements one segment
// holds (the CUDA segmented_reduce picks its kernel by it).
struct covered {
  std::int64_t first = 0;
  std::int64_t last = 0;
  std::int64_t longest = 0;
};

// Work queued on the CUDA stream right behind the device check of the offsets, before the
// host waits for its verdict (generic segmented_reduce's warp or block kernel, gated on the
// verdict: parprim/cuda/segmented.cuh). queue(arg, verdict) gets the check's device-side
// verdict words and returns the path it queued (a cuda_tuning::segment_path, 0: nothing);
// the check sets `done` when the verdict picks that path, so the call is complete.
struct offsets_follow_up {
  int (*queue)(const void* arg, const unsigned long long* verdict) = nullptr;
  const void* arg = nullptr;
  bool done = false;
};

// Offsets of S + 1 >= 1 entries, non-decreasing, inside [0, n]; otherwise c.fail naming the
// first bad entry. Offsets live on the context's backend: CUDA checks them with a kernel and
// waits for the verdict (compiled in the library: src/core/segmented.cpp), after queuing
// `follow` (when given) behind the check. `heads` (CUDA only: a scan_heads buffer) receives
// the head flags of the covered range as the check reads the offsets.
covered check_segment_offsets(const checker& c, span<const std::int64_t> offsets, std::int64_t n,
                              offsets_follow_up* follow = nullptr,
                              std::uint8_t* heads = nullptr);

// The head flags of a segmented scan by offsets on CUDA: n bytes from the workspace or the
// context's allocator, which the offsets check fills (flags[offsets[s] - offsets[0]] = 1 for
// every non-empty segment s), so the scan runs on flags (parprim/cuda/segmented_scan.cuh)
// having read the offsets once. The scan leases its own scratch from the same workspace,
// above the flags. Null on the CPU, whose scans walk the offsets.
class scan_heads {
 public:
  scan_heads(const context& ctx, workspace* ws, std::int64_t n)
      : memory_(ctx, ws, ctx.kind() == backend::cuda ? align_up(std::size_t(n)) : 0) {}
  std::uint8_t* get() const { return memory_.as<std::uint8_t>(); }

 private:
  temp_memory memory_;
};

}  // namespace parprim::detail
