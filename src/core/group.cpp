// device_group: construction of CPU and CUDA groups, and the one-thread-per-rank driver.
#include "parprim/group.hpp"

#include <cstdlib>
#include <exception>
#include <set>
#include <thread>

#include "core/group_state.hpp"
#include "cpu/comm_inprocess.hpp"
#if PARPRIM_HAVE_NCCL
#include "cuda/nccl_comm.hpp"
#endif

namespace parprim {

namespace {

[[noreturn]] void fail(const std::string& who, const std::string& what,
                       errc code = errc::invalid_argument) {
  throw error(code, "parprim::device_group::" + who + ": " + what);
}

void require_nccl(const char* who) {
  if (!device_group::nccl_built())
    fail(who, "this build of parprim has no NCCL, so GPU groups are off (CPU groups work)",
         errc::backend_unavailable);
}

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  long x = std::strtol(v, &end, 10);
  if (*end != '\0') fail("cuda_process_from_env", std::string(name) + "='" + v + "' is not a number");
  return static_cast<int>(x);
}

}  // namespace

namespace detail {

rank_workers::rank_workers(int ranks) {
  for (int i = 1; i < ranks; ++i) threads_.emplace_back([this, i] { loop(i); });
}

rank_workers::~rank_workers() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (auto& t : threads_) t.join();
}

void rank_workers::run_all(const std::function<void(int)>& job) {
  std::lock_guard<std::mutex> one_run(run_mutex_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    pending_ = static_cast<int>(threads_.size());
    ++generation_;
  }
  start_.notify_all();
  job(0);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return pending_ == 0; });
  job_ = nullptr;
}

void rank_workers::loop(int i) {
  long long seen = 0;
  for (;;) {
    const std::function<void(int)>* job = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
    }
    (*job)(i);
    std::lock_guard<std::mutex> lock(mutex_);
    if (--pending_ == 0) done_.notify_one();
  }
}

}  // namespace detail

bool device_group::nccl_built() {
#if PARPRIM_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

device_group device_group::cpu(int ranks, int threads_per_rank) {
  if (ranks < 1) fail("cpu", "ranks=" + std::to_string(ranks) + " must be at least 1");
  if (threads_per_rank < 0)
    fail("cpu", "threads_per_rank=" + std::to_string(threads_per_rank) + " is negative");
  auto s = std::make_shared<detail::group_state>();
  s->name = "cpu x" + std::to_string(ranks);
  s->kind = backend::cpu;
  s->size = ranks;
  for (int r = 0; r < ranks; ++r) {
    s->local_ranks.push_back(r);
    s->contexts.push_back(context::cpu(threads_per_rank));
  }
  s->comms = cpu_backend::make_inprocess_comms(ranks);
  if (ranks > 1) s->workers = std::make_unique<detail::rank_workers>(ranks);
  return device_group(std::move(s));
}

device_group device_group::cuda(const std::vector<int>& devices) {
  if (devices.empty()) fail("cuda", "no devices listed");
  const int available = context::cuda_device_count();
  std::set<int> seen;
  for (int d : devices) {
    if (d < 0 || d >= available)
      fail("cuda", "device " + std::to_string(d) + " does not exist (" + std::to_string(available) +
                       " CUDA devices answer)",
           errc::backend_unavailable);
    if (!seen.insert(d).second) fail("cuda", "device " + std::to_string(d) + " is listed twice");
  }
  require_nccl("cuda");
  auto s = std::make_shared<detail::group_state>();
  s->name = "cuda{";
  for (std::size_t i = 0; i < devices.size(); ++i)
    s->name += (i ? "," : "") + std::to_string(devices[i]);
  s->name += "}";
  s->kind = backend::cuda;
  s->size = static_cast<int>(devices.size());
  for (std::size_t r = 0; r < devices.size(); ++r) {
    s->local_ranks.push_back(static_cast<int>(r));
    s->contexts.push_back(context::cuda(devices[r]));
  }
#if PARPRIM_HAVE_NCCL
  s->comms = cuda_rt::make_nccl_comms(s->contexts);
#endif
  if (s->size > 1) s->workers = std::make_unique<detail::rank_workers>(s->size);
  return device_group(std::move(s));
}

device_group device_group::cuda_process(int rank, int ranks, int device,
                                        const std::string& id_source) {
  if (ranks < 1 || rank < 0 || rank >= ranks)
    fail("cuda_process", "rank=" + std::to_string(rank) + " is not in [0, ranks=" +
                             std::to_string(ranks) + ")");
  const int available = context::cuda_device_count();
  if (device < 0 || device >= available)
    fail("cuda_process", "device " + std::to_string(device) + " does not exist (" +
                             std::to_string(available) + " CUDA devices answer)",
         errc::backend_unavailable);
  require_nccl("cuda_process");
  auto s = std::make_shared<detail::group_state>();
  s->name = "cuda rank " + std::to_string(rank) + "/" + std::to_string(ranks);
  s->kind = backend::cuda;
  s->size = ranks;
  s->local_ranks.push_back(rank);
  s->contexts.push_back(context::cuda(device));
#if PARPRIM_HAVE_NCCL
  s->comms.push_back(cuda_rt::make_nccl_process_comm(s->contexts[0], rank, ranks, id_source));
#else
  (void)id_source;
#endif
  return device_group(std::move(s));
}

device_group device_group::cuda_process_from_env() {
  const int rank = env_int("PARPRIM_RANK", -1);
  const int ranks = env_int("PARPRIM_RANKS", -1);
  const int gpus = context::cuda_device_count();
  const int device = env_int("PARPRIM_DEVICE", gpus > 0 && rank >= 0 ? rank % gpus : 0);
  const char* id = std::getenv("PARPRIM_NCCL_ID");
  if (rank < 0 || ranks < 1 || !id)
    fail("cuda_process_from_env", "set PARPRIM_RANK, PARPRIM_RANKS and PARPRIM_NCCL_ID "
                                  "(file:PATH or hex:ID)");
  return cuda_process(rank, ranks, device, id);
}

std::string device_group::nccl_unique_id_hex() {
  require_nccl("nccl_unique_id_hex");
#if PARPRIM_HAVE_NCCL
  return cuda_rt::nccl_unique_id_hex();
#else
  return {};
#endif
}

int device_group::size() const { return state_->size; }
int device_group::local_size() const { return static_cast<int>(state_->local_ranks.size()); }
int device_group::local_rank(int i) const { return state_->local_ranks.at(static_cast<std::size_t>(i)); }
bool device_group::is_local(int rank) const { return state_->local_index(rank) >= 0; }
backend device_group::kind() const { return state_->kind; }
const std::string& device_group::name() const { return state_->name; }

const context& device_group::ctx(int rank) const {
  int i = state_->local_index(rank);
  if (i < 0) fail("ctx", "rank " + std::to_string(rank) + " is not a rank of this process");
  return state_->contexts[static_cast<std::size_t>(i)];
}

communicator& device_group::comm(int rank) const {
  int i = state_->local_index(rank);
  if (i < 0) fail("comm", "rank " + std::to_string(rank) + " is not a rank of this process");
  return *state_->comms[static_cast<std::size_t>(i)];
}

void device_group::run(const std::function<void(int rank)>& f) const {
  const int n = local_size();
  if (n == 1) {
    f(state_->local_ranks[0]);
    return;
  }
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n));
  std::vector<char> from_peer(static_cast<std::size_t>(n), 0);
  auto body = [&](int i) {
    const int rank = state_->local_ranks[static_cast<std::size_t>(i)];
    try {
      f(rank);
    } catch (const detail::peer_failure&) {
      errors[static_cast<std::size_t>(i)] = std::current_exception();
      from_peer[static_cast<std::size_t>(i)] = 1;
    } catch (...) {
      errors[static_cast<std::size_t>(i)] = std::current_exception();
      comm(rank).abort();
    }
  };
  state_->workers->run_all(body);
  bool failed = false;
  for (auto& e : errors) failed = failed || e;
  if (failed)
    for (int i = 0; i < n; ++i) comm(state_->local_ranks[static_cast<std::size_t>(i)]).recover();
  for (int i = 0; i < n; ++i)
    if (errors[static_cast<std::size_t>(i)] && !from_peer[static_cast<std::size_t>(i)])
      std::rethrow_exception(errors[static_cast<std::size_t>(i)]);
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

void device_group::synchronize() const {
  for (const auto& c : state_->contexts) c.synchronize();
}

std::vector<std::int64_t> even_counts(std::int64_t n, int ranks) {
  if (ranks < 1 || n < 0)
    throw error(errc::invalid_argument, "parprim::even_counts: n=" + std::to_string(n) +
                                            ", ranks=" + std::to_string(ranks));
  std::vector<std::int64_t> c(static_cast<std::size_t>(ranks), n / ranks);
  for (std::int64_t r = 0; r < n % ranks; ++r) c[static_cast<std::size_t>(r)] += 1;
  return c;
}

}  // namespace parprim
