// The engine's scheduler: which simulated thread of a block runs next, the switches between them, and
// __syncthreads (with its reductions) in fiber mode and the bookkeeping of its fast mode
// (fast_barrier.hpp). Kept in one file: the barrier's hot path calls the switch, which must inline.
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include <gpulab/sim/detail/fast_barrier.hpp>

#include "sim/engine/block_run.hpp"
#include "sim/engine/names.hpp"

// The C library's assert failure (declared by <assert.h> only without NDEBUG, which this file has).
extern "C" [[noreturn]] void __assert_fail(const char* assertion, const char* file, unsigned int line,
                                          const char* function) noexcept;

namespace gpulab::sim::detail {

namespace {

// The inlined barrier's hop announces nothing to the sanitizers (fast_barrier.hpp), and exists on x86-64 only.
#if defined(GPULAB_SIM_FAST_BARRIER) && !defined(GPULAB_SIM_ASAN)
constexpr bool fast_mode_possible = true;
#else
constexpr bool fast_mode_possible = false;
#endif

}  // namespace

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
    const ThreadStatus s = states[i];
    if (s == ThreadStatus::runnable || s == ThreadStatus::not_started) return i;
  }
  return thread_count;
}

void BlockRun::yield() {
  if (aborting) [[unlikely]] throw BlockAbort{};
  const unsigned me = current();
  // Nearly always the next thread in order can run (it has not reached this barrier yet, or it was
  // just released); the scan is for the rest.
  unsigned next = me + 1;
  if (next >= thread_count || (states[next] != ThreadStatus::runnable && states[next] != ThreadStatus::not_started)) {
    next = next_runnable(me);
    if (next == thread_count) [[unlikely]] report_deadlock();
  }
  if (next != me) switch_to(next);
  if (aborting) [[unlikely]] throw BlockAbort{};
}

bool BlockRun::yield_now() {
  if (!fiber_mode) convert_to_fibers();
  leave_fast_mode();
  const unsigned me = current();
  const unsigned next = next_runnable(me);
  if (next == me || next == thread_count) return false;
  switch_to(next);
  if (aborting) [[unlikely]] throw BlockAbort{};
  return true;
}

// The hot path of every __syncthreads of a block in fiber mode: a handful of stores, the release when
// this is the last arrival, and a switch to the next thread. What only the clients or a failure need
// lives in cold functions, so this stays small enough that the CPU overlaps one simulated thread's
// arithmetic with the next one's.
int BlockRun::barrier(BarrierKind kind, int predicate, const std::source_location& where) {
  if (!fiber_mode) [[unlikely]] convert_to_fibers();
  leave_fast_mode();
  const unsigned me = current();
  if (arrived == 0) {
    barrier_first = me;
  } else if (host_thread.clients != 0) [[unlikely]] {
    tell_barrier_arrival(me, where);
  }
  sites[me] = where;
  states[me] = ThreadStatus::at_barrier;
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

void BlockRun::tell_barrier_arrival(unsigned me, const std::source_location& where) {
  const unsigned on = host_thread.clients;
  for_each_client(Clients{}, [&]<class C>() {
    if ((on & C::flag) != 0) C::on_barrier_arrival(*this, me, where);
  });
}

bool BlockRun::clients_allow_release() {
  const unsigned on = host_thread.clients;
  bool allowed = true;
  for_each_client(Clients{}, [&]<class C>() {
    if (allowed && (on & C::flag) != 0) allowed = C::on_barrier_release(*this);
  });
  return allowed;
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

bool BlockRun::release_barrier() {
  // Threads have exited: a barrier CUDA leaves undefined, which a client may report.
  if (live != thread_count && host_thread.clients != 0 && !clients_allow_release()) {
    aborting = true;
    return false;
  }
  // One byte a thread, so the compiler turns this into a few vector compares and blends.
  ThreadStatus* const s = states.data();
  for (unsigned i = 0; i < thread_count; ++i) {
    s[i] = s[i] == ThreadStatus::at_barrier ? ThreadStatus::runnable : s[i];
  }
  barrier_result = static_cast<int>(barrier_count);
  barrier_participants = arrived;
  arrived = 0;
  barrier_count = 0;
  ++host_thread.barrier_epoch;
  ++host_thread.order_epoch;
  // Everyone was at this barrier, so no warp call or __activemask is pending and every thread has
  // started. (The clients' tests of each arrival are in the fast path too: fast_barrier_allows.)
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
  for (unsigned i = 0; i < me; ++i) states[i] = ThreadStatus::at_barrier;
  for (unsigned i = me; i < thread_count; ++i) states[i] = ThreadStatus::runnable;
  arrived = me;
  barrier_count = 0;
  barrier_first = 0;
}

void BlockRun::fast_barrier_left() {
  if (aborting) throw BlockAbort{};
}

// ---- the entry points kernel code calls ----

int block_barrier(BarrierKind kind, int predicate, const std::source_location& where) {
  BlockRun* b = host_thread.block;
  if (b == nullptr) return kind == BarrierKind::plain ? 0 : (predicate != 0);
  return b->barrier(kind, predicate, where);
}

void fast_barrier_left() { host_thread.block->fast_barrier_left(); }

bool yield_thread() {
  BlockRun* b = host_thread.block;
  return b != nullptr && b->yield_now();
}

void kernel_abort(const char* what, const std::source_location& where) {
  BlockRun* b = host_thread.block;
  if (b == nullptr) {
    // Device code called from host code (a __host__ __device__ function): the host has nothing to end
    // but the process, as a trap on the host would.
    std::fprintf(stderr, "gpulab-sim: %s (%s), outside any kernel\n", what, format_site(where).c_str());
    std::abort();
  }
  const std::string site = where.line() != 0 ? " at " + format_site(where) : std::string();
  b->fault_and_unwind(fmt::format("{}{}: {}", b->thread_name(b->current()), site, what));
}

void device_assert_fail(const char* expression, const char* file, unsigned line, const char* function) {
  BlockRun* b = host_thread.block;
  if (b == nullptr) __assert_fail(expression, file, line, function);  // host code: the C library's assert
  // The line CUDA's device runtime prints for a failed assert, then the fault that makes the launch (and,
  // as on a GPU, every later call) return cudaErrorAssert.
  const uint3 t = threadIdx;
  std::fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file, line,
               function, blockIdx.x, blockIdx.y, blockIdx.z, t.x, t.y, t.z, expression);
  b->fault_and_unwind(fmt::format("{} at {}:{}: device-side assertion `{}` failed", b->thread_name(b->current()),
                                  file, line, expression));
}

bool fast_barrier_outlined(const std::source_location& where) {
#if defined(GPULAB_SIM_FAST_BARRIER)
  return fast_barrier(where);
#else
  (void)where;
  return false;  // the engine never enters fast mode
#endif
}

}  // namespace gpulab::sim::detail
