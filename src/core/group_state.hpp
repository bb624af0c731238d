// What a device_group shares between its copies: the ranks of this process, their contexts
// and their communicators.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "parprim/context.hpp"
#include "parprim/group.hpp"

namespace parprim::detail {

// Thrown in a rank whose collective was aborted because another rank failed: device_group::run
// reports the other rank's error instead.
struct peer_failure : error {
  using error::error;
};

// Host threads for local ranks 1 .. n-1, kept for the group's lifetime: starting n-1 threads
// in every call costs tens of microseconds each, against about a millisecond for a 2^32
// reduce split over 4 GPUs. One run at a time per group (a second caller waits).
class rank_workers {
 public:
  explicit rank_workers(int ranks);
  ~rank_workers();
  rank_workers(const rank_workers&) = delete;
  rank_workers& operator=(const rank_workers&) = delete;
  // job(i) for every i in [0, ranks): i = 0 on the calling thread, the others on the workers;
  // returns when all are done. job must not throw.
  void run_all(const std::function<void(int)>& job);

 private:
  void loop(int i);
  std::mutex run_mutex_;  // one run_all at a time
  std::mutex mutex_;
  std::condition_variable start_, done_;
  const std::function<void(int)>* job_ = nullptr;
  long long generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

struct group_state {
  std::string name;
  backend kind = backend::cpu;
  int size = 0;                      // ranks in the whole group
  std::vector<int> local_ranks;      // ranks driven by this process, ascending
  std::vector<context> contexts;     // one per local rank, same order
  std::vector<std::unique_ptr<communicator>> comms;  // one per local rank, same order
  // Last, so that the workers stop before the communicators and contexts go.
  std::unique_ptr<rank_workers> workers;  // null with one local rank

  // Index into local_ranks of `rank`, or -1.
  int local_index(int rank) const {
    for (std::size_t i = 0; i < local_ranks.size(); ++i)
      if (local_ranks[i] == rank) return static_cast<int>(i);
    return -1;
  }
};

}  // namespace parprim::detail
