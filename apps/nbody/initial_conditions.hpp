// Initial conditions in N-body units (G = 1, total mass 1), made in double precision on the
// host from a seedable generator (the same seed gives the same bodies on every machine), and
// the CSV body file format shared by --file and the snapshots:
//   mass,x,y,z,vx,vy,vz        (an optional header line like this one; '#' starts a comment)
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <string>

#include "body_system.hpp"

namespace parprim::nbody {

// A Plummer sphere (Aarseth, Henon & Wielen 1974): radii from the cumulative mass profile,
// speeds by rejection from the distribution function, cut at 10 scale radii; scaled to
// N-body units (virial radius 1, E = -1/4) and moved to the centre-of-mass frame. The model is
// in virial equilibrium: 2K/|W| = 1 up to sampling noise of order 1/sqrt(n).
body_set<double> plummer(std::int64_t n, std::uint64_t seed);

// n bodies uniformly in the cube [-1, 1]^3, at rest (a cold collapse).
body_set<double> uniform_cube(std::int64_t n, std::uint64_t seed);

// Two Plummer spheres of n/2 bodies each, 6 length units apart along x with an impact
// parameter of 1 along y, approaching each other at the parabolic speed.
body_set<double> colliding_plummers(std::int64_t n, std::uint64_t seed);

// The most bodies a run takes, from --n or from a body file (the all-pairs step costs n^2:
// 2^30 bodies are already 10^18 interactions per step).
inline constexpr std::int64_t max_bodies = std::int64_t(1) << 30;

// Reads a body file. Throws parprim::error naming the file and line for anything malformed:
// a wrong number of fields, a field that is not a number, a negative or non-finite mass, a
// non-finite coordinate, more than `limit` bodies, or a file without bodies. `progress`, when
// given, is called with the count read so far every 2^20 bodies (large files take a while).
body_set<double> read_bodies_csv(const std::string& path, std::int64_t limit = max_bodies,
                                 const std::function<void(std::int64_t)>& progress = {});

// The same from a stream; `name` stands for the file in messages.
body_set<double> parse_bodies_csv(std::istream& in, const std::string& name,
                                  std::int64_t limit = max_bodies,
                                  const std::function<void(std::int64_t)>& progress = {});

// Writes bodies in the same format (with the header line), exactly enough to read back.
template <class T>
void write_bodies_csv(const std::string& path, const body_set<T>& bodies);

}  // namespace parprim::nbody
