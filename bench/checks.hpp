// Output checks of the bench suites: our output against the yardstick's (CUB or Thrust on the
// GPU, the sequential oracle on the CPU), copied to the host outside every timed region. Keys, counts, lengths and positions must be identical; f32 sums within a tolerance.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "engine.hpp"
#include "parprim/parprim.hpp"
#include "reference/reduce_scan_ref.hpp"
#include "reference/same_bits.hpp"

namespace parprim::bench {

// f32 sums of the same terms in another order (CUB's tiles, our look-back, the oracle's one
// loop) legitimately round differently. Each is within (m - 1) 2^-24 sum|x| of the exact sum of
// its m terms (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., eq. 4.4), so
// two of them are within 2 (m - 1) 2^-24 sum|x| of each other: under 1e-3 sum|x| for every
// m <= 8192 (all runs and segments of the fixed shapes). Longer sums (the power-law and
// one-segment shapes) err like a random walk, about sqrt(m) 2^-24 sum|x|: measured on the CPU,
// 3.7e-5 sum|x| for one segment of 2^22 and 1.3e-4 for 2^25. Except the oracle's one loop: its
// f32 total of values in [0, 1) stops growing at 2^24 (each term is under half an ulp), so for
// one segment of 2^26 it is half the true sum. A sum therefore passes when it is within
// sum_tolerance * sum|x| of the yardstick's, or of the sum taken in double. (Our CPU scans
// accumulated from the running total too, and failed this check for one segment of 2^26, until
// they folded within each block: cpu/by_key.hpp's folds_within_block.)
inline constexpr double sum_tolerance = 1e-3;

// Each value's sum and sum|x|, taken in double.
struct double_sums {
  std::vector<double> exact, magnitude;
};

// An output check's result: matches 1 or 0 (NaN: nothing compared), and for f32 sums the
// largest |ours - theirs| / sum|x| seen (NaN: no sums compared).
struct verdict {
  double matches = std::numeric_limits<double>::quiet_NaN();
  double max_rel_diff = std::numeric_limits<double>::quiet_NaN();
};

inline verdict exact(bool same) { return {same ? 1.0 : 0.0, std::numeric_limits<double>::quiet_NaN()}; }

// ours[i] against theirs[i] and the sum in double (exact, magnitude) for i = 0, 1, ... in turn
// (theirs null: against the sum alone, where there is no yardstick's output, e.g. on the CPU,
// where the oracle is the sum in double itself). Sums past `count` are not compared.
class sums_comparison {
 public:
  sums_comparison(const float* ours, const float* theirs, std::int64_t count)
      : ours_(ours), theirs_(theirs), count_(count) {}
  void operator()(double exact, double magnitude) {
    if (i_ < count_) {
      const double got = double(ours_[i_]);
      const double diff = std::fabs(got - (theirs_ ? double(theirs_[i_]) : exact));
      const double bound = sum_tolerance * magnitude;
      // NaN fails both.
      if (!(diff <= bound) && !(std::fabs(got - exact) <= bound)) ok_ = false;
      if (magnitude > 0) max_rel_diff_ = std::max(max_rel_diff_, diff / magnitude);
    }
    ++i_;
  }
  verdict result() const { return {ok_ ? 1.0 : 0.0, max_rel_diff_}; }

 private:
  const float* ours_;
  const float* theirs_;
  std::int64_t count_;
  std::int64_t i_ = 0;
  bool ok_ = true;
  double max_rel_diff_ = 0;
};

// ours[i] against theirs[i] (and d.exact[i]) for i < count, as sums_comparison says.
inline verdict compare_sums(const float* ours, const float* theirs, const double_sums& d, std::int64_t count) {
  sums_comparison compare(ours, theirs, count);
  for (std::int64_t i = 0; i < count; ++i) compare(d.exact[std::size_t(i)], d.magnitude[std::size_t(i)]);
  return compare.result();
}

// The verdict's figures in a row: `figure` and "max_rel_diff", where they were compared.
inline void record_check(row& r, const char* figure, const verdict& v) {
  if (!std::isnan(v.matches)) r.extra[figure] = v.matches;
  if (!std::isnan(v.max_rel_diff)) r.extra["max_rel_diff"] = v.max_rel_diff;
}
// The same under check_figure(): against CUB or Thrust on the GPU, the oracle on the CPU.
inline void record_check(row& r, bool on_gpu, const verdict& v) { record_check(r, check_figure(on_gpu), v); }

using reference::same_bits;

// The first `count` elements of a buffer (all of it where count is larger), on the host.
template <class T>
std::vector<T> head(const context& ctx, const buffer<T>& b, std::int64_t count) {
  std::vector<T> v(std::size_t(std::max<std::int64_t>(0, std::min(count, b.size()))));
  if (!v.empty()) ctx.copy_to_host(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

// Which sums of x a check compares: the total, or every exclusive or inclusive prefix.
enum class sums_of { total, exclusive_prefixes, inclusive_prefixes };

// Calls keep(sum, magnitude) with the sum in double (and the sum of |x|) of each segment
// [offsets[s], offsets[s+1]) (total), or of each element's exclusive or inclusive prefix
// within its segment (an exclusive prefix of a segment's first element is 0, with magnitude
// 0: the scans' init there must be exact), in order.
template <class Keep>
void for_each_segment_sum(const std::vector<float>& x, const std::vector<std::int64_t>& offsets,
                          sums_of k, Keep&& keep) {
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    double sum = 0, magnitude = 0;
    for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
      if (k == sums_of::exclusive_prefixes) keep(sum, magnitude);
      sum += double(x[std::size_t(i)]);
      magnitude += std::fabs(double(x[std::size_t(i)]));
      if (k == sums_of::inclusive_prefixes) keep(sum, magnitude);
    }
    if (k == sums_of::total) keep(sum, magnitude);
  }
}

// The sums of for_each_segment_sum, kept (for the totals, one per segment, that several
// checks share).
inline double_sums sums_in_double(const std::vector<float>& x, const std::vector<std::int64_t>& offsets,
                                  sums_of k) {
  double_sums d;
  const std::size_t count = k == sums_of::total ? offsets.size() : x.size();
  d.exact.reserve(count);
  d.magnitude.reserve(count);
  for_each_segment_sum(x, offsets, k, [&d](double sum, double magnitude) {
    d.exact.push_back(sum);
    d.magnitude.push_back(magnitude);
  });
  return d;
}

// ours[i] (and theirs[i]) against the sums of for_each_segment_sum, taken as the walk goes:
// the prefix checks hold no vector of n doubles (two of them took 4 GiB of host memory at 2^28
// elements). `count`: the sums ours holds; a different number of sums fails.
inline verdict compare_segment_sums(const float* ours, const float* theirs, std::int64_t count,
                                    const std::vector<float>& x,
                                    const std::vector<std::int64_t>& offsets, sums_of k) {
  const std::int64_t sums = k == sums_of::total ? std::int64_t(offsets.size()) - 1 : std::int64_t(x.size());
  if (count != sums) return exact(false);
  sums_comparison compare(ours, theirs, count);
  for_each_segment_sum(x, offsets, k, compare);
  return compare.result();
}

// The offsets of the runs of equal keys (0, each run's start, keys.size()).
template <class K>
std::vector<std::int64_t> run_offsets(const std::vector<K>& keys) {
  std::vector<std::int64_t> o{0};
  for (std::size_t i = 1; i < keys.size(); ++i)
    if (!(keys[i - 1] == keys[i])) o.push_back(std::int64_t(i));
  if (!keys.empty()) o.push_back(std::int64_t(keys.size()));
  return o;
}

// ours (one element for the total, x.size() for prefixes) against the sequential definition:
// integers exactly (wrapping, as the library's contract), f32 within sum_tolerance * sum|x| of
// the sums taken in double, accumulated as it goes (no vector of n doubles).
template <class T>
verdict check_sums(const std::vector<T>& x, const std::vector<T>& ours, sums_of k) {
  const std::int64_t n = std::int64_t(x.size());
  if (ours.size() != (k == sums_of::total ? std::size_t(1) : x.size())) return exact(false);
  if constexpr (std::is_integral_v<T>) {
    std::vector<T> want(ours.size());
    if (k == sums_of::total) want[0] = reference::sequential_sum(x.data(), n);
    else if (k == sums_of::exclusive_prefixes) reference::sequential_exclusive_sum(x.data(), want.data(), n);
    else reference::sequential_inclusive_sum(x.data(), want.data(), n);
    return exact(ours == want);
  } else {
    double sum = 0, magnitude = 0, max_rel_diff = 0;
    bool ok = true;
    auto compare = [&](T got) {
      const double diff = std::fabs(double(got) - sum);
      if (!(diff <= sum_tolerance * magnitude)) ok = false;  // NaN fails
      if (magnitude > 0) max_rel_diff = std::max(max_rel_diff, diff / magnitude);
    };
    for (std::int64_t i = 0; i < n; ++i) {
      if (k == sums_of::exclusive_prefixes) compare(ours[std::size_t(i)]);
      sum += double(x[std::size_t(i)]);
      magnitude += std::fabs(double(x[std::size_t(i)]));
      if (k == sums_of::inclusive_prefixes) compare(ours[std::size_t(i)]);
    }
    if (k == sums_of::total) compare(ours[0]);
    return {ok ? 1.0 : 0.0, max_rel_diff};
  }
}

// The first count elements of a and b are equal (and both hold that many).
template <class T>
bool same_prefix(const std::vector<T>& a, const std::vector<T>& b, std::int64_t count) {
  return count >= 0 && std::int64_t(a.size()) >= count && std::int64_t(b.size()) >= count &&
         std::equal(a.begin(), a.begin() + count, b.begin());
}

}  // namespace parprim::bench
