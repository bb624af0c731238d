// The in-process communicator: ranks are threads of one process that exchange through
// memcpy between each other's host buffers. Used by CPU groups, so that the distributed
// algorithms run (and are tested) on any machine.
#pragma once

#include <memory>
#include <vector>

#include "parprim/group.hpp"

namespace parprim::cpu_backend {

// One communicator per rank, all sharing one rendezvous.
std::vector<std::unique_ptr<communicator>> make_inprocess_comms(int ranks);

}  // namespace parprim::cpu_backend
