#include <gpulab/memory_space.hpp>

#include <string>

namespace gpulab {

const char* to_string(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::host:
      return "cpu";
    case DeviceKind::sim:
      return "sim";
    case DeviceKind::cuda:
      return "cuda";
  }
  return "unknown";
}

std::string to_string(MemorySpace space) {
  if (space.kind == DeviceKind::cuda) return "cuda:" + std::to_string(space.ordinal);
  return to_string(space.kind);
}

}  // namespace gpulab
