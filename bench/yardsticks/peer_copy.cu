#include "peer_copy.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "parprim/cuda/detail/check.hpp"

namespace parprim::bench::yardstick {
namespace {

constexpr const char* who = "bench peer_copy";

void check(cudaError_t e, const char* what) { cuda_rt::check(e, "peer copy", who, what); }

// Peer access from `from` to `to`; already enabled (by NCCL or an earlier call) is fine.
void enable_peer(int from, int to) {
  check(cudaSetDevice(from), "cudaSetDevice");
  const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled) {
    (void)cudaGetLastError();
    return;
  }
  check(e, "cudaDeviceEnablePeerAccess");
}

struct side {
  int device = 0;
  void* send = nullptr;
  void* recv = nullptr;
  cudaStream_t stream = nullptr;
};

}  // namespace

double peer_copy_gbps(int a, int b, std::size_t bytes, int reps) {
  int previous = 0;
  check(cudaGetDevice(&previous), "cudaGetDevice");
  enable_peer(a, b);
  enable_peer(b, a);
  side s[2] = {{a}, {b}};
  for (side& d : s) {
    check(cudaSetDevice(d.device), "cudaSetDevice");
    check(cudaMalloc(&d.send, bytes), "cudaMalloc");
    check(cudaMalloc(&d.recv, bytes), "cudaMalloc");
    // Poisoned rather than zero: the copy engines move bytes, but nothing is timed on zeros.
    check(cudaMemset(d.send, 0xA5, bytes), "cudaMemset");
    check(cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  std::vector<double> ms;
  for (int i = 0; i < reps + 1; ++i) {
    for (side& d : s) check(cudaStreamSynchronize(d.stream), "cudaStreamSynchronize");
    const auto t0 = std::chrono::steady_clock::now();
    check(cudaMemcpyPeerAsync(s[1].recv, b, s[0].send, a, bytes, s[0].stream), "cudaMemcpyPeerAsync");
    check(cudaMemcpyPeerAsync(s[0].recv, a, s[1].send, b, bytes, s[1].stream), "cudaMemcpyPeerAsync");
    for (side& d : s) check(cudaStreamSynchronize(d.stream), "cudaStreamSynchronize");
    const auto t1 = std::chrono::steady_clock::now();
    if (i > 0) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  for (side& d : s) {
    check(cudaSetDevice(d.device), "cudaSetDevice");
    check(cudaStreamDestroy(d.stream), "cudaStreamDestroy");
    check(cudaFree(d.send), "cudaFree");
    check(cudaFree(d.recv), "cudaFree");
  }
  check(cudaSetDevice(previous), "cudaSetDevice");
  std::sort(ms.begin(), ms.end());
  return static_cast<double>(bytes) / (ms[ms.size() / 2] * 1e6);
}

}  // namespace parprim::bench::yardstick
