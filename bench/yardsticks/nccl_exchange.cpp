#include "nccl_exchange.hpp"

#if PARPRIM_BENCH_HAVE_NCCL
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#endif

#include "parprim/cuda/detail/check.hpp"
#include "parprim/error.hpp"

namespace parprim::bench::yardstick {

#if PARPRIM_BENCH_HAVE_NCCL
namespace {

constexpr const char* who = "bench nccl_exchange";

void check(cudaError_t e, const char* what) { cuda_rt::check(e, "nccl exchange", who, what); }

void nccl_check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess)
    throw error(errc::device_error, std::string(who) + ": " + what + " failed: " + ncclGetErrorString(r));
}

struct rank_side {
  int device = 0;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  void* send = nullptr;
  void* recv = nullptr;
  void* send_handle = nullptr;
  void* recv_handle = nullptr;
};

void allocate(rank_side& r, std::size_t bytes, bool nccl_memory) {
  check(cudaSetDevice(r.device), "cudaSetDevice");
  if (nccl_memory) {
    nccl_check(ncclMemAlloc(&r.send, bytes), "ncclMemAlloc");
    nccl_check(ncclMemAlloc(&r.recv, bytes), "ncclMemAlloc");
  } else {
    check(cudaMalloc(&r.send, bytes), "cudaMalloc");
    check(cudaMalloc(&r.recv, bytes), "cudaMalloc");
  }
  // Poisoned rather than zero: nothing is timed on zeros.
  check(cudaMemset(r.send, 0xA5, bytes), "cudaMemset");
  check(cudaMemset(r.recv, 0x5A, bytes), "cudaMemset");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

void release(rank_side& r, bool nccl_memory) {
  check(cudaSetDevice(r.device), "cudaSetDevice");
  if (nccl_memory) {
    nccl_check(ncclMemFree(r.send), "ncclMemFree");
    nccl_check(ncclMemFree(r.recv), "ncclMemFree");
  } else {
    check(cudaFree(r.send), "cudaFree");
    check(cudaFree(r.recv), "cudaFree");
  }
  r.send = r.recv = nullptr;
}

// Both ranks' send/recv pairs of one chunk in one group call, from this one thread.
void exchange(rank_side (&s)[2], std::size_t bytes, const nccl_exchange_way& w) {
  const std::size_t per_chunk = (bytes + w.chunks - 1) / w.chunks;
  for (std::size_t at = 0; at < bytes; at += per_chunk) {
    const std::size_t n = std::min(per_chunk, bytes - at);
    nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (int r = 0; r < 2; ++r) {
      nccl_check(ncclSend(static_cast<char*>(s[r].send) + w.send_offset + at, n, ncclUint8, 1 - r,
                          s[r].comm, s[r].stream),
                 "ncclSend");
      nccl_check(ncclRecv(static_cast<char*>(s[r].recv) + w.recv_offset + at, n, ncclUint8, 1 - r,
                          s[r].comm, s[r].stream),
                 "ncclRecv");
    }
    nccl_check(ncclGroupEnd(), "ncclGroupEnd");
  }
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

nccl_exchange_result measure(rank_side (&s)[2], std::size_t bytes, int reps, const nccl_exchange_way& w) {
  nccl_exchange_result out{w.name};
  for (rank_side& r : s) allocate(r, bytes, w.nccl_memory);
  if (w.registered) {
    const auto t0 = std::chrono::steady_clock::now();
    for (rank_side& r : s) {
      check(cudaSetDevice(r.device), "cudaSetDevice");
      nccl_check(ncclCommRegister(r.comm, r.send, bytes, &r.send_handle), "ncclCommRegister");
      nccl_check(ncclCommRegister(r.comm, r.recv, bytes, &r.recv_handle), "ncclCommRegister");
    }
    out.register_ms = ms_since(t0);
  }
  std::vector<double> ms;
  for (int i = 0; i < reps + 1; ++i) {
    for (rank_side& r : s) check(cudaStreamSynchronize(r.stream), "cudaStreamSynchronize");
    const auto t0 = std::chrono::steady_clock::now();
    exchange(s, bytes - std::max(w.send_offset, w.recv_offset), w);
    for (rank_side& r : s) check(cudaStreamSynchronize(r.stream), "cudaStreamSynchronize");
    if (i > 0) ms.push_back(ms_since(t0));
  }
  if (w.registered) {
    const auto t0 = std::chrono::steady_clock::now();
    for (rank_side& r : s) {
      check(cudaSetDevice(r.device), "cudaSetDevice");
      nccl_check(ncclCommDeregister(r.comm, r.send_handle), "ncclCommDeregister");
      nccl_check(ncclCommDeregister(r.comm, r.recv_handle), "ncclCommDeregister");
    }
    out.register_ms += ms_since(t0);
  }
  for (rank_side& r : s) release(r, w.nccl_memory);
  std::sort(ms.begin(), ms.end());
  out.gbps = static_cast<double>(bytes) / (ms[ms.size() / 2] * 1e6);
  return out;
}

}  // namespace

std::vector<nccl_exchange_result> nccl_exchange_gbps(int a, int b, std::size_t bytes, int reps,
                                                     const std::vector<nccl_exchange_way>& ways) {
  setenv("NCCL_NVLS_ENABLE", "0", 1);  // NVLink multicast stays off, as in the library
  int previous = 0;
  check(cudaGetDevice(&previous), "cudaGetDevice");
  rank_side s[2];
  s[0].device = a;
  s[1].device = b;
  ncclComm_t comms[2];
  const int devices[2] = {a, b};
  nccl_check(ncclCommInitAll(comms, 2, devices), "ncclCommInitAll");
  for (int r = 0; r < 2; ++r) {
    s[r].comm = comms[r];
    check(cudaSetDevice(s[r].device), "cudaSetDevice");
    check(cudaStreamCreateWithFlags(&s[r].stream, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  std::vector<nccl_exchange_result> results;
  for (const nccl_exchange_way& w : ways) {
    try {
      results.push_back(measure(s, bytes, reps, w));
    } catch (const error& e) {  // e.g. registration refused: the other ways still run
      results.push_back({w.name, 0, 0, e.what()});
      for (rank_side& r : s) {
        try {
          if (r.send) release(r, w.nccl_memory);
        } catch (const error&) {  // the first failure is the one reported
        }
        r.send = r.recv = nullptr;
      }
    }
  }
  for (rank_side& r : s) {
    check(cudaSetDevice(r.device), "cudaSetDevice");
    check(cudaStreamDestroy(r.stream), "cudaStreamDestroy");
  }
  nccl_check(ncclGroupStart(), "ncclGroupStart");
  for (rank_side& r : s) nccl_check(ncclCommFinalize(r.comm), "ncclCommFinalize");
  nccl_check(ncclGroupEnd(), "ncclGroupEnd");
  for (rank_side& r : s) nccl_check(ncclCommDestroy(r.comm), "ncclCommDestroy");
  check(cudaSetDevice(previous), "cudaSetDevice");
  return results;
}
#else
std::vector<nccl_exchange_result> nccl_exchange_gbps(int, int, std::size_t, int,
                                                     const std::vector<nccl_exchange_way>&) {
  return {};
}
#endif

}  // namespace parprim::bench::yardstick
