// The engine's block runner: a block's life on a host thread, from its start in loop mode to its end,
// and what ends it early (a fault, a deadlock, an exception). Barriers and the switches between
// threads are block_scheduler.cpp; warp-synchronous calls warp_collectives.cpp.
#include "sim/engine/block_run.hpp"

#include <cstdlib>
#include <utility>

#include <fmt/format.h>

#include "sim/engine/device_limits.hpp"
#include "sim/engine/device_memory.hpp"
#include "sim/engine/names.hpp"
#include "sim/engine/sim_device.hpp"

// CUDA's built-in variables and each host thread's shared state (engine_state.hpp, host_thread.hpp).
GPULAB_SIM_TLS uint3 threadIdx{};
GPULAB_SIM_TLS uint3 blockIdx{};
GPULAB_SIM_TLS dim3 blockDim{};
GPULAB_SIM_TLS dim3 gridDim{};

namespace gpulab::sim::detail {

GPULAB_SIM_TLS HostThreadState host_thread{};

void LaunchJob::report(std::string what) {
  std::lock_guard lock(mutex);
  if (fault.empty()) fault = std::move(what);
  cancelled.store(true, std::memory_order_relaxed);
}

BlockRun::BlockRun() {
  host_stack = host_thread_stack();
  tls = thread_tls_ranges();
  shared_capacity = device_limits::shared_bytes_per_block_optin;
  shared_memory = static_cast<unsigned char*>(std::aligned_alloc(64, shared_capacity));
}

BlockRun::~BlockRun() {
  for_each_client(Clients{}, [this]<class C>() { C::on_host_thread_end(*this); });
  std::free(shared_memory);
}

BlockRun& this_thread_block_run() {
  thread_local BlockRun run;
  return run;
}

std::string BlockRun::block_name() const { return fmt::format("block {}", format_index(blockIdx)); }

std::string BlockRun::thread_name(unsigned linear) const {
  return fmt::format("thread {} of block {}", format_index(index_of(linear, job->block)), format_index(blockIdx));
}

void BlockRun::run(LaunchJob& j, std::uint64_t linear) {
  job = &j;
  thread_count = j.threads_per_block;
  block_linear = linear;
  blockIdx = block_coordinates(j.grid, linear);
  blockDim = j.block;
  gridDim = j.grid;
  // Stacks for every thread now, not at the first barrier: growing remaps, which must not happen
  // under a running fiber.
  stacks.reserve(thread_count);
  if (threads.size() < thread_count) {
    threads.resize(thread_count);
    states.resize(thread_count);
    contexts.resize(thread_count);
    indices.resize(thread_count);
    sites.resize(thread_count);
  }
  const unsigned warp_count = (thread_count + 31) / 32;
  if (warps.size() < warp_count) {
    warps.resize(warp_count);
    warp_epochs.resize(warp_count);
  }
  for (unsigned w = 0; w < warp_count; ++w) {
    const unsigned lanes = thread_count - w * 32 >= 32 ? 32 : thread_count - w * 32;
    const unsigned exists = lanes == 32 ? ~0u : (1u << lanes) - 1u;
    warps[w] = WarpRun{exists, exists, 0, 0, 0};
    warp_epochs[w] = 0;
  }
  fiber_mode = false;
  aborting = false;
  live = thread_count;
  arrived = 0;
  barrier_count = 0;
  waiting = 0;

  EngineThreadState& e = host_thread;
  ++e.barrier_epoch;
  ++e.order_epoch;
  e.block = this;
  e.block_linear = linear;
  e.dynamic_shared = shared_memory;
  e.current = 0;
  e.loop_end = thread_count;
  e.thread_count = thread_count;
  e.warp_epochs = warp_epochs.data();
  e.fast_contexts = nullptr;
  e.clients = j.clients;
  const DeviceMemory& memory = j.device->memory();
  e.device_base = memory.base();
  e.device_bytes = memory.reserved();
  e.device_shadow = memory.shadow();
  e.stacks_base = reinterpret_cast<std::uintptr_t>(stacks.base());
  e.stacks_bytes = stacks.bytes();
  e.stack_shift = stacks.slot_shift();
  e.stack_guard = stacks.guard();
  for_each_client(Clients{}, [this]<class C>() { C::on_block_start(*this); });
  e.block_polling = false;
  ++progress_epoch;
  stall_rounds = 0;
  board_level = 0;
  j.progress.block_started();
  struct Ended {
    ProgressBoard& board;
    ~Ended() { board.block_ended(); }
  } ended{j.progress};

  threads[0].stack = 0;
  threads[0].started = true;
  states[0] = ThreadStatus::runnable;
  contexts[0] = stacks.make_context(0, &BlockRun::fiber_main);
  switch_context(contexts[0], &host_context, stacks.stack(0));
  // Back when the block has ended.
  for_each_client(Clients{}, [this]<class C>() { C::on_block_end(*this); });
  e.fast_contexts = nullptr;
  e.block = nullptr;
  e.clients = 0;
  job = nullptr;
}

void BlockRun::fiber_main() {
  fiber_started();
  host_thread.block->thread_body();
}

void BlockRun::thread_body() {
  bool unwound = false;
  try {
    void* const* args = job->args->pointers();
    if (!fiber_mode) {
      job->entry->run_loop(job->function, args);
    } else {
      job->entry->run_thread(job->function, args);
    }
  } catch (const BlockAbort&) {
    unwound = true;
  } catch (const std::exception& e) {
    job->report(fmt::format("{} threw an exception: {}", thread_name(current()), e.what()));
    aborting = true;
  } catch (...) {
    job->report(fmt::format("{} threw an exception that is not a std::exception", thread_name(current())));
    aborting = true;
  }
  exit_thread(unwound);
}

std::string BlockRun::describe_waiters() const {
  std::string out;
  int listed = 0;
  for (unsigned i = 0; i < thread_count && listed < 4; ++i) {
    const SimThread& t = threads[i];
    if (states[i] == ThreadStatus::at_barrier) {
      out += fmt::format("; {} waits at __syncthreads ({})", thread_name(i), format_site(sites[i]));
    } else if (states[i] == ThreadStatus::at_wait) {
      out += fmt::format("; {} waits in {} ({})", thread_name(i), t.wait_what, format_site(sites[i]));
    } else if (states[i] == ThreadStatus::at_activemask) {
      out += fmt::format("; {} waits at __activemask ({})", thread_name(i), format_site(sites[i]));
    } else if (states[i] == ThreadStatus::at_warp) {
      out += fmt::format("; {} waits at {} with mask {:#010x} ({})", thread_name(i), warp_op_name(t.op), t.mask,
                         format_site(sites[i]));
    } else {
      continue;
    }
    ++listed;
  }
  const unsigned exited = thread_count - live;
  if (exited > 0) out += fmt::format("; {} of the block's {} threads have exited", exited, thread_count);
  return out;
}

void BlockRun::report_deadlock() {
  job->report(fmt::format("deadlock in {}: no thread can continue (divergent barriers or warp masks){}", block_name(),
                          describe_waiters()));
  aborting = true;
  throw BlockAbort{};
}

void BlockRun::exit_thread(bool /*unwound*/) {
  if (!fiber_mode) return_to_host();  // loop mode: every thread has run, or the block was aborted
  leave_fast_mode();
  const unsigned me = current();
  states[me] = ThreadStatus::exited;
  --live;
  if (host_thread.block_polling) poll_progress();  // what it wrote before it left may be what others wait for
  const unsigned wi = me / 32;
  warps[wi].alive &= ~(1u << (me % 32));
  warps[wi].exited_since_sync |= 1u << (me % 32);
  if (!aborting) converge_if_settled(wi);
  if (!aborting && live > 0) {
    // The exit may complete a barrier or a warp call that waited only for this thread.
    if (arrived > 0 && arrived == live) release_barrier();
    for (unsigned lanes = warps[wi].arrived; lanes != 0 && !aborting; lanes &= lanes - 1) {
      const unsigned lane = static_cast<unsigned>(__builtin_ctz(lanes));
      if (warps[wi].arrived & (1u << lane)) try_complete_warp(wi, wi * 32 + lane);
    }
  }
  if (!aborting && live > 0) {
    const unsigned next = next_runnable(me);
    if (next != thread_count) leave_dying(next);
    job->report(fmt::format("deadlock in {}: no thread can continue after {} exited{}", block_name(),
                            thread_name(me), describe_waiters()));
    aborting = true;
  }
  // Ending early: resume each suspended thread so that it unwinds, then go home.
  for (unsigned i = 0; i < thread_count; ++i) {
    if (threads[i].started && states[i] != ThreadStatus::exited) leave_dying(i);
  }
  return_to_host();
}

void BlockRun::fault_in_thread(const char* what) {
  leave_fast_mode();
  job->report(std::string(what));
  aborting = true;
  abandon_thread();
}

void BlockRun::abandon_thread() {
  leave_fast_mode();
  aborting = true;
  if (!fiber_mode) return_to_host();
  // This thread is abandoned where it stands (inside an instrumentation hook, or a poll inside a
  // noexcept function such as cuda::atomic_ref::load, where unwinding is not possible); the others are
  // unwound.
  const unsigned me = current();
  states[me] = ThreadStatus::exited;
  --live;
  for (unsigned i = 0; i < thread_count; ++i) {
    if (threads[i].started && states[i] != ThreadStatus::exited) leave_dying(i);
  }
  return_to_host();
}

void BlockRun::fault_and_unwind(const std::string& what) {
  leave_fast_mode();
  job->report(what);
  aborting = true;
  throw BlockAbort{};
}

void BlockRun::report_finding(std::string what) {
  job->report(std::move(what));
  aborting = true;
}

void BlockRun::convert_to_fibers() {
  const unsigned t = current();
  host_thread.loop_end = 0;  // the loop ends after thread t
  fiber_mode = true;
  const dim3 d = job->block;
  for (unsigned i = 0; i < thread_count; ++i) {
    SimThread& s = threads[i];
    indices[i] = index_of(i, d);
    if (i < t) {
      states[i] = ThreadStatus::exited;
      s.started = false;
    } else if (i == t) {
      states[i] = ThreadStatus::runnable;
      s.started = true;
      s.stack = 0;
    } else {
      states[i] = ThreadStatus::not_started;
      s.started = false;
      s.stack = i;
      contexts[i] = stacks.make_context(i, &BlockRun::fiber_main);
    }
  }
  live = thread_count - t;
  for (unsigned i = 0; i < t; ++i) warps[i / 32].alive &= ~(1u << (i % 32));
  arrived = 0;
  barrier_count = 0;
}

}  // namespace gpulab::sim::detail
