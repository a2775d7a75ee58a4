#pragma once
// Where an address lies outside device memory: in a loaded module's image (globals, __constant__,
// string literals), or in the calling host thread's static TLS (where static __shared__ arrays live).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpulab::sim::detail {

struct AddressRange {
  std::uintptr_t begin = 0;
  std::size_t bytes = 0;
  bool contains(const void* p) const noexcept {
    return static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(p) - begin) < bytes;
  }
};

// The calling thread's TLS blocks, one per module that has one.
std::vector<AddressRange> thread_tls_ranges();
// True when `p` is in a loaded module's segments (rescans once when a module was loaded since).
bool in_loaded_module(const void* p);

}  // namespace gpulab::sim::detail
