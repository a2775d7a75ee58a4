#pragma once
// What the simulator's CUDA runtime (libgpulab, src/simcuda/runtime/) offers the
// launch templates of gpulab-simcc's <cuda_runtime.h>. Not a CUDA header: nothing here is CUDA's API.
#include <cstddef>
#include <typeinfo>

#include <gpulab/kernel_registry.hpp>
#include <gpulab/launch.hpp>

#include "cuda_runtime_api.h"

namespace gpulab::sim::cuda::detail {

// Implemented in libgpulab (src/simcuda/runtime/launches.cpp).
const gpulab::detail::KernelRecord& register_kernel(const void* function, const std::type_info& signature,
                                                    gpulab::detail::KernelBackend backend, const void* entry,
                                                    const char* name, const char* file);
const gpulab::detail::KernelRecord* find_registered(const void* function);
cudaError_t launch(const gpulab::detail::KernelRecord& kernel, dim3 grid, dim3 block, std::size_t shared_bytes,
                   cudaStream_t stream, void* const* args, const gpulab::detail::ArgInfo* info, std::size_t count,
                   bool instrumented, bool cooperative = false);
cudaError_t copy_symbol(void* symbol, std::size_t symbol_bytes, void* other, std::size_t count, std::size_t offset,
                        cudaMemcpyKind kind, bool to_symbol, cudaStream_t stream, bool async);
cudaError_t set_max_dynamic_shared(const gpulab::detail::KernelRecord& kernel, int bytes);
cudaError_t unsupported_attribute(const char* call, int attr);

}  // namespace gpulab::sim::cuda::detail
