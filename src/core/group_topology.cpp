// gpu_links: what the CUDA runtime says about each pair of GPUs.
#include "parprim/group.hpp"

#if PARPRIM_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace parprim {

std::vector<gpu_link> gpu_links() {
  std::vector<gpu_link> links;
#if PARPRIM_HAVE_CUDA
  const int n = context::cuda_device_count();
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      gpu_link l;
      l.a = a, l.b = b;
      int v = 0;
      if (cudaDeviceCanAccessPeer(&v, a, b) == cudaSuccess) l.peer_access = v != 0;
      if (cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrNativeAtomicSupported, a, b) == cudaSuccess)
        l.native_atomics = v != 0;
      if (cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrPerformanceRank, a, b) == cudaSuccess)
        l.performance_rank = v;
      cudaGetLastError();  // a refused query leaves no error behind for later calls
      links.push_back(l);
    }
#endif
  return links;
}

}  // namespace parprim
