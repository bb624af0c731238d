// The counting sort of 2-byte keys (radix_sort_counting.cuh) in one binary, no library build
// needed: the library's histogram, compaction and fill kernels with fill blocks of 1, 2, 4 and
// 8 parts (the tuning of wide_fill_max_parts and wide_fill_blocks_per_sm), against CUB's u16
// SortKeys over bits [0, 16) on the same input, for five key distributions. Each sort runs on
// a fresh copy of the input (the copy is not timed); every output must equal CUB's, and odd
// sizes (keys 16-byte aligned and 2 bytes off) are checked once each. Exit status 1 on any
// mismatch. `--max-log K` stops the sweep at 2^K keys and times 2 runs (a run under
// compute-sanitizer). From the repo root:
//   nvcc -std=c++17 -O3 --expt-relaxed-constexpr -Iinclude -Isrc -arch=sm_90 \
//     scripts/tune/counting_sort16_probe.cu -o probe_cs16 && ./probe_cs16
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "cuda/kernels/radix_sort_counting.cuh"
#include "probe_timing.cuh"

namespace cs = parprim::cuda_kernels::onesweep;

namespace {

const char* const distribution_names[] = {"uniform", "equal", "two", "distinct256", "mostly_one"};
constexpr int distributions = 5;

__global__ void make_keys(std::uint16_t* k, std::int64_t n, int distribution, unsigned seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    unsigned long long h = (unsigned long long)i * 0x9E3779B97F4A7C15ull + seed;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    const unsigned v = unsigned(h >> 20);
    switch (distribution) {
      case 0: k[i] = std::uint16_t(v); break;                        // every image, ~n/65536 each
      case 1: k[i] = 12345; break;                                    // one image
      case 2: k[i] = (v & 1) ? 0 : 65535; break;                      // the two extreme images
      case 3: k[i] = std::uint16_t((v & 0xff) * 257); break;          // 256 images, spread
      default: k[i] = v % 16 == 0 ? std::uint16_t(v >> 8) : 7; break;  // one image, the rest sparse
    }
  }
}

struct counting_sort {
  int sms = 0;
  unsigned char* temp = nullptr;
  std::size_t hist_bytes = 0, status_bytes = 0, zeroed_bytes = 0;
  unsigned long long* hist = nullptr;
  parprim::cuda_prim::tile_count_status status;
  unsigned* tile_counter = nullptr;
  long long* start = nullptr;
  std::uint16_t* image = nullptr;
  int* nonempty = nullptr;

  counting_sort() {
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    hist_bytes = cs::wide_images * sizeof(unsigned long long);
    status_bytes = parprim::cuda_prim::tile_count_status::bytes(cs::wide_compact_blocks);
    zeroed_bytes = hist_bytes + status_bytes + 256;
    const std::size_t start_bytes = (cs::wide_images + 1) * sizeof(long long) + 248;
    CK(cudaMalloc(&temp, zeroed_bytes + start_bytes + cs::wide_images * 2 + 256));
    hist = reinterpret_cast<unsigned long long*>(temp);
    status = parprim::cuda_prim::tile_count_status::bind(temp + hist_bytes, cs::wide_compact_blocks);
    tile_counter = reinterpret_cast<unsigned*>(temp + hist_bytes + status_bytes);
    start = reinterpret_cast<long long*>(temp + zeroed_bytes);
    image = reinterpret_cast<std::uint16_t*>(temp + zeroed_bytes + start_bytes);
    nonempty = reinterpret_cast<int*>(temp + zeroed_bytes + start_bytes + cs::wide_images * 2);
    CK(cudaFuncSetAttribute(cs::wide_histogram, cudaFuncAttributeMaxDynamicSharedMemorySize,
                            cs::wide_hist_shared_bytes));
  }
  ~counting_sort() { cudaFree(temp); }

  // The library's launch sequence (radix_sort_launch.cuh) with `parts` fixed.
  void run(std::uint16_t* keys, std::int64_t n, int parts) const {
    const cs::key_params kp{parprim::detail::key_kind::unsigned_int, false};
    CK(cudaMemsetAsync(temp, 0, zeroed_bytes));
    const std::int64_t pairs =
        std::max<std::int64_t>(1, std::min<std::int64_t>(sms / 2, (n + 8191) / 8192));
    cs::wide_histogram<<<unsigned(2 * pairs), cs::wide_hist_threads, cs::wide_hist_shared_bytes>>>(
        keys, n, kp, hist);
    cs::wide_compact<<<cs::wide_compact_blocks, cs::wide_compact_threads>>>(hist, status, tile_counter,
                                                                             start, image, nonempty, n, kp);
    const std::int64_t block_keys = std::int64_t(cs::wide_fill_part) * parts;
    cs::wide_fill<<<unsigned((n + block_keys - 1) / block_keys), cs::wide_fill_threads>>>(
        start, image, nonempty, n, parts, keys);
    CK(cudaGetLastError());
  }
};

std::vector<std::uint16_t> to_host(const std::uint16_t* d, std::int64_t n) {
  std::vector<std::uint16_t> h(n);
  CK(cudaMemcpy(h.data(), d, n * 2, cudaMemcpyDeviceToHost));
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  int max_log = 28;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--max-log")) max_log = std::atoi(argv[i + 1]);
  const int reps = max_log < 28 ? 2 : 20;
  const std::int64_t max_n = std::int64_t(1) << max_log;
  std::uint16_t *in, *keys, *cub_out;
  CK(cudaMalloc(&in, max_n * 2));
  CK(cudaMalloc(&keys, max_n * 2 + 16));
  CK(cudaMalloc(&cub_out, max_n * 2));
  std::size_t cub_bytes = 0;
  CK(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in, cub_out, int(max_n), 0, 16));
  void* cub_temp;
  CK(cudaMalloc(&cub_temp, cub_bytes));
  const counting_sort sort;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const int part_counts[4] = {1, 2, 4, 8};
  bool all_match = true;

  std::printf("whole sort, ms (median of %d), fill blocks of 1 / 2 / 4 / 8 parts, CUB\n", reps);
  std::printf("%-11s %5s | %8s %8s %8s %8s | %8s | %s\n", "keys", "log2n", "1", "2", "4", "8", "CUB", "outputs");
  for (int d = 0; d < distributions; ++d)
    for (int lg = 16; lg <= max_log; lg += 2) {
      const std::int64_t n = std::int64_t(1) << lg;
      make_keys<<<1024, 256>>>(in, n, d, 7u + lg);
      CK(cub::DeviceRadixSort::SortKeys(cub_temp, cub_bytes, in, cub_out, int(n), 0, 16));
      const auto want = to_host(cub_out, n);
      std::vector<float> t[5];
      bool match = true;
      for (int r = 0; r < reps; ++r) {
        for (int v = 0; v < 5; ++v) {
          CK(cudaMemcpy(keys, in, n * 2, cudaMemcpyDeviceToDevice));
          CK(cudaEventRecord(e0));
          if (v < 4) sort.run(keys, n, part_counts[v]);
          else CK(cub::DeviceRadixSort::SortKeys(cub_temp, cub_bytes, in, cub_out, int(n), 0, 16));
          CK(cudaEventRecord(e1));
          CK(cudaEventSynchronize(e1));
          float ms;
          CK(cudaEventElapsedTime(&ms, e0, e1));
          t[v].push_back(ms);
          if (r == 0 && v < 4) match = match && to_host(keys, n) == want;
        }
      }
      all_match = all_match && match;
      float med[5];
      for (int v = 0; v < 5; ++v) {
        std::sort(t[v].begin(), t[v].end());
        med[v] = t[v][t[v].size() / 2];
      }
      std::printf("%-11s %5d | %8.4f %8.4f %8.4f %8.4f | %8.4f | %s\n", distribution_names[d], lg, med[0],
                  med[1], med[2], med[3], med[4], match ? "= CUB" : "MISMATCH");
    }

  for (int d = 0; d < distributions; ++d)
    for (std::int64_t n : {2LL, 7LL, 2047LL, 2049LL, 100003LL, (1LL << 20) + 12345})
      for (int offset : {0, 1})
        for (int parts : {1, 4}) {
          if (n > max_n) continue;
          make_keys<<<1024, 256>>>(in, n, d, 99u);
          CK(cub::DeviceRadixSort::SortKeys(cub_temp, cub_bytes, in, cub_out, int(n), 0, 16));
          CK(cudaMemcpy(keys + offset, in, n * 2, cudaMemcpyDeviceToDevice));
          sort.run(keys + offset, n, parts);
          if (to_host(keys + offset, n) != to_host(cub_out, n)) {
            all_match = false;
            std::printf("MISMATCH: %s, n=%lld, %d bytes off, %d parts\n", distribution_names[d], (long long)n,
                        2 * offset, parts);
          }
        }
  std::printf("odd sizes: %s\n", all_match ? "every output = CUB" : "MISMATCHES");
  return all_match ? 0 : 1;
}
