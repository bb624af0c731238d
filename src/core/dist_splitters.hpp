// Exact splitters of the distributed sort.
//
// Output slice r must hold global ranks [offset(r), offset(r) + count(r)) of the stable order
// (key, source rank, source position). For a global rank b (a target) we need c_s(b): how
// many of rank s's sorted keys come before b. Let F(v) be the number of keys, over all ranks,
// whose ordered field is <= v. The target's key is the smallest v with F(v) >= b, found by a
// (1 + fanout)-ary search over the field's range: each round every rank counts its keys at or
// below `fanout` candidates per target (binary searches in its sorted slice), one allgather
// sums them, and every rank narrows the same interval. Keys below v all go before b; of the
// keys equal to v, the lowest ranks' go first, which is what stability asks for.
#pragma once

#include <cstdint>
#include <vector>

#include "core/dist_local.hpp"
#include "parprim/group.hpp"
#include "parprim/span.hpp"

namespace parprim::detail {

// c[b * P + s] = c_s(targets[b]) for every target b (global ranks, each in [0, total]) and
// every rank s, from rank r's sorted slice and every rank's count. The same on every rank;
// every rank of g calls it together (it runs collectives).
template <class K>
std::vector<std::int64_t> exact_splits(const device_group& g, int r, span<const K> sorted,
                                       const std::vector<std::int64_t>& counts,
                                       const std::vector<std::int64_t>& targets, key_order order);

}  // namespace parprim::detail
