#pragma once
#include <gpulab/device.hpp>

namespace gpulab::detail {
// Asks the CUDA runtime about the driver, without throwing; defined by the CUDA backend, or as "not
// built" when it is off.
CudaStatus query_cuda_status();
}  // namespace gpulab::detail
