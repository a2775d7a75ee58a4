#pragma once
// Kernels by name. A kernel file is compiled once per backend (nvcc for CUDA devices, the host compiler
// for the simulator, once plain and once instrumented for its checks). Each compilation exports its
// version of a kernel under the same name with GPULAB_EXPORT_KERNEL, and the record below ties them
// together, so a launch on any device finds the version compiled for it.
#include <string>
#include <string_view>
#include <typeinfo>

namespace gpulab::detail {

enum class KernelBackend : int { cuda = 0, sim = 1, sim_checked = 2 };
inline constexpr int kernel_backend_count = 3;

struct KernelRecord {
  std::string name;  // as written in GPULAB_EXPORT_KERNEL: "naive_matmul<float>"
  std::string file;  // the kernel's source file
  const std::type_info* signature = nullptr;
  // Per backend: the function's address in that compilation (the nvcc host stub for CUDA), and the
  // backend's entry object (for the simulator, a const sim::KernelEntry*).
  const void* function[kernel_backend_count] = {};
  const void* entry[kernel_backend_count] = {};
  bool exported = false;  // false for a record made on the fly for an unexported kernel

  bool has(KernelBackend b) const noexcept { return function[static_cast<int>(b)] != nullptr; }
};

// Called once per compilation of an exported kernel, at static initialisation. Returns true so it can
// initialise a namespace-scope constant.
bool export_kernel(const char* file, const char* name, const std::type_info& signature, KernelBackend backend,
                   const void* function, const void* entry) noexcept;

// The record a kernel pointer belongs to, from any compilation; nullptr if it was never exported.
const KernelRecord* find_kernel(const void* function) noexcept;
// By name and signature; throws InvalidArgument when none or several match.
const KernelRecord& find_kernel(std::string_view name, const std::type_info& signature);
// For a kernel launched through a pointer from its own compilation: the exported record if there is
// one, else a record made once for this pointer.
const KernelRecord& kernel_for_pointer(KernelBackend backend, const void* function, const void* entry,
                                       const std::type_info& signature);

}  // namespace gpulab::detail
