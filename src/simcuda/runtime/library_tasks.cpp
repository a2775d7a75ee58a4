// Library calls as host tasks on CUDA streams (library_tasks.hpp).
#include "simcuda/runtime/library_tasks.hpp"

#include <utility>

#include "runtime/backend.hpp"
#include "simcuda/runtime/runtime_state.hpp"
#include "simcuda/runtime/stream_capture.hpp"

namespace gpulab::sim::cuda::detail {

void run_library_task(cudaStream_t stream, std::string name, std::function<void(HostTaskAccess&)> body) {
  const Stream s = state().resolve(stream);
  refuse_in_capture(stream, name.c_str(),
                    "the simulator's CUDA libraries run their calls on the stream as host tasks, which a graph "
                    "cannot hold yet");
  gpulab::detail::backend_for(gpulab::DeviceKind::sim)
      .run_host_task(0, gpulab::detail::HostTask{std::move(name), std::move(body)}, s.native_handle());
  if (state().host_waits_for(stream)) s.synchronize();
}

void synchronize_library_stream(cudaStream_t stream) { state().resolve(stream).synchronize(); }

cudaError_t library_context_error() noexcept { return sticky_error(); }

cudaError_t record_library_error(const char* call) noexcept { return translate_current_exception(call); }

}  // namespace gpulab::sim::cuda::detail
