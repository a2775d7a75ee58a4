#pragma once
// libcu++'s split arrive/wait barrier for code compiled for the simulator: cuda::barrier<Scope,
// Completion> (<cuda/barrier>) and cuda::std::barrier<Completion> (<cuda/std/barrier>), with init(),
// arrive() returning a token, wait(token), arrive_and_wait(), arrive_and_drop(), try_wait() and the
// completion function; cuda::std::latch (<cuda/std/latch>) on the same machinery.
//
// A waiting thread does not spin (a block's threads are fibers on one host thread: a spin would never
// let the others arrive); it sleeps in the engine (detail::block_wait) until the phase completes. The
// completion orders the block's accesses before it against those after it for racecheck, as a
// __syncthreads does. Arrivals and the phase are atomic, so a barrier in global memory stays consistent
// across blocks; but a thread waiting for arrivals from another block is reported as a deadlock (blocks
// do not yet make progress on each other's behalf), so a barrier synchronises the threads of one block.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <source_location>
#include <utility>

#include <gpulab/sim/device/cuda_atomic.hpp>

namespace gpulab::sim::detail {

// The completion of a barrier constructed without one.
struct empty_completion {
  void operator()() noexcept {}
};

}  // namespace gpulab::sim::detail

namespace cuda {

// `__shared__ cuda::barrier<cuda::thread_scope_block> bar;` then `init(&bar, n)` by one thread: the
// default constructor leaves it for init, as libcu++'s does.
template <thread_scope Scope, class Completion = gpulab::sim::detail::empty_completion>
class barrier {
 public:
  using arrival_token = ::std::uint64_t;

  barrier() = default;
  explicit barrier(::std::ptrdiff_t expected, Completion completion = Completion()) { reset(expected, ::std::move(completion)); }
  barrier(const barrier&) = delete;
  barrier& operator=(const barrier&) = delete;

  friend void init(barrier* b, ::std::ptrdiff_t expected, Completion completion = Completion()) {
    b->reset(expected, ::std::move(completion));
  }

  static constexpr ::std::ptrdiff_t max() noexcept { return ::std::numeric_limits<::std::ptrdiff_t>::max(); }

  // Counts `update` arrivals; the last arrival of a phase runs the completion, starts the next phase
  // and wakes the waiters.
  GPULAB_SIM_UNCHECKED arrival_token arrive(::std::ptrdiff_t update = 1) {
    const arrival_token phase = __atomic_load_n(&phase_, __ATOMIC_ACQUIRE);
    const ::std::ptrdiff_t before = __atomic_fetch_sub(&pending_, update, __ATOMIC_ACQ_REL);
    if (before == update) complete_phase();
    return phase;
  }
  GPULAB_SIM_UNCHECKED void wait(arrival_token&& phase,
                                 const ::std::source_location where = ::std::source_location::current()) const {
    while (__atomic_load_n(&phase_, __ATOMIC_ACQUIRE) == phase) {
      gpulab::sim::detail::block_wait(this, "cuda::barrier::wait", where);
    }
  }
  void arrive_and_wait(const ::std::source_location where = ::std::source_location::current()) { wait(arrive(), where); }
  // This thread leaves the barrier: it counts for this phase and no longer for the next ones.
  GPULAB_SIM_UNCHECKED void arrive_and_drop() {
    __atomic_fetch_sub(&expected_, 1, __ATOMIC_ACQ_REL);
    (void)arrive();
  }
  GPULAB_SIM_UNCHECKED bool try_wait(arrival_token&& phase) const {
    return __atomic_load_n(&phase_, __ATOMIC_ACQUIRE) != phase;
  }
  // The parity forms (a phase's parity is its count's lowest bit).
  GPULAB_SIM_UNCHECKED bool try_wait_parity(bool parity) const {
    return (__atomic_load_n(&phase_, __ATOMIC_ACQUIRE) & 1u) != static_cast<arrival_token>(parity);
  }
  GPULAB_SIM_UNCHECKED void wait_parity(bool parity, const ::std::source_location where = ::std::source_location::current()) const {
    while (!try_wait_parity(parity)) gpulab::sim::detail::block_wait(this, "cuda::barrier::wait_parity", where);
  }

 private:
  GPULAB_SIM_UNCHECKED void reset(::std::ptrdiff_t expected, Completion completion) {
    completion_ = ::std::move(completion);
    __atomic_store_n(&expected_, expected, __ATOMIC_RELAXED);
    __atomic_store_n(&pending_, expected, __ATOMIC_RELAXED);
    __atomic_store_n(&phase_, arrival_token{0}, __ATOMIC_RELEASE);
  }
  GPULAB_SIM_UNCHECKED void complete_phase() {
    completion_();
    __atomic_store_n(&pending_, __atomic_load_n(&expected_, __ATOMIC_ACQUIRE), __ATOMIC_RELAXED);
    __atomic_fetch_add(&phase_, 1, __ATOMIC_ACQ_REL);
    gpulab::sim::detail::block_notify(this, true);
  }

  ::std::ptrdiff_t expected_;  // arrivals each phase (less those dropped)
  ::std::ptrdiff_t pending_;   // arrivals this phase still waits for
  arrival_token phase_;      // phases completed
  [[no_unique_address]] Completion completion_;
};

}  // namespace cuda

namespace cuda::std {

template <class Completion = gpulab::sim::detail::empty_completion>
using barrier = ::cuda::barrier<::cuda::thread_scope_system, Completion>;

// A single-use barrier: count_down arrives, wait sleeps until the count reaches zero.
class latch {
 public:
  explicit latch(::std::ptrdiff_t expected) : barrier_(expected) {}
  latch(const latch&) = delete;
  latch& operator=(const latch&) = delete;
  static constexpr ::std::ptrdiff_t max() noexcept { return ::std::numeric_limits<::std::ptrdiff_t>::max(); }
  void count_down(::std::ptrdiff_t update = 1) { (void)barrier_.arrive(update); }
  bool try_wait() const noexcept { return barrier_.try_wait(0); }
  void wait(const ::std::source_location where = ::std::source_location::current()) const { barrier_.wait(0, where); }
  void arrive_and_wait(::std::ptrdiff_t update = 1, const ::std::source_location where = ::std::source_location::current()) {
    count_down(update);
    wait(where);
  }

 private:
  ::cuda::barrier<::cuda::thread_scope_system> barrier_;
};

}  // namespace cuda::std

namespace cuda {

template <thread_scope Scope>
class latch : public ::cuda::std::latch {
 public:
  using ::cuda::std::latch::latch;
};

}  // namespace cuda
