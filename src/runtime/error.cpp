#include <gpulab/error.hpp>

#include <fmt/format.h>

namespace gpulab {

CudaError::CudaError(int code, std::string name, std::string text, std::string call, std::string file, int line)
    : Error(fmt::format("{} failed: {} ({}, code {}) at {}:{}", call, text, name, code, file, line)),
      code_(code),
      name_(std::move(name)),
      text_(std::move(text)),
      call_(std::move(call)),
      file_(std::move(file)),
      line_(line) {}

OutOfMemory::OutOfMemory(std::string device, std::size_t requested, std::size_t free_bytes, std::size_t total_bytes)
    : Error(fmt::format("out of memory on {}: requested {}, free {} of {}; use smaller arrays, free unused ones, "
                        "or pick a device with more memory",
                        device, format_bytes(requested), format_bytes(free_bytes), format_bytes(total_bytes))),
      device_(std::move(device)),
      requested_(requested),
      free_(free_bytes),
      total_(total_bytes) {}

DriverError::DriverError(int driver_version, int runtime_version, std::string detail)
    : Error(fmt::format("{} (driver supports CUDA {}, runtime is CUDA {}); {}", detail,
                        format_cuda_version(driver_version), format_cuda_version(runtime_version),
                        driver_version == 0 ? "install the NVIDIA driver, or use the simulator (--device sim)"
                                            : "update the NVIDIA driver to one that supports this CUDA runtime")),
      driver_(driver_version),
      runtime_(runtime_version) {}

KernelFault::KernelFault(std::string kernel, std::string what)
    : Error(fmt::format("kernel {} faulted: {}", kernel, what)), kernel_(std::move(kernel)) {}

std::string format_bytes(std::size_t bytes) {
  static constexpr const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  double value = static_cast<double>(bytes);
  int unit = -1;
  while (value >= 1024.0 && unit < 3) {
    value /= 1024.0;
    ++unit;
  }
  return fmt::format("{:.2f} {} ({} bytes)", value, units[unit], bytes);
}

std::string format_cuda_version(int version) {
  if (version <= 0) return "none";
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

}  // namespace gpulab
