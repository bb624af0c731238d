// Must not compile: the precompiled reduce (op enum) called with a type outside the six.
// tests/CMakeLists.txt checks that the compiler's message names the supported types.
#include <cstdint>
#include <vector>

#include "parprim/parprim.hpp"

int main() {
  std::vector<std::uint8_t> x(4, 1);
  return int(parprim::reduce(parprim::context::cpu(), parprim::span<const std::uint8_t>(x),
                             parprim::op::plus));
}
