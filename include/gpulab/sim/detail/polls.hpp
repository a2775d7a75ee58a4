#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// Forward progress for threads that poll memory, as Volta and later GPUs give it: what the atomics
// (device/atomics.hpp, device/cuda_atomic.hpp) and __ldcv tell the engine after each access.
//
// A block's threads are fibers of one host thread, so a thread spinning on a flag that another thread
// of its block sets would never let that thread run. The engine therefore hears of every *poll*: an
// access that reads memory and leaves it as it was, written the way CUDA code waits (an atomic load, an
// add, or or xor of 0, an and of all ones, an exchange that stores what was there, a failed
// compare-and-swap, __ldcv). When a thread polls an address and sees the value it saw there last
// time, it steps aside for the block's other threads (src/sim/engine/block_polls.cpp). When every
// runnable thread of every running block does so and nothing changes, blocks not yet started are
// admitted on more host threads, up to the co-residency a GPU would have; when none can be, the launch is
// deadlocked, which is reported (never a hang). Any atomic that changes memory counts as progress.
#include <cstdint>
#include <cstring>

#include <gpulab/sim/detail/host_thread.hpp>

namespace gpulab::sim::detail {

// Out of line (src/sim/engine/block_polls.cpp). The running thread polled `address` and saw `value`.
void poll_observed(const void* address, std::uint64_t value);
// Something changed while threads of the running block were polling: they start counting again.
void poll_progress();

// The first 8 bytes of a polled value, which is what a poll compares.
template <class T>
GPULAB_SIM_HOOK_INLINE std::uint64_t poll_bits(const T& value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T) < 8 ? sizeof(T) : 8);
  return bits;
}

template <class T>
GPULAB_SIM_HOOK_INLINE void note_poll(const T* address, const T& seen) {
  poll_observed(address, poll_bits(seen));
}

// After an access that changed memory: cheap unless the block has threads polling.
GPULAB_SIM_HOOK_INLINE void note_change() {
  if (host_thread.block_polling) [[unlikely]] poll_progress();
}

}  // namespace gpulab::sim::detail
