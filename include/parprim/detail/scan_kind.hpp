// What a scan writes: the three forms every scan body (CPU, CUDA, the course's CUDA scans)
// runs, named once for all of them.
//   exclusive:            out[i] = init op x[0] op ... op x[i-1]
//   inclusive:            out[i] = x[0] op ... op x[i]               (no init: none is needed)
//   inclusive_from_init:  out[i] = init op x[0] op ... op x[i]
// The last continues a scan: a slice of a longer array scanned from the total of what came
// before it (the distributed inclusive scan's ranks after the first, a stream of chunks).
#pragma once

namespace parprim::detail {

enum class scan_kind { exclusive, inclusive, inclusive_from_init };

// Whether out[i] includes x[i].
constexpr bool includes_own(scan_kind k) { return k != scan_kind::exclusive; }
// Whether the scan starts from init (the first element's prefix exists).
constexpr bool starts_from_init(scan_kind k) { return k != scan_kind::inclusive; }

}  // namespace parprim::detail
