// Bindings of the applications through their public interfaces: the N-body body system
// (apps/nbody/body_system.hpp, initial_conditions.hpp) and the sphere ray tracer
// (apps/raytrace/render.hpp, scene.hpp). Their results live on the host, so they come back as
// NumPy arrays that own the host vectors (moved, not copied).
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nbody/body_system.hpp"
#include "common.hpp"
#include "nbody/initial_conditions.hpp"
#include "raytrace/render.hpp"
#include "raytrace/scene.hpp"

namespace parprim::python {

namespace {

template <class T>
using host_array = nb::ndarray<nb::numpy, T>;
using column = nb::ndarray<const double, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using sphere_rows = nb::ndarray<const float, nb::shape<-1, 7>, nb::c_contig, nb::device::cpu>;

// A NumPy array owning `values`, in the given shape.
template <class T>
host_array<T> to_numpy(std::vector<T>&& values, std::initializer_list<std::size_t> shape) {
  auto* owned = new std::vector<T>(std::move(values));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return host_array<T>(owned->data(), shape.size(), shape.begin(), owner);
}

context backend_context(int device) { return device < 0 ? context::cpu() : context::cuda(device); }

nb::dict bodies_to_dict(nbody::body_set<double>&& b) {
  const std::size_t n = static_cast<std::size_t>(b.size());
  nb::dict d;
  d["mass"] = to_numpy(std::move(b.mass), {n});
  d["x"] = to_numpy(std::move(b.x), {n});
  d["y"] = to_numpy(std::move(b.y), {n});
  d["z"] = to_numpy(std::move(b.z), {n});
  d["vx"] = to_numpy(std::move(b.vx), {n});
  d["vy"] = to_numpy(std::move(b.vy), {n});
  d["vz"] = to_numpy(std::move(b.vz), {n});
  return d;
}

// One simulation in float or double; the Python class nbody.BodySystem wraps it.
class body_system_binding {
 public:
  body_system_binding(column mass, column x, column y, column z, column vx, column vy, column vz,
                      double eps, bool double_precision, int device) {
    nbody::body_set<double> b;
    auto fill = [](const column& from, std::vector<double>& to) {
      to.assign(from.data(), from.data() + from.shape(0));
    };
    fill(mass, b.mass), fill(x, b.x), fill(y, b.y), fill(z, b.z);
    fill(vx, b.vx), fill(vy, b.vy), fill(vz, b.vz);
    nb::gil_scoped_release no_gil;
    context ctx = backend_context(device);
    if (double_precision) f64_ = nbody::make_body_system<double>(ctx, b, eps);
    else f32_ = nbody::make_body_system<float>(ctx, b.as<float>(), static_cast<float>(eps));
  }

  void advance(std::int64_t steps, double dt) {
    nb::gil_scoped_release no_gil;
    if (f64_) f64_->advance(steps, dt);
    else f32_->advance(steps, static_cast<float>(dt));
  }

  std::int64_t steps_taken() const { return f64_ ? f64_->steps_taken() : f32_->steps_taken(); }
  std::int64_t size() const { return f64_ ? f64_->size() : f32_->size(); }

  // (n, 3) positions and velocities, in the system's precision.
  nb::tuple positions_velocities() {
    return f64_ ? interleave(*f64_) : interleave(*f32_);
  }

  nb::object potentials() {
    if (f64_) return to_object(f64_->potentials());
    return to_object(f32_->potentials());
  }

  nb::object accelerations() { return f64_ ? accel_rows(*f64_) : accel_rows(*f32_); }

 private:
  template <class T>
  static nb::object to_object(std::vector<T>&& v) {
    std::size_t n = v.size();
    return nb::cast(to_numpy(std::move(v), {n}));
  }

  template <class T>
  static std::vector<T> rows_of(const std::vector<T>& a, const std::vector<T>& b,
                                const std::vector<T>& c) {
    std::vector<T> out(a.size() * 3);
    for (std::size_t i = 0; i < a.size(); ++i) out[3 * i] = a[i], out[3 * i + 1] = b[i], out[3 * i + 2] = c[i];
    return out;
  }

  template <class T>
  static nb::tuple interleave(nbody::body_system<T>& sys) {
    nbody::body_set<T> s;
    {
      nb::gil_scoped_release no_gil;
      s = sys.state();
    }
    std::size_t n = static_cast<std::size_t>(s.size());
    return nb::make_tuple(to_numpy(rows_of(s.x, s.y, s.z), {n, 3}),
                          to_numpy(rows_of(s.vx, s.vy, s.vz), {n, 3}));
  }

  template <class T>
  static nb::object accel_rows(nbody::body_system<T>& sys) {
    nbody::accel_set<T> a;
    {
      nb::gil_scoped_release no_gil;
      a = sys.accelerations();
    }
    std::size_t n = static_cast<std::size_t>(a.size());
    return nb::cast(to_numpy(rows_of(a.x, a.y, a.z), {n, 3}));
  }

  std::unique_ptr<nbody::body_system<float>> f32_;
  std::unique_ptr<nbody::body_system<double>> f64_;
};

nb::dict initial_bodies(const std::string& kind, std::int64_t n, std::uint64_t seed) {
  nbody::body_set<double> b;
  {
    nb::gil_scoped_release no_gil;
    if (kind == "plummer") b = nbody::plummer(n, seed);
    else if (kind == "uniform") b = nbody::uniform_cube(n, seed);
    else if (kind == "collision") b = nbody::colliding_plummers(n, seed);
    else b = nbody::read_bodies_csv(kind);
  }
  return bodies_to_dict(std::move(b));
}

// Spheres as rows (x, y, z, radius, red, green, blue), and the light.
nb::tuple scene_rows(const raytrace::scene& s) {
  std::vector<float> rows;
  for (const auto& sp : s.spheres)
    rows.insert(rows.end(), {sp.x, sp.y, sp.z, sp.radius, sp.red, sp.green, sp.blue});
  std::size_t k = s.spheres.size();
  return nb::make_tuple(to_numpy(std::move(rows), {k, 7}),
                        nb::make_tuple(s.light[0], s.light[1], s.light[2]));
}

nb::tuple random_scene_rows(int count, std::uint64_t seed) {
  return scene_rows(raytrace::random_scene(count, seed));
}

nb::tuple load_scene_rows(const std::string& path) { return scene_rows(raytrace::load_scene(path)); }

// Renders one frame; returns the (height, width, 3) RGB image, the sphere memory used, and
// the mean milliseconds per frame over `timed_frames` further frames (0: not timed).
nb::tuple render(sphere_rows spheres, std::array<float, 3> light, int width, int height,
                 int memory, int device, int timed_frames) {
  raytrace::scene s;
  for (std::size_t i = 0; i < spheres.shape(0); ++i)
    s.spheres.push_back(raytrace::make_sphere(spheres(i, 0), spheres(i, 1), spheres(i, 2),
                                              spheres(i, 3), spheres(i, 4), spheres(i, 5),
                                              spheres(i, 6)));
  for (int c = 0; c < 3; ++c) s.light[c] = light[static_cast<std::size_t>(c)];
  std::vector<std::uint8_t> image;
  std::string used;
  double ms = 0.0;
  {
    nb::gil_scoped_release no_gil;
    raytrace::renderer r(backend_context(device), s, width, height,
                         static_cast<raytrace::sphere_memory>(memory));
    r.render();
    image = r.image();
    if (timed_frames > 0) ms = r.time_frames(timed_frames);
    used = raytrace::to_string(r.memory());
  }
  auto h = static_cast<std::size_t>(height), w = static_cast<std::size_t>(width);
  return nb::make_tuple(to_numpy(std::move(image), {h, w, 3}), used, ms);
}

}  // namespace

void bind_apps(nb::module_& m) {
  nb::class_<body_system_binding>(m, "BodySystem")
      .def(nb::init<column, column, column, column, column, column, column, double, bool, int>())
      .def("advance", &body_system_binding::advance)
      .def("positions_velocities", &body_system_binding::positions_velocities)
      .def("accelerations", &body_system_binding::accelerations)
      .def("potentials", &body_system_binding::potentials)
      .def_prop_ro("steps_taken", &body_system_binding::steps_taken)
      .def_prop_ro("size", &body_system_binding::size);
  m.def("initial_bodies", &initial_bodies);
  m.def("random_scene", &random_scene_rows);
  m.def("load_scene", &load_scene_rows);
  m.def("render", &render);
}

}  // namespace parprim::python
