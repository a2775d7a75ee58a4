#include <gpulab/device.hpp>
#include <gpulab/error.hpp>

#include <charconv>
#include <map>
#include <mutex>
#include <utility>

#include <fmt/format.h>

#include "runtime/backend.hpp"
#include "runtime/cuda_status.hpp"

namespace gpulab {

Device::Device(DeviceKind kind, int ordinal) : space_{kind, ordinal} {}

const DeviceProperties& Device::properties() const {
  // Properties do not change while the process runs: read each device's once.
  static std::mutex mutex;
  static std::map<std::pair<int, int>, DeviceProperties> cache;
  const std::lock_guard lock(mutex);
  const auto key = std::make_pair(static_cast<int>(kind()), ordinal());
  auto it = cache.find(key);
  if (it == cache.end()) {
    it = cache.emplace(key, detail::backend_for(kind()).properties(ordinal())).first;
  }
  return it->second;
}

MemoryInfo Device::memory_info() const { return detail::backend_for(kind()).memory_info(ordinal()); }

void Device::synchronize() const { detail::backend_for(kind()).synchronize_device(ordinal()); }

Device host_device() { return Device(DeviceKind::host, 0); }

Device sim_device() {
  detail::backend_for(DeviceKind::sim);
  return Device(DeviceKind::sim, 0);
}

Device cuda_device(int ordinal) {
  auto& backend = detail::backend_for(DeviceKind::cuda);
  const int count = backend.device_count();
  if (ordinal < 0 || ordinal >= count) {
    const CudaStatus status = cuda_status();
    if (count == 0 && (status.driver_version == 0 || status.driver_version < status.runtime_version)) {
      throw DriverError(status.driver_version, status.runtime_version,
                        fmt::format("cuda:{} is not usable: {}", ordinal,
                                    status.driver_version == 0 ? "no CUDA driver was found"
                                                               : "the CUDA driver is older than the runtime"));
    }
    if (count == 0) {
      throw InvalidArgument(fmt::format("cuda:{} does not exist: no CUDA device is usable ({})", ordinal,
                                        status.error_name.empty() ? "the driver reports none" : status.error_name));
    }
    throw InvalidArgument(fmt::format("cuda:{} does not exist: {} CUDA device(s), cuda:0 to cuda:{}", ordinal, count,
                                      count - 1));
  }
  return Device(DeviceKind::cuda, ordinal);
}

std::vector<Device> devices() {
  std::vector<Device> out;
  if (auto* cuda = detail::find_backend(DeviceKind::cuda)) {
    for (int i = 0; i < cuda->device_count(); ++i) out.emplace_back(DeviceKind::cuda, i);
  }
  if (detail::find_backend(DeviceKind::sim) != nullptr) out.emplace_back(DeviceKind::sim, 0);
  out.push_back(host_device());
  return out;
}

Device default_device() {
  if (auto* cuda = detail::find_backend(DeviceKind::cuda); cuda != nullptr && cuda->device_count() > 0) {
    return Device(DeviceKind::cuda, 0);
  }
  return sim_device();
}

Device parse_device(std::string_view id) {
  if (id == "cpu" || id == "host") return host_device();
  if (id == "sim") return sim_device();
  if (id == "cuda") return cuda_device(0);
  if (id.starts_with("cuda:")) {
    const std::string_view digits = id.substr(5);
    int ordinal = -1;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), ordinal);
    if (ec == std::errc() && ptr == digits.data() + digits.size() && !digits.empty()) return cuda_device(ordinal);
  }
  throw InvalidArgument(fmt::format("unknown device '{}': expected cpu, sim, cuda or cuda:N", id));
}

CudaStatus cuda_status() { return detail::query_cuda_status(); }

}  // namespace gpulab
