#pragma once
// GPULAB_EXPORT_KERNEL(name) makes a kernel reachable from any device and from host code that cannot see
// it: write it once after the kernel's definition, in the kernel's .cu file. Templates are exported one
// instantiation at a time: GPULAB_EXPORT_KERNEL(scale<float>).
//
// Kernel files are compiled once per backend, so everything they define must have internal linkage:
// put kernels in an anonymous namespace. (gpulab refuses at start-up a kernel whose versions the linker
// merged because they were not.) The macro may stand inside or outside that namespace: it opens none
// itself, since nvcc's generated stubs cannot name a kernel in nested anonymous namespaces.
#include <typeinfo>

#include <gpulab/kernel_registry.hpp>

#define GPULAB_DETAIL_CAT2(a, b) a##b
#define GPULAB_DETAIL_CAT(a, b) GPULAB_DETAIL_CAT2(a, b)

#if defined(__CUDACC__) && !defined(GPULAB_SIM)
#define GPULAB_EXPORT_KERNEL(...)                                                                           \
  [[maybe_unused]] static const bool GPULAB_DETAIL_CAT(gpulab_exported_kernel_, __LINE__) =                        \
      ::gpulab::detail::export_kernel(__FILE__, #__VA_ARGS__, typeid(decltype(__VA_ARGS__)),                \
                                      ::gpulab::detail::KernelBackend::cuda,                               \
                                      reinterpret_cast<const void*>(&__VA_ARGS__), nullptr);                \
  static_assert(true, "")
#elif defined(GPULAB_SIM)
#define GPULAB_EXPORT_KERNEL(...)                                                                           \
  [[maybe_unused]] static const bool GPULAB_DETAIL_CAT(gpulab_exported_kernel_, __LINE__) =                        \
      ::gpulab::detail::export_kernel(__FILE__, #__VA_ARGS__, typeid(decltype(__VA_ARGS__)),                \
                                      GPULAB_SIM_KERNEL_BACKEND, reinterpret_cast<const void*>(&__VA_ARGS__), \
                                      &::gpulab::sim::entry_for<&__VA_ARGS__>());                           \
  static_assert(true, "")
#else
#define GPULAB_EXPORT_KERNEL(...) static_assert(true, "")
#endif
