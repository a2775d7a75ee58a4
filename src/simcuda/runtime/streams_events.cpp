// CUDA's stream and event API for gpulab-simcc programs, on gpulab's streams and events: a CUDA stream
// is a gpulab::Stream of the sim device (blocking, or non-blocking for cudaStreamNonBlocking), so the
// legacy default stream's ordering is the sim device's own.
#include <fmt/format.h>

#include <gpulab/error.hpp>

#include "runtime/backend.hpp"
#include "simcuda/runtime/runtime_state.hpp"

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope
using gpulab::Event;
using gpulab::Stream;

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  return api_call("cudaStreamCreateWithFlags", [&] {
    require(stream != nullptr, "stream is null");
    require((flags & ~static_cast<unsigned>(cudaStreamNonBlocking)) == 0, "unknown stream flags");
    const auto mode = (flags & cudaStreamNonBlocking) != 0 ? gpulab::StreamMode::non_blocking : gpulab::StreamMode::blocking;
    auto* s = new CUstream_st{Stream(state().device(), mode), flags};
    std::lock_guard lock(state().mutex);
    state().streams.insert(s);
    *stream = s;
  });
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  return api_call("cudaStreamDestroy", [&] {
    {
      std::lock_guard lock(state().mutex);
      if (stream == nullptr || state().streams.erase(stream) == 0) {
        throw ApiError(cudaErrorInvalidResourceHandle, "not a stream created by cudaStreamCreate (or destroyed)");
      }
    }
    delete stream;  // its queued work finishes first
  });
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  return api_call("cudaStreamSynchronize", [&] { state().resolve(stream).synchronize(); });
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  return api_call("cudaStreamQuery", [&] {
    if (!state().resolve(stream).query()) throw ApiError(cudaErrorNotReady, "not ready");
  });
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return api_call("cudaStreamWaitEvent", [&] {
    require(flags == 0, "flags must be 0 (cudaEventWaitDefault)");
    CUevent_st* e = checked_event(event);
    if (!e->recorded) return;  // CUDA: waiting for an event never recorded does nothing
    state().resolve(stream).wait(e->event);
  });
}

// Host functions run once the stream's earlier work is done, on the calling thread: the call returns
// after the function has run, which is one order CUDA allows.
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  return api_call("cudaLaunchHostFunc", [&] {
    require(fn != nullptr, "fn is null");
    state().wait_in_order(stream);
    fn(userData);
  });
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                  unsigned int flags) {
  return api_call("cudaStreamAddCallback", [&] {
    require(callback != nullptr, "callback is null");
    require(flags == 0, "flags must be 0");
    state().wait_in_order(stream);
    callback(stream, cudaSuccess, userData);
  });
}

// ---- events -----------------------------------------------------------------------------------------------------

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  return api_call("cudaEventCreateWithFlags", [&] {
    require(event != nullptr, "event is null");
    require((flags & ~static_cast<unsigned>(cudaEventBlockingSync | cudaEventDisableTiming)) == 0,
            "unknown event flags (cudaEventInterprocess is not supported)");
    auto* e = new CUevent_st{Event(state().device()), flags, false};
    std::lock_guard lock(state().mutex);
    state().events.insert(e);
    *event = e;
  });
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  return api_call("cudaEventDestroy", [&] {
    {
      std::lock_guard lock(state().mutex);
      if (event == nullptr || state().events.erase(event) == 0) {
        throw ApiError(cudaErrorInvalidResourceHandle, "not an event created by cudaEventCreate (or destroyed)");
      }
    }
    delete event;
  });
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return api_call("cudaEventRecord", [&] {
    CUevent_st* e = checked_event(event);
    e->event.record(state().resolve(stream));
    e->recorded = true;
  });
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return api_call("cudaEventSynchronize", [&] {
    CUevent_st* e = checked_event(event);
    if (e->recorded) e->event.synchronize();
  });
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  return api_call("cudaEventQuery", [&] {
    CUevent_st* e = checked_event(event);
    if (e->recorded && !e->event.query()) throw ApiError(cudaErrorNotReady, "not ready");
  });
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  return api_call("cudaEventElapsedTime", [&] {
    require(ms != nullptr, "ms is null");
    CUevent_st* a = checked_event(start);
    CUevent_st* b = checked_event(end);
    if (((a->flags | b->flags) & cudaEventDisableTiming) != 0 || !a->recorded || !b->recorded) {
      throw ApiError(cudaErrorInvalidResourceHandle,
                     "both events must have been recorded, and created without cudaEventDisableTiming");
    }
    if (!a->event.query() || !b->event.query()) throw ApiError(cudaErrorNotReady, "not ready");
    *ms = gpulab::elapsed_ms(a->event, b->event);
  });
}

