// The check of segment offsets shared by the front ends that take them (segmented.cpp,
// top_k.cpp): non-decreasing and inside [0, n]; also the longest segment's length. Offsets
// live on the context's backend: the CPU checks them at once; CUDA queues a check kernel
// (src/cuda/kernels/segmented.cu) whose verdict the host waits for in wait(). Between the two,
// a caller may queue work gated on the device-side verdict (device_verdict()): the GPU then
// runs it right after the check while the host waits for the check alone
// (segmented_reduce: src/core/segmented.cpp, and through check_segment_offsets' follow-up
// the generic one).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parprim/detail/cpu/parallel.hpp"
#include "parprim/detail/segmented.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/span.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/runs_backend.hpp"
#endif

namespace parprim::detail {

// heads (CUDA only, null on the CPU): n bytes where the check also writes the head flags of
// the covered range (detail::scan_heads).
class offsets_check {
 public:
  offsets_check(const checker& c, span<const std::int64_t> offsets, std::int64_t n,
                std::uint8_t* heads = nullptr)
      : c_(c), n_(n) {
    c.valid(offsets, "offsets");
    if (offsets.size() < 1) c.fail("offsets.size()=0 but must be segments + 1 >= 1");
    const std::int64_t segments = offsets.size() - 1;
#if PARPRIM_HAVE_CUDA
    if (c.ctx().kind() == backend::cuda) {
      cuda_.emplace(c.ctx(), offsets.data(), segments, n, heads);
      return;
    }
#endif
    (void)heads;
    check_on_cpu(offsets.data(), segments);
  }

  // CUDA: the check's verdict words on the device (cuda_tuning::offsets_verdict_words), for
  // kernels queued before wait() that write nothing unless they say the offsets are good.
  // Null on the CPU.
  const unsigned long long* device_verdict() const {
#if PARPRIM_HAVE_CUDA
    if (cuda_) return cuda_->device_verdict();
#endif
    return nullptr;
  }

  // The range the offsets cover and the longest segment; c.fail naming the first bad entry.
  covered wait() {
#if PARPRIM_HAVE_CUDA
    if (cuda_) {
      const auto v = cuda_->wait();
      bad_ = v.bad;
      range_ = {v.first, v.last, v.longest};
    }
#endif
    if (bad_ >= 0)
      c_.fail("offsets[" + std::to_string(bad_) + "] or offsets[" + std::to_string(bad_ + 1) +
              "] is outside [0, " + std::to_string(n_) + "] or the offsets decrease there");
    return range_;
  }

 private:
  // The CPU check, in blocks of offsets on the context's threads; the first bad entry and the
  // longest segment are taken in block order. One thread's pass over the offsets cost more
  // than the segmented scan it guarded in segments of 1 (2^22 + 1 offsets, 32 MB: the scan
  // took 11.3 ms on 2 threads with it, against 3.1-4.3 ms for the sequential scan alone).
  // With an early exit at the first bad entry the loop stayed scalar: in a segmented_reduce of
  // 2^24 f32 in segments of 1 on 2 threads the check took about 5.8 ms (perf: 28% of 20.5 ms),
  // vectorized about 3.8 ms (23% of 16 ms), near the read of 128 MiB.
  void check_on_cpu(const std::int64_t* o, std::int64_t segments) {
    constexpr std::int64_t block = 1 << 16;
    const std::int64_t blocks = cpu::block_count(segments + 1, block);
    std::vector<std::int64_t> bad(static_cast<std::size_t>(blocks), -1), longest(bad.size(), 0);
    auto check_block = [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
      // A pass without an early exit, which the compiler vectorizes; only a block with a bad
      // entry is walked again for the first one.
      const std::int64_t paired = std::min(end, segments);  // entries with a successor
      std::int64_t most = 0;
      bool any_bad = false;
      for (std::int64_t s = begin; s < paired; ++s) {
        const std::int64_t length = o[s + 1] - o[s];
        any_bad |= (o[s] < 0) | (o[s] > n_) | (length < 0);
        most = std::max(most, length);
      }
      if (end > segments) any_bad |= (o[segments] < 0) | (o[segments] > n_);
      longest[static_cast<std::size_t>(b)] = most;
      if (!any_bad) return;
      for (std::int64_t s = begin; s < end; ++s)
        if (o[s] < 0 || o[s] > n_ || (s < segments && o[s + 1] < o[s])) {
          bad[static_cast<std::size_t>(b)] = s;
          break;
        }
    };
    cpu::blocked_for(c_.ctx(), segments + 1, block, check_block);
    for (std::size_t b = 0; b < bad.size() && bad_ < 0; ++b) {
      bad_ = bad[b];
      range_.longest = std::max(range_.longest, longest[b]);
    }
    range_.first = o[0];
    range_.last = o[segments];
  }

  const checker& c_;
  std::int64_t n_;
  std::int64_t bad_ = -1;
  covered range_;
#if PARPRIM_HAVE_CUDA
  std::optional<cuda_backend::offsets_check_in_flight> cuda_;
#endif
};

// The check, waited for.
inline covered check_offsets(const checker& c, span<const std::int64_t> offsets, std::int64_t n) {
  return offsets_check(c, offsets, n).wait();
}

}  // namespace parprim::detail
