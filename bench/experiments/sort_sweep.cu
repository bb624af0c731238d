// Onesweep tile-shape sweep against CUB DeviceRadixSort, in one process on the same buffers.
// Built only on request (cmake -DPARPRIM_SORT_SWEEP=ON, target sort_sweep); it instantiates
// the pass kernel once per candidate shape (src/cuda/kernels/radix_sort_launch.cuh), which
// the library's public API cannot reach, so it includes the library's internal headers.
//
// Per case (u32 keys 2^27 and 2^28, u32/u32 pairs 2^27, u64 keys 2^27; uniform random keys,
// values = index): every round runs CUB once and each candidate once, in turn, so drifting
// clocks touch all alike; each of our runs first restores the input with an untimed device
// copy. Times are CUDA events around the sort alone; the table gives the median (and the
// minimum) over the rounds after the warm-up rounds, and CUB ms / ours. Every candidate's
// last output is compared bit for bit with CUB's (keys and values); a mismatch makes the
// program exit with status 1. Per candidate it also prints the pass kernel's registers,
// local memory (spills) and resident blocks per SM as the device reports them.
//
//   sort_sweep [--rounds N] [--warmup N] [--case keys32|keys32_big|pairs32|keys64]
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "cuda/kernels/radix_sort_launch.cuh"
#include "parprim/buffer.hpp"
#include "parprim/context.hpp"
#include "parprim/cuda/detail/check.hpp"
#include "parprim/workspace.hpp"

namespace {

using namespace parprim;
namespace os = parprim::cuda_kernels::onesweep;
using cuda_tuning::onesweep_tile;
using tuning = cuda_tuning::onesweep_tuning;

// Candidates: the tuned shape first, then CUB's sm_90 shape for the same widths (CCCL 3.0,
// 64-bit offsets as parprim bench calls it), then shapes that trade tile size against
// resident blocks (8-byte keys: 16 keys per thread at 2 blocks per SM already spill). Few on
// purpose: one pass-kernel instantiation each.
using keys32_tiles = std::tuple<tuning::keys_tile, onesweep_tile<384, 19, 2>, onesweep_tile<384, 26, 2>,
                                onesweep_tile<256, 23, 3>, onesweep_tile<512, 18, 2>>;
using pairs32_tiles = std::tuple<tuning::pairs_tile, onesweep_tile<384, 17, 2>,
                                 onesweep_tile<384, 20, 2>, onesweep_tile<256, 23, 3>>;
using keys64_tiles = std::tuple<tuning::wide_tile, onesweep_tile<384, 14, 2>, onesweep_tile<384, 30, 1>,
                                onesweep_tile<384, 22, 1>, onesweep_tile<512, 20, 1>>;

struct options {
  int rounds = 25;
  int warmup = 3;    // >= 1: the first round grows the workspace
  std::string only;  // one case name, or all
};

#define SWEEP_CHECK(call) PARPRIM_CUDA_CHECK("cuda:0", "sort_sweep", (call))

struct contender {
  std::string name;
  std::function<void()> run;  // one timed sort (our candidates restore their input first, untimed)
  std::function<void()> restore;
  std::vector<float> ms;
};

float median_of(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5f * (v[m - 1] + v[m]);
}

// Registers, local bytes and resident blocks per SM of one candidate's pass kernel.
template <class U, class W, bool HasValues, class Tile>
std::string pass_kernel_facts() {
  auto* kernel = os::onesweep_pass<U, W, HasValues, Tile>;
  constexpr int bytes = os::pass_shared_bytes<U, W, HasValues, Tile>();
  SWEEP_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  cudaFuncAttributes attr{};
  SWEEP_CHECK(cudaFuncGetAttributes(&attr, kernel));
  int blocks = 0;
  SWEEP_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, Tile::threads, bytes));
  char text[160];
  std::snprintf(text, sizeof text, "%3d regs, %3zu B local, %d blocks/SM, %6d B shared", attr.numRegs,
                attr.localSizeBytes, blocks, int(bytes + attr.sharedSizeBytes));
  return text;
}

template <class U, class W, bool HasValues>
struct sort_case {
  std::string name;
  std::int64_t n;
  context ctx = context::cuda(0);
  buffer<U> keys_in, keys_work, keys_cub;
  buffer<W> values_in, values_work, values_cub;
  buffer<unsigned char> cub_temp;
  workspace ws{ctx};
  std::vector<contender> contenders;
  std::vector<std::string> facts;

  sort_case(std::string case_name, std::int64_t count) : name(std::move(case_name)), n(count) {
    std::mt19937_64 g(0x5eed + std::uint64_t(n) + sizeof(U) * 7 + HasValues);
    std::vector<U> keys(static_cast<std::size_t>(n));
    for (auto& k : keys) k = U(g());
    keys_in = buffer<U>::from_host(ctx, keys);
    keys_work = buffer<U>(ctx, n);
    keys_cub = buffer<U>(ctx, n);
    if constexpr (HasValues) {
      std::vector<W> values(static_cast<std::size_t>(n));
      for (std::size_t i = 0; i < values.size(); ++i) values[i] = W(i);
      values_in = buffer<W>::from_host(ctx, values);
      values_work = buffer<W>(ctx, n);
      values_cub = buffer<W>(ctx, n);
    }
  }

  cudaStream_t stream() const { return static_cast<cudaStream_t>(ctx.stream()); }

  cudaError_t cub_sort(void* temp, std::size_t& bytes) {
    if constexpr (HasValues)
      return cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in.data(), keys_cub.data(), values_in.data(),
                                             values_cub.data(), n, 0, int(sizeof(U) * 8), stream());
    else
      return cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in.data(), keys_cub.data(), n, 0,
                                            int(sizeof(U) * 8), stream());
  }

  void add_cub() {
    std::size_t bytes = 0;
    SWEEP_CHECK(cub_sort(nullptr, bytes));
    cub_temp = buffer<unsigned char>(ctx, std::int64_t(std::max<std::size_t>(bytes, 1)));
    contenders.push_back({"CUB DeviceRadixSort", [this, bytes] {
                            std::size_t b = bytes;
                            SWEEP_CHECK(cub_sort(cub_temp.data(), b));
                          },
                          [] {}, {}});
    facts.push_back("");
  }

  template <class Tile>
  void add_ours() {
    detail::sort_request r;
    r.keys = keys_work.data();
    r.values = HasValues ? static_cast<void*>(values_work.data()) : nullptr;
    r.n = n;
    r.key_bytes = int(sizeof(U));
    r.value_bytes = HasValues ? int(sizeof(W)) : 0;
    r.begin_bit = 0;
    r.end_bit = int(sizeof(U) * 8);
    const bool tuned = std::is_same_v<Tile, os::default_tile<U, W, HasValues>>;
    contenders.push_back({"ours " + std::to_string(Tile::threads) + " x " + std::to_string(Tile::items) +
                              ", >= " + std::to_string(Tile::min_blocks) + " blocks/SM" +
                              (tuned ? " (tuned)" : ""),
                          [this, r] { os::onesweep_sort<U, W, HasValues, Tile>(ctx, r, &ws, 0); },
                          [this] {
                            SWEEP_CHECK(cudaMemcpyAsync(keys_work.data(), keys_in.data(), keys_in.bytes(),
                                                        cudaMemcpyDeviceToDevice, stream()));
                            if constexpr (HasValues)
                              SWEEP_CHECK(cudaMemcpyAsync(values_work.data(), values_in.data(),
                                                          values_in.bytes(), cudaMemcpyDeviceToDevice,
                                                          stream()));
                          },
                          {}});
    facts.push_back(pass_kernel_facts<U, W, HasValues, Tile>());
  }

  // Our last result against CUB's, bit for bit; the time only counts where they agree.
  bool same_as_cub() const {
    if (keys_work.to_host() != keys_cub.to_host()) return false;
    if constexpr (HasValues) return values_work.to_host() == values_cub.to_host();
    return true;
  }

  bool run(const options& o) {
    cudaEvent_t start, stop;
    SWEEP_CHECK(cudaEventCreate(&start));
    SWEEP_CHECK(cudaEventCreate(&stop));
    bool all_same = true;
    std::vector<bool> same(contenders.size(), true);
    for (int round = 0; round < o.warmup + o.rounds; ++round) {
      for (std::size_t c = 0; c < contenders.size(); ++c) {
        contenders[c].restore();
        SWEEP_CHECK(cudaEventRecord(start, stream()));
        contenders[c].run();
        SWEEP_CHECK(cudaEventRecord(stop, stream()));
        SWEEP_CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        SWEEP_CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (round >= o.warmup) contenders[c].ms.push_back(ms);
        if (c > 0 && round + 1 == o.warmup + o.rounds) same[c] = same_as_cub();
      }
    }
    ctx.synchronize();
    SWEEP_CHECK(cudaEventDestroy(start));
    SWEEP_CHECK(cudaEventDestroy(stop));

    const float cub_ms = median_of(contenders[0].ms);
    std::printf("\n### %s, n = %lld (median of %d rounds after %d warm-up)\n\n", name.c_str(),
                static_cast<long long>(n), o.rounds, o.warmup);
    std::printf("| sort | median ms | min ms | CUB ms / this | same as CUB | pass kernel |\n");
    std::printf("|---|---|---|---|---|---|\n");
    for (std::size_t c = 0; c < contenders.size(); ++c) {
      const float med = median_of(contenders[c].ms);
      const float lo = *std::min_element(contenders[c].ms.begin(), contenders[c].ms.end());
      std::printf("| %s | %.4f | %.4f | %.3fx | %s | %s |\n", contenders[c].name.c_str(), med, lo,
                  cub_ms / med, c == 0 ? "-" : (same[c] ? "yes" : "NO"), facts[c].c_str());
      all_same = all_same && same[c];
    }
    std::fflush(stdout);
    return all_same;
  }
};

template <class U, class W, bool HasValues, class... Tiles>
bool sweep(const options& o, const std::string& name, std::int64_t n, std::tuple<Tiles...>) {
  if (!o.only.empty() && o.only != name) return true;
  sort_case<U, W, HasValues> c(name, n);
  c.add_cub();
  (c.template add_ours<Tiles>(), ...);
  return c.run(o);
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (i + 1 < argc && flag == "--rounds") o.rounds = std::max(1, std::atoi(argv[i + 1]));
    else if (i + 1 < argc && flag == "--warmup") o.warmup = std::max(1, std::atoi(argv[i + 1]));
    else if (i + 1 < argc && flag == "--case") o.only = argv[i + 1];
    else {
      std::fprintf(stderr, "usage: sort_sweep [--rounds N] [--warmup N] [--case keys32|keys32_big|pairs32|keys64]\n");
      return 2;
    }
  }
  if (!o.only.empty() && o.only != "keys32" && o.only != "keys32_big" && o.only != "pairs32" &&
      o.only != "keys64") {
    std::fprintf(stderr, "sort_sweep: unknown case %s\n", o.only.c_str());
    return 2;
  }
  try {
    bool ok = true;
    ok &= sweep<std::uint32_t, std::uint32_t, false>(o, "keys32", std::int64_t(1) << 27, keys32_tiles{});
    ok &= sweep<std::uint32_t, std::uint32_t, false>(o, "keys32_big", std::int64_t(1) << 28, keys32_tiles{});
    ok &= sweep<std::uint32_t, std::uint32_t, true>(o, "pairs32", std::int64_t(1) << 27, pairs32_tiles{});
    ok &= sweep<std::uint64_t, std::uint32_t, false>(o, "keys64", std::int64_t(1) << 27, keys64_tiles{});
    if (!ok) std::printf("\nSOME OUTPUT DIFFERS FROM CUB'S\n");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sort_sweep: %s\n", e.what());
    return 1;
  }
}
