#include "device_report.hpp"

#include <fmt/format.h>

#include <gpulab/error.hpp>

namespace gpulab::cli {

namespace {

std::string gib(std::size_t bytes) { return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1 << 30)); }
std::string kib(std::size_t bytes) { return fmt::format("{} KiB", bytes / 1024); }

}  // namespace

std::string describe_device_line(const Device& device) {
  const DeviceProperties& p = device.properties();
  const MemoryInfo mem = device.memory_info();
  if (device.is_host()) {
    return fmt::format("{:<8} {}  {} cores  {}  {} ({} free)", p.id, p.name, p.multiprocessor_count, p.isa,
                       gib(mem.total_bytes), gib(mem.free_bytes));
  }
  std::string line = fmt::format("{:<8} {}  sm_{}{}  {} SMs  {} ({} free)  L2 {}  shared {}/{} per block  "
                                 "{} threads/block  warp {}",
                                 p.id, p.name, p.compute_major, p.compute_minor, p.multiprocessor_count,
                                 gib(mem.total_bytes), gib(mem.free_bytes), kib(p.l2_cache_bytes),
                                 kib(p.shared_memory_per_block), kib(p.shared_memory_per_block_optin),
                                 p.max_threads_per_block, p.warp_size);
  if (p.clock_khz > 0) line += fmt::format("  {} MHz", p.clock_khz / 1000);
  return line;
}

nlohmann::json device_json(const Device& device) {
  const DeviceProperties& p = device.properties();
  const MemoryInfo mem = device.memory_info();
  nlohmann::json j{{"id", p.id},
                   {"kind", to_string(device.kind())},
                   {"name", p.name},
                   {"multiprocessors", p.multiprocessor_count},
                   {"memory_total_bytes", mem.total_bytes},
                   {"memory_free_bytes", mem.free_bytes}};
  if (device.is_host()) {
    j["isa"] = p.isa;
    return j;
  }
  j["compute_capability"] = fmt::format("{}.{}", p.compute_major, p.compute_minor);
  j["l2_cache_bytes"] = p.l2_cache_bytes;
  j["shared_memory_per_block_bytes"] = p.shared_memory_per_block;
  j["shared_memory_per_block_optin_bytes"] = p.shared_memory_per_block_optin;
  j["shared_memory_per_multiprocessor_bytes"] = p.shared_memory_per_multiprocessor;
  j["max_threads_per_block"] = p.max_threads_per_block;
  j["max_block_dim"] = p.max_block_dim;
  j["max_grid_dim"] = p.max_grid_dim;
  j["warp_size"] = p.warp_size;
  j["clock_khz"] = p.clock_khz;
  j["memory_clock_khz"] = p.memory_clock_khz;
  j["memory_bus_width_bits"] = p.memory_bus_width_bits;
  return j;
}

nlohmann::json cuda_status_json(const CudaStatus& s) {
  return {{"built_with_cuda", s.built_with_cuda},
          {"runtime_version", s.runtime_version},
          {"runtime", format_cuda_version(s.runtime_version)},
          {"driver_version", s.driver_version},
          {"driver", format_cuda_version(s.driver_version)},
          {"device_count", s.device_count},
          {"usable", s.usable()},
          {"error", s.error_code == 0 ? nlohmann::json(nullptr)
                                      : nlohmann::json{{"code", s.error_code},
                                                       {"name", s.error_name},
                                                       {"text", s.error_text}}}};
}

std::string cuda_unavailable_reason(const CudaStatus& s) {
  if (!s.built_with_cuda) return "gpulab was built without the CUDA backend (GPULAB_CUDA=OFF or no toolkit)";
  if (s.error_code != 0) {
    return fmt::format("cudaGetDeviceCount failed: {} ({}); driver {}, runtime {}", s.error_name, s.error_text,
                       format_cuda_version(s.driver_version), format_cuda_version(s.runtime_version));
  }
  return "the CUDA driver reports no devices";
}

}  // namespace gpulab::cli
