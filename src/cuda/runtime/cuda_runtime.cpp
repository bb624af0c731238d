// The CUDA runtime calls behind context, buffer and device_info. Plain C++ compiled by the
// host compiler and linked against cudart: no kernels here, so no nvcc time.
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "parprim/cuda/detail/check.hpp"
#include "bridge.hpp"
#include "core/context_state.hpp"

namespace parprim::cuda_rt {

using detail::context_state;

[[noreturn]] void throw_cuda_error(cudaError_t e, const std::string& ctx_name, const char* who,
                                   const char* what) {
  errc code = (e == cudaErrorMemoryAllocation) ? errc::out_of_memory : errc::device_error;
  throw error(code, std::string("parprim::") + who + " [" + ctx_name + "]: CUDA error " +
                        cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ") in " + what);
}

bool debug_sync_enabled() noexcept {
  static const bool on = [] {
    const char* v = std::getenv("PARPRIM_DEBUG_SYNC");
    return v != nullptr && std::strcmp(v, "0") != 0 && v[0] != '\0';
  }();
  return on;
}

void check_launch(context_state& s, const char* who) {
  check(cudaGetLastError(), s.name, who, "kernel launch");
  if (debug_sync_enabled())
    check(cudaStreamSynchronize(static_cast<cudaStream_t>(s.stream)), s.name, who,
          "cudaStreamSynchronize (PARPRIM_DEBUG_SYNC)");
}

int device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return 0;
  }
  return n;
}

void* create_stream(int device, const char* who, bool highest_priority) {
  std::string name = "cuda:" + std::to_string(device);
  check(cudaSetDevice(device), name, who, "cudaSetDevice");
  int priority = 0;  // the default
  if (highest_priority) {
    int least = 0;
    check(cudaDeviceGetStreamPriorityRange(&least, &priority), name, who,
          "cudaDeviceGetStreamPriorityRange");
  }
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, priority), name, who,
        "cudaStreamCreateWithPriority");
  return s;
}

void destroy_stream(int device, void* stream) noexcept {
  cudaSetDevice(device);
  cudaStreamDestroy(static_cast<cudaStream_t>(stream));
}

int multiprocessor_count(const context_state& s, const char* who) {
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, s.device), s.name, who,
        "cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount)");
  return sms;
}

void* device_malloc(context_state& s, std::size_t bytes, const char* who) {
  check(cudaSetDevice(s.device), s.name, who, "cudaSetDevice");
  void* p = nullptr;
  cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw error(errc::out_of_memory, std::string("parprim::") + who + " [" + s.name +
                                         "]: cudaMalloc of " + std::to_string(bytes) +
                                         " bytes failed: " + cudaGetErrorString(e));
  }
  return p;
}

void device_free(context_state& s, void* p) noexcept {
  cudaSetDevice(s.device);
  cudaFree(p);
}

static cudaStream_t stream_of(context_state& s) { return static_cast<cudaStream_t>(s.stream); }

void copy_from_host(context_state& s, void* dst, const void* src, std::size_t bytes) {
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream_of(s)), s.name,
        "copy_from_host", "cudaMemcpyAsync");
}

void copy_to_host(context_state& s, void* dst, const void* src, std::size_t bytes) {
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream_of(s)), s.name, "copy_to_host",
        "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream_of(s)), s.name, "copy_to_host", "cudaStreamSynchronize");
}

void copy(context_state& s, void* dst, const void* src, std::size_t bytes) {
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream_of(s)), s.name, "copy",
        "cudaMemcpyAsync");
}

void fill_bytes(context_state& s, void* dst, unsigned char v, std::size_t bytes) {
  check(cudaMemsetAsync(dst, v, bytes, stream_of(s)), s.name, "fill_bytes", "cudaMemsetAsync");
}

void synchronize(context_state& s, const char* who) {
  check(cudaStreamSynchronize(stream_of(s)), s.name, who, "cudaStreamSynchronize");
  check(cudaGetLastError(), s.name, who, "asynchronous kernel error");
}

bool is_device_accessible(int device, const void* p) noexcept {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  switch (a.type) {
    case cudaMemoryTypeDevice: return a.device == device;
    case cudaMemoryTypeManaged: return true;
    case cudaMemoryTypeHost: return a.devicePointer != nullptr;  // mapped pinned memory
    default: return false;
  }
}

bool is_device_only(const void* p) noexcept {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeDevice;
}

std::string versions() {
  auto dotted = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  std::string s = "runtime " + dotted(runtime) + ", driver ";
  if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0) s += dotted(driver);
  else s += "none";
  cudaGetLastError();
  return s;
}

std::vector<device_info> devices() {
  std::vector<device_info> out;
  int n = device_count();
  for (int d = 0; d < n; ++d) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
    auto attr = [d](cudaDeviceAttr a) {
      int v = 0;
      cudaDeviceGetAttribute(&v, a, d);
      return v;
    };
    device_info i;
    i.ordinal = d;
    i.name = p.name;
    i.compute_major = p.major;
    i.compute_minor = p.minor;
    i.multiprocessors = p.multiProcessorCount;
    i.sm_clock_mhz = attr(cudaDevAttrClockRate) / 1000;
    i.memory_clock_mhz = attr(cudaDevAttrMemoryClockRate) / 1000;
    i.memory_bus_bits = attr(cudaDevAttrGlobalMemoryBusWidth);
    i.global_memory_bytes = static_cast<std::int64_t>(p.totalGlobalMem);
    i.l2_cache_bytes = p.l2CacheSize;
    i.shared_memory_per_sm = static_cast<std::int64_t>(p.sharedMemPerMultiprocessor);
    i.shared_memory_per_block_optin = static_cast<std::int64_t>(p.sharedMemPerBlockOptin);
    i.constant_memory_bytes = static_cast<std::int64_t>(p.totalConstMem);
    i.registers_per_sm = p.regsPerMultiprocessor;
    i.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    i.max_threads_per_block = p.maxThreadsPerBlock;
    i.warp_size = p.warpSize;
    out.push_back(i);
  }
  return out;
}

}  // namespace parprim::cuda_rt
