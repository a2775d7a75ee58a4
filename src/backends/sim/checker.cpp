// memcheck, racecheck and initcheck: what the instrumentation hooks (checked_hooks.hpp) call for every
// access an instrumented kernel makes.
#include <dlfcn.h>

#include <string_view>
#include <utility>

#include <fmt/format.h>

#include <gpulab/sim/checked_access.hpp>
#include <gpulab/sim/checks.hpp>
#include <gpulab/sim/engine_abi.hpp>

#include "backends/sim/block_run.hpp"
#include "backends/sim/device_memory.hpp"
#include "backends/sim/global_race_shadow.hpp"
#include "backends/sim/race_shadow.hpp"

namespace gpulab::sim::detail {

namespace {

// A finding ends its thread inside the hook, whose frames are abandoned (never unwound), so the
// messages are built in fixed buffers on the stack, never in heap strings that would leak.
struct Text {
  char data[640];
  std::size_t size = 0;
  template <class... A>
  Text(fmt::format_string<A...> f, A&&... args) {
    size = fmt::format_to_n(data, sizeof(data) - 1, f, std::forward<A>(args)...).size;
    if (size > sizeof(data) - 1) size = sizeof(data) - 1;
    data[size] = '\0';
  }
  std::string_view view() const { return {data, size}; }
};

const char* verb(bool write) { return write ? "wrote" : "read"; }

// "thread (3, 0, 0) of block (1, 2, 0)": thread `linear` of the launch's block `block`.
Text thread_text(const LaunchJob& job, unsigned linear, std::uint64_t block) {
  const dim3 d = job.block;
  const uint3 b = block_coordinates(job.grid, block);
  return Text("thread ({}, {}, {}) of block ({}, {}, {})", linear % d.x, (linear / d.x) % d.y, linear / (d.x * d.y),
              b.x, b.y, b.z);
}
// A thread of the running block.
Text thread_text(const BlockRun& run, unsigned linear) { return thread_text(*run.job, linear, run.block_linear); }

// "device buffer #3 (400 bytes at 0x..., passed as parameter 1)".
Text describe_buffer(const LaunchJob& job, const Buffer& b) {
  for (std::size_t i = 0; i < job.arg_info.size(); ++i) {
    const auto p = reinterpret_cast<std::uintptr_t>(job.arg_info[i].pointer);
    if (job.arg_info[i].pointer != nullptr && p >= b.begin && p <= b.begin + b.bytes) {
      return Text("device buffer #{} ({} bytes at {:#x}, passed as parameter {})", b.id, b.bytes, b.begin, i + 1);
    }
  }
  return Text("device buffer #{} ({} bytes at {:#x})", b.id, b.bytes, b.begin);
}

[[noreturn]] void fail(BlockRun& run, const Text& message) { run.fault_in_thread(message.data); }

// Whether p is in the sim device's address range: from the host thread's copy of it, one subtraction
// away (the job's DeviceMemory is three dependent loads away).
bool in_device_memory(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) - host_thread.device_base < host_thread.device_bytes;
}

[[noreturn]] void report_device_overrun(BlockRun& run, const void* p, std::size_t bytes, bool write) {
  const LaunchJob& job = *run.job;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const Text who = thread_text(run, run.current());
  const auto below = job.memory->buffer_at_or_below(p);
  const auto above = job.memory->buffer_above(p);
  if (below && a < below->begin + below->bytes + 4096 && (!above || a - (below->begin + below->bytes) <= above->begin - a)) {
    const Text buffer = describe_buffer(job, *below);
    fail(run, Text("memcheck: {} {} {} bytes at {:#x}: out of bounds: offset {} of {}, {} bytes past its end",
                   who.view(), verb(write), bytes, a, a - below->begin, buffer.view(),
                   a + bytes - (below->begin + below->bytes)));
  }
  if (above && above->begin - a <= 4096) {
    const Text buffer = describe_buffer(job, *above);
    fail(run, Text("memcheck: {} {} {} bytes at {:#x}: out of bounds: offset -{} of {}, before its start", who.view(),
                   verb(write), bytes, a, above->begin - a, buffer.view()));
  }
  fail(run, Text("memcheck: {} {} {} bytes at {:#x}: out of bounds: device memory that belongs to no live buffer "
                 "(freed, or never allocated)",
                 who.view(), verb(write), bytes, a));
}

void memcheck_access(BlockRun& run, const void* p, std::size_t bytes, bool write) {
  const LaunchJob& job = *run.job;
  if (in_device_memory(p)) {
    if (!job.memory->addressable(p, bytes)) report_device_overrun(run, p, bytes, write);
    return;
  }
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const auto shared = reinterpret_cast<std::uintptr_t>(run.shared_memory);
  if (a - shared < run.shared_capacity) {
    if (a - shared + bytes > job.shared_bytes) {
      fail(run, Text("memcheck: {} {} {} bytes at offset {} of dynamic shared memory, beyond the launch's {} bytes",
                     thread_text(run, run.current()).view(), verb(write), bytes, a - shared, job.shared_bytes));
    }
    return;
  }
  if (run.stacks.contains(p)) {
    const unsigned mine = run.fiber_mode ? run.threads[run.current()].stack : 0;
    const unsigned theirs = run.stacks.index_of(p);
    if (theirs != mine) {
      unsigned owner = 0;
      while (owner < run.thread_count && run.threads[owner].stack != theirs) ++owner;
      const Text whose = owner < run.thread_count ? thread_text(run, owner) : Text("another thread");
      fail(run, Text("memcheck: {} {} {} bytes at {:#x}, in the local memory (stack) of {}",
                     thread_text(run, run.current()).view(), verb(write), bytes, a, whose.view()));
    }
    return;
  }
  for (const AddressRange& r : run.tls) {
    if (r.contains(p)) {  // static __shared__ memory
      // The inline test (checked_access.hpp) takes this range from now on.
      host_thread.valid_base = r.begin;
      host_thread.valid_bytes = r.bytes;
      return;
    }
  }
  if (in_loaded_module(p)) return;  // globals, __constant__ data, literals
  fail(run, Text("memcheck: {} {} {} bytes at {:#x}, which is host memory, not memory of the sim device (a host "
                 "pointer dereferenced in a kernel?)",
                 thread_text(run, run.current()).view(), verb(write), bytes, a));
}

[[noreturn]] void report_race(BlockRun& run, const void* p, bool write, int other,
                              bool other_wrote) {
  const SharedLocation at = run.races->locate(p, 1);
  const Text where = at.dynamic ? Text("dynamic shared memory at offset {}", at.offset)
                                : Text("static __shared__ memory at {:#x}", reinterpret_cast<std::uintptr_t>(p));
  const char* hazard = write ? (other_wrote ? "write-after-write" : "write-after-read") : "read-after-write";
  fail(run, Text("racecheck: {} hazard on {}: {} {} it and {} {} it with no barrier between them (__syncthreads, "
                 "or __syncwarp within a warp)",
                 hazard, where.view(), thread_text(run, static_cast<unsigned>(other)).view(),
                 other_wrote ? "wrote" : "read", thread_text(run, run.current()).view(), verb(write)));
}

// racecheck on device memory: conflicting accesses within the launch, across blocks too.
void global_racecheck(BlockRun& run, const void* p, std::size_t bytes, bool write) {
  GlobalRaceShadow* shadow = run.job->memory->global_races();
  if (shadow == nullptr) return;
  const unsigned me = run.current();
  const GlobalAccess access(run.block_linear, me, host_thread.barrier_epoch, host_thread.warp_epochs[me / 32]);
  const auto race = shadow->access(p, bytes, write, run.job->race_launch, access);
  if (!race) return;
  const LaunchJob& job = *run.job;
  const auto a = reinterpret_cast<std::uintptr_t>(p) + race->byte;
  const auto b = job.memory->buffer_of(reinterpret_cast<const void*>(a));
  const Text buffer = b ? describe_buffer(job, *b) : Text("device memory");
  const char* hazard = write ? (race->other_wrote ? "write-after-write" : "write-after-read") : "read-after-write";
  const bool same_block = race->other.block() == access.block();
  fail(run, Text("racecheck: {} hazard on global memory, offset {} of {}: {} {} it and {} {} it with nothing "
                 "ordering them ({})",
                 hazard, b ? a - b->begin : 0, buffer.view(), thread_text(job, race->other.thread(), race->other.block()).view(),
                 race->other_wrote ? "wrote" : "read", thread_text(run, me).view(), verb(write),
                 same_block ? "no __syncthreads between them, nor a warp call within a warp"
                            : "threads of different blocks are not ordered within a launch"));
}

void racecheck_access(BlockRun& run, const void* p, std::size_t bytes, bool write) {
  if (in_device_memory(p)) {
    global_racecheck(run, p, bytes, write);
    return;
  }
  if (!run.races) return;
  const unsigned me = run.current();
  const RaceAccessor who{me, me / 32, host_thread.warp_epochs[me / 32], 1u << (me % 32)};
  const std::uint32_t epoch = host_thread.barrier_epoch;
  const RaceCells cells = run.races->cells_for(p, bytes, epoch);
  if (cells.cells == nullptr) return;  // not shared memory, or not within one shared range
  for (std::size_t i = 0; i < cells.count; ++i) {
    const void* byte = static_cast<const char*>(p) + i * cells.unit;
    RaceCell& c = cells.cells[i];
    race_cell_enter(c, epoch);
    if (race_unordered(c.writer, c.writer_wepoch, who)) report_race(run, byte, write, c.writer, true);
    if (!write) {
      race_cell_read(c, who);
      continue;
    }
    if (const int reader = race_racing_reader(c, who); reader >= 0) report_race(run, byte, true, reader, false);
    race_cell_write(c, who);
  }
}

// initcheck's inline test (checked_access.hpp) for bytes of a live buffer; false sends the access to
// initcheck_access, which decides and reports.
bool initcheck_passes_inline(const void* p, std::size_t bytes, bool write) {
  const HostThreadState& h = host_thread;
  const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - h.device_base;
  return offset < h.device_bytes && h.device_initialized != nullptr && device_bytes_live(h, offset, bytes) &&
         initcheck_passes(h, offset, bytes, write);
}

void initcheck_access(BlockRun& run, const void* p, std::size_t bytes, bool write) {
  DeviceMemory& mem = *run.job->memory;
  if (!in_device_memory(p) || !mem.addressable(p, bytes)) return;
  if (write) {
    mem.mark_initialized(p, bytes);
    return;
  }
  if (auto first = mem.first_uninitialized(p, bytes)) {
    const auto b = mem.buffer_of(p);
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    const Text buffer = b ? describe_buffer(*run.job, *b) : Text("device memory");
    fail(run, Text("initcheck: {} read {} bytes at offset {} of {}, and byte {} of them was never written",
                   thread_text(run, run.current()).view(), bytes, b ? a - b->begin : 0, buffer.view(), *first));
  }
}

}  // namespace

void check_access(const void* address, std::size_t bytes, bool write) {
  BlockRun* run = host_thread.block;
  if (run == nullptr || run->aborting) return;
  const unsigned checks = host_thread.checks;
  if ((checks & memcheck) && !memcheck_passes(host_thread, reinterpret_cast<std::uintptr_t>(address), bytes)) {
    memcheck_access(*run, address, bytes, write);
  }
  // initcheck before racecheck: racecheck may settle the words read, after which the hooks pass their
  // reads for every check (checked_access.hpp), so they must have passed initcheck first. The hooks'
  // inline test first (most accesses that reach here are racecheck's, to bytes long since written).
  if ((checks & initcheck) != 0 && !initcheck_passes_inline(address, bytes, write)) {
    initcheck_access(*run, address, bytes, write);
  }
  if (checks & racecheck) racecheck_access(*run, address, bytes, write);
}

void check_atomic_access(const void* address, std::size_t bytes) {
  BlockRun* run = host_thread.block;
  if (run == nullptr || run->aborting) return;
  const unsigned checks = host_thread.checks;
  if (checks & memcheck) memcheck_access(*run, address, bytes, true);
  if (checks & initcheck) initcheck_access(*run, address, bytes, true);
}

void forward_handle_no_return() noexcept {
  using Hook = void (*)();
  static const Hook asan = reinterpret_cast<Hook>(dlsym(RTLD_DEFAULT, "__asan_handle_no_return"));
  if (asan != nullptr) asan();  // a hidden definition is never what dlsym finds
}

}  // namespace gpulab::sim::detail
