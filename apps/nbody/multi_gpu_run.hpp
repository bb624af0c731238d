// The N-body run on a device group behind `parprim nbody --gpus N` and `--gpus-from-env`.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "parprim/group.hpp"
#include "simulate.hpp"

namespace parprim::nbody {

// Builds the initial conditions of o, times o.steps whole steps on the group and prints one
// line (ms per step, interactions per second, a position checksum) from rank 0's process.
nlohmann::json run_group_simulation(const device_group& g, const run_options& o, std::ostream& out);

}  // namespace parprim::nbody
