#pragma once
// The hooks through which the runtime's stream-ordered calls take part in stream capture
// (stream_capture.cpp). Each `capture_*` returns true when the stream is capturing and the work was
// recorded as a graph node (the caller then does nothing more), false when the work must run as
// usual. They throw CUDA's errors for work that may not be issued: to a capture that was invalidated
// (cudaErrorStreamCaptureInvalidated), or to the legacy stream while a blocking stream is capturing
// (cudaErrorStreamCaptureImplicit, which invalidates that capture). With no capture under way they
// cost one atomic load.
#include <cstddef>

#include <gpulab/kernel_registry.hpp>
#include <gpulab/launch.hpp>

#include <gpulab/sim/cuda/cuda_runtime_api.h>

namespace gpulab::sim::cuda::detail {

bool capture_kernel(cudaStream_t stream, const gpulab::detail::KernelRecord& kernel, dim3 grid, dim3 block,
                    std::size_t shared_bytes, void* const* args, const gpulab::detail::ArgInfo* info,
                    std::size_t count, bool instrumented);
bool capture_memcpy_1d(cudaStream_t stream, void* dst, const void* src, std::size_t count, cudaMemcpyKind kind,
                       const char* call);
bool capture_memcpy_2d(cudaStream_t stream, void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                       std::size_t width, std::size_t height, cudaMemcpyKind kind, const char* call);
bool capture_memcpy_3d(cudaStream_t stream, const cudaMemcpy3DParms* params, const char* call);
// A memset of `height` rows of `width` bytes, `pitch` apart.
bool capture_memset(cudaStream_t stream, void* dst, std::size_t pitch, int value, std::size_t width,
                    std::size_t height, const char* call);
// cudaMemset3DAsync: one memset node when the slices lie one after the other (else refused).
bool capture_memset_3d(cudaStream_t stream, cudaPitchedPtr ptr, int value, cudaExtent extent, const char* call);
bool capture_host_func(cudaStream_t stream, cudaHostFn_t fn, void* user_data);
bool capture_child_graph(cudaStream_t stream, const CUgraph_st& graph);
// cudaMallocAsync in a capturing stream: a memory alloc node, whose address goes to *ptr at once.
bool capture_mem_alloc(cudaStream_t stream, std::size_t bytes, void** ptr, const char* call);
// cudaFreeAsync in a capturing stream: a memory free node of a graph allocation (any other pointer
// is ApiError(cudaErrorInvalidValue), as in CUDA).
bool capture_mem_free(cudaStream_t stream, void* ptr, const char* call);
// cudaEventRecord in a capturing stream: the event then stands for the stream's captured work so
// far (with cudaEventRecordExternal, an event record node). Outside capture, forgets that the event
// was last recorded in one.
bool capture_event_record(cudaEvent_t event, cudaStream_t stream, unsigned flags);
// cudaStreamWaitEvent on an event recorded in a capture: the stream joins that capture (a fork) or
// adds the event's work to its dependencies (a join). With cudaEventWaitExternal in a capturing
// stream, an event wait node.
bool capture_event_wait(cudaStream_t stream, cudaEvent_t event, unsigned flags);

// Work that cannot be recorded in a graph: refused with cudaErrorStreamCaptureUnsupported, naming
// `call`, when `stream` is capturing (the capture is invalidated).
void refuse_in_capture(cudaStream_t stream, const char* call, const char* why);
// A call that is not stream-ordered (an allocation, a synchronous copy, a device-wide
// synchronisation) made while the capture mode rules prohibit it: cudaErrorStreamCaptureUnsupported,
// and the captures that prohibit it are invalidated. `on_legacy_stream`: the call is ordered on the
// legacy stream, which may not wait for a capturing blocking stream.
void refuse_unsafe_in_capture(const char* call, bool on_legacy_stream);
// cudaStreamSynchronize / cudaStreamQuery of a capturing stream (which invalidates it).
void refuse_sync_in_capture(cudaStream_t stream, const char* call);
// cudaEventSynchronize / cudaEventQuery of an event last recorded in a capture: cudaErrorCapturedEvent.
void refuse_captured_event(cudaEvent_t event, const char* call);
// cudaEventDestroy: the event's capture state goes with it.
void forget_captured_event(cudaEvent_t event) noexcept;

}  // namespace gpulab::sim::cuda::detail
