// The OpenMP backend's argmin and argmax (src/cpu/extremum.cpp). The front end has checked the
// arguments; in is not empty.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/extremum.hpp"
#include "parprim/span.hpp"

namespace parprim::cpu_backend {

template <class T>
extremum<T> find_extremum(const context& ctx, span<const T> in, bool largest);

}  // namespace parprim::cpu_backend
