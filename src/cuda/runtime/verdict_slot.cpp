// The context's pool of verdict slots (see verdict_slot.hpp).
#include "cuda/runtime/verdict_slot.hpp"

#include <cuda_runtime_api.h>

#include <memory>
#include <mutex>

#include "core/context_state.hpp"
#include "parprim/cuda/detail/check.hpp"
#include "parprim/cuda/tuning/segment_paths.hpp"

namespace parprim::cuda_rt {

namespace {

using words = cuda_tuning::offsets_verdict_words;

// A new slot on ctx's device; its device words are zeroed on ctx's stream, before any check
// queued after this returns.
std::unique_ptr<verdict_slot, void (*)(verdict_slot*)> make_slot(const context& ctx,
                                                                 const char* who) {
  std::unique_ptr<verdict_slot, void (*)(verdict_slot*)> s(new verdict_slot, destroy_verdict_slot);
  s->device = ctx.device();
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaSetDevice(ctx.device()));
  const std::size_t device_bytes = words::device_words * sizeof(unsigned long long);
  void* device_words = nullptr;
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMalloc(&device_words, device_bytes));
  s->device_words = static_cast<unsigned long long*>(device_words);
  void* host_words = nullptr;
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaHostAlloc(&host_words, words::published * sizeof(unsigned long long),
                                   cudaHostAllocMapped | cudaHostAllocPortable));
  s->host_words = static_cast<unsigned long long*>(host_words);
  void* host_words_on_device = nullptr;
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaHostGetDevicePointer(&host_words_on_device, host_words, 0));
  s->host_words_on_device = static_cast<unsigned long long*>(host_words_on_device);
  cudaEvent_t done = nullptr;
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  s->done = done;
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaMemsetAsync(s->device_words, 0, device_bytes,
                                     static_cast<cudaStream_t>(ctx.stream())));
  return s;
}

}  // namespace

void destroy_verdict_slot(verdict_slot* slot) noexcept {
  if (slot == nullptr) return;
  cudaSetDevice(slot->device);
  if (slot->done) cudaEventDestroy(static_cast<cudaEvent_t>(slot->done));
  if (slot->host_words) cudaFreeHost(slot->host_words);
  if (slot->device_words) cudaFree(slot->device_words);
  delete slot;
}

verdict_lease::verdict_lease(const context& ctx, const char* who) : ctx_(ctx) {
  detail::context_state& state = ctx.state();
  {
    std::lock_guard<std::mutex> lock(state.verdict_mutex);
    if (!state.verdict_slots.empty()) {
      slot_ = state.verdict_slots.back().release();
      state.verdict_slots.pop_back();
      return;
    }
  }
  slot_ = make_slot(ctx, who).release();
}

verdict_lease::~verdict_lease() {
  // Work queued on the stream may still use the slot; the next user queues its check on the
  // same stream, behind it.
  detail::context_state& state = ctx_.state();
  std::unique_ptr<verdict_slot, void (*)(verdict_slot*)> owned(slot_, destroy_verdict_slot);
  std::lock_guard<std::mutex> lock(state.verdict_mutex);
  try {
    state.verdict_slots.push_back(std::move(owned));
  } catch (...) {
    // Out of host memory for the pool's bookkeeping: the slot is freed instead of kept.
  }
}

void verdict_lease::record(const char* who) {
  PARPRIM_CUDA_CHECK(ctx_.name(), who,
                     cudaEventRecord(static_cast<cudaEvent_t>(slot_->done),
                                     static_cast<cudaStream_t>(ctx_.stream())));
}

void verdict_lease::wait(const char* who) {
  PARPRIM_CUDA_CHECK(ctx_.name(), who, cudaEventSynchronize(static_cast<cudaEvent_t>(slot_->done)));
}

}  // namespace parprim::cuda_rt
