// The `sim` device: the Backend interface over the simulator's memory, streams, events and engine.
//
// Streams are host threads that run their work in order; a launch queues a job and returns. The
// job's blocks are run by a pool of host threads (GPULAB_SIM_THREADS, by default one per core) shared
// by all streams; the stream's thread waits for the last block and records the first fault, which
// synchronize rethrows.
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include <gpulab/error.hpp>
#include <gpulab/sim/checks.hpp>

#include "backends/sim/block_order.hpp"
#include "backends/sim/block_run.hpp"
#include "backends/sim/device_memory.hpp"
#include "backends/sim/global_race_shadow.hpp"
#include "runtime/backend.hpp"
#include "runtime/env.hpp"
#include "runtime/thread_pool.hpp"

namespace gpulab::sim::detail {

namespace {

using gpulab::detail::CopyKind;
using gpulab::detail::EventHandle;
using gpulab::detail::KernelBackend;
using gpulab::detail::KernelRecord;
using gpulab::detail::LaunchRequest;
using gpulab::detail::StreamHandle;

constexpr std::size_t default_shared_limit = 48 * 1024;
constexpr std::size_t optin_shared_limit = 227 * 1024;

int configured_threads() {
  if (auto text = gpulab::detail::env_value("GPULAB_SIM_THREADS")) {
    char* end = nullptr;
    const long n = std::strtol(text->c_str(), &end, 10);
    if (end == text->c_str() || *end != '\0' || n < 1 || n > 4096) {
      throw InvalidArgument(fmt::format("GPULAB_SIM_THREADS={}: expected a number of host threads from 1 to 4096", *text));
    }
    return static_cast<int>(n);
  }
  return gpulab::detail::host_core_count();
}

// ---- the host threads that run blocks -------------------------------------------------------------------

class BlockPool {
 public:
  explicit BlockPool(int threads) {
    // One thread per allowed CPU, each bound to its CPU: left to the scheduler, two of them sometimes
    // shared a core for whole launches while the other idled (on the 2-core test machine, in 2 of 12
    // runs 1 to 7 of the 10 launches took twice as long; bound, none in 12 runs). More threads than
    // CPUs (GPULAB_SIM_THREADS) are left unbound.
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    std::vector<int> cpus;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
      for (int c = 0; c < CPU_SETSIZE; ++c) {
        if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
      }
    }
    const bool bind = threads <= static_cast<int>(cpus.size());
    segments_ = static_cast<std::uint64_t>(threads);
    for (int i = 0; i < threads; ++i) {
      const int cpu = bind ? cpus[static_cast<std::size_t>(i)] : -1;
      threads_.emplace_back([this, cpu] {
        if (cpu >= 0) {
          cpu_set_t one;
          CPU_ZERO(&one);
          CPU_SET(cpu, &one);
          sched_setaffinity(0, sizeof one, &one);  // a failure leaves the thread unbound: no harm
        }
        worker_main();
      });
    }
  }
  ~BlockPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }
  int size() const { return static_cast<int>(threads_.size()); }

  // Runs every block of `job` and returns when the last has finished.
  void run(const std::shared_ptr<LaunchJob>& job) {
    if (job->block_count == 0) return;
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(job);
    }
    wake_.notify_all();
    std::unique_lock lock(job->mutex);
    job->finished.wait(lock, [&] { return job->finished_blocks.load() == job->block_count; });
  }

 private:
  void worker_main() {
    BlockRun& run = this_thread_block_run();
    for (;;) {
      std::shared_ptr<LaunchJob> job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        job = jobs_.front();
      }
      for (;;) {
        const std::uint64_t b = job->next_block.fetch_add(1);
        if (b >= job->block_count) {
          std::lock_guard lock(mutex_);
          const auto it = std::find(jobs_.begin(), jobs_.end(), job);
          if (it != jobs_.end()) jobs_.erase(it);
          break;
        }
        if (!job->cancelled.load(std::memory_order_relaxed)) {
          try {
            run.run(*job, block_for_ticket(b, job->block_count, job->grid.x, segments_));
          } catch (const std::exception& e) {
            job->report(fmt::format("the simulator could not run block {}: {}", b, e.what()));
          }
        }
        if (job->finished_blocks.fetch_add(1) + 1 == job->block_count) {
          std::lock_guard lock(job->mutex);
          job->finished.notify_all();
        }
      }
    }
  }

  std::vector<std::thread> threads_;
  std::uint64_t segments_ = 1;  // parts of the grid dealt round robin (block_order.hpp): one per thread
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<LaunchJob>> jobs_;
  bool stopping_ = false;
};

// ---- streams and events -------------------------------------------------------------------------------

class SimStream {
 public:
  SimStream() : thread_([this] { main(); }) {}
  ~SimStream() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    work_.notify_all();
    thread_.join();
  }

  void enqueue(std::function<void()> task) {
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(std::move(task));
    }
    work_.notify_one();
  }

  // Waits for everything queued so far; rethrows (once) the first error raised on the stream.
  void synchronize() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return queue_.empty() && !busy_; });
    if (error_) {
      std::exception_ptr e = std::exchange(error_, nullptr);
      lock.unlock();
      std::rethrow_exception(e);
    }
  }
  bool query() {
    std::lock_guard lock(mutex_);
    return queue_.empty() && !busy_;
  }

 private:
  void main() {
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

// Handles are boxes of shared pointers, so work still queued keeps its stream's or event's state alive.
struct EventBox {
  std::shared_ptr<SimEvent> event = std::make_shared<SimEvent>();
};

// ---- the backend -----------------------------------------------------------------------------------

class SimBackend final : public gpulab::detail::Backend {
 public:
  SimBackend() : memory_(DeviceMemory::configured_limit()), pool_(configured_threads()) {}
  ~SimBackend() override {
    std::lock_guard lock(streams_mutex_);
    streams_.clear();  // joins each stream's thread after its queued work
  }

  DeviceKind kind() const noexcept override { return DeviceKind::sim; }
  int device_count() override { return 1; }

  DeviceProperties properties(int) override {
    DeviceProperties p;
    p.id = "sim";
    p.name = "gpulab simulator (sm_90)";
    p.compute_major = 9;
    p.compute_minor = 0;
    p.multiprocessor_count = pool_.size();
    p.total_memory = memory_.limit();
    p.l2_cache_bytes = 50 * 1024 * 1024;
    p.shared_memory_per_block = default_shared_limit;
    p.shared_memory_per_block_optin = optin_shared_limit;
    p.shared_memory_per_multiprocessor = 228 * 1024;
    p.max_threads_per_block = 1024;
    p.max_block_dim = {1024, 1024, 64};
    p.max_grid_dim = {2147483647, 65535, 65535};
    p.max_threads_per_multiprocessor = 2048;
    p.registers_per_block = 65536;
    p.warp_size = 32;
    return p;
  }

  MemoryInfo memory_info(int) override {
    const std::size_t used = memory_.used();
    return MemoryInfo{memory_.limit() - std::min(used, memory_.limit()), memory_.limit()};
  }

  void* allocate(int, std::size_t bytes) override { return memory_.allocate(bytes); }
  void deallocate(int, void* ptr) noexcept override { memory_.deallocate(ptr); }

  void copy(int, void* dst, const void* src, std::size_t bytes, CopyKind kind, StreamHandle stream) override {
    if (bytes == 0) return;
    const bool mark = (enabled_checks() & initcheck) != 0 && kind != CopyKind::device_to_host;
    auto task = [this, dst, src, bytes, mark] {
      std::memmove(dst, src, bytes);
      if (mark) memory_.mark_initialized(dst, bytes);
    };
    if (kind == CopyKind::device_to_device) {
      submit(stream, task);
      return;
    }
    // From or to host memory the caller owns (and may free on return): like CUDA's copies of pageable
    // memory, these return once the copy is done.
    submit(stream, task).synchronize();
  }

  void fill(int, void* dst, int byte, std::size_t bytes, StreamHandle stream) override {
    if (bytes == 0) return;
    const bool mark = (enabled_checks() & initcheck) != 0;
    submit(stream, [this, dst, byte, bytes, mark] {
      std::memset(dst, byte, bytes);
      if (mark) memory_.mark_initialized(dst, bytes);
    });
  }

  StreamHandle default_stream(int) override {
    std::lock_guard lock(streams_mutex_);
    if (default_stream_ == nullptr) default_stream_ = new_stream_locked();
    return default_stream_;
  }
  StreamHandle create_stream(int) override {
    std::lock_guard lock(streams_mutex_);
    return new_stream_locked();
  }
  void destroy_stream(int, StreamHandle stream) noexcept override {
    std::unique_ptr<SimStream> s;
    {
      std::lock_guard lock(streams_mutex_);
      auto it = streams_.find(stream);
      if (it == streams_.end() || stream == default_stream_) return;
      s = std::move(it->second);
      streams_.erase(it);
    }
    // The destructor finishes the queued work first.
  }
  void synchronize_stream(int, StreamHandle stream) override { stream_of(stream).synchronize(); }
  bool query_stream(int, StreamHandle stream) override { return stream_of(stream).query(); }

  void stream_wait_event(int, StreamHandle stream, EventHandle event) override {
    std::shared_ptr<SimEvent> e = box(event).event;
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

  EventHandle create_event(int) override { return new EventBox; }
  void destroy_event(int, EventHandle event) noexcept override { delete static_cast<EventBox*>(event); }

  void record_event(int, EventHandle event, StreamHandle stream) override {
    std::shared_ptr<SimEvent> e = box(event).event;
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
  void synchronize_event(int, EventHandle event) override {
    std::shared_ptr<SimEvent> e = box(event).event;
    std::unique_lock lock(e->mutex);
    const std::uint64_t target = e->recorded;
    e->done.wait(lock, [&] { return e->completed >= target; });
  }
  bool query_event(int, EventHandle event) override {
    std::shared_ptr<SimEvent> e = box(event).event;
    std::lock_guard lock(e->mutex);
    return e->completed >= e->recorded;
  }
  float elapsed_ms(int, EventHandle start, EventHandle end) override {
    const auto time_of = [](EventHandle h, const char* which) {
      std::shared_ptr<SimEvent> e = box(h).event;
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

  void launch(int, const LaunchRequest& request, StreamHandle stream) override {
    const KernelRecord& kernel = *request.kernel;
    const unsigned checks = enabled_checks();
    KernelBackend version = KernelBackend::sim;
    if (checks & instrumented_checks) {
      if (!kernel.has(KernelBackend::sim_checked)) {
        throw InvalidArgument(fmt::format(
            "GPULAB_SIM_CHECK={} needs the instrumented compilation of kernel {} ({}), which this build lacks: "
            "configure with -DGPULAB_SIM_CHECKED_KERNELS=ON (the default; off in the sanitize preset only if "
            "set so) and do not pass NO_CHECKED to gpulab_add_kernels",
            format_checks(checks & instrumented_checks), kernel.name, kernel.file));
      }
      version = KernelBackend::sim_checked;
    } else if (!kernel.has(KernelBackend::sim)) {
      version = KernelBackend::sim_checked;  // the instrumented code runs fine with the checks off
    }
    const auto* entry = static_cast<const KernelEntry*>(kernel.entry[static_cast<int>(version)]);
    if (entry == nullptr) {
      throw InvalidArgument(fmt::format("kernel {} has no version compiled for the simulator", kernel.name));
    }
    const std::size_t limit = shared_limit(kernel);
    if (request.shared_bytes > limit) {
      throw InvalidArgument(fmt::format(
          "kernel {}: {} bytes of dynamic shared memory exceed its limit of {} bytes per block{}", kernel.name,
          request.shared_bytes, limit,
          limit < optin_shared_limit
              ? fmt::format("; raise it (up to {} bytes) with gpulab::set_max_dynamic_shared_bytes", optin_shared_limit)
              : std::string()));
    }
    auto job = std::make_shared<LaunchJob>();
    job->kernel_name = kernel.name;
    job->entry = entry;
    job->function = kernel.function[static_cast<int>(version)];
    job->grid = dim3(request.grid.x, request.grid.y, request.grid.z);
    job->block = dim3(request.block.x, request.block.y, request.block.z);
    job->threads_per_block = static_cast<unsigned>(request.block.count());
    job->shared_bytes = request.shared_bytes;
    job->checks = checks;
    if (checks & racecheck) {
      memory_.enable_global_races();
      job->race_launch = next_race_launch();
    }
    job->memory = &memory_;
    job->block_count = request.grid.count();
    job->arg_info.assign(request.arg_info, request.arg_info + request.arg_count);
    if (checks & memcheck) check_arguments(*job);
    job->args.reset(entry->clone_args(request.args));
    submit(stream, [this, job] {
      pool_.run(job);
      if (!job->fault.empty()) throw KernelFault(job->kernel_name, job->fault);
    });
  }

  void set_max_dynamic_shared_bytes(const KernelRecord& kernel, std::size_t bytes) override {
    if (bytes > optin_shared_limit) {
      throw InvalidArgument(fmt::format("kernel {}: {} bytes of dynamic shared memory exceed the sim device's opt-in "
                                        "limit of {} bytes per block",
                                        kernel.name, bytes, optin_shared_limit));
    }
    std::lock_guard lock(limits_mutex_);
    shared_limits_[&kernel] = bytes;
  }

  void synchronize_device(int) override {
    std::vector<SimStream*> all;
    {
      std::lock_guard lock(streams_mutex_);
      for (auto& [h, s] : streams_) all.push_back(s.get());
    }
    std::exception_ptr first;
    for (SimStream* s : all) {
      try {
        s->synchronize();
      } catch (...) {
        if (!first) first = std::current_exception();
      }
    }
    if (first) std::rethrow_exception(first);
  }

 private:
  static EventBox& box(EventHandle h) {
    if (h == nullptr) throw InvalidArgument("an event handle of the sim device is null");
    return *static_cast<EventBox*>(h);
  }

  SimStream& stream_of(StreamHandle h) {
    std::lock_guard lock(streams_mutex_);
    if (h == nullptr) {
      if (default_stream_ == nullptr) default_stream_ = new_stream_locked();
      h = default_stream_;
    }
    auto it = streams_.find(h);
    if (it == streams_.end()) throw InvalidArgument("not a stream of the sim device (destroyed, or of another device)");
    return *it->second;
  }

  // Queues `task` on `stream` with CUDA's legacy default-stream rule: work on the default stream waits
  // for all work queued before it on the other streams, and work on another stream waits for the
  // default stream's earlier work. So `fill` on the default stream then a launch on a stream are
  // ordered, as they are on a GPU.
  SimStream& submit(StreamHandle h, std::function<void()> task) {
    std::lock_guard lock(streams_mutex_);
    if (h == nullptr) {
      if (default_stream_ == nullptr) default_stream_ = new_stream_locked();
      h = default_stream_;
    }
    auto it = streams_.find(h);
    if (it == streams_.end()) throw InvalidArgument("not a stream of the sim device (destroyed, or of another device)");
    SimStream& target = *it->second;
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
    if (h == default_stream_) {
      for (auto& [other, stream] : streams_) order_after(*stream);
    } else if (default_stream_ != nullptr) {
      order_after(*streams_.at(default_stream_));
    }
    target.enqueue(std::move(task));
    return target;
  }

  StreamHandle new_stream_locked() {
    auto s = std::make_unique<SimStream>();
    StreamHandle h = s.get();
    streams_.emplace(h, std::move(s));
    return h;
  }

  std::size_t shared_limit(const KernelRecord& kernel) {
    std::lock_guard lock(limits_mutex_);
    auto it = shared_limits_.find(&kernel);
    return it == shared_limits_.end() ? default_shared_limit : std::max(it->second, default_shared_limit);
  }

  // memcheck at launch: a pointer argument must point into the sim device's memory.
  void check_arguments(const LaunchJob& job) {
    for (std::size_t i = 0; i < job.arg_info.size(); ++i) {
      const auto& a = job.arg_info[i];
      if ((a.is_pointer || a.has_space) && a.pointer != nullptr && !memory_.contains(a.pointer)) {
        throw KernelFault(job.kernel_name,
                          fmt::format("memcheck: parameter {} ({}) is {:#x}, which is not memory of the sim device "
                                      "(a host pointer passed to a kernel?)",
                                      i + 1, a.type_name, reinterpret_cast<std::uintptr_t>(a.pointer)));
      }
    }
  }

  DeviceMemory memory_;
  BlockPool pool_;
  std::mutex streams_mutex_;
  std::map<StreamHandle, std::unique_ptr<SimStream>> streams_;
  StreamHandle default_stream_ = nullptr;
  std::mutex limits_mutex_;
  std::map<const KernelRecord*, std::size_t> shared_limits_;
};

}  // namespace

}  // namespace gpulab::sim::detail

namespace gpulab::detail {

std::unique_ptr<Backend> make_sim_backend() { return std::make_unique<gpulab::sim::detail::SimBackend>(); }

}  // namespace gpulab::detail
