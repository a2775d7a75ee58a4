#pragma once
// CUDA's barriers, fences and warp-synchronous intrinsics for code compiled for the simulator (part of
// <gpulab/sim/device_runtime.hpp>). What needs the scheduler calls into libgpulab's engine; a plain
// __syncthreads in the barrier's fast mode is inlined (detail/fast_barrier.hpp).
#include <source_location>

#include <gpulab/sim/device/atomics.hpp>
#include <gpulab/sim/device/qualifiers.hpp>

#pragma push_macro("GPULAB_INSIDE_PUBLIC_HEADER")
#undef GPULAB_INSIDE_PUBLIC_HEADER
#define GPULAB_INSIDE_PUBLIC_HEADER 1
#include <gpulab/sim/detail/engine_abi.hpp>
#include <gpulab/sim/detail/fast_barrier.hpp>
#pragma pop_macro("GPULAB_INSIDE_PUBLIC_HEADER")

// ---- barriers and fences ----------------------------------------------------------------------------------
inline void __syncthreads(const std::source_location where = std::source_location::current()) {
  if (gpulab::sim::detail::fast_barrier(where)) return;
  gpulab::sim::detail::block_barrier(gpulab::sim::detail::BarrierKind::plain, 0, where);
}
inline int __syncthreads_count(int predicate, const std::source_location where = std::source_location::current()) {
  return gpulab::sim::detail::block_barrier(gpulab::sim::detail::BarrierKind::count, predicate, where);
}
inline int __syncthreads_and(int predicate, const std::source_location where = std::source_location::current()) {
  return gpulab::sim::detail::block_barrier(gpulab::sim::detail::BarrierKind::all, predicate, where);
}
inline int __syncthreads_or(int predicate, const std::source_location where = std::source_location::current()) {
  return gpulab::sim::detail::block_barrier(gpulab::sim::detail::BarrierKind::any, predicate, where);
}
inline void __syncwarp(unsigned mask = 0xffffffffu, const std::source_location where = std::source_location::current()) {
  gpulab::sim::detail::warp_collective(gpulab::sim::detail::WarpOp::sync, mask, 0, 0, 32, where);
}
// A block's threads share one host thread, so ordering within a block needs only the compiler's fence;
// other blocks run on other host threads.
// Each tells racecheck of the fence and its scope (atomics.hpp); one copy per compilation (qualifiers.hpp).
GPULAB_SIM_VARIANT_LINKAGE GPULAB_SIM_UNCHECKED inline void __threadfence_block() {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  gpulab::sim::detail::note_fence(gpulab::sim::detail::AtomicScope::block);
}
GPULAB_SIM_VARIANT_LINKAGE GPULAB_SIM_UNCHECKED inline void __threadfence() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  gpulab::sim::detail::note_fence(gpulab::sim::detail::AtomicScope::device);
}
GPULAB_SIM_VARIANT_LINKAGE GPULAB_SIM_UNCHECKED inline void __threadfence_system() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  gpulab::sim::detail::note_fence(gpulab::sim::detail::AtomicScope::system);
}

// ---- warp intrinsics ----------------------------------------------------------------------------------------
template <class T>
inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize,
                     const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return from_bits<T>(warp_collective(WarpOp::shfl_idx, mask, to_bits(var), static_cast<unsigned>(srcLane), width, where));
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                        const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return from_bits<T>(warp_collective(WarpOp::shfl_up, mask, to_bits(var), delta, width, where));
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                          const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return from_bits<T>(warp_collective(WarpOp::shfl_down, mask, to_bits(var), delta, width, where));
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize,
                         const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return from_bits<T>(warp_collective(WarpOp::shfl_xor, mask, to_bits(var), static_cast<unsigned>(laneMask), width, where));
}
inline unsigned __ballot_sync(unsigned mask, int predicate, const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return static_cast<unsigned>(warp_collective(WarpOp::ballot, mask, predicate != 0, 0, 32, where));
}
inline int __any_sync(unsigned mask, int predicate, const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return static_cast<int>(warp_collective(WarpOp::any, mask, predicate != 0, 0, 32, where));
}
inline int __all_sync(unsigned mask, int predicate, const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return static_cast<int>(warp_collective(WarpOp::all, mask, predicate != 0, 0, 32, where));
}
template <class T>
inline unsigned __match_any_sync(unsigned mask, T value, const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return static_cast<unsigned>(warp_collective(WarpOp::match_any, mask, to_bits(value), 0, 32, where));
}
// The warp reductions of sm_80 (__reduce_add_sync and the rest): every lane of `mask` gets the reduction
// of all their values (detail::warp_reduce, which redux.sync in inline PTX uses too).
#define GPULAB_SIM_WARP_REDUCE(name, type, expression)                                                        \
  inline type name(unsigned mask, type value, const std::source_location where = std::source_location::current()) { \
    return gpulab::sim::detail::warp_reduce(mask, value, [](type a, type b) -> type { return expression; }, where); \
  }
GPULAB_SIM_WARP_REDUCE(__reduce_add_sync, unsigned, a + b)
GPULAB_SIM_WARP_REDUCE(__reduce_add_sync, int, static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b)))
GPULAB_SIM_WARP_REDUCE(__reduce_min_sync, unsigned, a < b ? a : b)
GPULAB_SIM_WARP_REDUCE(__reduce_min_sync, int, a < b ? a : b)
GPULAB_SIM_WARP_REDUCE(__reduce_max_sync, unsigned, a > b ? a : b)
GPULAB_SIM_WARP_REDUCE(__reduce_max_sync, int, a > b ? a : b)
GPULAB_SIM_WARP_REDUCE(__reduce_and_sync, unsigned, a & b)
GPULAB_SIM_WARP_REDUCE(__reduce_or_sync, unsigned, a | b)
GPULAB_SIM_WARP_REDUCE(__reduce_xor_sync, unsigned, a ^ b)
#undef GPULAB_SIM_WARP_REDUCE

// The lanes that are executing this call together. A GPU reports the lanes that are converged here; the
// simulator, whose lanes take turns, waits until every other lane of the warp is blocked (at a barrier,
// a warp call, this call) or has exited, and returns the lanes waiting at this same call site. So
// `if (p) { m = __activemask(); }` gives the lanes where p holds, as a converged warp would.
inline unsigned __activemask(const std::source_location where = std::source_location::current()) {
  return gpulab::sim::detail::active_mask(where);
}

