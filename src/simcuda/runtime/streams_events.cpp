// CUDA's stream and event API for gpulab-simcc programs, on gpulab's streams and events: a CUDA stream
// is a gpulab::Stream of the sim device (blocking, or non-blocking for cudaStreamNonBlocking), so the
// legacy default stream's ordering is the sim device's own.
#include <algorithm>

#include <fmt/format.h>

#include <gpulab/error.hpp>

#include "runtime/backend.hpp"
#include "simcuda/runtime/runtime_state.hpp"
#include "simcuda/runtime/stream_capture.hpp"

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope
using gpulab::Event;
using gpulab::Stream;

namespace {

// The sm_90 range cudaDeviceGetStreamPriorityRange reports: 0 is the least priority, -5 the greatest.
constexpr int least_priority = 0, greatest_priority = -5;

// A created stream (validated), or nullptr for the default streams.
CUstream_st* created_stream(cudaStream_t stream) {
  if (state().is_default(stream)) return nullptr;
  state().resolve(stream);  // throws for a handle that is not a stream
  return stream;
}

}  // namespace

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority) {
  return api_call("cudaStreamCreateWithPriority", [&] {
    require(stream != nullptr, "stream is null");
    require((flags & ~static_cast<unsigned>(cudaStreamNonBlocking)) == 0, "unknown stream flags");
    const auto mode = (flags & cudaStreamNonBlocking) != 0 ? gpulab::StreamMode::non_blocking : gpulab::StreamMode::blocking;
    // CUDA clamps a priority outside the range to it.
    const int clamped = std::clamp(priority, greatest_priority, least_priority);
    auto* s = new CUstream_st{Stream(state().device(), mode), flags, clamped, 0, {}};
    std::lock_guard lock(state().mutex);
    s->id = state().next_stream_id++;
    state().streams.insert(s);
    *stream = s;
  });
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  return cudaStreamCreateWithPriority(stream, flags, least_priority);
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags) {
  return api_call("cudaStreamGetFlags", [&] {
    require(flags != nullptr, "flags is null");
    const CUstream_st* s = created_stream(hStream);
    *flags = s != nullptr ? s->flags : cudaStreamDefault;
  });
}

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int* priority) {
  return api_call("cudaStreamGetPriority", [&] {
    require(priority != nullptr, "priority is null");
    const CUstream_st* s = created_stream(hStream);
    *priority = s != nullptr ? s->priority : least_priority;
  });
}

cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int* device) {
  return api_call("cudaStreamGetDevice", [&] {
    require(device != nullptr, "device is null");
    created_stream(hStream);
    *device = 0;
  });
}

// Ids: the legacy stream is 0, the per-thread streams 1 (CUDA gives each its own; the simulator's
// differ per thread too, but share this id), created streams 2, 3, ...
cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long* streamId) {
  return api_call("cudaStreamGetId", [&] {
    require(streamId != nullptr, "streamId is null");
    const CUstream_st* s = created_stream(hStream);
    *streamId = s != nullptr ? s->id + 1 : state().is_per_thread(hStream) ? 1 : 0;
  });
}

namespace {

void check_stream_attribute(cudaStreamAttrID attr, const char* call) {
  switch (attr) {
    case cudaLaunchAttributeAccessPolicyWindow:
    case cudaLaunchAttributeSynchronizationPolicy:
    case cudaLaunchAttributePriority:
    case cudaLaunchAttributeMemSyncDomainMap:
    case cudaLaunchAttributeMemSyncDomain:
      return;
    default:
      throw ApiError(cudaErrorInvalidValue, fmt::format("{}: {} is not a stream attribute", call, static_cast<int>(attr)));
  }
}

}  // namespace

cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, const cudaStreamAttrValue* value) {
  return api_call("cudaStreamSetAttribute", [&] {
    require(value != nullptr, "value is null");
    check_stream_attribute(attr, "cudaStreamSetAttribute");
    CUstream_st* s = created_stream(hStream);
    if (s == nullptr) throw ApiError(cudaErrorInvalidResourceHandle, "cudaStreamSetAttribute: the default stream's attributes cannot be set");
    if (attr == cudaLaunchAttributeAccessPolicyWindow) {
      const cudaAccessPolicyWindow& w = value->accessPolicyWindow;
      require(w.hitRatio >= 0.0f && w.hitRatio <= 1.0f, "accessPolicyWindow.hitRatio must be in [0, 1]");
    }
    std::lock_guard lock(state().mutex);
    if (attr == cudaLaunchAttributePriority) s->priority = std::clamp(value->priority, greatest_priority, least_priority);
    s->attributes[attr] = *value;
  });
}

cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, cudaStreamAttrValue* value_out) {
  return api_call("cudaStreamGetAttribute", [&] {
    require(value_out != nullptr, "value_out is null");
    check_stream_attribute(attr, "cudaStreamGetAttribute");
    CUstream_st* s = created_stream(hStream);
    *value_out = cudaStreamAttrValue{};
    if (attr == cudaLaunchAttributeSynchronizationPolicy) value_out->syncPolicy = cudaSyncPolicyAuto;
    if (s == nullptr) return;
    std::lock_guard lock(state().mutex);
    if (const auto it = s->attributes.find(attr); it != s->attributes.end()) *value_out = it->second;
    if (attr == cudaLaunchAttributePriority) value_out->priority = s->priority;
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
  return api_call("cudaStreamSynchronize", [&] {
    refuse_sync_in_capture(stream, "cudaStreamSynchronize");
    state().resolve(stream).synchronize();
  });
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  return api_call("cudaStreamQuery", [&] {
    refuse_sync_in_capture(stream, "cudaStreamQuery");
    if (!state().resolve(stream).query()) throw ApiError(cudaErrorNotReady, "not ready");
  });
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return api_call("cudaStreamWaitEvent", [&] {
    if (capture_event_wait(stream, event, flags)) return;
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
    if (capture_host_func(stream, fn, userData)) return;
    state().wait_in_order(stream);
    fn(userData);
  });
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                  unsigned int flags) {
  return api_call("cudaStreamAddCallback", [&] {
    require(callback != nullptr, "callback is null");
    refuse_in_capture(stream, "cudaStreamAddCallback", "CUDA does not capture it either: use cudaLaunchHostFunc");
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
    forget_captured_event(event);
    delete event;
  });
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return api_call("cudaEventRecord", [&] {
    if (capture_event_record(event, stream, cudaEventRecordDefault)) return;
    CUevent_st* e = checked_event(event);
    e->event.record(state().resolve(stream));
    e->recorded = true;
  });
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  return api_call("cudaEventRecordWithFlags", [&] {
    // cudaEventRecordExternal matters only inside stream capture, where it makes an event node.
    require((flags & ~static_cast<unsigned>(cudaEventRecordExternal)) == 0, "flags must be 0 or cudaEventRecordExternal");
    if (capture_event_record(event, stream, flags)) return;
    CUevent_st* e = checked_event(event);
    e->event.record(state().resolve(stream));
    e->recorded = true;
  });
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return api_call("cudaEventSynchronize", [&] {
    refuse_captured_event(event, "cudaEventSynchronize");
    CUevent_st* e = checked_event(event);
    if (e->recorded) e->event.synchronize();
  });
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  return api_call("cudaEventQuery", [&] {
    refuse_captured_event(event, "cudaEventQuery");
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

