// The runtime's side of the simulator's CUB (include/gpulab/sim/cuda/gpulab_cub_support.h).
#include <gpulab/sim/cuda/gpulab_cub_support.h>

#include <cstdio>
#include <utility>

#include "simcuda/runtime/library_tasks.hpp"
#include "simcuda/runtime/runtime_state.hpp"

namespace gpulab::sim::cub_support {

using namespace gpulab::sim::cuda::detail;  // NOLINT: the runtime's helpers

cudaError_t run_device_algorithm(cudaStream_t stream, const char* call, std::vector<Region> regions,
                                 std::function<void()> work) noexcept {
  return api_call(call, [&] {
    run_library_task(stream, call, [regions = std::move(regions), work = std::move(work)](HostTaskAccess& access) {
      for (const Region& r : regions) {
        if (r.bytes == 0) continue;
        const gpulab::detail::DeviceRegion region{r.begin, r.bytes, 1, 0, r.operand};
        if (r.written) {
          access.write(region);
        } else {
          access.read(region);
        }
      }
      work();
    });
  });
}

cudaError_t refuse(const char* call, cudaError_t code, const std::string& why) noexcept {
  std::fprintf(stderr, "gpulab-sim: %s: %s: %s\n", call, cudaGetErrorName(code), why.c_str());
  return code;
}

}  // namespace gpulab::sim::cub_support
