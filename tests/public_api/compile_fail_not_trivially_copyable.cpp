// Must not compile: a generic primitive with an element type that is not trivially copyable.
// tests/CMakeLists.txt checks that the compiler's message says so.
#include <string>
#include <vector>

#include "parprim/parprim.hpp"

struct concat {
  std::string operator()(const std::string& a, const std::string& b) const { return a + b; }
};

int main() {
  std::vector<std::string> x(4, "a");
  return int(parprim::reduce(parprim::context::cpu(), parprim::span<const std::string>(x),
                             std::string(), concat{})
                 .size());
}
