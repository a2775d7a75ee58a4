#pragma once
// The sim device's streams and events. A stream is a host thread that runs its work in order; an
// event marks a point in a stream. The device's default stream is CUDA's legacy stream 0: work on it
// waits for the work queued before on every blocking stream, and work on a blocking stream waits for
// the default stream's earlier work; a non-blocking stream (cudaStreamNonBlocking) is ordered with
// neither.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include <gpulab/stream.hpp>

namespace gpulab::sim::detail {

class SimStream;
// The stream whose work the calling host thread is running; null on any other thread.
const SimStream* current_stream() noexcept;

class SimStream {
 public:
  explicit SimStream(StreamMode mode);
  ~SimStream();
  SimStream(const SimStream&) = delete;
  SimStream& operator=(const SimStream&) = delete;

  StreamMode mode() const noexcept { return mode_; }
  void enqueue(std::function<void()> task);
  // Waits for everything queued so far; rethrows (once) the first error raised on the stream.
  void synchronize();
  bool query();
  // Work queued or running on it.
  std::size_t work();

 private:
  void main();

  const StreamMode mode_;
  std::mutex mutex_;
  std::condition_variable work_, idle_;
  std::deque<std::function<void()>> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: starts after the rest is constructed
};

struct SimEvent {
  std::mutex mutex;
  std::condition_variable done;
  std::uint64_t recorded = 0;   // records queued
  std::uint64_t completed = 0;  // records reached by their stream
  std::chrono::steady_clock::time_point time{};
};

class StreamSet {
 public:
  using Handle = void*;  // a stream's or an event's; never null for a created one

  StreamSet() = default;
  ~StreamSet() { shutdown(); }
  StreamSet(const StreamSet&) = delete;
  StreamSet& operator=(const StreamSet&) = delete;

  Handle default_stream();
  Handle create_stream(StreamMode mode);
  void destroy_stream(Handle stream) noexcept;  // its queued work finishes first
  // Queues `task` on `stream` (null: the default stream), ordered by the legacy default-stream rule.
  SimStream& submit(Handle stream, std::function<void()> task);
  void synchronize(Handle stream);
  bool query(Handle stream);
  // Waits for every stream; rethrows the first error.
  void synchronize_all();
  // Work queued or running on streams other than `stream`, which work that might write device memory
  // while a kernel of `stream` runs is.
  std::size_t work_besides(const SimStream* stream);
  // Finishes every stream's queued work and ends the streams (the device is going away).
  void shutdown() noexcept;

  Handle create_event();
  void destroy_event(Handle event) noexcept;
  void record(Handle event, Handle stream);
  void wait(Handle stream, Handle event);
  void synchronize_event(Handle event);
  bool query_event(Handle event);
  float elapsed_ms(Handle start, Handle end);

 private:
  SimStream& stream_locked(Handle& stream);
  Handle new_stream_locked(StreamMode mode);

  std::mutex mutex_;
  // Shared, so that a device-wide synchronisation may wait on a stream that another host thread
  // destroys meanwhile (the last holder's destructor finishes the stream's work and joins its thread).
  std::map<Handle, std::shared_ptr<SimStream>> streams_;
  Handle default_ = nullptr;
};

}  // namespace gpulab::sim::detail
