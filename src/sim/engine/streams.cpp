#include "sim/engine/streams.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <gpulab/error.hpp>

namespace gpulab::sim::detail {

namespace {

// Handles are boxes of shared pointers, so work still queued keeps its event's state alive.
struct EventBox {
  std::shared_ptr<SimEvent> event = std::make_shared<SimEvent>();
};

std::shared_ptr<SimEvent> event_of(StreamSet::Handle h) {
  if (h == nullptr) throw InvalidArgument("an event handle of the sim device is null");
  return static_cast<EventBox*>(h)->event;
}

thread_local const SimStream* running_stream = nullptr;

}  // namespace

const SimStream* current_stream() noexcept { return running_stream; }

// ---- one stream ----

SimStream::SimStream(StreamMode mode) : mode_(mode), thread_([this] { main(); }) {}

SimStream::~SimStream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  thread_.join();
}

void SimStream::enqueue(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(task));
  }
  work_.notify_one();
}

void SimStream::synchronize() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [&] { return queue_.empty() && !busy_; });
  if (error_) {
    std::exception_ptr e = std::exchange(error_, nullptr);
    lock.unlock();
    std::rethrow_exception(e);
  }
}

bool SimStream::query() { return work() == 0; }

std::size_t SimStream::work() {
  std::lock_guard lock(mutex_);
  return queue_.size() + (busy_ ? 1 : 0);
}

void SimStream::main() {
  running_stream = this;
  std::unique_lock lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and all work done
    std::function<void()> task = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    std::exception_ptr error;
    try {
      task();
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    busy_ = false;
    if (error && !error_) error_ = error;
    if (queue_.empty()) idle_.notify_all();
  }
}

// ---- the device's streams ----

std::size_t StreamSet::work_besides(const SimStream* stream) {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& [handle, s] : streams_) {
    if (s.get() != stream) n += s->work();
  }
  return n;
}

void StreamSet::shutdown() noexcept {
  std::lock_guard lock(mutex_);
  streams_.clear();  // joins each stream's thread after its queued work
  default_ = nullptr;
}

StreamSet::Handle StreamSet::new_stream_locked(StreamMode mode) {
  auto s = std::make_shared<SimStream>(mode);
  Handle h = s.get();
  streams_.emplace(h, std::move(s));
  return h;
}

StreamSet::Handle StreamSet::default_stream() {
  std::lock_guard lock(mutex_);
  if (default_ == nullptr) default_ = new_stream_locked(StreamMode::blocking);
  return default_;
}

StreamSet::Handle StreamSet::create_stream(StreamMode mode) {
  std::lock_guard lock(mutex_);
  return new_stream_locked(mode);
}

void StreamSet::destroy_stream(Handle stream) noexcept {
  std::shared_ptr<SimStream> s;
  {
    std::lock_guard lock(mutex_);
    auto it = streams_.find(stream);
    if (it == streams_.end() || stream == default_) return;
    s = std::move(it->second);
    streams_.erase(it);
  }
  // The destructor finishes the queued work first.
}

SimStream& StreamSet::stream_locked(Handle& h) {
  if (h == nullptr) {
    if (default_ == nullptr) default_ = new_stream_locked(StreamMode::blocking);
    h = default_;
  }
  auto it = streams_.find(h);
  if (it == streams_.end()) throw InvalidArgument("not a stream of the sim device (destroyed, or of another device)");
  return *it->second;
}

void StreamSet::synchronize(Handle stream) {
  SimStream* s;
  {
    std::lock_guard lock(mutex_);
    s = &stream_locked(stream);
  }
  s->synchronize();
}

bool StreamSet::query(Handle stream) {
  SimStream* s;
  {
    std::lock_guard lock(mutex_);
    s = &stream_locked(stream);
  }
  return s->query();
}

// CUDA's legacy default-stream rule: work on the default stream waits for all work queued before it
// on the blocking streams, and work on a blocking stream waits for the default stream's earlier work.
// So `fill` on the default stream then a launch on a blocking stream are ordered, as they are on a
// GPU; a non-blocking stream is ordered with neither.
SimStream& StreamSet::submit(Handle h, std::function<void()> task) {
  std::lock_guard lock(mutex_);
  SimStream& target = stream_locked(h);
  const auto order_after = [&target](SimStream& earlier) {
    if (&earlier == &target || earlier.query()) return;
    auto marker = std::make_shared<SimEvent>();
    marker->recorded = 1;
    earlier.enqueue([marker] {
      std::lock_guard l(marker->mutex);
      marker->completed = 1;
      marker->done.notify_all();
    });
    target.enqueue([marker] {
      std::unique_lock l(marker->mutex);
      marker->done.wait(l, [&] { return marker->completed >= 1; });
    });
  };
  if (h == default_) {
    for (auto& [other, stream] : streams_) {
      if (stream->mode() == StreamMode::blocking) order_after(*stream);
    }
  } else if (default_ != nullptr && target.mode() == StreamMode::blocking) {
    order_after(*streams_.at(default_));
  }
  target.enqueue(std::move(task));
  return target;
}

void StreamSet::synchronize_all() {
  std::vector<std::shared_ptr<SimStream>> all;
  {
    std::lock_guard lock(mutex_);
    for (auto& [h, s] : streams_) all.push_back(s);
  }
  std::exception_ptr first;
  for (const auto& s : all) {
    try {
      s->synchronize();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

// ---- events ----

StreamSet::Handle StreamSet::create_event() { return new EventBox; }
void StreamSet::destroy_event(Handle event) noexcept { delete static_cast<EventBox*>(event); }

void StreamSet::record(Handle event, Handle stream) {
  std::shared_ptr<SimEvent> e = event_of(event);
  std::uint64_t seq;
  {
    std::lock_guard lock(e->mutex);
    seq = ++e->recorded;
  }
  submit(stream, [e, seq] {
    std::lock_guard lock(e->mutex);
    e->completed = std::max(e->completed, seq);
    e->time = std::chrono::steady_clock::now();
    e->done.notify_all();
  });
}

void StreamSet::wait(Handle stream, Handle event) {
  std::shared_ptr<SimEvent> e = event_of(event);
  std::uint64_t target;
  {
    std::lock_guard lock(e->mutex);
    target = e->recorded;
  }
  if (target == 0) return;
  submit(stream, [e, target] {
    std::unique_lock lock(e->mutex);
    e->done.wait(lock, [&] { return e->completed >= target; });
  });
}

void StreamSet::synchronize_event(Handle event) {
  std::shared_ptr<SimEvent> e = event_of(event);
  std::unique_lock lock(e->mutex);
  const std::uint64_t target = e->recorded;
  e->done.wait(lock, [&] { return e->completed >= target; });
}

bool StreamSet::query_event(Handle event) {
  std::shared_ptr<SimEvent> e = event_of(event);
  std::lock_guard lock(e->mutex);
  return e->completed >= e->recorded;
}

float StreamSet::elapsed_ms(Handle start, Handle end) {
  const auto time_of = [](Handle h, const char* which) {
    std::shared_ptr<SimEvent> e = event_of(h);
    std::lock_guard lock(e->mutex);
    if (e->recorded == 0) throw InvalidArgument(fmt::format("elapsed_ms: the {} event was never recorded", which));
    if (e->completed < e->recorded) {
      throw InvalidArgument(fmt::format("elapsed_ms: the {} event has not completed yet; synchronize it first", which));
    }
    return e->time;
  };
  const auto t0 = time_of(start, "start");
  const auto t1 = time_of(end, "end");
  return std::chrono::duration<float, std::milli>(t1 - t0).count();
}

}  // namespace gpulab::sim::detail
