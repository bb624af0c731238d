// In-process communicator: every collective is publish, barrier, copy, barrier.
//
// Each rank publishes the addresses (and byte counts) of its send buffers in its slot, waits
// until every rank has, copies what it receives straight out of the other ranks' buffers
// into its own, and waits again so that no rank reuses its slot or frees a send buffer while
// another is still reading it. Copies run on the receiving rank's thread.
#include "cpu/comm_inprocess.hpp"

#include "core/group_state.hpp"

#include <condition_variable>
#include <cstring>
#include <mutex>
#include <numeric>
#include <string>

namespace parprim::cpu_backend {

namespace {

struct slot {
  const void* send = nullptr;
  const std::vector<std::size_t>* send_offsets = nullptr;
  const std::vector<std::size_t>* send_bytes = nullptr;
};

// The rendezvous all ranks share: a generation-counting barrier that can be aborted.
class hub {
 public:
  explicit hub(int ranks) : ranks_(ranks), slots_(static_cast<std::size_t>(ranks)) {}

  void barrier(int rank) {
    std::unique_lock<std::mutex> lock(mutex_);
    throw_if_aborted(rank);
    const long long generation = generation_;
    if (++arrived_ == ranks_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return generation_ != generation || aborted_; });
    throw_if_aborted(rank);
  }
  void abort() noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    aborted_ = true;
    cv_.notify_all();
  }
  void recover() noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    aborted_ = false;
    arrived_ = 0;
    ++generation_;
  }
  slot& at(int rank) { return slots_[static_cast<std::size_t>(rank)]; }
  int ranks() const { return ranks_; }

 private:
  void throw_if_aborted(int rank) const {
    if (aborted_)
      throw detail::peer_failure(errc::invalid_argument, "parprim::communicator [in-process rank " +
                                              std::to_string(rank) +
                                              "]: another rank of the group failed");
  }

  const int ranks_;
  std::vector<slot> slots_;
  std::mutex mutex_;
  std::condition_variable cv_;
  int arrived_ = 0;
  long long generation_ = 0;
  bool aborted_ = false;
};

std::vector<std::size_t> exclusive_offsets(const std::vector<std::size_t>& bytes) {
  std::vector<std::size_t> off(bytes.size() + 1, 0);
  std::partial_sum(bytes.begin(), bytes.end(), off.begin() + 1);
  return off;
}

class inprocess_comm final : public communicator {
 public:
  inprocess_comm(std::shared_ptr<hub> h, int rank) : hub_(std::move(h)), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return hub_->ranks(); }
  const char* kind() const override { return "in-process"; }

  void allgather_host(const void* mine, void* all, std::size_t bytes) override {
    hub_->at(rank_).send = mine;
    hub_->barrier(rank_);
    for (int r = 0; r < size(); ++r)
      std::memcpy(static_cast<char*>(all) + r * bytes, hub_->at(r).send, bytes);
    hub_->barrier(rank_);
  }

  void allgatherv(const context&, const void* send, void* recv,
                  const std::vector<std::size_t>& bytes) override {
    check_counts(bytes, "allgatherv");
    hub_->at(rank_).send = send;
    hub_->barrier(rank_);
    const auto off = exclusive_offsets(bytes);
    for (int r = 0; r < size(); ++r) {
      char* dst = static_cast<char*>(recv) + off[r];
      // In place (a rank's own part already sits where it belongs) is allowed.
      if (bytes[r] > 0 && dst != hub_->at(r).send) std::memcpy(dst, hub_->at(r).send, bytes[r]);
    }
    hub_->barrier(rank_);
  }

  void alltoallv_at(const context&, const void* send, const std::vector<std::size_t>& send_offsets,
                    const std::vector<std::size_t>& send_bytes, void* recv,
                    const std::vector<std::size_t>& recv_offsets,
                    const std::vector<std::size_t>& recv_bytes) override {
    check_counts(send_offsets, "alltoallv");
    check_counts(send_bytes, "alltoallv");
    check_counts(recv_offsets, "alltoallv");
    check_counts(recv_bytes, "alltoallv");
    hub_->at(rank_).send = send;
    hub_->at(rank_).send_offsets = &send_offsets;
    hub_->at(rank_).send_bytes = &send_bytes;
    hub_->barrier(rank_);
    bool consistent = true;
    for (int s = 0; s < size(); ++s) {
      const auto& theirs = *hub_->at(s).send_bytes;
      if (theirs[rank_] != recv_bytes[s]) {
        consistent = false;
        continue;
      }
      if (recv_bytes[s] > 0)
        std::memcpy(static_cast<char*>(recv) + recv_offsets[s],
                    static_cast<const char*>(hub_->at(s).send) + (*hub_->at(s).send_offsets)[rank_],
                    recv_bytes[s]);
    }
    if (!consistent) {
      hub_->abort();
      throw error(errc::invalid_argument,
                  "parprim::communicator::alltoallv [in-process rank " + std::to_string(rank_) +
                      "]: recv_bytes disagree with what the other ranks send");
    }
    hub_->barrier(rank_);
  }

  void abort() noexcept override { hub_->abort(); }
  void recover() noexcept override { hub_->recover(); }

 private:
  void check_counts(const std::vector<std::size_t>& v, const char* who) const {
    if (static_cast<int>(v.size()) != size()) {
      hub_->abort();
      throw error(errc::invalid_argument, std::string("parprim::communicator::") + who +
                                              " [in-process rank " + std::to_string(rank_) +
                                              "]: " + std::to_string(v.size()) +
                                              " byte counts for " + std::to_string(size()) +
                                              " ranks");
    }
  }

  std::shared_ptr<hub> hub_;
  int rank_;
};

}  // namespace

std::vector<std::unique_ptr<communicator>> make_inprocess_comms(int ranks) {
  auto h = std::make_shared<hub>(ranks);
  std::vector<std::unique_ptr<communicator>> comms;
  for (int r = 0; r < ranks; ++r) comms.push_back(std::make_unique<inprocess_comm>(h, r));
  return comms;
}

}  // namespace parprim::cpu_backend
