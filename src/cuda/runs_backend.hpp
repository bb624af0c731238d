// The CUDA backend's entry points for the runs primitives, plain C++.
//   runs_by_key (reduce and scan kinds: reduce_by_key, the scans by key;
//     src/cuda/kernels/by_key.cu), heads_by_key (unique, unique_by_key, unique_count) and
//     lengths_by_key (run_length_encode; both unique.cu): the bodies of parprim/cuda/by_key.cuh
//     with ==, for keys u32 u64 f32 f64 (signed keys arrive as their unsigned type);
//     heads_by_key takes values by size (u32 or u64).
//   scan_by_heads (by_key.cu): the segmented scans, as the by-key scan with u8 head flags as
//     the keys (a run continues while the flag is 0).
//   runs: the segmented primitives' runs jobs (src/core/runs_job.hpp, flags or offsets as the
//     head source, K = u32): the scans go to scan_by_heads (by offsets, on the flags that the
//     offsets check marked), segmented_reduce to its per-segment paths or the two-pass engine
//     of parprim/cuda/segmented.cuh.
// The by-key ones return the number of runs (-1 for the scans, which are stream-ordered, and
// where io.count_out receives the count: the _into forms); runs returns nothing (the
// segmented primitives do not ask for the run count).
#pragma once

#include <cstdint>

#include "core/runs_job.hpp"
#include "cuda/runtime/verdict_slot.hpp"
#include "parprim/context.hpp"
#include "parprim/detail/runs.hpp"
#include "parprim/ops.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cuda_backend {

template <detail::runs_kind Kind, class K, class V>
std::int64_t runs_by_key(const context& ctx, const detail::runs_io<K, V>& io, op o, workspace* ws);

template <class V>
void scan_by_heads(const context& ctx, const detail::runs_io<std::uint8_t, V>& io, op o,
                   workspace* ws);

template <class K, class V>
std::int64_t heads_by_key(const context& ctx, const detail::runs_io<K, V>& io, workspace* ws);

template <class K>
std::int64_t lengths_by_key(const context& ctx, const detail::runs_io<K, std::int64_t>& io,
                            workspace* ws);

template <class K, class V>
void runs(const context& ctx, const detail::runs_job<K, V>& job, workspace* ws);

// The device check of segment offsets: the first s with offsets[s+1] < offsets[s] or an
// offset outside [0, limit], or -1; also offsets[0] and offsets[segments], and (when none is
// bad) the longest segment's length.
struct offsets_verdict {
  std::int64_t bad = -1;
  std::int64_t first = 0;
  std::int64_t last = 0;
  std::int64_t longest = 0;
};

// The check queued on the context's stream, its verdict not yet waited for: work queued after
// it may read the verdict on the device (device_verdict(): the published words of
// cuda_tuning::offsets_verdict_words) and must write nothing unless it says the offsets are
// good. wait() waits for the check alone, not for what was queued after it. With `heads` (limit
// bytes of device memory) the check also writes the head flags of the range the offsets cover:
// heads[offsets[s] - offsets[0]] = 1 for every non-empty segment s, 0 elsewhere (meaningless
// when the verdict is bad).
class offsets_check_in_flight {
 public:
  offsets_check_in_flight(const context& ctx, const std::int64_t* offsets, std::int64_t segments,
                          std::int64_t limit, std::uint8_t* heads = nullptr);
  const unsigned long long* device_verdict() const;
  offsets_verdict wait();

 private:
  cuda_rt::verdict_lease lease_;
};

// The check, waited for.
offsets_verdict check_offsets(const context& ctx, const std::int64_t* offsets,
                              std::int64_t segments, std::int64_t limit);

}  // namespace parprim::cuda_backend
