// initcheck (include/gpulab/sim/detail/checks/initcheck.hpp): the marks, which buffers count as
// written when initcheck starts watching, the full check and the report.
//
// initcheck sees what is written while it watches: kernels launched with initcheck, and, from the first
// time it is on, every copy and fill. What it did not watch counts as written in full once it starts
// watching: a buffer copied or filled before, and every buffer that existed when a kernel ran with
// initcheck off (that kernel may have written any of them). So turning initcheck on between launches
// never reports data that came in unwatched, at the price of not seeing reads of bytes that unwatched
// work left unwritten; with GPULAB_SIM_CHECK=initcheck for the whole process it watches everything.
#include <sys/mman.h>

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include <gpulab/error.hpp>
#include <gpulab/sim/detail/checks/initcheck.hpp>

#include "sim/checks/report.hpp"
#include "sim/engine/block_run.hpp"
#include "sim/engine/sim_device.hpp"

namespace gpulab::sim::detail {

class InitcheckMarks {
 public:
  explicit InitcheckMarks(const DeviceMemory& memory) : memory_(memory) {}
  ~InitcheckMarks() {
    if (std::uint8_t* m = marks_.load(std::memory_order_acquire)) munmap(m, memory_.reserved());
  }
  InitcheckMarks(const InitcheckMarks&) = delete;
  InitcheckMarks& operator=(const InitcheckMarks&) = delete;

  // A byte per byte of device memory, reserved (not committed) when initcheck first watches; null before.
  std::uint8_t* marks() const noexcept { return marks_.load(std::memory_order_acquire); }

  // A launch starting. With initcheck, the buffers unwatched work may have written count as written;
  // without, every buffer existing now may be written unwatched.
  void launch_starts(bool watched) {
    std::lock_guard lock(mutex_);
    if (!watched) {
      unwatched_below_ = memory_.next_id();
      return;
    }
    start_watching_locked();
  }

  // A copy or fill wrote [p, p + bytes).
  void device_written(const void* p, std::size_t bytes, bool watched) {
    if (marks() != nullptr) {
      mark(p, bytes);
      return;
    }
    std::lock_guard lock(mutex_);
    if (watched) {
      start_watching_locked();
      mark(p, bytes);
    } else if (marks() != nullptr) {
      mark(p, bytes);
    } else if (const auto b = memory_.buffer_of(p)) {
      unwatched_writes_[b->begin] = *b;  // its marks come when initcheck starts watching
    }
  }

  void mark(const void* p, std::size_t bytes) noexcept {
    std::uint8_t* const m = marks();
    if (m == nullptr || !memory_.contains(p)) return;
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - memory_.base();
    if (offset + bytes > memory_.reserved()) bytes = memory_.reserved() - offset;
    // Blocks on other host threads may mark neighbouring bytes: relaxed byte stores, never a
    // read-modify-write.
    for (std::size_t i = 0; i < bytes; ++i) __atomic_store_n(m + offset + i, 1, __ATOMIC_RELAXED);
  }

  // The next buffer at a freed one's place starts unwritten (fresh pages are zero).
  void freed(const Buffer& b) {
    if (std::uint8_t* m = marks()) std::memset(m + (b.begin - memory_.base()), 0, b.bytes);
    std::lock_guard lock(mutex_);
    unwatched_writes_.erase(b.begin);
  }

  // The first byte of [p, p + bytes) never written, or nullopt.
  std::optional<std::size_t> first_unwritten(const void* p, std::size_t bytes) const noexcept {
    const std::uint8_t* const m = marks();
    if (m == nullptr) return std::nullopt;
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - memory_.base();
    const std::size_t reserved = memory_.reserved();
    if (offset % 4 == 0 && bytes % 4 == 0 && offset + bytes <= reserved) {
      // Whole words, the common case: a word's four marks at once (a relaxed load of the word, as the
      // marks are stored), the bytes one by one only where one is missing.
      bool all = true;
      for (std::size_t i = 0; i < bytes && all; i += 4) {
        all = Initcheck::four_marks_set(
            __atomic_load_n(reinterpret_cast<const std::uint32_t*>(m + offset + i), __ATOMIC_RELAXED));
      }
      if (all) return std::nullopt;
    }
    for (std::size_t i = 0; i < bytes && offset + i < reserved; ++i) {
      if (__atomic_load_n(m + offset + i, __ATOMIC_RELAXED) == 0) return i;
    }
    return std::nullopt;
  }

 private:
  // Makes the marks if there are none, and takes as written in full what unwatched work may have
  // written: every buffer that existed at an unwatched launch, and the buffers unwatched copies and
  // fills wrote before there were marks.
  void start_watching_locked() {
    if (marks() == nullptr) {
      void* p = mmap(nullptr, memory_.reserved(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
      if (p == MAP_FAILED) {
        throw OutOfMemory("sim (reserving address space for initcheck's marks)", memory_.reserved(), 0,
                          memory_.reserved());
      }
      marks_.store(static_cast<std::uint8_t*>(p), std::memory_order_release);
    }
    if (resolved_below_ < unwatched_below_) {
      for (const Buffer& b : memory_.buffers_with_ids(resolved_below_, unwatched_below_)) {
        mark(reinterpret_cast<const void*>(b.begin), b.bytes);
      }
      resolved_below_ = unwatched_below_;
    }
    for (const auto& [begin, b] : unwatched_writes_) mark(reinterpret_cast<const void*>(begin), b.bytes);
    unwatched_writes_.clear();
  }

  const DeviceMemory& memory_;
  std::atomic<std::uint8_t*> marks_{nullptr};
  std::mutex mutex_;
  // Buffers with ids below unwatched_below_ may have been written by an unwatched launch; those below
  // resolved_below_ have been taken as written in full already (ids start at 1).
  std::uint64_t unwatched_below_ = 1;
  std::uint64_t resolved_below_ = 1;
  std::map<std::uintptr_t, Buffer> unwatched_writes_;  // live buffers copied into before there were marks
};

namespace {

InitcheckMarks& marks_of(SimDevice& device) { return *device.state<Initcheck>().initcheck_marks; }

void initcheck_access(BlockRun& run, const Access& a) {
  SimDevice& device = *run.job->device;
  const void* p = a.pointer();
  if (!in_device_memory(p) || !device.memory().addressable(p, a.bytes)) return;  // memcheck's
  InitcheckMarks& marks = marks_of(device);
  if (a.write) {
    marks.mark(p, a.bytes);
    return;
  }
  if (auto first = marks.first_unwritten(p, a.bytes)) {
    const auto b = device.memory().buffer_of(p);
    const Text buffer = b ? describe_buffer(*run.job, *b) : Text("device memory");
    fail(run, Text("initcheck: {} read {} bytes at offset {} of {}, and byte {} of them was never written",
                   thread_text(run, run.current()).view(), a.bytes, b ? a.address - b->begin : 0, buffer.view(),
                   *first));
  }
}

}  // namespace

void Initcheck::check_access(BlockRun& run, const Access& a) {
  const HostThreadState& h = host_thread;
  const std::size_t offset = a.address - h.device_base;
  if (offset < h.device_bytes && device_access_passes(h, h, a, offset)) return;
  initcheck_access(run, a);
}

void Initcheck::check_atomic(BlockRun& run, const Access& a) { initcheck_access(run, a); }

void Initcheck::on_launch_start(SimDevice& device, LaunchJob& job) {
  marks_of(device).launch_starts((job.clients & flag) != 0);
}

void Initcheck::on_block_start(BlockRun& run) {
  client_state<Initcheck>(host_thread).marks =
      (run.job->clients & flag) != 0 ? marks_of(*run.job->device).marks() : nullptr;
}

void Initcheck::on_device_write(SimDevice& device, const void* p, std::size_t bytes, unsigned checks) {
  marks_of(device).device_written(p, bytes, (checks & flag) != 0);
}

std::string Initcheck::on_host_read(SimDevice& device, const void* p, std::size_t bytes, unsigned checks) {
  // On a stream's thread, not a block's: host_thread (in_device_memory's test) is not set here.
  if ((checks & flag) == 0 || !device.memory().contains(p)) return {};
  InitcheckMarks& marks = marks_of(device);
  marks.launch_starts(true);  // a library call reads as a watched launch would
  const auto first = marks.first_unwritten(p, bytes);
  if (!first) return {};
  const auto b = device.memory().buffer_of(p);
  return fmt::format("initcheck: it read {} bytes at offset {} of {}, and byte {} of them was never written", bytes,
                     b ? reinterpret_cast<std::uintptr_t>(p) - b->begin : 0,
                     b ? fmt::format("device buffer #{} ({} bytes)", b->id, b->bytes) : std::string("device memory"),
                     *first);
}

void Initcheck::on_free(SimDevice& device, const Buffer& buffer) { marks_of(device).freed(buffer); }

void Initcheck::on_device_created(SimDevice& device) {
  device.state<Initcheck>().initcheck_marks = new InitcheckMarks(device.memory());
}

void Initcheck::on_device_destroyed(SimDevice& device) {
  delete device.state<Initcheck>().initcheck_marks;
  device.state<Initcheck>().initcheck_marks = nullptr;
}

}  // namespace gpulab::sim::detail
