// Bitwise equality of two outputs, shared by the tests (testing::same_bits) and the bench's
// output checks: NaNs and signed zeros must match too.
#pragma once

#include <cstring>
#include <vector>

namespace parprim::reference {

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace parprim::reference
