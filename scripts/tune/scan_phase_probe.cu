// A/B of the library's two scan kernels (4- and 8-byte elements) in one binary, no library
// build needed: scan_kernel (one block per tile) against scan_pipelined_kernel (persistent,
// warp-specialized), on the same device buffers, over sizes from 2^14 to 2^28: bit-for-bit
// comparison (integers also against a sequential oracle), median times with CUB's
// ExclusiveSum and a device-to-device memcpy of the same buffers (--8-byte-only skips the
// 4-byte timings). Exit status 1 on any mismatch. From the repo root:
//   nvcc -std=c++17 -O3 -DPARPRIM_HAVE_CUDA=1 --expt-relaxed-constexpr -Iinclude \
//     -Ibuild-gpu/include -arch=sm_90 scripts/tune/scan_phase_probe.cu -o probe && ./probe
// (The per-tile time stamps and the variants that led to the pipelined kernel are in the
// experiments file; their probe is in git, commit 92bb394.)
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include <cub/cub.cuh>

#include "parprim/cuda/scan.cuh"
#include "parprim/detail/op_functors.hpp"
#include "probe_timing.cuh"

using namespace parprim;

using map_t = parprim::detail::identity_map;
template <class T>
using shape_of = cuda_kernels::lookback_shape<T, cuda_tuning::scan_lookback_tuning<sizeof(T)>>;
// The tuned stage count, or 6 where the pipelined kernel is off (to time it anyway).
template <class T>
constexpr int stages = cuda_tuning::scan_lookback_tuning<sizeof(T)>::pipeline_stages > 0
                           ? cuda_tuning::scan_lookback_tuning<sizeof(T)>::pipeline_stages
                           : 6;

template <class T>
float launch(bool pipelined, const T* in, T* out, long long n, bool inclusive, void* scratch, int reps) {
  using shape = shape_of<T>;
  using Op = parprim::detail::plus_op<T>;
  using status_t = cuda_prim::tile_status<T>;
  const int nt = int((n + shape::tile_items - 1) / shape::tile_items);
  const T start = inclusive ? T(0) : T(3);
  auto pk = cuda_kernels::scan_pipelined_kernel<T, T, map_t, Op, shape, stages<T>>;
  const int bytes = int(sizeof(cuda_kernels::pipelined_storage<T, T, Op, shape, stages<T>>));
  CK(cudaFuncSetAttribute(pk, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  return median_ms(reps, [&] {
    CK(cudaMemsetAsync(scratch, 0, 256 + status_t::bytes(nt)));
    const status_t st = status_t::bind((char*)scratch + 256, nt);
    if (pipelined) {
      cuda_kernels::pipelined_args<T, T, map_t, Op> a{in, out, n, nt, st, (int*)scratch, inclusive, start,
                                                      cuda_prim::aligned16(out), map_t{}, Op{}};
      pk<<<std::min(sms, nt), cuda_kernels::pipelined_threads<shape>, bytes>>>(a);
    } else {
      cuda_kernels::scan_kernel<T, T, map_t, Op, shape><<<nt, shape::threads>>>(
          in, out, n, nt, st, (int*)scratch, inclusive, start,
          cuda_prim::aligned16(in) && cuda_prim::aligned16(out), 0u, in != out, map_t{}, Op{});
    }
  });
}

template <class T>
int compare(long long n, void* scratch, bool timed_run) {
  std::mt19937 gen{static_cast<unsigned>(n)};
  std::vector<T> x(n);
  for (auto& v : x) {
    const unsigned r = gen();
    if constexpr (std::is_floating_point<T>::value) v = T(int(r % 2001) - 1000) / T(64);
    else v = T(r);
  }
  T *din, *da, *db;
  CK(cudaMalloc(&din, n * sizeof(T)));
  CK(cudaMalloc(&da, (n + 1) * sizeof(T)));
  CK(cudaMalloc(&db, (n + 1) * sizeof(T)));
  CK(cudaMemcpy(din, x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  const int reps = timed_run ? 25 : 1;
  int bad = 0;
  const char* type = std::is_floating_point<T>::value ? (sizeof(T) == 4 ? "f32" : "f64")
                                                      : (sizeof(T) == 4 ? "u32" : "u64");
  for (bool inclusive : {false, true})
    for (int out_off : {0, 1}) {
      if (timed_run && out_off) continue;
      CK(cudaMemset(da, 0xA5, (n + 1) * sizeof(T)));
      CK(cudaMemset(db, 0x5A, (n + 1) * sizeof(T)));
      const float t_old = launch<T>(false, din, da + out_off, n, inclusive, scratch, reps);
      const float t_new = launch<T>(true, din, db + out_off, n, inclusive, scratch, reps);
      std::vector<T> ha(n), hb(n);
      CK(cudaMemcpy(ha.data(), da + out_off, n * sizeof(T), cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(hb.data(), db + out_off, n * sizeof(T), cudaMemcpyDeviceToHost));
      bool same = std::memcmp(ha.data(), hb.data(), n * sizeof(T)) == 0;
      if constexpr (!std::is_floating_point<T>::value) {
        T acc = inclusive ? T(0) : T(3);
        for (long long i = 0; i < n && same; ++i) {
          if (inclusive) acc += x[i];
          same = hb[i] == acc;
          if (!inclusive) acc += x[i];
        }
      }
      if (!same) ++bad;
      if (timed_run) {
        float cub_ms = 0;
        if (!inclusive) {
          void* tmp = nullptr;
          size_t tb = 0;
          CK(cub::DeviceScan::ExclusiveSum(nullptr, tb, din, da, n));
          CK(cudaMalloc(&tmp, tb));
          cub_ms = median_ms(reps, [&] { CK(cub::DeviceScan::ExclusiveSum(tmp, tb, din, da, n)); });
          CK(cudaFree(tmp));
        }
        printf("%s n=2^%.0f %s: one-tile %.4f ms  pipelined %.4f ms  (%.3fx)  cub %.4f  same=%d\n", type,
               std::log2(double(n)), inclusive ? "incl" : "excl", t_old, t_new, t_old / t_new, cub_ms, same);
      } else if (!same) {
        printf("MISMATCH %s n=%lld out+%d %s\n", type, n, out_off, inclusive ? "incl" : "excl");
      }
    }
  CK(cudaFree(din));
  CK(cudaFree(da));
  CK(cudaFree(db));
  return bad;
}

int main(int argc, char** argv) {
  const bool sweep_4_bytes = argc < 2 || std::strcmp(argv[1], "--8-byte-only") != 0;
  void* scratch;
  CK(cudaMalloc(&scratch, 64 << 20));
  int bad = 0;
  for (long long n : {1LL, 3LL, 8191LL, 8192LL, 8193LL, 3LL * 8192 + 5, 131LL * 8192, 133LL * 8192 + 7,
                      1000LL * 8192 + 17, (1LL << 24) + 3}) {
    bad += compare<unsigned>(n, scratch, false);
    bad += compare<float>(n, scratch, false);
    bad += compare<unsigned long long>(n, scratch, false);
    bad += compare<double>(n, scratch, false);
  }
  printf("checks: %d mismatches\n", bad);
  {
    const long long n = 1LL << 28;
    void *s, *d;
    CK(cudaMalloc(&s, n * 4));
    CK(cudaMalloc(&d, n * 4));
    CK(cudaMemset(s, 0x3C, n * 4));
    const float ms = median_ms(25, [&] { CK(cudaMemcpyAsync(d, s, n * 4, cudaMemcpyDeviceToDevice)); });
    printf("memcpy D2D 2^28 x 4 bytes: %.4f ms\n", ms);
    CK(cudaFree(s));
    CK(cudaFree(d));
  }
  for (int lg : {14, 16, 18, 20, 22, 24, 26, 28}) {
    if (sweep_4_bytes) {
      bad += compare<unsigned>(1LL << lg, scratch, true);
      bad += compare<float>(1LL << lg, scratch, true);
    }
    bad += compare<unsigned long long>(1LL << lg, scratch, true);
    bad += compare<double>(1LL << lg, scratch, true);
  }
  printf("total mismatches: %d\n", bad);
  return bad ? 1 : 0;
}
