// The per-call bad-position word and its deferred check (see bad_position.hpp).
#include "cuda/runtime/bad_position.hpp"

#include <cuda_runtime_api.h>

#include <memory>
#include <mutex>

#include "core/context_state.hpp"
#include "parprim/cuda/detail/check.hpp"

namespace parprim::cuda_rt {

namespace {
constexpr std::size_t word_bytes = sizeof(unsigned long long);

// Owns the word until the check is done with it, then returns it to the context's cache.
// The check is stored inside the context state, so it holds a raw pointer to that state
// rather than a context (which would keep the state alive through itself).
struct word_owner {
  detail::context_state* state;
  unsigned long long* word;
  word_owner(detail::context_state* s, unsigned long long* w) : state(s), word(w) {}
  word_owner(const word_owner&) = delete;
  word_owner& operator=(const word_owner&) = delete;
  ~word_owner() {
    std::lock_guard<std::mutex> lock(state->alloc_mutex);
    try {
      state->free_blocks.emplace(detail::allocation_size_class(word_bytes), word);
    } catch (...) {
      // Out of host memory for the cache's bookkeeping: the 256-byte block is dropped.
    }
  }
};
}  // namespace

unsigned long long* arm_bad_position(const context& ctx, const char* who) {
  auto* word = static_cast<unsigned long long*>(ctx.allocate(word_bytes));
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaMemsetAsync(word, 0xFF, word_bytes, static_cast<cudaStream_t>(ctx.stream())));
  return word;
}

void defer_bad_position(const context& ctx, unsigned long long* word,
                        std::function<error(std::int64_t)> make_error) {
  auto owner = std::make_shared<word_owner>(&ctx.state(), word);
  detail::context_state* state = &ctx.state();
  ctx.defer_check([owner, state, make_error = std::move(make_error)] {
    // synchronize() has waited for the stream, so the kernels that wrote the word are done.
    unsigned long long pos = no_bad_position;
    cuda_rt::check(cudaSetDevice(state->device), state->name, "synchronize", "cudaSetDevice");
    cuda_rt::check(cudaMemcpy(&pos, owner->word, word_bytes, cudaMemcpyDeviceToHost), state->name,
                   "synchronize", "cudaMemcpy (bad-position word)");
    if (pos != no_bad_position) throw make_error(static_cast<std::int64_t>(pos));
  });
}

}  // namespace parprim::cuda_rt
