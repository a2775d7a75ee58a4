#pragma once
// How the simulator's CUDA libraries (src/simcuda/cublas, src/simcuda/curand) run a call's work: as a
// host task (src/runtime/backend.hpp) queued on the call's CUDA stream, ordered as a kernel on that stream
// would be, with the device memory it touches declared so that memcheck and initcheck see it.
#include <functional>
#include <string>

#include <gpulab/sim/cuda/cuda_runtime_api.h>

#include "runtime/backend.hpp"

namespace gpulab::sim::cuda::detail {

using gpulab::detail::DeviceRegion;
using gpulab::detail::HostTaskAccess;

// Queues `body` on `stream` (0, cudaStreamLegacy, cudaStreamPerThread or a created stream). Throws
// ApiError for a stream that is not one, or that is capturing (the call cannot be recorded in a graph:
// the capture is invalidated, as for any work a capture refuses).
void run_library_task(cudaStream_t stream, std::string name, std::function<void(HostTaskAccess&)> body);

// Waits for `stream`'s work; rethrows a fault of it (a library's result returned to host memory is
// read after its work is done).
void synchronize_library_stream(cudaStream_t stream);

// The CUDA error a library call would meet now: the context's sticky error, else cudaSuccess.
cudaError_t library_context_error() noexcept;

// Records the exception being handled as CUDA's error for `call` (reported as the runtime reports
// its own calls' errors), and returns it.
cudaError_t record_library_error(const char* call) noexcept;

}  // namespace gpulab::sim::cuda::detail
