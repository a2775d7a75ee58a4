#pragma once
// Streams order work on a device; events mark points in a stream and time the work between them.
// Both are shared handles: copies refer to the same stream or event, which is destroyed with the last.
#include <memory>

#include <gpulab/device.hpp>

namespace gpulab {

namespace detail {
struct StreamState;
struct EventState;
}  // namespace detail

class Event;

// How a stream is ordered with its device's default stream (CUDA's legacy stream 0). A blocking
// stream's work waits for the default stream's earlier work and the default stream's work waits for
// it (cudaStreamDefault); a non-blocking stream is ordered with neither (cudaStreamNonBlocking).
enum class StreamMode { blocking, non_blocking };

class Stream {
 public:
  // No stream: work given it goes to the default stream of the device its data lives on.
  Stream() = default;
  // A new stream on `device`; by default blocking (CUDA's cudaStreamCreate): ordered with the default
  // stream, so that work queued there (a copy without a stream, say) is done before its own starts.
  explicit Stream(const Device& device, StreamMode mode = StreamMode::blocking);
  // The device's default stream (CUDA's legacy stream 0).
  static Stream default_for(const Device& device);

  bool valid() const noexcept { return state_ != nullptr; }
  const Device& device() const;
  bool is_default() const;
  // The default stream is blocking (it is the one the others block on).
  StreamMode mode() const;

  // Blocks until all work queued on the stream has finished; rethrows a kernel fault raised on it.
  void synchronize() const;
  // True when all queued work has finished.
  bool query() const;
  // Later work on this stream waits until `event` has completed.
  void wait(const Event& event) const;

  // cudaStream_t on CUDA devices; the simulator's own stream object on `sim`.
  void* native_handle() const;

  friend bool operator==(const Stream& a, const Stream& b) { return a.state_ == b.state_; }

 private:
  std::shared_ptr<detail::StreamState> state_;
};

class Event {
 public:
  Event() = default;
  explicit Event(const Device& device);

  bool valid() const noexcept { return state_ != nullptr; }
  const Device& device() const;

  // Marks the point in `stream` after all work queued so far.
  void record(const Stream& stream);
  void synchronize() const;
  bool query() const;
  // Milliseconds between `start` and this event; both must have completed.
  float elapsed_ms_since(const Event& start) const;

  void* native_handle() const;

 private:
  std::shared_ptr<detail::EventState> state_;
};

// Milliseconds from `start` to `end` (CUDA's cudaEventElapsedTime argument order).
float elapsed_ms(const Event& start, const Event& end);

}  // namespace gpulab
