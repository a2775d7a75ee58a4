#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// The simulator engine's entry points that simulated kernel code calls (defined in libgpulab), and the
// helpers that move values through them.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

namespace gpulab::sim::detail {

enum class BarrierKind : int { plain = 0, count = 1, all = 2, any = 3 };
enum class WarpOp : int { sync = 0, shfl_idx, shfl_up, shfl_down, shfl_xor, ballot, any, all, match_any };

// __syncthreads and its reductions: returns the reduction (0 for plain).
int block_barrier(BarrierKind kind, int predicate, const std::source_location& where);
// A warp-synchronous exchange among the lanes of `mask`; returns this lane's result.
std::uint64_t warp_collective(WarpOp op, unsigned mask, std::uint64_t value, unsigned arg, int width,
                              const std::source_location& where);
// __activemask: the lanes of the caller's warp that reach the same call site before the warp settles.
unsigned active_mask(const std::source_location& where);
// __nanosleep: the running thread steps aside so that the block's other runnable threads run (a thread
// polling memory must not starve the one it waits for); false when none could, or outside a kernel.
bool yield_thread();
// What an atomic access is, for the checks: its kind, the threads it is atomic among (CUDA's scopes:
// atomicX_block is block, atomicX device, atomicX_system system; cuda::thread_scope_* the same) and its
// memory order (CUDA's atomic functions are relaxed).
enum class AtomicKind : std::uint8_t { load, store, read_modify_write };
enum class AtomicScope : std::uint8_t { thread, block, cluster, device, system };
enum class AtomicOrder : std::uint8_t { relaxed, acquire, release, acq_rel, seq_cst };
// The checks for an atomic (atomics are not seen by the instrumentation; see GPULAB_SIM_UNCHECKED).
void check_atomic_access(const void* address, std::size_t bytes, AtomicKind kind, AtomicScope scope,
                         AtomicOrder order);
// The checks for a fence at `scope` by the running simulated thread (__threadfence_block: block,
// __threadfence: device, __threadfence_system: system; cuda::atomic_thread_fence its scope).
void check_fence(AtomicScope scope);
// Waiting inside a block without spinning (cuda::barrier, cuda::std::latch, atomic wait): the running
// thread sleeps until a thread of its block calls block_notify with the same key; the caller re-tests its
// condition and waits again if it does not hold yet. With no thread of the block left to run, the block
// is deadlocked, which is reported naming `what` and `where`. Outside a kernel it returns at once.
void block_wait(const void* key, const char* what, const std::source_location& where);
// Wakes the block's threads waiting on `key`. `orders` says the wake completes a synchronisation of the
// block (a barrier's phase): what the block's threads did before it is then ordered before what they do
// after, for racecheck, as a __syncthreads orders it.
void block_notify(const void* key, bool orders);
// memcheck, racecheck, initcheck for one access by the running simulated thread (instrumentation/tsan_hooks.hpp).
void check_access(const void* address, std::size_t bytes, bool write);
// A volatile access, before it is made: to device memory, a relaxed atomic of system scope for the
// checks (PTX's volatile), elsewhere a plain access; a volatile load is also a poll (polls.hpp).
void check_volatile_access(const void* address, std::size_t bytes, bool write);
// The kernel ends itself (__trap, a device-side call the simulator refuses): reports `what` for the
// running simulated thread, at `where`, and ends the launch with a fault; never returns.
[[noreturn]] void kernel_abort(const char* what, const std::source_location& where);
// A failed assert: in a kernel, CUDA's report and a fault that makes the launch return cudaErrorAssert;
// outside one, the C library's assert. The shadow <assert.h> (include/gpulab/sim/cuda) declares it too.
[[noreturn]] void device_assert_fail(const char* expression, const char* file, unsigned line, const char* function);

template <class T>
inline std::uint64_t to_bits(T value) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "warp exchanges move values of at most 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <class T>
inline T from_bits(std::uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

// A warp reduction (__reduce_*_sync, redux.sync): every lane of `mask` gets op folded over all their
// values. A whole warp reduces in five xor exchanges; a partial mask reads each lane of it in turn.
template <class T, class Op>
inline T warp_reduce(unsigned mask, T value, Op op, const std::source_location& where) {
  if (mask == 0xffffffffu) {
    for (unsigned distance = 16; distance >= 1; distance /= 2) {
      value = op(value, from_bits<T>(warp_collective(WarpOp::shfl_xor, mask, to_bits(value), distance, 32, where)));
    }
    return value;
  }
  T result{};
  bool first = true;
  for (unsigned lanes = mask; lanes != 0; lanes &= lanes - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(lanes));
    const T v = from_bits<T>(warp_collective(WarpOp::shfl_idx, mask, to_bits(value), lane, 32, where));
    result = first ? v : op(result, v);
    first = false;
  }
  return result;
}

}  // namespace gpulab::sim::detail
