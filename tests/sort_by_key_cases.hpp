// radix_sort_by_key against std::stable_sort on the extracted image, shared by the g++ test
// (CPU backend) and the nvcc one (both backends): 16-byte records sorted by a u32 field with
// few distinct values (stability), by an 8-, 16- and 64-bit image, both orders, sizes around
// the Onesweep tiles of 4- and 8-byte words.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "merge_sort_cases.hpp"  // record
#include "parprim/sort_by_key.hpp"

namespace parprim::sort_by_key_cases {

using merge_sort_cases::record;

struct key_field {
  PARPRIM_HOST_DEVICE std::uint32_t operator()(const record& r) const { return r.key; }
};
struct low_byte {
  PARPRIM_HOST_DEVICE std::uint8_t operator()(const record& r) const { return std::uint8_t(r.payload); }
};
struct low_half {
  PARPRIM_HOST_DEVICE std::uint16_t operator()(const record& r) const { return std::uint16_t(r.payload >> 7); }
};
struct payload {
  PARPRIM_HOST_DEVICE std::uint64_t operator()(const record& r) const { return r.payload; }
};

inline std::vector<std::int64_t> sizes() {
  std::vector<std::int64_t> v = {0, 1, 2, 33};
  for (std::int64_t tile : {384 * 23, 384 * 12})
    for (std::int64_t n : {tile - 1, tile, tile + 1, 2 * tile + 1}) v.push_back(n);
  v.push_back(100'003);
  v.erase(std::remove_if(v.begin(), v.end(), [](std::int64_t n) { return n > testing::max_test_size(); }),
          v.end());
  return v;
}

template <class KeyOf>
void check(const context& ctx, const std::vector<record>& in, KeyOf key_of, sort_order order,
           const std::string& where) {
  std::vector<record> want = in;
  const bool down = order == sort_order::descending;
  std::stable_sort(want.begin(), want.end(), [&](const record& a, const record& b) {
    return down ? key_of(b) < key_of(a) : key_of(a) < key_of(b);
  });
  // Without a workspace, then twice with one: the sort's temporaries and those of the radix
  // sort it calls share it (the second call finds it grown to both, held at once).
  workspace ws(ctx);
  for (workspace* w : {static_cast<workspace*>(nullptr), &ws, &ws}) {
    auto b = buffer<record>::from_host(ctx, in);
    radix_sort_by_key(ctx, span<record>(b.data(), b.size()), key_of, order, w);
    std::vector<record> got = b.to_host();
    std::int64_t bad = 0;
    for (std::size_t i = 0; i < want.size(); ++i)
      if (!merge_sort_cases::same_bytes(got[i], want[i]) && bad++ < 3)
        ADD_FAILURE() << where << (w ? " (workspace)" : "") << ": [" << i << "] tag " << got[i].tag
                      << " want " << want[i].tag;
    EXPECT_EQ(bad, 0) << where << (w ? " (workspace)" : "");
  }
}

inline void every_case(const context& ctx, std::uint64_t seed) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (std::int64_t n : sizes())
    for (sort_order o : {sort_order::ascending, sort_order::descending}) {
      const std::string at = ctx.name() + " n=" + std::to_string(n) + " " + to_string(o);
      auto few = merge_sort_cases::make_records(n, seed + std::uint64_t(n) * 2 + int(o), 6);
      check(ctx, few, key_field{}, o, at + " u32 field, 6 distinct");
      check(ctx, few, low_byte{}, o, at + " u8 image");
      check(ctx, few, low_half{}, o, at + " u16 image");
      check(ctx, few, payload{}, o, at + " u64 image");
    }
}

}  // namespace parprim::sort_by_key_cases
