// `parprim info`: the backends built in, and for each GPU what the course's device query shows.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "parprim/context.hpp"
#include "parprim/device_info.hpp"
#include "parprim/group.hpp"

namespace parprim::cli {

// Device groups: whether NCCL is built in, and how each pair of GPUs is linked.
static void print_groups() {
  std::cout << "\n  device groups: " << (device_group::nccl_built() ? "NCCL built in" : "no NCCL in this build (CPU groups only)") << "\n";
  for (const auto& l : gpu_links())
    std::cout << "    GPU " << l.a << " <-> GPU " << l.b << ": " << l.link()
              << (l.peer_access ? ", peer access" : "") << ", performance rank "
              << l.performance_rank << "\n";
}

static void print_info() {
  std::cout << "parprim backends\n";
  std::cout << "  cpu : OpenMP, " << context::cpu().threads() << " threads\n";
  if (!context::cuda_built()) {
    std::cout << "  cuda: not built (no nvcc when this build was configured)\n";
    print_groups();
    return;
  }
  auto devices = cuda_devices();
  std::cout << "  cuda: built in (" << cuda_versions() << "), " << devices.size() << " device(s)"
            << (devices.empty() ? ": no GPU answers, so the cpu backend is used" : "") << "\n";
  for (const auto& d : devices) {
    auto mib = [](std::int64_t b) { return std::to_string(b >> 20) + " MiB"; };
    auto kib = [](std::int64_t b) { return std::to_string(b >> 10) + " KiB"; };
    char bw[32];
    std::snprintf(bw, sizeof bw, "%.0f GB/s", d.peak_bandwidth_gbps());
    std::cout << "\n  device " << d.ordinal << ": " << d.name << "\n"
              << "    compute capability        " << d.compute_major << "." << d.compute_minor << "\n"
              << "    multiprocessors           " << d.multiprocessors << "\n"
              << "    max SM clock              " << d.sm_clock_mhz << " MHz\n"
              << "    memory clock, bus         " << d.memory_clock_mhz << " MHz, " << d.memory_bus_bits
              << " bits (peak " << bw << ")\n"
              << "    global memory             " << mib(d.global_memory_bytes) << "\n"
              << "    L2 cache                  " << mib(d.l2_cache_bytes) << "\n"
              << "    shared memory per SM      " << kib(d.shared_memory_per_sm) << "\n"
              << "    shared memory per block   " << kib(d.shared_memory_per_block_optin) << " (opt-in)\n"
              << "    constant memory           " << kib(d.constant_memory_bytes) << "\n"
              << "    registers per SM          " << d.registers_per_sm << "\n"
              << "    max threads per SM, block " << d.max_threads_per_sm << ", "
              << d.max_threads_per_block << "\n"
              << "    warp size                 " << d.warp_size << "\n";
  }
  print_groups();
}

void add_info_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("info", "Show the backends built in and every GPU's properties");
  cmd->callback([&exit_code] {
    print_info();
    exit_code = 0;
  });
}

}  // namespace parprim::cli
