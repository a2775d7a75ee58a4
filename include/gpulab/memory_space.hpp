#pragma once
// Where memory lives. Views carry their space so that an operation can refuse operands that live in
// different places instead of dereferencing a pointer of the wrong kind.
#include <cstdint>
#include <string>

#include <gpulab/kernel_qualifiers.hpp>

namespace gpulab {

enum class DeviceKind : std::uint8_t { host = 0, sim = 1, cuda = 2 };

struct MemorySpace {
  DeviceKind kind = DeviceKind::host;
  std::int32_t ordinal = 0;

  GPULAB_HD friend constexpr bool operator==(MemorySpace a, MemorySpace b) {
    return a.kind == b.kind && a.ordinal == b.ordinal;
  }
  GPULAB_HD friend constexpr bool operator!=(MemorySpace a, MemorySpace b) { return !(a == b); }
};

inline constexpr MemorySpace host_space{DeviceKind::host, 0};

// "cpu", "sim", "cuda:0": the ids that `gpulab devices` prints and `--device` takes.
std::string to_string(MemorySpace space);
const char* to_string(DeviceKind kind);

}  // namespace gpulab
