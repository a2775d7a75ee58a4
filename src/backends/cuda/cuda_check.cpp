#include "backends/cuda/cuda_check.hpp"

#include <fmt/format.h>

#include <gpulab/error.hpp>

namespace gpulab::detail {

bool is_sticky_kernel_error(cudaError_t code) noexcept {
  switch (code) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
      return true;
    default:
      return false;
  }
}

void check_cuda(cudaError_t code, const char* call, const char* file, int line, const char* kernel) {
  if (code == cudaSuccess) return;
  const char* name = cudaGetErrorName(code);
  const char* text = cudaGetErrorString(code);
  if (code == cudaErrorInsufficientDriver || code == cudaErrorNoDevice) {
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    throw DriverError(driver, runtime, fmt::format("{} failed: {} ({})", call, text, name));
  }
  if (is_sticky_kernel_error(code)) {
    throw KernelFault(kernel != nullptr ? kernel : "(unknown)",
                      fmt::format("{} ({}), reported by {} at {}:{}; the CUDA context is now unusable: restart the "
                                  "process (run with GPULAB_LAUNCH_BLOCKING=1 to find the launch that faulted)",
                                  text, name, call, file, line));
  }
  throw CudaError(static_cast<int>(code), name, text, call, file, line);
}

}  // namespace gpulab::detail
