// The Barnes-Hut body system: the body_system interface with tree forces, on either backend,
// built each step from the library's primitives:
//
//   bbox      reduce_into (min and max of x, y, z)         -> a cube around every body
//   codes     morton_encode (63-bit codes, 21 bits per axis)
//   sort      radix_sort_pairs (codes -> body order), then gather of every body field, so the
//             bodies stay in Morton order between steps (near in memory = near in space)
//   tree      binary radix tree from the sorted codes (tree.hpp, Karras 2012)
//   moments   bottom-up centre of mass, bounding box and opening radius of every node
//   walk      stackless group walk (tree.hpp), forces softened as in the all-pairs code
//   integrate leapfrog kick-drift-kick, as the all-pairs systems
//
// Every array is allocated once per system (the caching allocator's memory), so a step makes
// no allocation. state(), accelerations() and potentials() come back in the caller's order;
// potentials (for the energy diagnostics) are the exact all-pairs sums.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "body_system.hpp"
#include "tree.hpp"

namespace parprim::nbody {

// Times of the phases of the force evaluations (and integration steps) since timing was
// turned on, in milliseconds (CUDA: events around each phase, which then waits for it).
struct bh_phase_times {
  static constexpr int count = 7;
  static constexpr const char* names[count] = {"bbox", "codes", "sort", "tree", "moments", "walk", "integrate"};
  std::array<double, count> ms{};
  std::int64_t evaluations = 0;  // force evaluations timed
  std::int64_t steps = 0;        // integration steps timed
};

// A host copy of the tree and the bodies in tree order, for tests and diagnostics.
template <class T>
struct bh_tree_copy {
  std::int64_t n = 0;
  std::vector<std::uint64_t> codes;
  std::vector<tree::vec4<T>> bodies;
  std::vector<int> left, right, last, parent, skip, id;
  std::vector<tree::vec4<T>> com, box_lo, box_hi;
  std::vector<tree::node_link<T>> links;
};

template <class T>
class barnes_hut_system : public body_system<T> {
 public:
  T theta() const { return theta_; }
  // Phase timing on or off (off by default: timing waits for the device after each phase).
  virtual void time_phases(bool on) = 0;
  virtual bh_phase_times phase_times() const = 0;
  // Builds the tree for the current positions (if not built) and copies it to the host.
  virtual bh_tree_copy<T> tree_copy() = 0;

 protected:
  barnes_hut_system(const context& ctx, std::int64_t n, T eps, T theta) : body_system<T>(ctx, n, eps), theta_(theta) {}
  T theta_;
};

// theta in [0, 1] (checked by make_body_system; this constructor trusts it).
template <class T>
std::unique_ptr<barnes_hut_system<T>> make_barnes_hut_system(const context& ctx, const body_set<T>& bodies, T eps,
                                                             T theta);

}  // namespace parprim::nbody
