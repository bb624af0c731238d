// The all-pairs N-body system on a device group: every GPU (or in-process CPU rank) owns an
// even slice of the bodies and keeps a copy of every position.
//
// A leapfrog step on rank r: kick and drift its own bodies, all-gather the positions (each
// rank's slice lands in every rank's copy), forces on its own bodies from all n, kick. The
// positions all-gather moves 16 bytes per body (float); at 2^20 bodies that is 16 MiB, about
// 0.1 ms over NVLink, against tens of milliseconds of force work per step, so the exchange is
// not overlapped with the forces: the overlap would save well under 1% of a step.
//
// Results: on CPU groups every body's acceleration is summed exactly as the single-context
// CPU system sums it (cpu_forces.hpp: the sum for body i does not depend on which other
// bodies share its block), so positions after k steps are bitwise those of the single
// context. On GPUs the force kernel cuts the j range into slices chosen for the number of
// target bodies, so a rank's slice may sum in a different order than one GPU holding all
// bodies: results agree to float rounding and are reproducible for a given GPU count.
//
// In a group spread over processes (device_group::cuda_process), every process must call
// state(), accelerations() and potentials() together: they gather the slices.
#pragma once

#include <memory>

#include "body_system.hpp"
#include "parprim/group.hpp"

namespace parprim::nbody {

template <class T>
std::unique_ptr<body_system<T>> make_group_body_system(const device_group& g,
                                                       const body_set<T>& bodies, T eps);

}  // namespace parprim::nbody
