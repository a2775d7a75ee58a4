#pragma once
// Devices: the CUDA GPUs the driver reports, the simulator (`sim`) and the host (`cpu`). A Device is a
// cheap value (a kind and an ordinal); its properties are read once and cached.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <gpulab/memory_space.hpp>

namespace gpulab {

class Stream;

struct DeviceProperties {
  std::string id;    // "cuda:0", "sim", "cpu"
  std::string name;  // "NVIDIA H200", "gpulab simulator (sm_90)", "AMD EPYC 9R14"
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessor_count = 0;  // SMs; for sim and cpu, the host's cores
  std::size_t total_memory = 0;
  std::size_t l2_cache_bytes = 0;
  std::size_t shared_memory_per_block = 0;        // the default limit (48 KiB)
  std::size_t shared_memory_per_block_optin = 0;  // the most a kernel may opt in to
  std::size_t shared_memory_per_multiprocessor = 0;
  int max_threads_per_block = 0;
  std::array<int, 3> max_block_dim{};
  std::array<int, 3> max_grid_dim{};
  int max_threads_per_multiprocessor = 0;
  int registers_per_block = 0;
  int warp_size = 0;
  int clock_khz = 0;         // 0 where it cannot be read
  int memory_clock_khz = 0;  // 0 where it cannot be read
  int memory_bus_width_bits = 0;
  std::string isa;  // host only: "avx512 (512-bit FMA)"; empty elsewhere
};

struct MemoryInfo {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
};

class Device {
 public:
  // The host.
  Device() = default;
  Device(DeviceKind kind, int ordinal);

  DeviceKind kind() const noexcept { return space_.kind; }
  int ordinal() const noexcept { return space_.ordinal; }
  MemorySpace space() const noexcept { return space_; }
  std::string id() const { return to_string(space_); }
  bool is_cuda() const noexcept { return space_.kind == DeviceKind::cuda; }
  bool is_sim() const noexcept { return space_.kind == DeviceKind::sim; }
  bool is_host() const noexcept { return space_.kind == DeviceKind::host; }

  const DeviceProperties& properties() const;
  MemoryInfo memory_info() const;
  // Waits for all work on every stream of this device.
  void synchronize() const;

  friend bool operator==(const Device&, const Device&) = default;

 private:
  MemorySpace space_{};
};

// Every device gpulab can use here: each usable CUDA device, then `sim`, then `cpu`.
std::vector<Device> devices();
// A usable CUDA device if there is one, otherwise the simulator.
Device default_device();
// Parses "cpu", "sim", "cuda", "cuda:N". Throws InvalidArgument naming the id and what exists.
Device parse_device(std::string_view id);

Device host_device();
Device sim_device();
Device cuda_device(int ordinal);

// What the CUDA runtime says about this machine, without throwing.
struct CudaStatus {
  bool built_with_cuda = false;  // the CUDA backend was compiled in
  int runtime_version = 0;       // cudaRuntimeGetVersion (13000 for 13.0); 0 without CUDA
  int driver_version = 0;        // cudaDriverGetVersion; 0 when no driver is installed
  int device_count = 0;          // usable devices
  int error_code = 0;            // cudaGetDeviceCount's error, 0 on success
  std::string error_name;        // e.g. "cudaErrorInsufficientDriver"
  std::string error_text;        // CUDA's text for it
  bool usable() const noexcept { return device_count > 0; }
};
CudaStatus cuda_status();

}  // namespace gpulab
