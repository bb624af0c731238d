// context: construction, memory and synchronization for both backends.
#include "parprim/context.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "core/context_state.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/device_info.hpp"
#include "parprim/error.hpp"

#if PARPRIM_HAVE_CUDA
#include "cuda/runtime/bridge.hpp"
#endif

namespace parprim {

const char* to_string(backend b) noexcept { return b == backend::cuda ? "cuda" : "cpu"; }

namespace detail {

context_state::~context_state() {
  for (auto& [size, p] : free_blocks) {
    (void)size;
    if (kind == backend::cpu) {
      std::free(p);
    }
#if PARPRIM_HAVE_CUDA
    else {
      cuda_rt::device_free(*this, p);
    }
#endif
  }
#if PARPRIM_HAVE_CUDA
  if (kind == backend::cuda && owns_stream) cuda_rt::destroy_stream(device, stream);
#endif
}

const char*& current_call() noexcept {
  thread_local const char* name = nullptr;
  return name;
}

std::size_t allocation_size_class(std::size_t bytes) {
  if (bytes <= 256) return 256;
  // Above max_allocation_bytes the rounding below would wrap around 2^64 (to a tiny class):
  // such requests keep their size and fail in the allocator.
  if (bytes > max_allocation_bytes) return bytes;
  // Four classes per power of two: round up to a multiple of 2^(floor(log2(bytes)) - 2),
  // and never finer than 256 bytes so every block stays 256-byte aligned and sized.
  int log2 = 63 - __builtin_clzll(static_cast<unsigned long long>(bytes));
  std::size_t step = std::max<std::size_t>(256, std::size_t(1) << (log2 - 2));
  return (bytes + step - 1) / step * step;
}

}  // namespace detail

context context::cpu(int threads) {
  if (threads < 0)
    throw error(errc::invalid_argument,
                "parprim::context::cpu [cpu]: threads=" + std::to_string(threads) + " is negative");
  if (threads > detail::max_cpu_threads)
    throw error(errc::invalid_argument, "parprim::context::cpu [cpu]: threads=" + std::to_string(threads) +
                                            " is above the limit of " + std::to_string(detail::max_cpu_threads));
  auto s = std::make_shared<detail::context_state>();
  s->kind = backend::cpu;
  s->threads = threads > 0 ? threads : omp_get_max_threads();
  s->name = "cpu";
  return context(std::move(s));
}

bool context::cuda_built() { return PARPRIM_HAVE_CUDA != 0; }

int context::cuda_device_count() {
#if PARPRIM_HAVE_CUDA
  return cuda_rt::device_count();
#else
  return 0;
#endif
}

context context::cuda(int device, void* stream) {
  std::string name = "cuda:" + std::to_string(device);
#if PARPRIM_HAVE_CUDA
  int n = cuda_rt::device_count();
  if (n == 0)
    throw error(errc::backend_unavailable,
                "parprim::context::cuda [" + name + "]: no CUDA device is available");
  if (device < 0 || device >= n)
    throw error(errc::invalid_argument, "parprim::context::cuda [" + name +
                                            "]: device=" + std::to_string(device) + " but only " +
                                            std::to_string(n) + " device(s) exist");
  auto s = std::make_shared<detail::context_state>();
  s->kind = backend::cuda;
  s->device = device;
  s->threads = omp_get_max_threads();
  s->name = name;
  s->multiprocessors = cuda_rt::multiprocessor_count(*s, "context::cuda");
  if (stream) {
    s->stream = stream;
  } else {
    s->stream = cuda_rt::create_stream(device, "context::cuda");
    s->owns_stream = true;
  }
  return context(std::move(s));
#else
  (void)stream;
  throw error(errc::backend_unavailable, "parprim::context::cuda [" + name +
                                             "]: this build of parprim has no CUDA backend");
#endif
}

context context::best_available() {
  if (cuda_device_count() > 0) return cuda(0);
  return cpu();
}

backend context::kind() const { return state_->kind; }
int context::device() const { return state_->device; }
void* context::stream() const { return state_->stream; }
int context::threads() const { return state_->threads; }
const std::string& context::name() const { return state_->name; }
int context::multiprocessors() const { return state_->multiprocessors; }

void context::synchronize() const {
#if PARPRIM_HAVE_CUDA
  if (state_->kind == backend::cuda) cuda_rt::synchronize(*state_, "synchronize");
#endif
  std::vector<std::function<void()>> checks;
  {
    std::lock_guard<std::mutex> lock(state_->check_mutex);
    checks.swap(state_->deferred_checks);
  }
  for (auto& c : checks) c();  // the first failing check throws; the rest are dropped
}

void* context::allocate(std::size_t bytes) const {
  // Inside a primitive the error names the primitive: its temporaries did not fit.
  const char* who = detail::current_call() ? detail::current_call() : "allocate";
  if (bytes > detail::max_allocation_bytes)
    throw error(errc::out_of_memory, std::string("parprim::") + who + " [" + state_->name + "]: " +
                                         std::to_string(bytes) + " bytes is more than any memory holds");
  std::size_t cls = detail::allocation_size_class(bytes);
  {
    std::lock_guard<std::mutex> lock(state_->alloc_mutex);
    auto it = state_->free_blocks.find(cls);
    if (it != state_->free_blocks.end()) {
      void* p = it->second;
      state_->free_blocks.erase(it);
      return p;
    }
  }
  if (state_->kind == backend::cpu) {
    void* p = std::aligned_alloc(256, cls);  // cls is a multiple of 256
    if (!p)
      throw error(errc::out_of_memory, std::string("parprim::") + who + " [cpu]: " +
                                           std::to_string(bytes) + " bytes could not be allocated");
    return p;
  }
#if PARPRIM_HAVE_CUDA
  try {
    return cuda_rt::device_malloc(*state_, cls, who);
  } catch (const error&) {
    release_cached_memory();  // the cache may hold what we need: give it back and retry once
    return cuda_rt::device_malloc(*state_, cls, who);
  }
#else
  throw error(errc::backend_unavailable, "parprim::allocate: no CUDA backend");
#endif
}

void context::deallocate(void* p, std::size_t bytes) const noexcept {
  if (!p) return;
  std::size_t cls = detail::allocation_size_class(bytes);
  std::lock_guard<std::mutex> lock(state_->alloc_mutex);
  try {
    state_->free_blocks.emplace(cls, p);
  } catch (...) {
    // Out of host memory for the cache bookkeeping: free directly.
    if (state_->kind == backend::cpu) std::free(p);
#if PARPRIM_HAVE_CUDA
    else cuda_rt::device_free(*state_, p);
#endif
  }
}

void context::release_cached_memory() const {
  std::multimap<std::size_t, void*> blocks;
  {
    std::lock_guard<std::mutex> lock(state_->alloc_mutex);
    blocks.swap(state_->free_blocks);
  }
  for (auto& [size, p] : blocks) {
    (void)size;
    if (state_->kind == backend::cpu) std::free(p);
#if PARPRIM_HAVE_CUDA
    else cuda_rt::device_free(*state_, p);  // cudaFree waits for the device: stream order holds
#endif
  }
}

void context::copy_from_host(void* dst, const void* src, std::size_t bytes) const {
  if (bytes == 0) return;
  if (state_->kind == backend::cpu) {
    std::memcpy(dst, src, bytes);
    return;
  }
#if PARPRIM_HAVE_CUDA
  cuda_rt::copy_from_host(*state_, dst, src, bytes);
#endif
}

void context::copy_to_host(void* dst, const void* src, std::size_t bytes) const {
  if (bytes == 0) return;
  if (state_->kind == backend::cpu) {
    std::memcpy(dst, src, bytes);
    return;
  }
#if PARPRIM_HAVE_CUDA
  cuda_rt::copy_to_host(*state_, dst, src, bytes);
#endif
}

void context::copy(void* dst, const void* src, std::size_t bytes) const {
  if (bytes == 0) return;
  if (state_->kind == backend::cpu) {
    std::memmove(dst, src, bytes);
    return;
  }
#if PARPRIM_HAVE_CUDA
  cuda_rt::copy(*state_, dst, src, bytes);
#endif
}

void context::fill_bytes(void* dst, unsigned char value, std::size_t bytes) const {
  if (bytes == 0) return;
  if (state_->kind == backend::cpu) {
    std::memset(dst, value, bytes);
    return;
  }
#if PARPRIM_HAVE_CUDA
  cuda_rt::fill_bytes(*state_, dst, value, bytes);
#endif
}

bool context::can_access(const void* p) const {
#if PARPRIM_HAVE_CUDA
  if (state_->kind == backend::cuda) return cuda_rt::is_device_accessible(state_->device, p);
  // Host code cannot dereference device memory; pageable, pinned and managed memory are fine.
  static const bool any_device = cuda_rt::device_count() > 0;
  if (any_device) return !cuda_rt::is_device_only(p);
#endif
  (void)p;
  return true;
}

void context::defer_check(std::function<void()> check) const {
  std::lock_guard<std::mutex> lock(state_->check_mutex);
  state_->deferred_checks.push_back(std::move(check));
}

std::string cuda_versions() {
#if PARPRIM_HAVE_CUDA
  return cuda_rt::versions();
#else
  return "";
#endif
}

std::vector<device_info> cuda_devices() {
#if PARPRIM_HAVE_CUDA
  return cuda_rt::devices();
#else
  return {};
#endif
}

}  // namespace parprim
