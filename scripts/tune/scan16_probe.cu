// Scans of 16-byte elements (two doubles, added lane-wise) in one binary, no library build
// needed: the library's scan kernels with the shape 16-byte values take (scan_lookback_tuning<16>
// of scan_tuning.hpp: 32 KiB tiles, a 128-tile window folded in shared memory), one block per
// tile and pipelined, against the generic shape they took before (16 KiB tiles, a 32-tile
// look-back window folded by shuffles), on the same buffers, with CUB's ExclusiveScan and a
// device-to-device memcpy. The values are small integers, so every sum is exact and the
// shapes' outputs must agree bit for bit (and with a sequential oracle). Exit status 1 on any
// mismatch. `--max-log K` stops the sweep at 2^K elements and skips the timings' repetitions
// (a run under compute-sanitizer). From the repo root:
//   nvcc -std=c++17 -O3 -DPARPRIM_HAVE_CUDA=1 --expt-relaxed-constexpr -Iinclude \
//     -Ibuild-gpu/include -arch=sm_90 scripts/tune/scan16_probe.cu -o probe16 && ./probe16
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include <cub/cub.cuh>

#include "parprim/cuda/scan.cuh"
#include "parprim/detail/op_functors.hpp"
#include "probe_timing.cuh"

using namespace parprim;

struct d2 {
  double x, y;
};
struct d2_plus {
  __host__ __device__ d2 operator()(const d2& a, const d2& b) const { return {a.x + b.x, a.y + b.y}; }
};

// The generic shape of scan_tuning.hpp, which 16-byte values took until 2026-11-24.
struct generic_tuning {
  static constexpr int threads = 256;
  static constexpr int items = 4;
  static constexpr bool speculative_load = true;
  static constexpr unsigned spin_sleep_ns = 0;
  static constexpr int lookback_per_lane = 1;
  static constexpr bool fold_in_shared = false;
  static constexpr int min_blocks_per_sm = 0;
  static constexpr int pipeline_stages = 0;
  static constexpr int pipelined_min_tiles = 0;
};

using map_t = parprim::detail::identity_map;
using generic_shape = cuda_kernels::lookback_shape<d2, generic_tuning>;
using landed_shape = cuda_kernels::lookback_shape<d2, cuda_tuning::scan_lookback_tuning<16>>;
using status_t = cuda_prim::tile_status<d2>;

// Exclusive scan with start {3, 3}: one block per tile, or pipelined (6 stages).
template <class Shape>
float run_scan(bool pipelined, const d2* in, d2* out, long long n, void* scratch, int reps) {
  const int nt = int((n + Shape::tile_items - 1) / Shape::tile_items);
  const d2 start{3, 3};
  auto pk = cuda_kernels::scan_pipelined_kernel<d2, d2, map_t, d2_plus, Shape, 6>;
  const int bytes = int(sizeof(cuda_kernels::pipelined_storage<d2, d2, d2_plus, Shape, 6>));
  if (pipelined) CK(cudaFuncSetAttribute(pk, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  return median_ms(reps, [&] {
    CK(cudaMemsetAsync(scratch, 0, 256 + status_t::bytes(nt)));
    const status_t st = status_t::bind((char*)scratch + 256, nt);
    if (pipelined) {
      cuda_kernels::pipelined_args<d2, d2, map_t, d2_plus> a{in, out, n, nt, st, (int*)scratch, false,
                                                            start, true, map_t{}, d2_plus{}};
      pk<<<std::min(sms, nt), cuda_kernels::pipelined_threads<Shape>, bytes>>>(a);
    } else {
      cuda_kernels::scan_kernel<d2, d2, map_t, d2_plus, Shape><<<nt, Shape::threads>>>(
          in, out, n, nt, st, (int*)scratch, false, start, true, 0u, true, map_t{}, d2_plus{});
    }
  });
}

int main(int argc, char** argv) {
  const int max_log = argc > 2 && std::strcmp(argv[1], "--max-log") == 0 ? std::atoi(argv[2]) : 27;
  const int reps = max_log < 27 ? 1 : 15;
  void* scratch;
  CK(cudaMalloc(&scratch, 64 << 20));
  const long long max_n = 1LL << max_log;  // 2 GiB of input at 2^27
  std::vector<d2> x(max_n);
  std::mt19937 gen{7};
  for (auto& v : x) v = {double(int(gen() % 2001) - 1000), double(int(gen() % 2001) - 1000)};
  d2 *din, *da, *db, *dc;
  CK(cudaMalloc(&din, max_n * sizeof(d2)));
  CK(cudaMalloc(&da, max_n * sizeof(d2)));
  CK(cudaMalloc(&db, max_n * sizeof(d2)));
  CK(cudaMalloc(&dc, max_n * sizeof(d2)));
  CK(cudaMemcpy(din, x.data(), max_n * sizeof(d2), cudaMemcpyHostToDevice));
  const float copy_ms = median_ms(reps, [&] { CK(cudaMemcpyAsync(da, din, max_n * sizeof(d2), cudaMemcpyDeviceToDevice)); });
  printf("memcpy D2D 2^%d x 16 bytes: %.4f ms\n", max_log, copy_ms);
  int bad = 0;
  for (int lg : {12, 16, 18, 20, 22, 24, 26, 27}) {
    if (lg > max_log) break;
    const long long n = 1LL << lg;
    CK(cudaMemset(da, 0xA5, n * sizeof(d2)));
    CK(cudaMemset(db, 0x5A, n * sizeof(d2)));
    CK(cudaMemset(dc, 0x3C, n * sizeof(d2)));
    const float generic = run_scan<generic_shape>(false, din, da, n, scratch, reps);
    const float landed = run_scan<landed_shape>(false, din, db, n, scratch, reps);
    const float piped = run_scan<landed_shape>(true, din, dc, n, scratch, reps);
    std::vector<d2> ha(n), hb(n), hc(n);
    CK(cudaMemcpy(ha.data(), da, n * sizeof(d2), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hb.data(), db, n * sizeof(d2), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hc.data(), dc, n * sizeof(d2), cudaMemcpyDeviceToHost));
    d2 acc{3, 3};
    bool same = std::memcmp(ha.data(), hb.data(), n * sizeof(d2)) == 0 &&
                std::memcmp(ha.data(), hc.data(), n * sizeof(d2)) == 0;
    for (long long i = 0; i < n && same; ++i) {
      same = ha[i].x == acc.x && ha[i].y == acc.y;
      acc = d2_plus{}(acc, x[i]);
    }
    if (!same) ++bad;
    void* tmp = nullptr;
    size_t tb = 0;
    CK(cub::DeviceScan::ExclusiveScan(nullptr, tb, din, da, d2_plus{}, d2{3, 3}, n));
    CK(cudaMalloc(&tmp, tb));
    const float cub_ms = median_ms(reps, [&] { CK(cub::DeviceScan::ExclusiveScan(tmp, tb, din, da, d2_plus{}, d2{3, 3}, n)); });
    CK(cudaFree(tmp));
    printf("n=2^%d: generic %.4f  landed %.4f  landed pipelined %.4f  cub %.4f ms  (vs CUB: %.3f, %.3f, %.3f)  same=%d\n",
           lg, generic, landed, piped, cub_ms, cub_ms / generic, cub_ms / landed, cub_ms / piped, same);
  }
  printf("total mismatches: %d\n", bad);
  return bad ? 1 : 0;
}
