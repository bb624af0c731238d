// What the one selection body (copy_if, partition, unstable_partition) writes, on every
// backend: the selected elements in input order at out[0..count), then
//   compact             nothing (copy_if)
//   stable_partition    the rejected ones in input order (partition)
//   reversed_partition  the rejected ones in reverse input order, the last rejected element
//                       at out[count] and the first at out[n - 1] (unstable_partition; the
//                       layout of cub::DevicePartition::If, which lets a single pass write
//                       both runs from the tile prefixes alone).
#pragma once

namespace parprim::detail {

enum class select_mode { compact, stable_partition, reversed_partition };

}  // namespace parprim::detail
