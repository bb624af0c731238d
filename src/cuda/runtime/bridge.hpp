// What the backend-neutral core needs from the CUDA runtime, in plain C++ (no CUDA headers).
// Compiled only when PARPRIM_HAVE_CUDA is 1; the core guards every call with that macro.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "parprim/device_info.hpp"

namespace parprim::detail {
struct context_state;
}

namespace parprim::cuda_rt {

int device_count() noexcept;                       // 0 when the driver or device is missing
// A non-blocking stream; of the device's highest priority when asked (work that should be
// scheduled ahead of the device's other streams).
void* create_stream(int device, const char* who, bool highest_priority = false);
void destroy_stream(int device, void* stream) noexcept;
int multiprocessor_count(const detail::context_state& s, const char* who);  // of s.device, checked

void* device_malloc(detail::context_state& s, std::size_t bytes, const char* who);
void device_free(detail::context_state& s, void* p) noexcept;

void copy_from_host(detail::context_state& s, void* dst, const void* src, std::size_t bytes);
void copy_to_host(detail::context_state& s, void* dst, const void* src, std::size_t bytes);
void copy(detail::context_state& s, void* dst, const void* src, std::size_t bytes);
void fill_bytes(detail::context_state& s, void* dst, unsigned char v, std::size_t bytes);

void synchronize(detail::context_state& s, const char* who);
bool is_device_accessible(int device, const void* p) noexcept;
bool is_device_only(const void* p) noexcept;  // device memory the host cannot dereference

std::vector<device_info> devices();
std::string versions();

}  // namespace parprim::cuda_rt
