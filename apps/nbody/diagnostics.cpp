// Energies and momenta, summed in double precision on the host.
#include "diagnostics.hpp"

#include <cmath>


namespace parprim::nbody {

template <class T>
diagnostics measure(const body_set<T>& b, const std::vector<T>& phi) {
  diagnostics d;
  for (std::size_t i = 0; i < b.mass.size(); ++i) {
    const double m = b.mass[i], x = b.x[i], y = b.y[i], z = b.z[i];
    const double vx = b.vx[i], vy = b.vy[i], vz = b.vz[i];
    d.mass += m;
    d.kinetic += 0.5 * m * (vx * vx + vy * vy + vz * vz);
    d.potential += 0.5 * m * double(phi[i]);
    d.px += m * vx, d.py += m * vy, d.pz += m * vz;
    d.lx += m * (y * vz - z * vy), d.ly += m * (z * vx - x * vz), d.lz += m * (x * vy - y * vx);
  }
  d.total = d.kinetic + d.potential;
  return d;
}

template <class T>
diagnostics measure(body_system<T>& system) {
  auto phi = system.potentials();
  return measure(system.state(), phi);
}

template diagnostics measure<float>(const body_set<float>&, const std::vector<float>&);
template diagnostics measure<double>(const body_set<double>&, const std::vector<double>&);
template diagnostics measure<float>(body_system<float>&);
template diagnostics measure<double>(body_system<double>&);

diagnostics_log::diagnostics_log(const std::string& path) : file_(path, "parprim nbody: --diag") {
  std::fprintf(file_.stream(), "step,time,kinetic,potential,total,rel_energy_drift,px,py,pz,lx,ly,lz\n");
}

void diagnostics_log::add(std::int64_t step, double time, const diagnostics& d, double drift) {
  std::fprintf(file_.stream(), "%lld,%.10g,%.17g,%.17g,%.17g,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e\n",
               static_cast<long long>(step), time, d.kinetic, d.potential, d.total, drift, d.px,
               d.py, d.pz, d.lx, d.ly, d.lz);
}

void diagnostics_log::close() { file_.commit(); }

}  // namespace parprim::nbody
