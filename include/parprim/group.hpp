// device_group, communicator and dist_buffer: the primitives across several devices.
//
// A device_group is a set of ranks, each with its own context (one stream and caching
// allocator per GPU), joined by a communicator. Two communicators exist:
//   - NCCL, for CUDA groups (device_group::cuda in one process, device_group::cuda_process with
//     one process per GPU, on one host or several);
//   - in-process, for CPU groups (device_group::cpu): ranks are threads that exchange through
//     shared memory, so the distributed algorithms run and are tested without a GPU.
// The distributed algorithms (parprim/distributed.hpp) are written once against the
// communicator interface, in SPMD style: every rank runs the same code on its own slice.
//
// A dist_buffer<T> holds one slice per rank (sizes may differ, zero included); element i of
// the distributed array lives on the rank whose [offset, offset + count) holds i.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "parprim/buffer.hpp"
#include "parprim/context.hpp"
#include "parprim/error.hpp"

namespace parprim {

// The collectives the distributed algorithms need, seen from one rank. Every rank of the
// group must make the same calls in the same order (as with MPI or NCCL).
class communicator {
 public:
  virtual ~communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual const char* kind() const = 0;  // "in-process" or "nccl"

  // Host memory, blocking: every rank gives `bytes` bytes; `all` receives size() * bytes,
  // rank r's contribution at r * bytes.
  virtual void allgather_host(const void* mine, void* all, std::size_t bytes) = 0;
  // Backend memory of this rank's context (stream-ordered on CUDA): rank r's bytes[r] bytes
  // from `send` land at offset bytes[0] + ... + bytes[r-1] of `recv` on every rank.
  virtual void allgatherv(const context& ctx, const void* send, void* recv,
                          const std::vector<std::size_t>& bytes) = 0;
  // Backend memory (stream-ordered on CUDA): send_bytes[d] bytes go to rank d, taken from
  // `send` at byte send_offsets[d]; recv_bytes[s] bytes arrive from rank s, placed in `recv`
  // at byte recv_offsets[s]. ctx may be any context on this rank's device (on CUDA the
  // exchange is queued on its stream, so it can run beside work on the rank's own stream).
  virtual void alltoallv_at(const context& ctx, const void* send,
                            const std::vector<std::size_t>& send_offsets,
                            const std::vector<std::size_t>& send_bytes, void* recv,
                            const std::vector<std::size_t>& recv_offsets,
                            const std::vector<std::size_t>& recv_bytes) = 0;
  // alltoallv_at with the parts packed in rank order in `send` and in `recv`.
  void alltoallv(const context& ctx, const void* send, const std::vector<std::size_t>& send_bytes,
                 void* recv, const std::vector<std::size_t>& recv_bytes) {
    alltoallv_at(ctx, send, packed_offsets(send_bytes), send_bytes, recv,
                 packed_offsets(recv_bytes), recv_bytes);
  }
  // Wakes every rank blocked in a collective with an error, so that one failing rank does
  // not leave the others waiting forever; recover() makes the communicator usable again once
  // no rank is inside a collective. The in-process communicator implements both. NCCL has no
  // safe equivalent short of destroying the communicator, so the algorithms check every
  // argument before their first collective and fail on all ranks alike.
  virtual void abort() noexcept {}
  virtual void recover() noexcept {}

  // Where each part starts when parts of these sizes lie one after another.
  static std::vector<std::size_t> packed_offsets(const std::vector<std::size_t>& bytes) {
    std::vector<std::size_t> off(bytes.size(), 0);
    for (std::size_t i = 1; i < bytes.size(); ++i) off[i] = off[i - 1] + bytes[i - 1];
    return off;
  }

  // Typed convenience: one value per rank, in rank order.
  template <class V>
  std::vector<V> allgather(const V& mine) {
    std::vector<V> all(static_cast<std::size_t>(size()));
    allgather_host(&mine, all.data(), sizeof(V));
    return all;
  }
};

namespace detail {
struct group_state;
}

class device_group {
 public:
  // `ranks` simulated ranks in this process, each a CPU context of `threads_per_rank`
  // OpenMP threads, joined by the in-process communicator.
  static device_group cpu(int ranks, int threads_per_rank = 1);
  // One rank per listed GPU, all driven by this process (one host thread per GPU during a
  // call), joined by NCCL. Throws errc::backend_unavailable without CUDA, NCCL or the devices.
  static device_group cuda(const std::vector<int>& devices);
  // One process per GPU: this process is rank `rank` of `ranks`, on GPU `device`. NCCL's
  // unique id comes from `id_source`: "file:PATH" (rank 0 writes it, the others wait for the
  // file; PATH on a file system every host sees) or "hex:..." (the id itself, from
  // nccl_unique_id_hex() on rank 0, passed through the environment or a launcher).
  static device_group cuda_process(int rank, int ranks, int device, const std::string& id_source);
  // cuda_process from PARPRIM_RANK, PARPRIM_RANKS, PARPRIM_DEVICE (default: rank modulo the
  // GPUs of this host) and PARPRIM_NCCL_ID (as id_source above).
  static device_group cuda_process_from_env();
  // A fresh NCCL unique id as hex text (for "hex:" above).
  static std::string nccl_unique_id_hex();

  static bool nccl_built();  // the library was compiled with NCCL

  int size() const;        // ranks in the whole group
  int local_size() const;  // ranks driven by this process
  int local_rank(int i) const;  // the i-th rank of this process
  bool is_local(int rank) const;
  backend kind() const;
  const context& ctx(int rank) const;     // rank must be local
  communicator& comm(int rank) const;     // rank must be local
  const std::string& name() const;        // "cpu x3", "cuda{0,1}", "cuda rank 1/2"

  // Runs f(rank) for every local rank, one host thread per rank when there are several (the
  // calling thread and threads the group keeps for its lifetime), and waits for all. If a rank
  // throws, the others are woken (in-process) and the first error that is not a consequence
  // of another rank's failure is rethrown. Calls on one group run one at a time; f must not
  // call run on its own group.
  void run(const std::function<void(int rank)>& f) const;
  // Synchronizes every local context.
  void synchronize() const;

  bool same_as(const device_group& o) const { return state_ == o.state_; }

 private:
  explicit device_group(std::shared_ptr<detail::group_state> s) : state_(std::move(s)) {}
  std::shared_ptr<detail::group_state> state_;
};

// How two GPUs of this host reach each other, as the CUDA runtime reports it (no NVML):
// peer access (cudaDeviceCanAccessPeer), native atomics over the link and the runtime's
// relative performance rank (cudaDeviceGetP2PAttribute). Native peer atomics are offered
// over NVLink and not over PCIe, which is how `link` is told apart.
struct gpu_link {
  int a = 0, b = 0;
  bool peer_access = false;
  bool native_atomics = false;
  int performance_rank = -1;
  const char* link() const {
    return !peer_access ? "no peer access (through host memory)" : native_atomics ? "NVLink" : "PCIe";
  }
};
// Every pair a < b of this host's GPUs; empty without CUDA or with fewer than two GPUs.
std::vector<gpu_link> gpu_links();

// Slice sizes that split n elements as evenly as possible (the first n % ranks get one more).
std::vector<std::int64_t> even_counts(std::int64_t n, int ranks);

template <class T>
class dist_buffer {
 public:
  // counts[r]: elements on rank r, for every rank of the group (the same list on every
  // process). Slices are allocated on the local ranks' contexts, uninitialized.
  dist_buffer(const device_group& g, std::vector<std::int64_t> counts)
      : group_(g), counts_(std::move(counts)) {
    if (static_cast<int>(counts_.size()) != g.size())
      throw error(errc::invalid_argument, "parprim::dist_buffer [" + g.name() + "]: " +
                                              std::to_string(counts_.size()) +
                                              " slice sizes for a group of " +
                                              std::to_string(g.size()) + " ranks");
    offsets_.assign(counts_.size() + 1, 0);
    for (std::size_t r = 0; r < counts_.size(); ++r) {
      if (counts_[r] < 0)
        throw error(errc::invalid_argument, "parprim::dist_buffer [" + g.name() + "]: counts[" +
                                                std::to_string(r) + "] is negative");
      offsets_[r + 1] = offsets_[r] + counts_[r];
    }
    slices_.resize(counts_.size());
    for (int i = 0; i < g.local_size(); ++i) {
      int r = g.local_rank(i);
      slices_[r] = buffer<T>(g.ctx(r), counts_[r]);
    }
  }
  // The local ranks' parts of `all` (the whole array, on the host), copied to their slices.
  static dist_buffer from_host(const device_group& g, const std::vector<T>& all,
                               std::vector<std::int64_t> counts) {
    dist_buffer d(g, std::move(counts));
    if (d.size() != static_cast<std::int64_t>(all.size()))
      throw error(errc::invalid_argument, "parprim::dist_buffer::from_host [" + g.name() +
                                              "]: counts add up to " + std::to_string(d.size()) +
                                              " but the host array has " +
                                              std::to_string(all.size()) + " elements");
    for (int i = 0; i < g.local_size(); ++i) {
      int r = g.local_rank(i);
      d.slices_[r].copy_from_host(all.data() + d.offsets_[r], d.counts_[r]);
    }
    return d;
  }
  // The whole array on the host; every rank must be local (a one-process group).
  std::vector<T> to_host() const {
    if (group_.local_size() != group_.size())
      throw error(errc::invalid_argument, "parprim::dist_buffer::to_host [" + group_.name() +
                                              "]: not every rank lives in this process");
    std::vector<T> all(static_cast<std::size_t>(size()));
    for (int r = 0; r < group_.size(); ++r) slices_[r].copy_to_host(all.data() + offsets_[r], counts_[r]);
    return all;
  }

  // Puts `b` in place of rank r's slice: b must have the slice's size and live on the
  // group's context of rank r.
  void replace_slice(int r, buffer<T>&& b) {
    local_check(r, "replace_slice");
    if (&b.ctx().state() != &group_.ctx(r).state())
      throw error(errc::invalid_argument, "parprim::dist_buffer::replace_slice [" + group_.name() +
                                              "]: the buffer lives on " + b.ctx().name() +
                                              ", not on rank " + std::to_string(r) + "'s " +
                                              group_.ctx(r).name());
    if (b.size() != counts_[r])
      throw error(errc::invalid_argument, "parprim::dist_buffer::replace_slice [" + group_.name() +
                                              "]: b.size()=" + std::to_string(b.size()) +
                                              " but rank " + std::to_string(r) + " holds " +
                                              std::to_string(counts_[r]));
    slices_[r] = std::move(b);
  }

  buffer<T>& slice(int r) { local_check(r, "slice"); return slices_[r]; }
  const buffer<T>& slice(int r) const { local_check(r, "slice"); return slices_[r]; }
  std::int64_t count(int r) const { return counts_.at(r); }
  std::int64_t offset(int r) const { return offsets_.at(r); }
  const std::vector<std::int64_t>& counts() const { return counts_; }
  std::int64_t size() const { return offsets_.back(); }
  const device_group& group() const { return group_; }

 private:
  void local_check(int r, const char* what) const {
    if (r < 0 || r >= group_.size() || !group_.is_local(r))
      throw error(errc::invalid_argument, std::string("parprim::dist_buffer::") + what + " [" +
                                              group_.name() + "]: rank " + std::to_string(r) +
                                              " is not a rank of this process");
  }

  device_group group_;
  std::vector<std::int64_t> counts_;
  std::vector<std::int64_t> offsets_;
  std::vector<buffer<T>> slices_;
};

}  // namespace parprim
