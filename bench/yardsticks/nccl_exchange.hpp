// What NCCL's send/recv carries between two GPUs of this host when nothing else runs: the
// yardstick beside the distributed sort's exchange (the same bytes, the same calls), and
// beside the copy engines' rate (peer_copy.hpp). Its own two communicators (ncclCommInitAll),
// its own buffers; yardstick only.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace parprim::bench::yardstick {

// One way of driving the exchange.
struct nccl_exchange_way {
  std::string name;
  int chunks = 1;           // the bytes go in this many group calls, one after the other
  bool registered = false;  // buffers registered with ncclCommRegister (zero-copy P2P)
  bool nccl_memory = false; // buffers from ncclMemAlloc (cuMem) instead of cudaMalloc
  std::size_t send_offset = 0;  // bytes past the buffers' (256-byte aligned) starts where the
  std::size_t recv_offset = 0;  // data leaves and arrives: what misalignment costs
};

struct nccl_exchange_result {
  std::string name;
  double gbps = 0;           // per direction, median of the repetitions
  double register_ms = 0;    // registering and deregistering the four buffers (registered ways)
  std::string failure;       // what NCCL or CUDA said when this way could not run
};

// `bytes` from GPU a to GPU b and `bytes` from b to a at the same time, each way of `ways`;
// host wall clock from issue to both sides done, median of `reps` after a warm-up. Without
// NCCL in the build: an empty list.
std::vector<nccl_exchange_result> nccl_exchange_gbps(int a, int b, std::size_t bytes, int reps,
                                                     const std::vector<nccl_exchange_way>& ways);

}  // namespace parprim::bench::yardstick
