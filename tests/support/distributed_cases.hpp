// Shared by the distributed tests: the groups to run on (CPU groups of 1-4 in-process ranks
// everywhere; NCCL groups of 2-4 GPUs where that many answer) and the slicings to try.
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "parprim/distributed.hpp"
#include "support/test_support.hpp"

namespace parprim::testing {

struct group_case {
  backend kind;
  int ranks;
};

inline std::string group_case_name(const ::testing::TestParamInfo<group_case>& info) {
  return std::string(to_string(info.param.kind)) + "_" + std::to_string(info.param.ranks);
}

inline std::vector<group_case> all_group_cases() {
  return {{backend::cpu, 1}, {backend::cpu, 2}, {backend::cpu, 3}, {backend::cpu, 4},
          {backend::cuda, 2}, {backend::cuda, 3}, {backend::cuda, 4}};
}

// The group for a case, or a reason to skip.
inline bool group_available(const group_case& c, std::string& why) {
  if (c.kind == backend::cpu) return true;
  if (!device_group::nccl_built()) {
    why = "built without NCCL";
    return false;
  }
  if (context::cuda_device_count() < c.ranks) {
    why = "fewer than " + std::to_string(c.ranks) + " GPUs";
    return false;
  }
  return true;
}

inline device_group make_group(const group_case& c) {
  if (c.kind == backend::cpu) return device_group::cpu(c.ranks);
  std::vector<int> devices(static_cast<std::size_t>(c.ranks));
  for (int r = 0; r < c.ranks; ++r) devices[static_cast<std::size_t>(r)] = r;
  return device_group::cuda(devices);
}

// The single context that results are compared with: the backend of the group's ranks.
inline context reference_context(const group_case& c) {
  return c.kind == backend::cuda ? context::cuda(0) : context::cpu();
}

enum class slicing { even, uneven, with_empty, all_on_one };

inline const char* to_string(slicing s) {
  switch (s) {
    case slicing::even: return "even";
    case slicing::uneven: return "uneven";
    case slicing::with_empty: return "with_empty";
    default: return "all_on_one";
  }
}

inline std::vector<slicing> all_slicings() {
  return {slicing::even, slicing::uneven, slicing::with_empty, slicing::all_on_one};
}

// Slice sizes adding up to n over `ranks` ranks.
inline std::vector<std::int64_t> slice_counts(std::int64_t n, int ranks, slicing s,
                                              std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<std::int64_t> c(static_cast<std::size_t>(ranks), 0);
  switch (s) {
    case slicing::even:
      return even_counts(n, ranks);
    case slicing::uneven: {
      // Random cut points.
      std::vector<std::int64_t> cuts{0, n};
      std::uniform_int_distribution<std::int64_t> d(0, n);
      for (int r = 1; r < ranks; ++r) cuts.push_back(d(g));
      std::sort(cuts.begin(), cuts.end());
      for (int r = 0; r < ranks; ++r) c[r] = cuts[r + 1] - cuts[r];
      return c;
    }
    case slicing::with_empty: {
      // Rank 0 and the last rank empty (when there are more than two), the rest even.
      if (ranks <= 2) {
        c[static_cast<std::size_t>(ranks - 1)] = n;
        return c;
      }
      auto mid = even_counts(n, ranks - 2);
      for (int r = 1; r < ranks - 1; ++r) c[r] = mid[r - 1];
      return c;
    }
    default:
      c[static_cast<std::size_t>(ranks / 2)] = n;
      return c;
  }
}

template <class T>
std::vector<T> part(const std::vector<T>& all, const std::vector<std::int64_t>& counts, int r) {
  std::int64_t off = 0;
  for (int k = 0; k < r; ++k) off += counts[k];
  return std::vector<T>(all.begin() + off, all.begin() + off + counts[r]);
}

inline std::vector<std::int64_t> distributed_sizes() {
  std::vector<std::int64_t> all{0, 1, 7, 1000, 70'001};
  std::vector<std::int64_t> out;
  for (auto n : all)
    if (n <= max_test_size()) out.push_back(n);
  return out;
}

template <class T>
void expect_bits_equal(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      ADD_FAILURE() << what << ": first difference at " << i << ": " << got[i] << " vs " << want[i];
      return;
    }
}

}  // namespace parprim::testing
