// The course's work-efficient scan (Blelloch): an up-sweep builds partial sums up a balanced
// tree in shared memory, the root is replaced by the identity, and a down-sweep pushes
// prefixes back down, giving an exclusive scan of 2 * Threads elements in O(n) work.
//
// ConflictFree adds the tutorial's padding (GPU Gems 3, ch. 39.2.3): element i lives at
// i + (i >> log2(banks)), one padding slot per row of 128 bytes of shared memory. The tree's
// strided accesses (stride 2, 4, 8, ...) would otherwise land many threads of a warp on the
// same bank; the padding shifts each row by one slot and spreads them. The padded variant also
// loads elements t and t + Threads (the tutorial's ai/bi), so global loads are coalesced,
// where the plain one keeps the lecture's 2t and 2t + 1.
//
// Same interface as hillis_steele_block_kernel: block-local scan (start in front when
// apply_start), block total in block_sums[blockIdx.x]. In place is safe for the same reason.
#pragma once

#include <cstdint>

namespace parprim::cuda_kernels {

template <class T>
constexpr int bank_row_shift() {  // log2(elements per 128-byte row of 32 four-byte banks)
  return sizeof(T) == 8 ? 4 : 5;
}

template <class T, bool ConflictFree>
__device__ __forceinline__ int smem_index(int i) {
  if constexpr (ConflictFree) return i + (i >> bank_row_shift<T>());
  else return i;
}

template <class T, class Op, int Threads, bool ConflictFree>
__global__ void __launch_bounds__(Threads)
    blelloch_block_kernel(const T* in, T* out, std::int64_t n, T* block_sums, bool inclusive,
                          bool apply_start, T start) {
  constexpr int elements = 2 * Threads;
  constexpr int slots = ConflictFree ? elements + (elements >> bank_row_shift<T>()) : elements;
  __shared__ T temp[slots];
  __shared__ T total;
  Op op;
  const int t = threadIdx.x;
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * elements;
  auto at = [](int i) { return smem_index<T, ConflictFree>(i); };

  // ---- Load two elements per thread.
  const int ai = ConflictFree ? t : 2 * t;
  const int bi = ConflictFree ? t + Threads : 2 * t + 1;
  const T xa = base + ai < n ? in[base + ai] : Op::identity();
  const T xb = base + bi < n ? in[base + bi] : Op::identity();
  temp[at(ai)] = xa;
  temp[at(bi)] = xb;

  // ---- Up-sweep (reduce): after level d, node k * 2^(d+1) - 1 holds its subtree's total.
  int offset = 1;
  for (int d = elements >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      const int a = offset * (2 * t + 1) - 1;
      const int b = offset * (2 * t + 2) - 1;
      temp[at(b)] = op(temp[at(a)], temp[at(b)]);
    }
    offset <<= 1;
  }

  // ---- Keep the block total and clear the root. Thread 0 did the last up-sweep step itself.
  if (t == 0) {
    total = temp[at(elements - 1)];
    temp[at(elements - 1)] = Op::identity();
  }

  // ---- Down-sweep: each node passes its prefix to its left child and prefix op left-sum to
  // its right child.
  for (int d = 1; d < elements; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      const int a = offset * (2 * t + 1) - 1;
      const int b = offset * (2 * t + 2) - 1;
      const T left = temp[at(a)];
      temp[at(a)] = temp[at(b)];
      temp[at(b)] = op(temp[at(b)], left);
    }
  }
  __syncthreads();

  // ---- Write: the tree gives the exclusive scan; inclusive adds the element itself.
  T ya = temp[at(ai)];
  T yb = temp[at(bi)];
  if (inclusive) {
    ya = op(ya, xa);
    yb = op(yb, xb);
  }
  if (apply_start) {
    ya = op(start, ya);
    yb = op(start, yb);
  }
  if (base + ai < n) out[base + ai] = ya;
  if (base + bi < n) out[base + bi] = yb;
  if (block_sums != nullptr && t == 0) block_sums[blockIdx.x] = total;
}

}  // namespace parprim::cuda_kernels
