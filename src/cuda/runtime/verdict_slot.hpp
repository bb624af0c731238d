// Where the device check of segment offsets leaves its verdict for the host without a copy
// back on the stream: per context, a pool of slots, each holding the check kernel's device
// words (zeroed once; the kernel leaves them zeroed for the next check), four words of pinned
// host memory mapped into the device (the check kernel's last block writes the verdict
// there) and an event recorded right after the check kernel. The host waits for that event
// only, so work queued after it (segmented_reduce's gated kernels) keeps the GPU busy while
// the host reads the verdict (src/core/segmented.cpp).
//
//   verdict_lease lease(ctx, who);            // a slot of ctx's pool, back to it on return
//   check_kernel<<<..., stream>>>(..., lease.slot().device_words,
//                                 lease.slot().host_words_on_device);
//   lease.record(who);                        // the event, right after the check kernel
//   ... more work on the stream ...
//   lease.wait(who);                          // the check is done: read lease.slot().host_words
//
// Slots are created on first use and reused: one per call in flight on the context (calls
// from several host threads each take their own, under the pool's mutex, as the caching
// allocator's blocks are); the context frees them when it goes.
#pragma once

#include "parprim/context.hpp"

namespace parprim::cuda_rt {

struct verdict_slot {
  int device = -1;
  unsigned long long* device_words = nullptr;         // offsets_verdict_words::device_words
  unsigned long long* host_words = nullptr;           // published words, pinned host memory
  unsigned long long* host_words_on_device = nullptr;  // the same memory, as the device sees it
  void* done = nullptr;                               // cudaEvent_t, recorded after the check
};

// Frees the slot's memory and event (the context's pool holds it with this as its deleter).
void destroy_verdict_slot(verdict_slot* slot) noexcept;

class verdict_lease {
 public:
  verdict_lease(const context& ctx, const char* who);
  verdict_lease(const verdict_lease&) = delete;
  verdict_lease& operator=(const verdict_lease&) = delete;
  ~verdict_lease();

  const verdict_slot& slot() const { return *slot_; }
  void record(const char* who);  // the event, on the context's stream
  void wait(const char* who);    // the host waits for the event (errors of earlier work throw)

 private:
  const context& ctx_;
  verdict_slot* slot_ = nullptr;
};

}  // namespace parprim::cuda_rt
