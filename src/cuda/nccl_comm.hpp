// The NCCL communicator (built when NCCL is found; see cmake/ParprimNccl.cmake).
//
// Every entry point sets NCCL_NVLS_ENABLE=0 before NCCL creates a communicator: NVLink
// multicast (NVLS) reserves multicast objects on the NVSwitch that can put GPUs shared with
// other jobs out of service, and the collectives used here gain nothing from it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "parprim/group.hpp"

namespace parprim::cuda_rt {

// One communicator per context, all in this process (ncclCommInitAll).
std::vector<std::unique_ptr<communicator>> make_nccl_comms(const std::vector<context>& ctxs);
// This process's rank of a group spread over processes; id_source as in
// device_group::cuda_process.
std::unique_ptr<communicator> make_nccl_process_comm(const context& ctx, int rank, int ranks,
                                                     const std::string& id_source);
std::string nccl_unique_id_hex();

}  // namespace parprim::cuda_rt
