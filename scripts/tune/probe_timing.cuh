// What the standalone tuning probes of this folder share: a CUDA-call check that exits, and
// the median of CUDA-event timings.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                             \
  do {                                                                    \
    cudaError_t e = (x);                                                  \
    if (e != cudaSuccess) {                                               \
      printf("CUDA %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                            \
    }                                                                     \
  } while (0)

// Median of `reps` CUDA-event timings of run(), after 3 warm-up runs when reps > 1 (a single
// run, e.g. under compute-sanitizer, takes none).
template <class Run>
float median_ms(int reps, Run run) {
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const int warmups = reps > 1 ? 3 : 0;
  std::vector<float> ms;
  for (int r = 0; r < warmups + reps; ++r) {
    CK(cudaEventRecord(e0));
    run();
    CK(cudaGetLastError());
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float t;
    CK(cudaEventElapsedTime(&t, e0, e1));
    if (r >= warmups) ms.push_back(t);
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}
