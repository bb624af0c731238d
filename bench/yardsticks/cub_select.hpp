// CUB DeviceSelect::If and DevicePartition::If with the predicate x < pivot on u32,
// timed by the session in the same run as copy_if and partition. Yardsticks only.
#pragma once

#include <cstdint>

#include "engine.hpp"

namespace parprim::bench::yardstick {

double cub_select_if_ms(session& s, const std::uint32_t* in, std::uint32_t* out,
                        std::int64_t* count, std::int64_t n, std::uint32_t pivot);
double cub_partition_if_ms(session& s, const std::uint32_t* in, std::uint32_t* out,
                           std::int64_t* count, std::int64_t n, std::uint32_t pivot);

}  // namespace parprim::bench::yardstick
