#include <gpulab/error.hpp>
#include <gpulab/stream.hpp>

#include <fmt/format.h>

#include "runtime/stream_state.hpp"

namespace gpulab {

namespace detail {

StreamState::~StreamState() {
  if (owned && handle != nullptr) backend_for(device.kind()).destroy_stream(device.ordinal(), handle);
}

EventState::~EventState() {
  if (handle != nullptr) backend_for(device.kind()).destroy_event(device.ordinal(), handle);
}

StreamHandle stream_handle_for(const Stream& stream, const Device& device) {
  if (!stream.valid()) return backend_for(device.kind()).default_stream(device.ordinal());
  if (stream.device() != device) {
    throw InvalidArgument(
        fmt::format("a stream of {} cannot order work on {}: use a stream of {}", stream.device().id(), device.id(),
                    device.id()));
  }
  return stream.native_handle();
}

}  // namespace detail

namespace {
const Device& no_device() {
  static const Device host;
  return host;
}
}  // namespace

Stream::Stream(const Device& device, StreamMode mode) : state_(std::make_shared<detail::StreamState>()) {
  state_->device = device;
  state_->handle = detail::backend_for(device.kind()).create_stream(device.ordinal(), mode);
  state_->owned = true;
  state_->mode = mode;
}

Stream Stream::default_for(const Device& device) {
  Stream s;
  s.state_ = std::make_shared<detail::StreamState>();
  s.state_->device = device;
  s.state_->handle = detail::backend_for(device.kind()).default_stream(device.ordinal());
  s.state_->owned = false;
  return s;
}

const Device& Stream::device() const { return state_ ? state_->device : no_device(); }
bool Stream::is_default() const { return !state_ || !state_->owned; }
StreamMode Stream::mode() const { return state_ ? state_->mode : StreamMode::blocking; }

void Stream::synchronize() const {
  if (!state_) return;
  detail::backend_for(state_->device.kind()).synchronize_stream(state_->device.ordinal(), state_->handle);
}

bool Stream::query() const {
  if (!state_) return true;
  return detail::backend_for(state_->device.kind()).query_stream(state_->device.ordinal(), state_->handle);
}

void Stream::wait(const Event& event) const {
  if (!state_ || !event.valid()) throw InvalidArgument("Stream::wait needs a stream and an event");
  if (event.device() != state_->device) {
    throw InvalidArgument(fmt::format("a stream of {} cannot wait for an event of {}", state_->device.id(),
                                      event.device().id()));
  }
  detail::backend_for(state_->device.kind())
      .stream_wait_event(state_->device.ordinal(), state_->handle, event.native_handle());
}

void* Stream::native_handle() const { return state_ ? state_->handle : nullptr; }

Event::Event(const Device& device) : state_(std::make_shared<detail::EventState>()) {
  state_->device = device;
  state_->handle = detail::backend_for(device.kind()).create_event(device.ordinal());
}

const Device& Event::device() const { return state_ ? state_->device : no_device(); }

void Event::record(const Stream& stream) {
  if (!state_) throw InvalidArgument("Event::record on an empty event: construct it with a device");
  const detail::StreamHandle h = detail::stream_handle_for(stream, state_->device);
  detail::backend_for(state_->device.kind()).record_event(state_->device.ordinal(), state_->handle, h);
}

void Event::synchronize() const {
  if (!state_) return;
  detail::backend_for(state_->device.kind()).synchronize_event(state_->device.ordinal(), state_->handle);
}

bool Event::query() const {
  if (!state_) return true;
  return detail::backend_for(state_->device.kind()).query_event(state_->device.ordinal(), state_->handle);
}

float Event::elapsed_ms_since(const Event& start) const { return elapsed_ms(start, *this); }

void* Event::native_handle() const { return state_ ? state_->handle : nullptr; }

float elapsed_ms(const Event& start, const Event& end) {
  if (!start.valid() || !end.valid()) throw InvalidArgument("elapsed_ms needs two recorded events");
  if (start.device() != end.device()) {
    throw InvalidArgument(
        fmt::format("elapsed_ms: events of different devices ({} and {})", start.device().id(), end.device().id()));
  }
  return detail::backend_for(start.device().kind())
      .elapsed_ms(start.device().ordinal(), start.native_handle(), end.native_handle());
}

}  // namespace gpulab
