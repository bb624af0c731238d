// Conserved quantities of a body system, in double precision: kinetic, potential and total
// energy, linear and angular momentum; and the CSV log written every K steps.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "body_system.hpp"
#include "common/output_file.hpp"

namespace parprim::nbody {

struct diagnostics {
  double kinetic = 0, potential = 0, total = 0;
  double px = 0, py = 0, pz = 0;  // linear momentum
  double lx = 0, ly = 0, lz = 0;  // angular momentum about the origin
  double mass = 0;
  // The virial ratio 2K/|W| (1 in equilibrium).
  double virial_ratio() const { return potential != 0 ? 2.0 * kinetic / -potential : 0.0; }
};

// From host bodies and their potentials phi_i: W = 1/2 sum m_i phi_i.
template <class T>
diagnostics measure(const body_set<T>& bodies, const std::vector<T>& phi);
// Of a system now (waits for its queued steps).
template <class T>
diagnostics measure(body_system<T>& system);

// (E - E0) / |E0|.
inline double relative_drift(const diagnostics& now, const diagnostics& start) {
  return start.total != 0 ? (now.total - start.total) / std::abs(start.total) : 0.0;
}

// The diagnostics CSV: step,time,kinetic,potential,total,rel_energy_drift,px,py,pz,lx,ly,lz.
// Written through an output_file: the file appears (or is replaced) only by close() at the
// end of a run that succeeded.
class diagnostics_log {
 public:
  explicit diagnostics_log(const std::string& path);  // throws parprim::error if unwritable
  void add(std::int64_t step, double time, const diagnostics& d, double drift);
  void close();  // throws on a write error

 private:
  apps::output_file file_;
};

}  // namespace parprim::nbody
