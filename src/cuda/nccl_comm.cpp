// The NCCL communicator: collectives on each rank's context stream.
//
// allgatherv is one ncclAllGather when every rank gives the same byte count, else one
// ncclBroadcast per root inside a group call (NCCL has no allgatherv), and
// alltoallv one ncclSend/ncclRecv pair per other peer inside a group call (the rank's own part
// is a local device copy): NCCL schedules the
// pairs together, over NVLink (or PCIe, or the network) as the topology allows. alltoallv
// runs on the stream of the context it is given (any of the rank's device), so that an
// exchange can overlap work on the rank's own stream. Host values travel through a small
// device buffer.
#include "cuda/nccl_comm.hpp"

#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <thread>

#include "parprim/cuda/detail/check.hpp"

namespace parprim::cuda_rt {

namespace {

// NVLink multicast stays off in every program (see nccl_comm.hpp), whatever the environment.
void disable_nvls() { setenv("NCCL_NVLS_ENABLE", "0", 1); }

void nccl_check(ncclResult_t r, const std::string& ctx_name, const char* who, const char* what) {
  if (r != ncclSuccess && r != ncclInProgress)
    throw error(errc::device_error, std::string("parprim::") + who + " [" + ctx_name + "]: " +
                                        what + " failed: " + ncclGetErrorString(r));
}

#define PARPRIM_NCCL_CHECK(ctx_name, who, call) nccl_check((call), (ctx_name), (who), #call)

cudaStream_t stream_of(const context& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }

// The communicators this process created together. They are finalized and destroyed together
// in one group call once the last of them is released: with several communicators driven by
// one thread, NCCL wants that (one by one, the first finalize could wait for the others).
struct nccl_clique {
  std::vector<ncclComm_t> comms;
  std::vector<context> ctxs;
  ~nccl_clique() {
    for (auto& c : ctxs) {
      cudaSetDevice(c.device());
      cudaStreamSynchronize(stream_of(c));
    }
    ncclGroupStart();
    for (auto c : comms) ncclCommFinalize(c);
    ncclGroupEnd();
    for (auto c : comms) ncclCommDestroy(c);
  }
};

class nccl_comm final : public communicator {
 public:
  nccl_comm(std::shared_ptr<nccl_clique> clique, int index, int rank, int size)
      : clique_(std::move(clique)),
        comm_(clique_->comms[static_cast<std::size_t>(index)]),
        ctx_(clique_->ctxs[static_cast<std::size_t>(index)]),
        rank_(rank),
        size_(size) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const char* kind() const override { return "nccl"; }

  void allgather_host(const void* mine, void* all, std::size_t bytes) override {
    const char* who = "communicator::allgather_host";
    use_device(who);
    const std::size_t total = bytes * static_cast<std::size_t>(size_);
    void* staging = ctx_.allocate(total);
    try {
      char* slot = static_cast<char*>(staging) + bytes * static_cast<std::size_t>(rank_);
      ctx_.copy_from_host(slot, mine, bytes);
      PARPRIM_NCCL_CHECK(ctx_.name(), who,
                         ncclAllGather(slot, staging, bytes, ncclUint8, comm_, stream_of(ctx_)));
      ctx_.synchronize();  // wait here, not inside the pageable copy below
      ctx_.copy_to_host(all, staging, total);
    } catch (...) {
      ctx_.deallocate(staging, total);
      throw;
    }
    ctx_.deallocate(staging, total);
  }

  void allgatherv(const context& ctx, const void* send, void* recv,
                  const std::vector<std::size_t>& bytes) override {
    const char* who = "communicator::allgatherv";
    check_ctx(ctx, bytes, who);
    use_device(who);
    // Equal parts: one collective instead of P broadcasts (the distributed reduce and scans
    // exchange one total per rank this way, in place).
    const bool equal_parts =
        std::all_of(bytes.begin(), bytes.end(), [&](std::size_t b) { return b == bytes[0]; });
    if (equal_parts && bytes[0] > 0) {
      PARPRIM_NCCL_CHECK(ctx_.name(), who,
                         ncclAllGather(send, recv, bytes[0], ncclUint8, comm_, stream_of(ctx_)));
      return;
    }
    std::size_t offset = 0;
    PARPRIM_NCCL_CHECK(ctx_.name(), who, ncclGroupStart());
    for (int root = 0; root < size_; ++root) {
      if (bytes[root] > 0)
        PARPRIM_NCCL_CHECK(ctx_.name(), who,
                           ncclBroadcast(root == rank_ ? send : nullptr,
                                         static_cast<char*>(recv) + offset, bytes[root], ncclUint8,
                                         root, comm_, stream_of(ctx_)));
      offset += bytes[root];
    }
    PARPRIM_NCCL_CHECK(ctx_.name(), who, ncclGroupEnd());
  }

  void alltoallv_at(const context& ctx, const void* send, const std::vector<std::size_t>& send_offsets,
                    const std::vector<std::size_t>& send_bytes, void* recv,
                    const std::vector<std::size_t>& recv_offsets,
                    const std::vector<std::size_t>& recv_bytes) override {
    const char* who = "communicator::alltoallv";
    check_device(ctx, who);
    check_counts(send_offsets, who);
    check_counts(send_bytes, who);
    check_counts(recv_offsets, who);
    check_counts(recv_bytes, who);
    use_device(who);
    // The rank's own part is a device-to-device copy, not a send to itself: NCCL would move
    // it through the same channels as the remote parts, at their rate. Queued first on the
    // same stream, it costs about one pass over its bytes at HBM speed.
    if (send_bytes[rank_] != recv_bytes[rank_])
      throw error(errc::invalid_argument, std::string("parprim::") + who + " [" + ctx_.name() +
                                              "]: sends " + std::to_string(send_bytes[rank_]) +
                                              " bytes to itself but expects " +
                                              std::to_string(recv_bytes[rank_]));
    if (send_bytes[rank_] > 0)
      check(cudaMemcpyAsync(static_cast<char*>(recv) + recv_offsets[rank_],
                            static_cast<const char*>(send) + send_offsets[rank_], send_bytes[rank_],
                            cudaMemcpyDeviceToDevice, stream_of(ctx)),
            ctx_.name(), who, "cudaMemcpyAsync");
    PARPRIM_NCCL_CHECK(ctx_.name(), who, ncclGroupStart());
    for (int peer = 0; peer < size_; ++peer) {
      if (peer == rank_) continue;
      if (send_bytes[peer] > 0)
        PARPRIM_NCCL_CHECK(ctx_.name(), who,
                           ncclSend(static_cast<const char*>(send) + send_offsets[peer],
                                    send_bytes[peer], ncclUint8, peer, comm_, stream_of(ctx)));
      if (recv_bytes[peer] > 0)
        PARPRIM_NCCL_CHECK(ctx_.name(), who,
                           ncclRecv(static_cast<char*>(recv) + recv_offsets[peer], recv_bytes[peer],
                                    ncclUint8, peer, comm_, stream_of(ctx)));
    }
    PARPRIM_NCCL_CHECK(ctx_.name(), who, ncclGroupEnd());
  }

 private:
  void use_device(const char* who) const {
    check(cudaSetDevice(ctx_.device()), ctx_.name(), who, "cudaSetDevice");
  }
  void check_ctx(const context& ctx, const std::vector<std::size_t>& counts, const char* who) const {
    if (&ctx.state() != &ctx_.state())
      throw error(errc::invalid_argument, std::string("parprim::") + who + " [" + ctx_.name() +
                                              "]: called with " + ctx.name() +
                                              ", not this rank's context");
    check_counts(counts, who);
  }
  // Any stream of this rank's device will do.
  void check_device(const context& ctx, const char* who) const {
    if (ctx.kind() != backend::cuda || ctx.device() != ctx_.device())
      throw error(errc::invalid_argument, std::string("parprim::") + who + " [" + ctx_.name() +
                                              "]: called with " + ctx.name() +
                                              ", not a context of this rank's device");
  }
  void check_counts(const std::vector<std::size_t>& counts, const char* who) const {
    if (static_cast<int>(counts.size()) != size_)
      throw error(errc::invalid_argument, std::string("parprim::") + who + " [" + ctx_.name() +
                                              "]: " + std::to_string(counts.size()) +
                                              " byte counts for " + std::to_string(size_) + " ranks");
  }

  std::shared_ptr<nccl_clique> clique_;
  ncclComm_t comm_;
  context ctx_;
  int rank_, size_;
};

ncclUniqueId id_from_hex(const std::string& hex) {
  ncclUniqueId id;
  if (hex.size() != 2 * sizeof(id.internal))
    throw error(errc::invalid_argument, "parprim::device_group::cuda_process: an NCCL id is " +
                                            std::to_string(2 * sizeof(id.internal)) +
                                            " hex digits, got " + std::to_string(hex.size()));
  for (std::size_t i = 0; i < sizeof(id.internal); ++i)
    id.internal[i] = static_cast<char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  return id;
}

std::string id_to_hex(const ncclUniqueId& id) {
  std::string hex;
  char b[3];
  for (std::size_t i = 0; i < sizeof(id.internal); ++i) {
    std::snprintf(b, sizeof b, "%02x", static_cast<unsigned char>(id.internal[i]));
    hex += b;
  }
  return hex;
}

// "file:PATH": rank 0 creates the id and publishes it by renaming a finished file into place;
// the others wait up to a minute for it. "hex:ID": the id itself.
ncclUniqueId id_from_source(const std::string& source, int rank) {
  const char* who = "parprim::device_group::cuda_process";
  if (source.rfind("hex:", 0) == 0) return id_from_hex(source.substr(4));
  if (source.rfind("file:", 0) != 0)
    throw error(errc::invalid_argument, std::string(who) + ": id source '" + source +
                                            "' is neither file:PATH nor hex:ID");
  const std::string path = source.substr(5);
  if (rank == 0) {
    ncclUniqueId id;
    nccl_check(ncclGetUniqueId(&id), "cuda", "device_group::cuda_process", "ncclGetUniqueId");
    const std::string tmp = path + ".tmp";
    std::ofstream(tmp) << id_to_hex(id) << "\n";
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
      throw error(errc::io_error, std::string(who) + ": cannot write the NCCL id to " + path);
    return id;
  }
  for (int tries = 0; tries < 600; ++tries) {
    std::ifstream in(path);
    std::string hex;
    if (in >> hex) return id_from_hex(hex);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  throw error(errc::io_error, std::string(who) + ": rank " + std::to_string(rank) +
                                  " found no NCCL id in " + path + " after 60 s");
}

}  // namespace

std::vector<std::unique_ptr<communicator>> make_nccl_comms(const std::vector<context>& ctxs) {
  disable_nvls();
  const int n = static_cast<int>(ctxs.size());
  std::vector<int> devices(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) devices[r] = ctxs[r].device();
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(n));
  nccl_check(ncclCommInitAll(comms.data(), n, devices.data()), ctxs[0].name(),
             "device_group::cuda", "ncclCommInitAll");
  auto clique = std::make_shared<nccl_clique>();
  clique->comms = comms;
  clique->ctxs = ctxs;
  std::vector<std::unique_ptr<communicator>> out;
  for (int r = 0; r < n; ++r) out.push_back(std::make_unique<nccl_comm>(clique, r, r, n));
  return out;
}

std::unique_ptr<communicator> make_nccl_process_comm(const context& ctx, int rank, int ranks,
                                                     const std::string& id_source) {
  disable_nvls();
  const ncclUniqueId id = id_from_source(id_source, rank);
  check(cudaSetDevice(ctx.device()), ctx.name(), "device_group::cuda_process", "cudaSetDevice");
  ncclComm_t comm;
  nccl_check(ncclCommInitRank(&comm, ranks, id, rank), ctx.name(), "device_group::cuda_process",
             "ncclCommInitRank");
  auto clique = std::make_shared<nccl_clique>();
  clique->comms = {comm};
  clique->ctxs = {ctx};
  return std::make_unique<nccl_comm>(clique, 0, rank, ranks);
}

std::string nccl_unique_id_hex() {
  disable_nvls();
  ncclUniqueId id;
  nccl_check(ncclGetUniqueId(&id), "cuda", "device_group::nccl_unique_id_hex", "ncclGetUniqueId");
  return id_to_hex(id);
}

}  // namespace parprim::cuda_rt
