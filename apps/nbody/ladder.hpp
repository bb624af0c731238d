// `parprim nbody --ladder` and `parprim bench nbody`: the course's tuning ladder for the force
// computation, each step a separate kernel run on the same bodies, timed and checked against
// a double-precision oracle, with the GPU Gems 3 tiled kernel as the yardstick; and on the
// CPU, the backend's blocked SIMD loop against the obvious OpenMP loop.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "body_system.hpp"

namespace parprim::nbody {

enum class rung {
  // The seed's steps, in order.
  one_thread, n_threads, scalar_arrays, constant_params, rsqrtf, two_loops, shared_blocking,
  loop_unrolling, if_elimination, fma_order, unroll_128, fast_math,
  // Beyond the seed.
  float4_tiles,       // one 16-byte body per shared slot
  register_blocking,  // the production kernel: 8 bodies per thread (2 in double), one slice
  j_slices,           // ... with the j range sliced so that small n still fills the GPU
  equal_mass,         // ... with the mass factored out (every body of the same mass)
  // The yardstick.
  gems3_tiled,
};
const char* to_string(rung r);
std::vector<rung> all_rungs();
// The step named `name` (as to_string prints it); nullopt when there is none.
std::optional<rung> rung_named(const std::string& name);

// The bodies in every layout the rungs use, on a CUDA context. eps must be > 0 (the steps
// from if_elimination on rely on softening to make the i == j term zero).
class gpu_ladder {
 public:
  gpu_ladder(const context& ctx, const body_set<float>& bodies, float eps);
  ~gpu_ladder();
  gpu_ladder(const gpu_ladder&) = delete;
  gpu_ladder& operator=(const gpu_ladder&) = delete;

  bool applicable(rung r) const;       // equal_mass needs bodies of equal mass
  std::string configuration(rung r) const;  // threads, blocking, slices
  void run(rung r);                    // queues one force evaluation
  accel_set<float> result(rung r);     // the accelerations of the last run(r), to the host
  void poison();                       // fills every output with NaN (tests)

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

struct ladder_options {
  std::int64_t n = std::int64_t(1) << 18;
  double eps = 0.01;
  std::uint64_t seed = 1;
  int warmup = 1;
  int max_repetitions = 20;
  double budget_ms = 1500;             // per row: fewer repetitions for slow steps
  std::int64_t one_thread_n = 2048;    // the one-thread kernel runs on this many bodies
  std::int64_t cpu_n = 1 << 15;        // CPU rows on min(n, cpu_n) bodies; 0: none
  bool gpu = true;                     // GPU rows (needs a CUDA context)
  bool step_only = false;              // GPU: only the whole step against the forces alone
  std::vector<rung> only;              // GPU rows to run (empty: every applicable step)
};

struct ladder_row {
  std::string name, where, configuration;
  std::int64_t n_run = 0;              // bodies the step ran on
  double ms = 0;                       // one force evaluation, scaled to the table's n
  double interactions_per_s = 0;
  double gflops = 0;                   // 20 flops per interaction
  double vs_previous = 0;              // speedup over the row before (0: none)
  double vs_yardstick = 0;             // yardstick time / this time (0: none)
  double field_error = 0, worst_error = 0;  // vs the double oracle on sample bodies
  bool yardstick = false;
};

struct ladder_report {
  std::int64_t n = 0;
  std::string device;
  std::vector<ladder_row> gpu, cpu;
  // The whole production step (kick, drift, forces, kick) against the force kernel alone.
  double step_ms = 0, force_ms = 0;
};

// Runs the ladder on ctx (GPU rows when ctx is CUDA and opts.gpu) plus the CPU rows.
ladder_report run_ladder(const context& ctx, const ladder_options& opts);
void print_ladder(const ladder_report& report, std::ostream& out);

// Interactions per force evaluation (n^2, the self term included as the kernels compute it).
inline double interactions(std::int64_t n) { return double(n) * double(n); }

}  // namespace parprim::nbody
