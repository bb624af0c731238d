// A/B probe of the two 4-byte scan kernels in one binary, no library build needed:
// scan_kernel (tile in registers, the scan_lookback_tuning<4> shape) against
// scan_staged_kernel (tile staged in shared memory by one bulk copy, 6 and 5 blocks/SM), on
// the same device data: outputs compared bit for bit (and u32 against a sequential oracle)
// over sizes around the 8192-element tile, input/output 0-2 elements off 16-byte alignment,
// inclusive and exclusive; then median kernel times of 15 runs at 2^28 beside a device-to-
// device cudaMemcpy. Exit status 1 on any mismatch. From the repo root, after configuring
// build-gpu (for its generated include/):
//   nvcc -std=c++17 -O3 -DPARPRIM_HAVE_CUDA=1 --expt-relaxed-constexpr -Iinclude \
//     -Ibuild-gpu/include -arch=sm_90 scripts/tune/scan_staged_probe.cu -o build-gpu/scan_staged_probe
//   build-gpu/scan_staged_probe
#include <cstdio>
#include <cstring>
#include <vector>
#include <random>
#include <algorithm>
#include <cmath>
#include "parprim/cuda/scan.cuh"
#include "parprim/detail/op_functors.hpp"

using namespace parprim;
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)

template <int MinBlocks>
struct staged_tuning : cuda_tuning::scan_lookback_tuning<4> {
  static constexpr bool stage_tile_in_shared = true;
  static constexpr int staged_min_blocks_per_sm = MinBlocks;
};

template <class T, class Tuning, bool Staged>
float launch(const T* in, T* out, long long n, bool inclusive, T init, void* scratch, int reps) {
  using shape = cuda_kernels::lookback_shape<T, Tuning>;
  using status_t = cuda_prim::tile_status<T>;
  using Op = detail::plus_op<T>;
  using Map = detail::identity_map;
  auto kernel = [] {
    if constexpr (Staged) return cuda_kernels::scan_staged_kernel<T, T, Map, Op, shape>;
    else return cuda_kernels::scan_kernel<T, T, Map, Op, shape>;
  }();
  if constexpr (Staged)
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                            cudaSharedmemCarveoutMaxShared));
  long long tiles = (n + shape::tile_items - 1) / shape::tile_items;
  int num_tiles = (int)tiles;
  bool vectorized = cuda_prim::aligned16(in) && cuda_prim::aligned16(out);
  T start = inclusive ? Op::identity() : init;
  std::vector<float> ms;
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int r = 0; r < reps; ++r) {
    size_t bytes = 256 + status_t::bytes(num_tiles);
    CK(cudaMemsetAsync(scratch, 0, bytes));
    status_t st = num_tiles > 1 ? status_t::bind((char*)scratch + 256, num_tiles) : status_t{};
    cudaEventRecord(a);
    kernel<<<num_tiles, shape::threads>>>(in, out, n, num_tiles, st, num_tiles > 1 ? (int*)scratch : nullptr,
        inclusive, start, vectorized, 0u, num_tiles > 1 && (const void*)in != out, Map{}, Op{});
    cudaEventRecord(b);
    CK(cudaGetLastError());
    CK(cudaEventSynchronize(b));
    float t; cudaEventElapsedTime(&t, a, b); ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

template <class T, class StagedTuning>
int check(long long n, int in_off, int out_off, void* scratch, bool time_it) {
  std::mt19937_64 g(n * 31 + in_off);
  std::vector<T> x(n);
  for (auto& v : x) v = std::is_floating_point<T>::value ? T(double(g() % 100000) / 1000.0 - 50.0) : T(g());
  T *din, *da, *db;
  CK(cudaMalloc(&din, (n + 4) * sizeof(T))); CK(cudaMalloc(&da, (n + 4) * sizeof(T))); CK(cudaMalloc(&db, (n + 4) * sizeof(T)));
  CK(cudaMemcpy(din + in_off, x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  int bad = 0;
  for (bool inclusive : {true, false}) {
    T init = T(3);
    CK(cudaMemset(da, 0xA5, (n + 4) * sizeof(T))); CK(cudaMemset(db, 0x5A, (n + 4) * sizeof(T)));
    float ta = launch<T, cuda_tuning::scan_lookback_tuning<4>, false>(din + in_off, da + out_off, n, inclusive, init, scratch, time_it ? 15 : 1);
    float tb = launch<T, StagedTuning, true>(din + in_off, db + out_off, n, inclusive, init, scratch, time_it ? 15 : 1);
    std::vector<T> ha(n), hb(n);
    CK(cudaMemcpy(ha.data(), da + out_off, n * sizeof(T), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hb.data(), db + out_off, n * sizeof(T), cudaMemcpyDeviceToHost));
    bool same = memcmp(ha.data(), hb.data(), n * sizeof(T)) == 0;
    bool oracle = true;
    if (!std::is_floating_point<T>::value) {
      T acc = inclusive ? T(0) : init;
      for (long long i = 0; i < n && oracle; ++i) {
        if (inclusive) { acc += x[i]; oracle = hb[i] == acc; } else { oracle = hb[i] == acc; acc += x[i]; }
        if (!oracle) printf("   oracle mismatch at %lld\n", i);
      }
    } else {
      double acc = inclusive ? 0 : double(init), worst = 0;
      for (long long i = 0; i < n; ++i) { if (inclusive) acc += x[i]; worst = std::max(worst, std::abs(acc - double(hb[i]))); if (!inclusive) acc += x[i]; }
      oracle = worst < 1e-3 * std::max(1.0, double(n));
    }
    if (!same || !oracle) ++bad;
    printf("%s n=%lld in+%d out+%d %s: same_bits=%d oracle=%d", sizeof(T) == 4 && std::is_floating_point<T>::value ? "f32" : "u32",
           n, in_off, out_off, inclusive ? "incl" : "excl", same, oracle);
    if (time_it) printf("  reg %.4f ms  staged %.4f ms  (%.1f / %.1f GB/s)", ta, tb, 2.0 * n * sizeof(T) / ta / 1e6, 2.0 * n * sizeof(T) / tb / 1e6);
    printf("\n");
  }
  cudaFree(din); cudaFree(da); cudaFree(db);
  return bad;
}

int main() {
  void* scratch; CK(cudaMalloc(&scratch, 64 << 20));
  int bad = 0;
  for (long long n : {1LL, 100LL, 8191LL, 8192LL, 8193LL, 16384LL, 3LL * 8192 + 5, 64LL * 8192, (1LL << 20) + 17, 300LL * 8192 + 17})
    for (int off : {0, 1, 2})
      for (int oo : {0, 1}) {
        bad += check<unsigned, staged_tuning<6>>(n, off, oo, scratch, false);
        bad += check<float, staged_tuning<6>>(n, off, oo, scratch, false);
      }
  // copy bandwidth reference
  {
    long long n = 1LL << 28; void *s, *d; CK(cudaMalloc(&s, n * 4)); CK(cudaMalloc(&d, n * 4));
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b); std::vector<float> ms;
    for (int r = 0; r < 15; ++r) { cudaEventRecord(a); cudaMemcpyAsync(d, s, n * 4, cudaMemcpyDeviceToDevice); cudaEventRecord(b); cudaEventSynchronize(b); float t; cudaEventElapsedTime(&t, a, b); ms.push_back(t); }
    std::sort(ms.begin(), ms.end()); printf("memcpy D2D 2^28 u32: %.4f ms (%.1f GB/s)\n", ms[7], 2.0 * n * 4 / ms[7] / 1e6);
    cudaFree(s); cudaFree(d);
  }
  bad += check<unsigned, staged_tuning<6>>(1LL << 28, 0, 0, scratch, true);
  bad += check<float, staged_tuning<6>>(1LL << 28, 0, 0, scratch, true);
  printf("staged at 5 blocks/SM:\n");
  bad += check<unsigned, staged_tuning<5>>(1LL << 28, 0, 0, scratch, true);
  printf("BAD=%d\n", bad);
  return bad != 0;
}
