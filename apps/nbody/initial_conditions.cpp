// Initial conditions and the body file format.
#include "initial_conditions.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/output_file.hpp"
#include "parprim/error.hpp"

namespace parprim::nbody {
namespace {

constexpr double pi = 3.14159265358979323846;

// xoshiro256** seeded through splitmix64: fast, good, and the same sequence everywhere
// (unlike the standard library's distributions).
class generator {
 public:
  explicit generator(std::uint64_t seed) {
    for (auto& s : s_) s = splitmix(seed);
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9, t = s_[1] << 17;
    s_[2] ^= s_[0], s_[3] ^= s_[1], s_[1] ^= s_[2], s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t s_[4];
};

// A point uniformly on the sphere of radius r.
void on_sphere(generator& g, double r, double& x, double& y, double& z) {
  const double cz = 1.0 - 2.0 * g.uniform(), phi = 2.0 * pi * g.uniform();
  const double sz = std::sqrt(std::max(0.0, 1.0 - cz * cz));
  x = r * sz * std::cos(phi), y = r * sz * std::sin(phi), z = r * cz;
}

// Bodies [first, first + count) become a Plummer sphere of total mass `mass` (each body
// mass/count), scale length in N-body units, centred at the origin at rest.
void plummer_into(body_set<double>& b, std::int64_t first, std::int64_t count, double mass,
                  generator& g) {
  // Plummer units (G = M = a = 1) -> N-body units: lengths * 3 pi / 16, velocities / sqrt of it.
  const double length = 3.0 * pi / 16.0, speed = std::sqrt(mass / length);
  for (std::int64_t k = 0; k < count; ++k) {
    const std::size_t i = std::size_t(first + k);
    double r;
    do {  // invert the cumulative mass M(r) = r^3 / (1 + r^2)^(3/2)
      const double m = g.uniform();
      r = m > 0 ? 1.0 / std::sqrt(std::pow(m, -2.0 / 3.0) - 1.0) : 0.0;
    } while (!(r > 0) || r > 10.0);
    on_sphere(g, r * length, b.x[i], b.y[i], b.z[i]);
    double q;  // v / v_escape, with probability density ~ q^2 (1 - q^2)^(7/2)
    while (true) {
      q = g.uniform();
      if (0.1 * g.uniform() < q * q * std::pow(1.0 - q * q, 3.5)) break;
    }
    const double v = q * std::sqrt(2.0) * std::pow(1.0 + r * r, -0.25);
    on_sphere(g, v * speed, b.vx[i], b.vy[i], b.vz[i]);
    b.mass[i] = mass / double(count);
  }
}

void shift(body_set<double>& b, std::int64_t first, std::int64_t count, double dx, double dy,
           double dvx) {
  for (std::int64_t k = first; k < first + count; ++k) {
    b.x[std::size_t(k)] += dx, b.y[std::size_t(k)] += dy, b.vx[std::size_t(k)] += dvx;
  }
}

// Removes the centre-of-mass position and velocity.
void to_centre_of_mass(body_set<double>& b) {
  double m = 0, cx = 0, cy = 0, cz = 0, vx = 0, vy = 0, vz = 0;
  for (std::size_t i = 0; i < b.mass.size(); ++i) {
    m += b.mass[i];
    cx += b.mass[i] * b.x[i], cy += b.mass[i] * b.y[i], cz += b.mass[i] * b.z[i];
    vx += b.mass[i] * b.vx[i], vy += b.mass[i] * b.vy[i], vz += b.mass[i] * b.vz[i];
  }
  if (!(m > 0)) return;
  for (std::size_t i = 0; i < b.mass.size(); ++i) {
    b.x[i] -= cx / m, b.y[i] -= cy / m, b.z[i] -= cz / m;
    b.vx[i] -= vx / m, b.vy[i] -= vy / m, b.vz[i] -= vz / m;
  }
}

void check_count(std::int64_t n, const char* what) {
  if (n < 1)
    throw error(errc::invalid_argument,
                std::string("parprim::nbody::") + what + ": n=" + std::to_string(n) + " must be at least 1");
}

[[noreturn]] void bad_line(const std::string& path, std::int64_t line, const std::string& what) {
  throw error(errc::invalid_argument, "parprim nbody: " + path + ":" + std::to_string(line) + ": " + what);
}

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

// The optional header line: its first field is "mass" (any case).
bool is_header(const std::string& text) {
  std::string first = trim(text.substr(0, text.find(',')));
  for (auto& c : first) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return first == "mass";
}

}  // namespace

body_set<double> plummer(std::int64_t n, std::uint64_t seed) {
  check_count(n, "plummer");
  body_set<double> b;
  b.resize(n);
  generator g(seed);
  plummer_into(b, 0, n, 1.0, g);
  to_centre_of_mass(b);
  return b;
}

body_set<double> uniform_cube(std::int64_t n, std::uint64_t seed) {
  check_count(n, "uniform_cube");
  body_set<double> b;
  b.resize(n);
  generator g(seed);
  for (std::size_t i = 0; i < std::size_t(n); ++i) {
    b.x[i] = 2 * g.uniform() - 1, b.y[i] = 2 * g.uniform() - 1, b.z[i] = 2 * g.uniform() - 1;
    b.mass[i] = 1.0 / double(n);
  }
  to_centre_of_mass(b);
  return b;
}

body_set<double> colliding_plummers(std::int64_t n, std::uint64_t seed) {
  check_count(n, "colliding_plummers");
  if (n < 2) throw error(errc::invalid_argument, "parprim::nbody::colliding_plummers: n=1 cannot make two clusters");
  body_set<double> b;
  b.resize(n);
  generator g(seed);
  const std::int64_t left = n / 2, right = n - left;
  const double d = 6.0, impact = 1.0;
  const double v = std::sqrt(2.0 / d);  // parabolic: relative kinetic energy = binding energy
  plummer_into(b, 0, left, double(left) / double(n), g);
  plummer_into(b, left, right, double(right) / double(n), g);
  shift(b, 0, left, -d / 2, -impact / 2, +v / 2);
  shift(b, left, right, +d / 2, +impact / 2, -v / 2);
  to_centre_of_mass(b);
  return b;
}

body_set<double> read_bodies_csv(const std::string& path, std::int64_t limit,
                                 const std::function<void(std::int64_t)>& progress) {
  std::ifstream f(path);
  if (!f) throw error(errc::io_error, "parprim nbody: cannot read body file " + path);
  return parse_bodies_csv(f, path, limit, progress);
}

body_set<double> parse_bodies_csv(std::istream& f, const std::string& path, std::int64_t limit,
                                  const std::function<void(std::int64_t)>& progress) {
  constexpr std::int64_t progress_every = std::int64_t(1) << 20;
  body_set<double> b;
  std::string line;
  std::int64_t number = 0;
  bool seen_data = false;
  while (std::getline(f, line)) {
    ++number;
    const auto hash = line.find('#');
    const std::string text = trim(hash == std::string::npos ? line : line.substr(0, hash));
    if (text.empty()) continue;
    if (!seen_data && is_header(text)) continue;
    seen_data = true;
    double v[7];
    int count = 0;
    std::stringstream fields(text);
    std::string field;
    while (std::getline(fields, field, ',')) {
      field = trim(field);
      if (count < 7) {
        if (field.empty()) bad_line(path, number, "field " + std::to_string(count + 1) + " is empty");
        char* end = nullptr;
        errno = 0;
        v[count] = std::strtod(field.c_str(), &end);
        if (end != field.c_str() + field.size())
          bad_line(path, number, "'" + field + "' is not a number");
      }
      ++count;
    }
    if (!text.empty() && text.back() == ',') ++count;  // a trailing comma is an empty 8th field
    if (count != 7)
      bad_line(path, number, "expected 7 comma-separated values (mass,x,y,z,vx,vy,vz), found " +
                                 std::to_string(count));
    for (int k = 0; k < 7; ++k)
      if (!std::isfinite(v[k])) bad_line(path, number, "value " + std::to_string(k + 1) + " is not finite");
    if (v[0] < 0) bad_line(path, number, "mass " + trim(text.substr(0, text.find(','))) + " is negative");
    if (b.size() >= limit)
      bad_line(path, number, "more than " + std::to_string(limit) + " bodies (the limit of a run)");
    b.mass.push_back(v[0]);
    b.x.push_back(v[1]), b.y.push_back(v[2]), b.z.push_back(v[3]);
    b.vx.push_back(v[4]), b.vy.push_back(v[5]), b.vz.push_back(v[6]);
    if (progress && b.size() % progress_every == 0) progress(b.size());
  }
  if (f.bad()) throw error(errc::io_error, "parprim nbody: error while reading body file " + path);
  if (b.size() == 0) throw error(errc::invalid_argument, "parprim nbody: " + path + ": no bodies in the file");
  return b;
}

template <class T>
void write_bodies_csv(const std::string& path, const body_set<T>& b) {
  apps::output_file out(path, "parprim nbody: snapshot");
  std::FILE* f = out.stream();
  // Enough digits to read back the same value: 9 for float, 17 for double.
  const int digits = sizeof(T) == 4 ? 9 : 17;
  std::fprintf(f, "mass,x,y,z,vx,vy,vz\n");
  for (std::size_t i = 0; i < b.mass.size(); ++i)
    std::fprintf(f, "%.*g,%.*g,%.*g,%.*g,%.*g,%.*g,%.*g\n", digits, double(b.mass[i]), digits,
                 double(b.x[i]), digits, double(b.y[i]), digits, double(b.z[i]), digits,
                 double(b.vx[i]), digits, double(b.vy[i]), digits, double(b.vz[i]));
  out.commit();  // every write checked; an old snapshot stays whole when this one fails
}

template void write_bodies_csv<float>(const std::string&, const body_set<float>&);
template void write_bodies_csv<double>(const std::string&, const body_set<double>&);

}  // namespace parprim::nbody
