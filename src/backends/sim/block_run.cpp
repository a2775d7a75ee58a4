#include "backends/sim/block_run.hpp"

#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include <gpulab/sim/checks.hpp>
#include <gpulab/sim/fast_barrier.hpp>

#include "backends/sim/device_memory.hpp"
#include "backends/sim/global_race_shadow.hpp"
#include "backends/sim/race_shadow.hpp"

// CUDA's built-in variables and the engine's per-host-thread state (see thread_state.hpp).
GPULAB_SIM_TLS uint3 threadIdx{};
GPULAB_SIM_TLS uint3 blockIdx{};
GPULAB_SIM_TLS dim3 blockDim{};
GPULAB_SIM_TLS dim3 gridDim{};

namespace gpulab::sim::detail {

GPULAB_SIM_TLS HostThreadState host_thread{};

namespace {

// The inlined barrier's hop announces nothing to the sanitizers (fast_barrier.hpp), and exists on x86-64 only.
#if defined(GPULAB_SIM_FAST_BARRIER) && !defined(GPULAB_SIM_ASAN)
constexpr bool fast_mode_possible = true;
#else
constexpr bool fast_mode_possible = false;
#endif

// Dynamic shared memory of every block run on a host thread: the opt-in maximum, 16-byte aligned.
constexpr std::size_t shared_capacity_bytes = 227 * 1024;

uint3 index_of(unsigned linear, const dim3& d) { return uint3{linear % d.x, (linear / d.x) % d.y, linear / (d.x * d.y)}; }

std::string format_index(uint3 i) { return fmt::format("({}, {}, {})", i.x, i.y, i.z); }

std::string format_site(const std::source_location& w) { return fmt::format("{}:{}", w.file_name(), w.line()); }

bool same_site(const std::source_location& a, const std::source_location& b) {
  return a.line() == b.line() && a.column() == b.column() && std::strcmp(a.file_name(), b.file_name()) == 0;
}

const char* op_name(WarpOp op) {
  switch (op) {
    case WarpOp::sync: return "__syncwarp";
    case WarpOp::shfl_idx: return "__shfl_sync";
    case WarpOp::shfl_up: return "__shfl_up_sync";
    case WarpOp::shfl_down: return "__shfl_down_sync";
    case WarpOp::shfl_xor: return "__shfl_xor_sync";
    case WarpOp::ballot: return "__ballot_sync";
    case WarpOp::any: return "__any_sync";
    case WarpOp::all: return "__all_sync";
    case WarpOp::match_any: return "__match_any_sync";
  }
  return "a warp intrinsic";
}

bool is_shuffle(WarpOp op) {
  return op == WarpOp::shfl_idx || op == WarpOp::shfl_up || op == WarpOp::shfl_down || op == WarpOp::shfl_xor;
}

}  // namespace

void LaunchJob::report(std::string what) {
  std::lock_guard lock(mutex);
  if (fault.empty()) fault = std::move(what);
  cancelled.store(true, std::memory_order_relaxed);
}

BlockRun::BlockRun() {
  host_stack = host_thread_stack();
  tls = thread_tls_ranges();
  shared_capacity = shared_capacity_bytes;
  shared_memory = static_cast<unsigned char*>(std::aligned_alloc(64, shared_capacity));
}

BlockRun::~BlockRun() { std::free(shared_memory); }

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
  ++host_thread.barrier_epoch;
  ++host_thread.order_epoch;
  if ((j.checks & racecheck) && !races) races = std::make_unique<RaceShadow>(shared_memory, shared_capacity, host_thread);
  if ((j.checks & racecheck) && races) races->set_dynamic_bytes(j.shared_bytes);

  host_thread.block = this;
  host_thread.dynamic_shared = shared_memory;
  host_thread.current = 0;
  host_thread.loop_end = thread_count;
  host_thread.checks = j.checks;
  host_thread.device_base = j.memory->base();
  host_thread.device_bytes = j.memory->reserved();
  host_thread.device_shadow = j.memory->shadow();
  host_thread.stacks_base = reinterpret_cast<std::uintptr_t>(stacks.base());
  host_thread.stacks_bytes = stacks.bytes();
  host_thread.stack_shift = stacks.slot_shift();
  host_thread.stack_guard = stacks.guard();
  const GlobalRaceShadow* global_races = (j.checks & racecheck) ? j.memory->global_races() : nullptr;
  host_thread.race_settled = global_races != nullptr ? global_races->settled_words() : nullptr;
  host_thread.race_word_cells = global_races != nullptr ? global_races->word_cells() : nullptr;
  host_thread.race_launch = j.race_launch;
  host_thread.race_block = linear;
  // The block-read table holds word indices in 32 bits.
  const bool block_reads_fit = j.memory->reserved() / 4 <= std::size_t{0xffffffffu};
  if (global_races != nullptr && block_reads_fit && block_reads.empty()) block_reads.assign(block_read_slots, 0);
  host_thread.block_reads = global_races != nullptr && block_reads_fit ? block_reads.data() : nullptr;
  host_thread.device_initialized = (j.checks & initcheck) ? j.memory->initialized_marks() : nullptr;
  host_thread.warp_epochs = warp_epochs.data();
  host_thread.thread_count = thread_count;
  host_thread.fast_contexts = nullptr;
  threads[0].stack = 0;
  threads[0].started = true;
  states[0] = ThreadState::runnable;
  contexts[0] = stacks.make_context(0, &BlockRun::fiber_main);
  switch_context(contexts[0], &host_context, stacks.stack(0));
  // Back when the block has ended.
  host_thread.fast_contexts = nullptr;
  host_thread.block = nullptr;
  host_thread.checks = 0;
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

void BlockRun::activate(unsigned next) {
  host_thread.current = next;
  threadIdx = indices[next];
  threads[next].started = true;
}

void BlockRun::return_to_host() {
  switch_context(host_context, nullptr, host_stack);
  std::abort();  // never resumed
}

void BlockRun::leave_dying(unsigned next) {
  activate(next);
  switch_context(contexts[next], nullptr, stacks.stack(threads[next].stack));
  std::abort();  // never resumed
}

void BlockRun::switch_to(unsigned next) {
  const unsigned me = current();
  // The thread after `next` most likely runs after it. Its saved registers and the frames above them
  // (the kernel's locals) were last touched a whole round of the block ago and sit in L2 or further;
  // fetching them now hides that latency, which otherwise stalls every resume.
  // (Ten lines: the saved registers and the frames of the switch, the barrier and a typical kernel;
  // prefetching two threads ahead, or more lines, measured no better.)
  if (const unsigned after = next + 1; after < thread_count) {
    const char* saved = static_cast<const char*>(contexts[after]);
    if (saved != nullptr) {
      for (int line = 0; line < 10; ++line) __builtin_prefetch(saved + line * 64);
    }
  }
  activate(next);
  switch_context(contexts[next], &contexts[me], stacks.stack(threads[next].stack));
  // Resumed: whoever switched here has made this thread current again.
}

unsigned BlockRun::next_runnable(unsigned from) const {
  for (unsigned k = 1; k <= thread_count; ++k) {
    unsigned i = from + k;
    if (i >= thread_count) i -= thread_count;
    const ThreadState s = states[i];
    if (s == ThreadState::runnable || s == ThreadState::not_started) return i;
  }
  return thread_count;
}

std::string BlockRun::describe_waiters() const {
  std::string out;
  int listed = 0;
  for (unsigned i = 0; i < thread_count && listed < 4; ++i) {
    const SimThread& t = threads[i];
    if (states[i] == ThreadState::at_barrier) {
      out += fmt::format("; {} waits at __syncthreads ({})", thread_name(i), format_site(sites[i]));
    } else if (states[i] == ThreadState::at_activemask) {
      out += fmt::format("; {} waits at __activemask ({})", thread_name(i), format_site(sites[i]));
    } else if (states[i] == ThreadState::at_warp) {
      out += fmt::format("; {} waits at {} with mask {:#010x} ({})", thread_name(i), op_name(t.op), t.mask,
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

void BlockRun::yield() {
  if (aborting) [[unlikely]] throw BlockAbort{};
  const unsigned me = current();
  // Nearly always the next thread in order can run (it has not reached this barrier yet, or it was
  // just released); the scan is for the rest.
  unsigned next = me + 1;
  if (next >= thread_count || (states[next] != ThreadState::runnable && states[next] != ThreadState::not_started)) {
    next = next_runnable(me);
    if (next == thread_count) [[unlikely]] report_deadlock();
  }
  if (next != me) switch_to(next);
  if (aborting) [[unlikely]] throw BlockAbort{};
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
  states[me] = ThreadState::exited;
  --live;
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
    if (threads[i].started && states[i] != ThreadState::exited) leave_dying(i);
  }
  return_to_host();
}

void BlockRun::fault_in_thread(const char* what) {
  leave_fast_mode();
  job->report(std::string(what));
  aborting = true;
  if (!fiber_mode) return_to_host();
  // This thread is abandoned where it stands (inside an instrumentation hook, where unwinding is not
  // possible); the others are unwound.
  const unsigned me = current();
  states[me] = ThreadState::exited;
  --live;
  for (unsigned i = 0; i < thread_count; ++i) {
    if (threads[i].started && states[i] != ThreadState::exited) leave_dying(i);
  }
  return_to_host();
}

void BlockRun::fault_and_unwind(const std::string& what) {
  leave_fast_mode();
  job->report(what);
  aborting = true;
  throw BlockAbort{};
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
      states[i] = ThreadState::exited;
      s.started = false;
    } else if (i == t) {
      states[i] = ThreadState::runnable;
      s.started = true;
      s.stack = 0;
    } else {
      states[i] = ThreadState::not_started;
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

// The hot path of every __syncthreads of a block in fiber mode: a handful of stores, the release when
// this is the last arrival, and a switch to the next thread. What only the checks or a failure need
// lives in cold functions, so this stays small enough that the CPU overlaps one simulated thread's
// arithmetic with the next one's.
int BlockRun::barrier(BarrierKind kind, int predicate, const std::source_location& where) {
  if (!fiber_mode) [[unlikely]] convert_to_fibers();
  leave_fast_mode();
  const unsigned me = current();
  if (arrived == 0) {
    barrier_first = me;
  } else if (job->checks & synccheck) [[unlikely]] {
    check_same_barrier(me, where);
  }
  sites[me] = where;
  states[me] = ThreadState::at_barrier;
  ++arrived;
  barrier_count += predicate != 0 ? 1u : 0u;
  if (arrived == live) {
    if (release_barrier()) {
      // The round of fast mode starts at thread 0; this thread runs again in its turn.
      if (me != 0) switch_to(0);
      if (aborting) [[unlikely]] throw BlockAbort{};
      return barrier_value(kind);
    }
  } else if (warps[me / 32].converging != 0) [[unlikely]] {
    converge_if_settled(me / 32);
  }
  yield();
  return barrier_value(kind);
}

int BlockRun::barrier_value(BarrierKind kind) const {
  if (kind == BarrierKind::plain) return 0;
  // The counts stay valid until every thread has left this barrier (the next one needs them all).
  switch (kind) {
    case BarrierKind::count: return barrier_result;
    case BarrierKind::all: return barrier_result == static_cast<int>(barrier_participants) ? 1 : 0;
    case BarrierKind::any: return barrier_result > 0 ? 1 : 0;
    default: return 0;
  }
}

void BlockRun::check_same_barrier(unsigned me, const std::source_location& where) {
  if (same_site(where, sites[barrier_first])) return;
  fault_and_unwind(fmt::format("synccheck: divergent __syncthreads in {}: {} waits at {} while {} waits at {}",
                               block_name(), thread_name(me), format_site(where), thread_name(barrier_first),
                               format_site(sites[barrier_first])));
}

bool BlockRun::release_barrier() {
  if ((job->checks & synccheck) && live != thread_count) {
    unsigned gone = 0;
    while (gone < thread_count && states[gone] != ThreadState::exited) ++gone;
    unsigned waiting = 0;
    while (waiting < thread_count && states[waiting] != ThreadState::at_barrier) ++waiting;
    job->report(fmt::format("synccheck: {} exited while {} waits at __syncthreads ({}): a barrier must be "
                            "reached by every thread of the block",
                            thread_name(gone), thread_name(waiting), format_site(sites[waiting])));
    aborting = true;
    return false;
  }
  // One byte a thread, so the compiler turns this into a few vector compares and blends.
  ThreadState* const s = states.data();
  for (unsigned i = 0; i < thread_count; ++i) {
    s[i] = s[i] == ThreadState::at_barrier ? ThreadState::runnable : s[i];
  }
  barrier_result = static_cast<int>(barrier_count);
  barrier_participants = arrived;
  arrived = 0;
  barrier_count = 0;
  ++host_thread.barrier_epoch;
  ++host_thread.order_epoch;
  // Everyone was at this barrier, so no warp call or __activemask is pending and every thread has
  // started. (synccheck's test of each arrival's site is in the fast path too.)
  if (fast_mode_possible && live == thread_count && thread_count > 1) {
    enter_fast_mode();
    return true;
  }
  return false;
}

void BlockRun::enter_fast_mode() {
  host_thread.thread_indices = indices.data();
  host_thread.fast_sites = sites.data();
  host_thread.fast_contexts = contexts.data();
}

// In fast mode the threads run in order within a round: those before the running one have reached the
// barrier, those after it have not.
void BlockRun::rebuild_after_fast_mode() {
  host_thread.fast_contexts = nullptr;
  const unsigned me = current();
  for (unsigned i = 0; i < me; ++i) states[i] = ThreadState::at_barrier;
  for (unsigned i = me; i < thread_count; ++i) states[i] = ThreadState::runnable;
  arrived = me;
  barrier_count = 0;
  barrier_first = 0;
}

void BlockRun::fast_barrier_left() {
  if (aborting) throw BlockAbort{};
}

std::uint64_t BlockRun::warp(WarpOp op, unsigned mask, std::uint64_t value, unsigned arg, int width,
                             const std::source_location& where) {
  if (!fiber_mode) convert_to_fibers();
  leave_fast_mode();
  const unsigned me = current();
  const unsigned lane = me % 32;
  const unsigned wi = me / 32;
  WarpRun& w = warps[wi];
  const unsigned bit = 1u << lane;
  if (is_shuffle(op) && (width < 1 || width > 32 || (width & (width - 1)) != 0)) {
    fault_and_unwind(fmt::format("{} in {} ({}): width {} is not a power of 2 from 1 to 32", op_name(op),
                                 thread_name(me), format_site(where), width));
  }
  if ((mask & bit) == 0) {
    if (job->checks & synccheck) {
      fault_and_unwind(fmt::format("synccheck: {} in {} ({}): mask {:#010x} does not include the calling lane {}",
                                   op_name(op), thread_name(me), format_site(where), mask, lane));
    }
    mask |= bit;
  }
  if ((job->checks & synccheck) && (mask & ~w.alive) != 0) {
    const unsigned missing = static_cast<unsigned>(__builtin_ctz(mask & ~w.alive));
    fault_and_unwind(fmt::format("synccheck: {} in {} ({}): mask {:#010x} names lane {}, which {}", op_name(op),
                                 thread_name(me), format_site(where), mask, missing,
                                 (w.exists & (1u << missing)) ? "has exited" : "is not a thread of the block"));
  }
  SimThread& t = threads[me];
  t.op = op;
  t.mask = mask;
  t.value = value;
  t.arg = arg;
  t.width = width;
  sites[me] = where;
  states[me] = ThreadState::at_warp;
  w.arrived |= bit;
  try_complete_warp(wi, me);
  converge_if_settled(wi);
  if (aborting) throw BlockAbort{};
  yield();
  return t.result;
}

void BlockRun::try_complete_warp(unsigned wi, unsigned reference) {
  WarpRun& w = warps[wi];
  const SimThread& ref = threads[reference];
  const unsigned required = ref.mask & w.alive;
  if ((w.arrived & required) != required) return;
  for (unsigned lanes = required; lanes != 0; lanes &= lanes - 1) {
    const SimThread& other = threads[wi * 32 + static_cast<unsigned>(__builtin_ctz(lanes))];
    if (other.op != ref.op || other.mask != ref.mask) {
      if (job->checks & synccheck) {
        const unsigned o = static_cast<unsigned>(&other - threads.data());
        job->report(fmt::format("synccheck: warp calls do not match: {} is in {} with mask {:#010x} ({}) while "
                                "{} is in {} with mask {:#010x} ({})",
                                thread_name(reference), op_name(ref.op), ref.mask, format_site(sites[reference]),
                                thread_name(o), op_name(other.op), other.mask, format_site(sites[o])));
        aborting = true;
      }
      return;  // without synccheck they wait; a deadlock is still reported
    }
  }
  complete_warp(wi, required);
}

void BlockRun::complete_warp(unsigned wi, unsigned required) {
  WarpRun& w = warps[wi];
  SimThread* lanes = threads.data() + wi * 32;
  std::uint64_t values[32];
  unsigned ballot = 0;
  for (unsigned m = required; m != 0; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctz(m));
    values[l] = lanes[l].value;
    if (lanes[l].value != 0) ballot |= 1u << l;
  }
  for (unsigned m = required; m != 0; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctz(m));
    SimThread& t = lanes[l];
    const unsigned width = static_cast<unsigned>(t.width);
    const unsigned in_segment = l & (width - 1);
    const unsigned segment = l - in_segment;
    unsigned src = l;
    switch (t.op) {
      case WarpOp::shfl_idx: src = segment + (t.arg & (width - 1)); break;
      case WarpOp::shfl_up: src = in_segment >= t.arg ? l - t.arg : l; break;
      case WarpOp::shfl_down: src = in_segment + t.arg < width ? l + t.arg : l; break;
      case WarpOp::shfl_xor:
        src = l ^ (t.arg & 31u);
        if (src >= segment + width) src = l;  // later segments are out of reach: own value
        break;
      default: break;
    }
    switch (t.op) {
      case WarpOp::sync: t.result = 0; break;
      case WarpOp::ballot: t.result = ballot; break;
      case WarpOp::any: t.result = ballot != 0; break;
      case WarpOp::all: t.result = ballot == required; break;
      case WarpOp::match_any: {
        unsigned same = 0;
        for (unsigned k = required; k != 0; k &= k - 1) {
          const unsigned o = static_cast<unsigned>(__builtin_ctz(k));
          if (values[o] == values[l]) same |= 1u << o;
        }
        t.result = same;
        break;
      }
      default:
        // A source lane outside the mask is undefined in CUDA; here it yields the caller's own value.
        t.result = (required >> src) & 1u ? values[src] : values[l];
        break;
    }
    states[wi * 32 + l] = ThreadState::runnable;
  }
  w.arrived &= ~required;
  w.exited_since_sync = 0;
  ++warp_epochs[wi];
  ++host_thread.order_epoch;
}

unsigned BlockRun::active_mask(const std::source_location& where) {
  if (!fiber_mode) convert_to_fibers();
  leave_fast_mode();
  const unsigned me = current();
  const unsigned wi = me / 32;
  SimThread& t = threads[me];
  sites[me] = where;
  t.result = 0;
  states[me] = ThreadState::at_activemask;
  warps[wi].converging |= 1u << (me % 32);
  converge_if_settled(wi);
  if (aborting) throw BlockAbort{};
  yield();
  return static_cast<unsigned>(t.result);
}

// Called whenever a lane of the warp blocks or exits: once none of its lanes can run, the lanes waiting
// in __activemask at the lowest waiting lane's call site get their mask and run on. Lanes waiting at
// other sites wait for the warp to settle again.
void BlockRun::converge_if_settled(unsigned wi) {
  WarpRun& w = warps[wi];
  if (w.converging == 0) return;
  for (unsigned lanes = w.alive; lanes != 0; lanes &= lanes - 1) {
    const ThreadState s = states[wi * 32 + static_cast<unsigned>(__builtin_ctz(lanes))];
    if (s == ThreadState::runnable || s == ThreadState::not_started) return;
  }
  const std::source_location& site = sites[wi * 32 + static_cast<unsigned>(__builtin_ctz(w.converging))];
  unsigned group = 0;
  for (unsigned lanes = w.converging; lanes != 0; lanes &= lanes - 1) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctz(lanes));
    if (same_site(sites[wi * 32 + lane], site)) group |= 1u << lane;
  }
  for (unsigned lanes = group; lanes != 0; lanes &= lanes - 1) {
    const unsigned i = wi * 32 + static_cast<unsigned>(__builtin_ctz(lanes));
    threads[i].result = group;
    states[i] = ThreadState::runnable;
  }
  w.converging &= ~group;
}

// ---- the entry points kernel code calls ----

int block_barrier(BarrierKind kind, int predicate, const std::source_location& where) {
  BlockRun* b = host_thread.block;
  if (b == nullptr) return kind == BarrierKind::plain ? 0 : (predicate != 0);
  return b->barrier(kind, predicate, where);
}

std::uint64_t warp_collective(WarpOp op, unsigned mask, std::uint64_t value, unsigned arg, int width,
                              const std::source_location& where) {
  BlockRun* b = host_thread.block;
  if (b == nullptr) return value;
  return b->warp(op, mask, value, arg, width, where);
}

unsigned active_mask(const std::source_location& where) {
  BlockRun* b = host_thread.block;
  return b == nullptr ? 1u : b->active_mask(where);
}

void fast_barrier_left() { host_thread.block->fast_barrier_left(); }

bool fast_barrier_outlined(const std::source_location& where) {
#if defined(GPULAB_SIM_FAST_BARRIER)
  return fast_barrier(where);
#else
  (void)where;
  return false;  // the engine never enters fast mode
#endif
}

}  // namespace gpulab::sim::detail
