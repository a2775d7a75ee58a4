// The runtime's side of Thrust on the simulator (include/gpulab/sim/cuda/gpulab_thrust_support.h).
#include <gpulab/sim/cuda/gpulab_thrust_support.h>

#include "simcuda/runtime/library_tasks.hpp"
#include "simcuda/runtime/runtime_state.hpp"
#include "simcuda/runtime/stream_capture.hpp"

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below has C linkage, at global scope

cudaError_t gpulabSimThrustMalloc(void** devPtr, size_t size) {
  return api_call("cudaMalloc (Thrust's device memory)", [&] {
    refuse_unsafe_in_capture("cudaMalloc", false);
    require(devPtr != nullptr, "devPtr is null");
    void* p = allocate_device(size, AllocationKind::device);
    *devPtr = p;
    // Written by Thrust on the host: marked as a library call marks what it writes.
    run_library_task(nullptr, "Thrust's host algorithms", [p, size](HostTaskAccess& access) {
      access.write(gpulab::detail::DeviceRegion{p, size == 0 ? 1 : size, 1, 0, "device_vector"});
    });
  });
}

int gpulabSimThrustProgram(void) {
  state().host_reads_default_stream_work.store(true, std::memory_order_relaxed);
  return 1;
}
