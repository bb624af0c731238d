// What the link between two GPUs of this host carries when the copy engines drive it in both
// directions at once (cudaMemcpyPeerAsync, no NCCL): the yardstick beside the distributed
// sort's exchange, which moves the same bytes through NCCL. Yardstick only.
#pragma once

#include <cstddef>

namespace parprim::bench::yardstick {

// GB/s per direction while `bytes` cross from GPU a to GPU b and `bytes` from b to a at the
// same time; host wall clock from issue to both copies done, median of `reps` after a warm-up.
double peer_copy_gbps(int a, int b, std::size_t bytes, int reps);

}  // namespace parprim::bench::yardstick
