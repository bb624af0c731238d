// Names of enum values, for messages, benchmark rows and the CLI.
#include "parprim/error.hpp"
#include "parprim/ops.hpp"

namespace parprim {

const char* to_string(errc code) noexcept {
  switch (code) {
    case errc::invalid_argument: return "invalid_argument";
    case errc::out_of_range: return "out_of_range";
    case errc::backend_unavailable: return "backend_unavailable";
    case errc::out_of_memory: return "out_of_memory";
    case errc::device_error: return "device_error";
    case errc::io_error: return "io_error";
  }
  return "unknown";
}

const char* to_string(op o) noexcept {
  switch (o) {
    case op::plus: return "plus";
    case op::min: return "min";
    case op::max: return "max";
  }
  return "unknown";
}

const char* to_string(unary_op o) noexcept {
  switch (o) {
    case unary_op::identity: return "identity";
    case unary_op::negate: return "negate";
    case unary_op::abs: return "abs";
    case unary_op::square: return "square";
  }
  return "unknown";
}

const char* to_string(binary_op o) noexcept {
  switch (o) {
    case binary_op::plus: return "plus";
    case binary_op::minus: return "minus";
    case binary_op::multiply: return "multiply";
    case binary_op::min: return "min";
    case binary_op::max: return "max";
  }
  return "unknown";
}

const char* to_string(reduce_algorithm a) noexcept {
  switch (a) {
    case reduce_algorithm::interleaved: return "interleaved";
    case reduce_algorithm::contiguous: return "contiguous";
    case reduce_algorithm::production: return "production";
  }
  return "unknown";
}

const char* to_string(scan_algorithm a) noexcept {
  switch (a) {
    case scan_algorithm::hillis_steele: return "hillis_steele";
    case scan_algorithm::blelloch: return "blelloch";
    case scan_algorithm::blelloch_conflict_free: return "blelloch_conflict_free";
    case scan_algorithm::decoupled_lookback: return "decoupled_lookback";
  }
  return "unknown";
}

}  // namespace parprim
