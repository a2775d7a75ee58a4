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
#include <array>
#include <cstdint>
#include <source_location>
#include <string>
#include <vector>

#include <gpulab/sim/detail/engine_abi.hpp>
#include <gpulab/sim/detail/host_thread.hpp>

#include "sim/engine/address_ranges.hpp"
#include "sim/engine/fiber_stacks.hpp"
#include "sim/engine/launch_job.hpp"

namespace gpulab::sim::detail {

enum class ThreadStatus : std::uint8_t { not_started, runnable, at_barrier, at_warp, at_activemask, at_wait, exited };

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
  // at_wait: the key it sleeps on and what waits (block_waits.cpp).
  const void* wait_key = nullptr;
  const char* wait_what = nullptr;
  // Polls (block_polls.cpp): the last few addresses it polled and what it saw there, in the block's
  // progress epoch `poll_epoch`, and how many polls in a row since then saw nothing new.
  struct Polled {
    const void* address = nullptr;
    std::uint64_t value = 0;
  };
  std::array<Polled, 4> polled{};
  std::uint8_t polled_count = 0;
  std::uint8_t polled_next = 0;
  std::uint32_t poll_streak = 0;
  std::uint64_t poll_epoch = 0;
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
  // __nanosleep: lets the block's other runnable threads run first; false when none could.
  bool yield_now();
  // block_wait and block_notify (block_waits.cpp).
  void wait_on(const void* key, const char* what, const std::source_location& where);
  void notify(const void* key, bool orders);
  // Polls (block_polls.cpp): the running thread polled `address` and saw `value`; memory changed while
  // threads of the block poll.
  void observe_poll(const void* address, std::uint64_t value);
  void poll_progress();
  // A thread resumed from the inlined barrier after the block left fast mode.
  void fast_barrier_left();
  // A finding in the running thread: reports it and ends the block; never returns to the kernel.
  // `what` is copied before the thread is abandoned (its frames are never unwound).
  [[noreturn]] void fault_in_thread(const char* what);
  // Ends the block from the running thread without unwinding its frames (aborting is set): the other
  // threads are resumed to unwind, then the block returns to its host thread.
  [[noreturn]] void abandon_thread();
  // Reports a finding and unwinds the running thread (from a barrier or warp call).
  [[noreturn]] void fault_and_unwind(const std::string& what);
  // Reports a finding from the engine's own code (an exit, a release): the block ends as soon as the
  // running thread gets back to the engine.
  void report_finding(std::string what);

  // ---- the checks' view ----
  std::string thread_name(unsigned linear) const;  // "thread (3, 0, 0) of block (1, 0, 0)"
  std::string block_name() const;
  unsigned current() const { return host_thread.current; }
  // The launch's instrumentation clients that are on (CheckFlags).
  unsigned clients() const { return host_thread.clients; }

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
  unsigned waiting = 0;        // threads at_wait
  // Polls: the epoch a poll's streak counts in (bumped when memory changes; never reused by a later
  // block of this host thread), how long the block has been stalled (every runnable thread polling
  // with nothing new), and what it told the launch's progress board (progress_board.hpp).
  std::uint64_t progress_epoch = 0;
  unsigned stall_rounds = 0;
  int board_level = 0;
  std::uint64_t board_epoch = 0;

  std::vector<SimThread> threads;
  std::vector<ThreadStatus> states;  // states[i] is thread i's: apart, so that scans and releases are cheap
  // Apart too, because the inlined barrier (fast_barrier.hpp) reads and writes them.
  std::vector<FiberContext> contexts;     // a suspended thread's resume point
  std::vector<uint3> indices;             // threadIdx of each thread
  std::vector<std::source_location> sites;  // where a waiting thread waits
  std::vector<WarpRun> warps;
  std::vector<std::uint32_t> warp_epochs;  // per warp: completed warp-synchronous calls (racecheck orders lanes by them)
  FiberStacks stacks;
  FiberContext host_context = nullptr;
  StackRange host_stack;
  unsigned char* shared_memory = nullptr;  // dynamic shared memory, 16-byte aligned
  std::size_t shared_capacity = 0;
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
  void poll_repeated(unsigned me);
  void block_stalled(bool hopeless);
  [[noreturn, gnu::cold]] void report_poll_deadlock();
  void thread_body();
  [[noreturn]] void exit_thread(bool unwound);
  void yield();
  [[noreturn, gnu::cold, gnu::noinline]] void report_deadlock();
  // The clients' views of a barrier arrival, a release with threads gone, a warp call, a mismatch.
  [[gnu::cold, gnu::noinline]] void tell_barrier_arrival(unsigned me, const std::source_location& where);
  [[gnu::cold, gnu::noinline]] bool clients_allow_release();
  [[gnu::cold, gnu::noinline]] void tell_warp_call(WarpOp op, unsigned mask, unsigned me,
                                                   const std::source_location& where);
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

}  // namespace gpulab::sim::detail
