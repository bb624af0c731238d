// context: which backend a call runs on, plus the state it needs there.
//
// A context is a cheap, copyable handle (copies share one state): the backend (cpu or cuda),
// the CUDA device and stream, the number of CPU threads, a caching allocator, and the checks
// that device kernels leave behind to be raised at the next synchronize().
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace parprim {

enum class backend { cpu, cuda };
const char* to_string(backend b) noexcept;

namespace detail {
struct context_state;
}

class context {
 public:
  // OpenMP on the host; threads = 0 means the OpenMP default; at most 1024 threads.
  static context cpu(int threads = 0);
  // A CUDA device and stream (a cudaStream_t passed as void*; nullptr: a new stream that the
  // context owns). Throws errc::backend_unavailable without a device or without a CUDA build.
  static context cuda(int device = 0, void* stream = nullptr);
  // cuda:0 when CUDA is built in and a device answers, else cpu.
  static context best_available();

  static bool cuda_built();        // the library was compiled with the CUDA backend
  static int cuda_device_count();  // 0 without a CUDA build or without a device

  backend kind() const;
  int device() const;          // CUDA device ordinal; -1 on cpu
  void* stream() const;        // cudaStream_t; nullptr on cpu
  int threads() const;         // CPU worker threads (also used by the CUDA backend's host work)
  const std::string& name() const;  // "cpu" or "cuda:N": the name error messages use
  // Streaming multiprocessors of the CUDA device, queried once when the context is made (grid
  // sizes scale with it); 0 on cpu.
  int multiprocessors() const;

  // Waits for all work queued on this context, then raises (as parprim::error) any
  // asynchronous device error and any failed deferred check (e.g. an out-of-bounds index
  // found by a gather kernel).
  void synchronize() const;

  // Memory on this context's backend, from a caching allocator (stream-ordered on CUDA:
  // memory freed by one call is reused by the next call on the same stream without a sync).
  void* allocate(std::size_t bytes) const;
  void deallocate(void* p, std::size_t bytes) const noexcept;
  // Returns cached blocks to the system.
  void release_cached_memory() const;

  // Copies; `backend memory` means memory from allocate() or any pointer valid on the backend.
  void copy_from_host(void* dst_backend, const void* src_host, std::size_t bytes) const;
  void copy_to_host(void* dst_host, const void* src_backend, std::size_t bytes) const;  // waits
  void copy(void* dst_backend, const void* src_backend, std::size_t bytes) const;
  void fill_bytes(void* dst_backend, unsigned char value, std::size_t bytes) const;

  // True when p can be dereferenced by this backend's kernels (host memory for cpu;
  // device, managed or mapped memory for cuda). Used by front ends to reject mismatches.
  bool can_access(const void* p) const;

  // Registers a check to run at the next synchronize(); it throws parprim::error to report.
  void defer_check(std::function<void()> check) const;

  detail::context_state& state() const { return *state_; }

 private:
  explicit context(std::shared_ptr<detail::context_state> s) : state_(std::move(s)) {}
  std::shared_ptr<detail::context_state> state_;
};

}  // namespace parprim
