// What `parprim info` prints about each CUDA device (the course's device query).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace parprim {

struct device_info {
  int ordinal = 0;
  std::string name;
  int compute_major = 0, compute_minor = 0;
  int multiprocessors = 0;
  int sm_clock_mhz = 0;       // max SM clock
  int memory_clock_mhz = 0;
  int memory_bus_bits = 0;
  std::int64_t global_memory_bytes = 0;
  std::int64_t l2_cache_bytes = 0;
  std::int64_t shared_memory_per_sm = 0;
  std::int64_t shared_memory_per_block_optin = 0;
  std::int64_t constant_memory_bytes = 0;
  int registers_per_sm = 0;
  int max_threads_per_sm = 0;
  int max_threads_per_block = 0;
  int warp_size = 0;
  double peak_bandwidth_gbps() const {  // DDR: two transfers per clock
    return 2.0 * memory_clock_mhz * 1e6 * (memory_bus_bits / 8.0) / 1e9;
  }
};

// Empty without a CUDA build or without devices.
std::vector<device_info> cuda_devices();

// "runtime 13.0, driver 13.0" in a CUDA build (driver "none" without one); "" otherwise.
std::string cuda_versions();

}  // namespace parprim
