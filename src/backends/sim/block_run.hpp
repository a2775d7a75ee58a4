#pragma once
// The engine: how one host thread runs the blocks of a grid.
//
// A block starts in loop mode: one fiber runs its threads one after another through the kernel's
// run_loop (compiled with the kernel, so the kernel call is inlined). The first barrier or
// warp-synchronous call turns it into fiber mode: the thread that made the call keeps the fiber it is
// on, the threads after it get fresh fibers, and the threads before it have already exited. A
// suspended thread switches straight to the next runnable one (no scheduler in between), in thread
// order, so a barrier costs one switch per thread.
//
// Nothing here may hang: when no thread can run but some wait, the block is deadlocked (divergent
// barriers or warp masks), which is reported. A fault ends the block: suspended threads are resumed
// with an exception that unwinds them, a thread faulting inside an instrumentation hook is abandoned.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <source_location>
#include <string>
#include <vector>

#include <gpulab/launch.hpp>
#include <gpulab/sim/engine_abi.hpp>
#include <gpulab/sim/kernel_entry.hpp>

#include "backends/sim/address_ranges.hpp"
#include "backends/sim/fiber_stacks.hpp"

namespace gpulab::sim::detail {

class DeviceMemory;

// One queued kernel launch, shared by the host threads that run its blocks.
struct LaunchJob {
  std::string kernel_name;
  const KernelEntry* entry = nullptr;
  const void* function = nullptr;
  std::unique_ptr<ArgStorage> args;
  dim3 grid, block;
  unsigned threads_per_block = 0;
  std::size_t shared_bytes = 0;
  unsigned checks = 0;
  std::uint32_t race_launch = 0;  // racecheck's number for this launch's global-memory cells
  std::vector<gpulab::detail::ArgInfo> arg_info;
  DeviceMemory* memory = nullptr;

  std::uint64_t block_count = 0;
  std::atomic<std::uint64_t> next_block{0};
  std::atomic<std::uint64_t> finished_blocks{0};
  std::atomic<bool> cancelled{false};

  std::mutex mutex;
  std::condition_variable finished;
  std::string fault;  // the first finding; empty when none

  // Keeps the first finding and stops the blocks not yet started.
  void report(std::string what);
};

enum class ThreadState : std::uint8_t { not_started, runnable, at_barrier, at_warp, at_activemask, exited };

struct SimThread {
  unsigned stack = 0;
  bool started = false;
  // What it waits for.
  WarpOp op = WarpOp::sync;
  unsigned mask = 0;
  unsigned arg = 0;
  int width = 32;
  std::uint64_t value = 0;
  std::uint64_t result = 0;
};

struct WarpRun {
  unsigned exists = 0;   // lanes that are threads of the block
  unsigned alive = 0;    // lanes that have not exited
  unsigned arrived = 0;  // lanes waiting in a warp-synchronous call
  unsigned exited_since_sync = 0;  // lanes that exited after the warp's last synchronous call
  unsigned converging = 0;  // lanes waiting in __activemask for the warp to settle
};

// Thrown into a suspended thread to unwind it when its block ends early.
struct BlockAbort {};

struct RaceCell;
class RaceShadow;

struct BlockRun {
  BlockRun();
  ~BlockRun();

  // Runs block `linear` of `job` to its end on this host thread; findings go to job.report().
  void run(LaunchJob& job, std::uint64_t linear);

  // ---- called from kernel code, on a fiber of this block ----
  int barrier(BarrierKind kind, int predicate, const std::source_location& where);
  std::uint64_t warp(WarpOp op, unsigned mask, std::uint64_t value, unsigned arg, int width,
                     const std::source_location& where);
  unsigned active_mask(const std::source_location& where);
  // A thread resumed from the inlined barrier after the block left fast mode.
  void fast_barrier_left();
  // A finding in the running thread: reports it and ends the block; never returns to the kernel.
  // `what` is copied before the thread is abandoned (its frames are never unwound).
  [[noreturn]] void fault_in_thread(const char* what);
  // Reports a finding and unwinds the running thread (from a barrier or warp call).
  [[noreturn]] void fault_and_unwind(const std::string& what);

  // ---- the checks' view ----
  std::string thread_name(unsigned linear) const;  // "thread (3, 0, 0) of block (1, 0, 0)"
  std::string block_name() const;
  unsigned current() const { return host_thread.current; }

  // Fiber entry.
  static void fiber_main();

  LaunchJob* job = nullptr;
  std::uint64_t block_linear = 0;  // the running block's index in the grid, x fastest
  unsigned thread_count = 0;
  bool fiber_mode = false;
  bool aborting = false;
  unsigned live = 0;
  unsigned arrived = 0;
  unsigned barrier_count = 0;  // predicates that were true, this barrier
  int barrier_result = 0;        // the released barrier's count, valid until the next release
  unsigned barrier_participants = 0;
  unsigned barrier_first = 0;  // first thread to arrive, for synccheck's report

  std::vector<SimThread> threads;
  std::vector<ThreadState> states;  // states[i] is thread i's: apart, so that scans and releases are cheap
  // Apart too, because the inlined barrier (fast_barrier.hpp) reads and writes them.
  std::vector<FiberContext> contexts;     // a suspended thread's resume point
  std::vector<uint3> indices;             // threadIdx of each thread
  std::vector<std::source_location> sites;  // where a waiting thread waits
  std::vector<WarpRun> warps;
  std::vector<std::uint32_t> warp_epochs;  // per warp: completed warp-synchronous calls (racecheck orders lanes by them)
  std::vector<std::uint64_t> block_reads;  // racecheck's block-read table (HostThreadState::block_reads)
  FiberStacks stacks;
  FiberContext host_context = nullptr;
  StackRange host_stack;
  unsigned char* shared_memory = nullptr;  // dynamic shared memory, 16-byte aligned
  std::size_t shared_capacity = 0;
  std::unique_ptr<RaceShadow> races;
  std::vector<AddressRange> tls;  // this host thread's TLS blocks (static __shared__ lives there)

 private:
  void convert_to_fibers();
  // Returns true when the released block goes on in fast mode (fast_barrier.hpp).
  bool release_barrier();
  int barrier_value(BarrierKind kind) const;
  void enter_fast_mode();
  // Rebuilds the thread states that fast mode does not keep; every engine path that may find the
  // block in fast mode starts with it.
  void leave_fast_mode() {
    if (host_thread.fast_contexts != nullptr) [[unlikely]] rebuild_after_fast_mode();
  }
  void rebuild_after_fast_mode();
  void try_complete_warp(unsigned warp, unsigned mask);
  void complete_warp(unsigned warp, unsigned required);
  void converge_if_settled(unsigned warp);
  void thread_body();
  [[noreturn]] void exit_thread(bool unwound);
  void yield();
  [[noreturn, gnu::cold, gnu::noinline]] void report_deadlock();
  [[gnu::cold, gnu::noinline]] void check_same_barrier(unsigned me, const std::source_location& where);
  void switch_to(unsigned next);
  [[noreturn]] void leave_dying(unsigned next);
  [[noreturn]] void return_to_host();
  // The next thread that can run, searching after `from` in thread order and ending with `from`;
  // thread_count when none can.
  unsigned next_runnable(unsigned from) const;
  std::string describe_waiters() const;
  void activate(unsigned next);
};

// The BlockRun of the calling host thread (created on first use).
BlockRun& this_thread_block_run();

// The coordinates of block `linear` of a grid, x fastest.
inline uint3 block_coordinates(dim3 grid, std::uint64_t linear) {
  return uint3{static_cast<unsigned>(linear % grid.x), static_cast<unsigned>((linear / grid.x) % grid.y),
               static_cast<unsigned>(linear / (static_cast<std::uint64_t>(grid.x) * grid.y))};
}

}  // namespace gpulab::sim::detail
