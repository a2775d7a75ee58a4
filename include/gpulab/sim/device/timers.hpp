#pragma once
// CUDA's device timers and sleep for code compiled for the simulator (part of
// <gpulab/sim/device_runtime.hpp>): clock(), clock64(), the %globaltimer nanoseconds and __nanosleep.
//
// The simulator reports a 1 GHz clock (cudaDevAttrClockRate 1000000 kHz), so one cycle of clock64() is
// one nanosecond of the host's steady clock: a program converting cycles to time gets real figures.
#include <chrono>
#include <cstdint>
#include <ctime>
#include <thread>

#include <time.h>

#pragma push_macro("GPULAB_INSIDE_PUBLIC_HEADER")
#undef GPULAB_INSIDE_PUBLIC_HEADER
#define GPULAB_INSIDE_PUBLIC_HEADER 1
#include <gpulab/sim/detail/engine_abi.hpp>
#include <gpulab/sim/detail/host_thread.hpp>
#pragma pop_macro("GPULAB_INSIDE_PUBLIC_HEADER")

namespace gpulab::sim {
// The SM cycle counter: nanoseconds of the host's steady clock.
inline long long device_cycles() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
// %globaltimer: nanoseconds since the Unix epoch, as the GPU's global timer counts.
inline unsigned long long global_timer_ns() {
  return static_cast<unsigned long long>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}
}  // namespace gpulab::sim

// A read of a timer is a poll for forward progress: a thread waiting for time to pass (or polling a flag
// with a clock in its loop) steps aside for the block's other threads.
inline long long clock64() {
  gpulab::sim::detail::yield_thread();
  return gpulab::sim::device_cycles();
}

// CUDA's clock() is the C library's `clock_t clock(void)`, declared __host__ __device__: on the device it
// is the low 32 bits of the cycle counter (%clock), on the host the process's processor time. One
// definition serves both here, telling them apart by whether a simulated thread is running; it
// replaces the C library's for the program, keeping its meaning (CLOCK_PROCESS_CPUTIME_ID, as glibc's).
extern "C" inline clock_t clock() noexcept {
  if (gpulab::sim::detail::host_thread.block != nullptr) {
    gpulab::sim::detail::yield_thread();
    return static_cast<clock_t>(static_cast<std::uint32_t>(gpulab::sim::device_cycles()));
  }
  timespec now{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) != 0) return static_cast<clock_t>(-1);
  return static_cast<clock_t>(now.tv_sec) * CLOCKS_PER_SEC + static_cast<clock_t>(now.tv_nsec / (1000000000 / CLOCKS_PER_SEC));
}

// CUDA sleeps "approximately" ns nanoseconds, anywhere in [0, 2 * ns]. Here the calling thread steps aside
// so the block's other threads run (a thread polling memory with __nanosleep lets the writer it waits
// for make progress); when none of them can, the host thread yields to other blocks' host threads.
// It never sleeps longer than asked: the host's timed sleeps overshoot by tens of microseconds.
inline void __nanosleep(unsigned int ns) {
  if (ns == 0) return;
  if (!gpulab::sim::detail::yield_thread()) std::this_thread::yield();
}
