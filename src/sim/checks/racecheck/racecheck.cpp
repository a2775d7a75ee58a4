// racecheck (include/gpulab/sim/detail/checks/racecheck.hpp): the full check of an access its inline
// test did not pass, the shadows' lifetimes, and the reports.
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>

#include <gpulab/sim/detail/checks/racecheck.hpp>

#include "sim/checks/racecheck/global_shadow.hpp"
#include "sim/checks/racecheck/shared_shadow.hpp"
#include "sim/checks/report.hpp"
#include "sim/engine/block_run.hpp"
#include "sim/engine/sim_device.hpp"

namespace gpulab::sim::detail {

namespace {

// A freed buffer this large gives its cells' pages back; a smaller one keeps its (stale) cells, which
// the next buffer at its address, often the same size, reuses instead of faulting in and zeroing new
// ones (which, at 32 bytes of cell a byte, took as long as the checked launch itself in a bench loop).
constexpr std::size_t large_free = std::size_t{1} << 20;

std::mutex global_races_mutex;  // making a device's global shadow

// The hazard a later access makes with an earlier one, by which of them wrote.
const char* hazard_name(bool write, bool other_wrote) {
  return write ? (other_wrote ? "write-after-write" : "write-after-read") : "read-after-write";
}

[[noreturn]] void report_race(BlockRun& run, RaceShadow& shadow, const void* p, bool write, int other,
                              bool other_wrote) {
  const SharedLocation at = shadow.locate(p, 1);
  const Text where = at.dynamic ? Text("dynamic shared memory at offset {}", at.offset)
                                : Text("static __shared__ memory at {:#x}", reinterpret_cast<std::uintptr_t>(p));
  fail(run, Text("racecheck: {} hazard on {}: {} {} it and {} {} it with no barrier between them (__syncthreads, "
                 "or __syncwarp within a warp)",
                 hazard_name(write, other_wrote), where.view(), thread_text(run, static_cast<unsigned>(other)).view(),
                 verb(other_wrote), thread_text(run, run.current()).view(), verb(write)));
}

// The running thread's view of fences and atomics (happens_before.hpp), brought up to date.
class ThreadClocks final : public OrderedByClocks {
 public:
  ThreadClocks(BlockRun& run, GlobalRaceShadow& shadow, RaceShadow& local)
      : shadow_(shadow),
        clocks_(local.block_clocks()),
        context_{shadow.sync_clocks(), run.job->state<Racecheck>().race_launch, run.block_linear & GlobalAccess::block_bits,
                 run.current(), host_thread.barrier_epoch, host_thread.warp_epochs[run.current() / 32]} {
    clocks_.settle_for(context_);
  }
  bool covers(GlobalAccess earlier) const override { return clocks_.covers(context_.thread, earlier); }
  GlobalRaceShadow& shadow() const noexcept { return shadow_; }
  void fence(AtomicScope scope) { clocks_.fence(context_, scope); }
  void atomic(const AtomicAccess& a) { clocks_.atomic(context_, a.address, a.kind, a.scope, a.order); }

 private:
  GlobalRaceShadow& shadow_;
  BlockClocks& clocks_;
  BlockClocks::Context context_;
};

// The running thread's clocks, when racecheck keeps global shadow for the launch's device.
std::optional<ThreadClocks> thread_clocks(BlockRun& run) {
  GlobalRaceShadow* shadow = run.job->device->state<Racecheck>().global_races;
  RaceShadow* local = client_state<Racecheck>(host_thread).shared_shadow;
  if (shadow == nullptr || local == nullptr) return std::nullopt;
  return std::optional<ThreadClocks>(std::in_place, run, *shadow, *local);
}

const char* scope_name(AtomicScope s) {
  switch (s) {
    case AtomicScope::thread: return "thread";
    case AtomicScope::block: return "block";
    case AtomicScope::cluster: return "cluster";
    case AtomicScope::device: return "device";
    default: return "system";
  }
}

// What an access of `who` was: "thread (0, 0, 0) of block (1, 0, 0) wrote it", or the atomic it made,
// of `scope` where that is known ("" where not).
Text access_text(const Text& who, bool atomic, bool write, std::string_view scope) {
  if (!atomic) return Text("{} {} it", who.view(), verb(write));
  return Text("{} made an atomic {}{}{}{} on it", who.view(), write ? "read-modify-write or store" : "load",
              scope.empty() ? "" : " of ", scope, scope.empty() ? "" : " scope");
}

// What would have ordered two accesses that race.
const char* missing_order(GlobalAccess earlier, GlobalAccess later) {
  if (earlier.atomic() && later.atomic()) return "an atomic of block scope orders nothing for threads of other blocks";
  if (earlier.block() == later.block()) {
    return "no __syncthreads between them, nor a warp call within a warp, nor a release (a fence before a flag's "
           "write, or an atomic with a release order) that the second thread acquired (a fence after reading the "
           "flag, or an atomic with an acquire order)";
  }
  return "threads of different blocks are not ordered within a launch unless one releases at device scope "
         "(__threadfence, or an atomic with a release order, before a flag's write) what the other acquires at "
         "device scope (__threadfence, or an atomic with an acquire order, after reading the flag)";
}

// Device memory: conflicting accesses within the launch, across blocks too.
void global_racecheck(BlockRun& run, const Access& access, const AtomicAccess* atomic) {
  std::optional<ThreadClocks> clocks = thread_clocks(run);
  if (!clocks) return;
  LaunchJob& job = *run.job;
  const unsigned me = run.current();
  const bool narrow = atomic != nullptr && atomic->scope <= AtomicScope::block;
  const GlobalAccess who(run.block_linear, me, host_thread.barrier_epoch, host_thread.warp_epochs[me / 32],
                         atomic != nullptr, narrow);
  const auto race = clocks->shadow().access(access.pointer(), access.bytes, access.write,
                                            job.state<Racecheck>().race_launch, who, &*clocks);
  if (atomic != nullptr) clocks->atomic(*atomic);
  if (!race) return;
  const auto a = access.address + race->byte;
  const auto b = job.device->memory().buffer_of(reinterpret_cast<const void*>(a));
  const Text buffer = b ? describe_buffer(job, *b) : Text("device memory");
  const GlobalAccess other = race->other;
  const Text theirs = access_text(thread_text(job, other.thread(), other.block()), other.atomic(), race->other_wrote,
                                  other.narrow() ? "block" : "");
  const Text mine = access_text(thread_text(run, me), atomic != nullptr, access.write,
                                atomic != nullptr ? scope_name(atomic->scope) : "");
  fail(run, Text("racecheck: {} hazard on global memory, offset {} of {}: {} and {} with nothing ordering them ({})",
                 hazard_name(access.write, race->other_wrote), b ? a - b->begin : 0, buffer.view(), theirs.view(),
                 mine.view(), missing_order(other, who)));
}

// Shared memory: conflicting accesses of one block's threads between barriers.
void shared_racecheck(BlockRun& run, const Access& access) {
  RaceShadow* shadow = client_state<Racecheck>(host_thread).shared_shadow;
  if (shadow == nullptr) return;
  const unsigned me = run.current();
  const RaceAccessor who{me, me / 32, host_thread.warp_epochs[me / 32], 1u << (me % 32)};
  const std::uint32_t epoch = host_thread.barrier_epoch;
  const RaceCells cells = shadow->cells_for(access.pointer(), access.bytes, epoch);
  if (cells.cells == nullptr) return;  // not shared memory, or not within one shared range
  for (std::size_t i = 0; i < cells.count; ++i) {
    const void* byte = reinterpret_cast<const char*>(access.address) + i * cells.unit;
    RaceCell& c = cells.cells[i];
    race_cell_enter(c, epoch);
    if (race_unordered(c.writer, c.writer_wepoch, who)) report_race(run, *shadow, byte, access.write, c.writer, true);
    if (!access.write) {
      race_cell_read(c, who);
      continue;
    }
    if (const int reader = race_racing_reader(c, who); reader >= 0) {
      report_race(run, *shadow, byte, true, reader, false);
    }
    race_cell_write(c, who);
  }
}

}  // namespace

void Racecheck::check_access(BlockRun& run, const Access& a) {
  const HostThreadState& h = host_thread;
  const std::size_t offset = a.address - h.device_base;
  if (offset >= h.device_bytes) {
    shared_racecheck(run, a);
    return;
  }
  global_racecheck(run, a, nullptr);
  // The read is recorded (a finding would not have returned): the block's second reader of a word fills
  // its cell, and the block's third need not look at it.
  if (!a.write) note_block_read(h, h, offset, a.bytes);
}

void Racecheck::check_atomic(BlockRun& run, const AtomicAccess& a) {
  if (in_device_memory(a.pointer())) {
    global_racecheck(run, a, &a);
    return;
  }
  // Elsewhere (a __device__ variable, which lives in the program's image; shared memory) the atomic is
  // not recorded in cells, but what it releases and acquires still orders device memory.
  if (auto clocks = thread_clocks(run)) clocks->atomic(a);
}

void Racecheck::check_fence(BlockRun& run, AtomicScope scope) {
  if (auto clocks = thread_clocks(run)) clocks->fence(scope);
}

void Racecheck::on_launch_queued(SimDevice& device, LaunchJob& job) {
  if ((job.clients & flag) == 0) return;
  DeviceState& d = device.state<Racecheck>();
  {
    std::lock_guard lock(global_races_mutex);
    if (d.global_races == nullptr) d.global_races = new GlobalRaceShadow(device.memory().base(), device.memory().reserved());
  }
  job.state<Racecheck>().race_launch = next_race_launch();
}

void Racecheck::on_block_start(BlockRun& run) {
  ThreadState& s = client_state<Racecheck>(host_thread);
  const LaunchJob& job = *run.job;
  if ((job.clients & flag) == 0) {
    s.settled = nullptr;
    s.word_cells = nullptr;
    s.block_reads = nullptr;
    return;
  }
  if (s.shared_shadow == nullptr) s.shared_shadow = new RaceShadow(run.shared_memory, run.shared_capacity, s);
  s.shared_shadow->set_dynamic_bytes(job.shared_bytes);
  s.shared_shadow->block_clocks().start(run.thread_count, host_thread.barrier_epoch);
  const GlobalRaceShadow* global = job.device->state<Racecheck>().global_races;
  s.settled = global->settled_words();
  s.word_cells = global->word_cells();
  s.launch = run.job->state<Racecheck>().race_launch;
  // The block-read table holds word indices in 32 bits.
  const bool block_reads_fit = job.device->memory().reserved() / 4 <= std::size_t{0xffffffffu};
  s.block_reads = block_reads_fit ? s.shared_shadow->block_reads() : nullptr;
}

void Racecheck::on_grid_sync(LaunchJob& job) { job.state<Racecheck>().race_launch = next_race_launch(); }

void Racecheck::on_grid_sync_resumed(BlockRun& run) {
  ThreadState& s = client_state<Racecheck>(host_thread);
  if (s.settled != nullptr) s.launch = run.job->state<Racecheck>().race_launch;
}

void Racecheck::on_free(SimDevice& device, const Buffer& b) {
  GlobalRaceShadow* global = device.state<Racecheck>().global_races;
  if (global == nullptr) return;
  global->unsettle(b.begin, b.bytes);
  if (b.bytes >= large_free) global->forget(b.begin, b.bytes);
}

void Racecheck::on_device_destroyed(SimDevice& device) {
  delete device.state<Racecheck>().global_races;
  device.state<Racecheck>().global_races = nullptr;
}

void Racecheck::on_host_thread_end(BlockRun&) {
  ThreadState& s = client_state<Racecheck>(host_thread);
  delete s.shared_shadow;
  s.shared_shadow = nullptr;
  s.block_reads = nullptr;
}

}  // namespace gpulab::sim::detail
