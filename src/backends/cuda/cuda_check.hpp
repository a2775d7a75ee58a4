#pragma once
// Every CUDA runtime call goes through GPULAB_CUDA_CHECK, which turns a failure into the right gpulab
// error: OutOfMemory for allocations, DriverError for a missing or old driver, KernelFault for a fault
// that a kernel left behind, CudaError for the rest.
#include <cuda_runtime_api.h>

namespace gpulab::detail {

// Throws for any code but cudaSuccess. `kernel` names the last kernel launched on the device, for
// faults reported by a later call.
void check_cuda(cudaError_t code, const char* call, const char* file, int line, const char* kernel = nullptr);

// True for the errors after which the CUDA context is unusable (illegal address, launch failure, ...).
bool is_sticky_kernel_error(cudaError_t code) noexcept;

}  // namespace gpulab::detail

#define GPULAB_CUDA_CHECK(call) ::gpulab::detail::check_cuda((call), #call, __FILE__, __LINE__)
