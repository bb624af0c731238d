// parprim._core: the compiled half of the Python package. Build facts, contexts and streams,
// error translation, DLPack import for arrays of other libraries; the primitives and the
// applications are bound in their own files.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "common.hpp"
#include "parprim/error.hpp"
#include "parprim/reduce.hpp"

#if PARPRIM_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace parprim::python {

namespace {

// Contexts by (device, stream). Never destroyed: their cached device memory would otherwise be
// freed after the CUDA runtime has shut down at interpreter exit.
struct context_cache {
  std::mutex mutex;
  std::map<std::pair<int, std::uintptr_t>, context> contexts;
};

context_cache& cache() {
  static auto* c = new context_cache;
  return *c;
}

// Python exception classes by errc, registered by parprim/_errors.py at import.
std::map<int, nb::object>& error_classes() {
  static auto* m = new std::map<int, nb::object>;
  return *m;
}

void set_error_classes(nb::dict classes) {
  for (auto [code, cls] : classes) error_classes()[nb::cast<int>(code)] = nb::borrow(cls);
}

void translate_error(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const error& e) {
    auto it = error_classes().find(static_cast<int>(e.code()));
    PyObject* cls = it != error_classes().end() ? it->second.ptr() : PyExc_RuntimeError;
    PyErr_SetString(cls, e.what());
  }
}

// Address, shape, element type and device of a DLPack capsule (from obj.__dlpack__(stream=...)),
// for arrays of libraries without a faster route. The returned capsule keeps the imported
// tensor (and so the producer's memory) alive while the call uses it.
nb::tuple describe_dlpack(nb::ndarray<> a) {
  nb::list shape;
  bool contiguous = true;
  std::int64_t expected_stride = 1;
  for (std::size_t d = a.ndim(); d-- > 0;) {
    if (a.shape(d) != 1 && a.stride(d) != expected_stride) contiguous = false;
    expected_stride *= static_cast<std::int64_t>(a.shape(d));
  }
  for (std::size_t d = 0; d < a.ndim(); ++d) shape.append(a.shape(d));
  auto dt = a.dtype();
  std::string kind = dt.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Int)    ? "int"
                     : dt.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::UInt) ? "uint"
                     : dt.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Float)
                         ? "float"
                         : "other";
  std::string dtype = kind + std::to_string(dt.bits * dt.lanes);
  nb::capsule keep_alive(new nb::ndarray<>(a),
                         [](void* p) noexcept { delete static_cast<nb::ndarray<>*>(p); });
  return nb::make_tuple(reinterpret_cast<std::uintptr_t>(a.data()), nb::tuple(shape), dtype,
                        contiguous, a.device_type(), a.device_id(), keep_alive);
}

// Address and element-type code (dtype_code) of a host array through the buffer protocol: one C
// call, where NumPy's __array_interface__ builds a dictionary and dtype.name runs Python code
// (together tens of times this call's cost, timed with NumPy 2.4). The code is -1 for an
// element type parprim does not take (byte-swapped included), -2 for an array that is not
// C-contiguous and -3 for a read-only array when `writable` is asked; the Python layer then
// words the refusal.
nb::tuple host_buffer(nb::handle obj, bool writable) {
  Py_buffer view;
  int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT;
  if (PyObject_GetBuffer(obj.ptr(), &view, flags) != 0) {
    PyErr_Clear();
    return nb::make_tuple(0, -2);
  }
  int code = -1;
  const char* format = view.format ? view.format : "B";
  if (*format == '@' || *format == '=' || *format == '<') ++format;  // native (little-endian)
  if (format[0] != '\0' && format[1] == '\0') {
    const bool is_signed = format[0] == 'i' || format[0] == 'l' || format[0] == 'q';
    const bool is_unsigned = format[0] == 'I' || format[0] == 'L' || format[0] == 'Q';
    const bool is_float = format[0] == 'f' || format[0] == 'd';
    const bool wide = view.itemsize == 8;
    if ((is_signed || is_unsigned || is_float) && (wide || view.itemsize == 4)) {
      dtype_code c = is_float ? (wide ? dtype_code::f64 : dtype_code::f32)
                   : is_signed ? (wide ? dtype_code::i64 : dtype_code::i32)
                               : (wide ? dtype_code::u64 : dtype_code::u32);
      code = static_cast<int>(c);
    }
  }
  if (code >= 0 && writable && view.readonly) code = -3;
  auto address = reinterpret_cast<std::uintptr_t>(view.buf);
  PyBuffer_Release(&view);
  return nb::make_tuple(address, code);
}

// The CUDA device a pointer belongs to, or -1 for host memory or without a CUDA build
// (used for __cuda_array_interface__, which does not name the device).
int pointer_device(std::uintptr_t address) {
#if PARPRIM_HAVE_CUDA
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, reinterpret_cast<const void*>(address)) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged
             ? attributes.device
             : -1;
#else
  (void)address;
  return -1;
#endif
}

void synchronize(int device, std::uintptr_t stream) {
  run_on(device, stream, [](const context& ctx) { ctx.synchronize(); });
}

void release_cached_memory() {
  std::lock_guard<std::mutex> lock(cache().mutex);
  for (auto& [key, ctx] : cache().contexts) ctx.release_cached_memory();
}

// Seconds per call of `calls` back-to-back reduce_into calls made from C++ (then one wait):
// the per-call cost of the library itself, which bench/python/bench_python.py sets beside the
// same loop made from Python.
double time_reduce_calls(int device, std::uintptr_t stream, std::uintptr_t in, std::int64_t n,
                         std::uintptr_t out, int calls) {
  return run_on(device, stream, [&](const context& ctx) {
    auto x = as_span<const float>(in, n);
    auto result = as_span<float>(out, 1);
    reduce_into<float>(ctx, x, result);
    ctx.synchronize();
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) reduce_into<float>(ctx, x, result);
    ctx.synchronize();
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    return elapsed.count() / calls;
  });
}

nb::dict build_info() {
  nb::dict info;
  info["version"] = PARPRIM_PY_VERSION;
  info["cuda_built"] = context::cuda_built();
  info["cuda_devices"] = context::cuda_device_count();
#if PARPRIM_HAVE_CUDA
  info["cuda_architectures"] = PARPRIM_PY_CUDA_ARCHITECTURES;
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  info["cuda_runtime"] = std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
#endif
  info["backends"] = context::cuda_built() ? "cpu, cuda" : "cpu";
  info["cpu_threads"] = context::cpu().threads();
  return info;
}

}  // namespace

const context& context_for(int device, std::uintptr_t stream) {
  if (device < 0) {
    static const context cpu = context::cpu();
    return cpu;
  }
  const std::uintptr_t legacy_default_stream = 1;  // cudaStreamLegacy
  if (stream == 0) stream = legacy_default_stream;
  // The last context this thread used: back-to-back calls on one stream skip the lock and the
  // map (the cache never drops a context, so the pointer stays valid).
  thread_local int last_device = -1;
  thread_local std::uintptr_t last_stream = 0;
  thread_local const context* last = nullptr;
  if (last != nullptr && last_device == device && last_stream == stream) return *last;
  std::lock_guard<std::mutex> lock(cache().mutex);
  auto key = std::make_pair(device, stream);
  auto it = cache().contexts.find(key);
  if (it == cache().contexts.end())
    it = cache().contexts.emplace(key, context::cuda(device, reinterpret_cast<void*>(stream))).first;
  last_device = device, last_stream = stream, last = &it->second;
  return it->second;
}

device_scope::device_scope(int device) {
#if PARPRIM_HAVE_CUDA
  if (device < 0) return;
  int current = 0;
  if (cudaGetDevice(&current) == cudaSuccess && current != device &&
      cudaSetDevice(device) == cudaSuccess)
    previous_ = current;
  cudaGetLastError();
#else
  (void)device;
#endif
}

device_scope::~device_scope() {
#if PARPRIM_HAVE_CUDA
  if (previous_ >= 0) cudaSetDevice(previous_);
#endif
}

}  // namespace parprim::python

NB_MODULE(_core, m) {
  namespace py = parprim::python;
  m.doc() = "parprim's compiled primitives; use the functions of the parprim package instead.";
  nanobind::register_exception_translator(py::translate_error);
  m.def("_set_error_classes", &py::set_error_classes);
  m.def("build_info", &py::build_info, "What this build of parprim contains.");
  m.def("describe_dlpack", &py::describe_dlpack, nanobind::arg("capsule"));
  m.def("pointer_device", &py::pointer_device, nanobind::arg("address"));
  m.def("host_buffer", &py::host_buffer, nanobind::arg("obj"), nanobind::arg("writable"));
  m.def("synchronize", &py::synchronize, nanobind::arg("device"), nanobind::arg("stream"));
  m.def("release_cached_memory", &py::release_cached_memory);
  m.def("time_reduce_calls", &py::time_reduce_calls);
  py::bind_elementwise(m);
  py::bind_ordering(m);
  py::bind_keyed(m);
  py::bind_segmented(m);
  py::bind_apps(m);
}
