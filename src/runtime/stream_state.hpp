#pragma once
// What a Stream and an Event handle share: the device and the backend's handle.
#include <gpulab/device.hpp>
#include <gpulab/stream.hpp>

#include "runtime/backend.hpp"

namespace gpulab::detail {

struct StreamState {
  Device device;
  StreamHandle handle = nullptr;
  bool owned = false;  // false for a device's default stream
  StreamMode mode = StreamMode::blocking;
  ~StreamState();
};

struct EventState {
  Device device;
  EventHandle handle = nullptr;
  ~EventState();
};

// The backend handle of `stream` for work on `device`: the stream's own when it has one (it must be on
// `device`, else InvalidArgument), otherwise the device's default stream.
StreamHandle stream_handle_for(const Stream& stream, const Device& device);

}  // namespace gpulab::detail
