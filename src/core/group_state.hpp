// What a device_group shares between its copies: the ranks of this process, their contexts
// and their communicators.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "parprim/context.hpp"
#include "parprim/group.hpp"

namespace parprim::detail {

// Thrown in a rank whose collective was aborted because another rank failed: device_group::run
// reports the other rank's error instead.
struct peer_failure : error {
  using error::error;
};

struct group_state {
  std::string name;
  backend kind = backend::cpu;
  int size = 0;                      // ranks in the whole group
  std::vector<int> local_ranks;      // ranks driven by this process, ascending
  std::vector<context> contexts;     // one per local rank, same order
  std::vector<std::unique_ptr<communicator>> comms;  // one per local rank, same order

  // Index into local_ranks of `rank`, or -1.
  int local_index(int rank) const {
    for (std::size_t i = 0; i < local_ranks.size(); ++i)
      if (local_ranks[i] == rank) return static_cast<int>(i);
    return -1;
  }
};

}  // namespace parprim::detail
