#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// What an instrumentation client is: one of the simulator's checks (memcheck, racecheck, initcheck,
// synccheck), or anything else that watches kernels run (the profiler). A client is a class of static members, found
// at compile time through the registry (clients.hpp), never through a virtual call per access:
//
//   - its name, as GPULAB_SIM_CHECK spells it, its bit in the clients mask, and whether it needs the
//     instrumented compilation of a kernel;
//   - its state: a part of each host thread's state (ThreadState, which the inline tests read), of each
//     launch (LaunchState) and of the sim device (DeviceState);
//   - inline tests for an access (device memory, or anything else), which say "nothing to do" for the
//     common case without leaving the kernel; and the full check out of line, for the rest;
//   - engine events: a launch queued and started, a block started and ended, barrier arrivals and
//     releases, warp calls, copies into device memory, frees.
//
// ClientDefaults gives every member a default that does nothing, so a client writes only what it
// uses. The engine's events call every client (each looks at whether the launch has it on); the
// per-access path calls only the clients the running launch has on, in the registry's order.
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string>
#include <string_view>

#include <gpulab/sim/detail/engine_abi.hpp>
#include <gpulab/sim/detail/engine_state.hpp>

namespace gpulab::sim::detail {

struct LaunchJob;    // src/sim/engine/launch_job.hpp
class SimDevice;     // src/sim/engine/sim_device.hpp
struct Buffer;       // src/sim/engine/device_memory.hpp

// One memory access of a simulated thread, as the instrumentation reports it.
struct Access {
  std::uintptr_t address = 0;
  std::size_t bytes = 0;
  bool write = false;
  const void* pointer() const noexcept { return reinterpret_cast<const void*>(address); }
};
// An atomic access: what it is, the threads it is atomic among, and its memory order.
struct AtomicAccess : Access {
  AtomicKind kind = AtomicKind::read_modify_write;
  AtomicScope scope = AtomicScope::device;
  AtomicOrder order = AtomicOrder::relaxed;
};

template <class... C>
struct ClientList {};

// What a client says of an access before the others are asked (ClientDefaults::*_access_vouches).
enum class Vouch {
  none,         // nothing: ask every client as usual
  passes,       // it passes this client and every client registered before it
  ask_checker,  // the checker must decide it (a race, say): no inline test can pass it
};

// Every member a client may have, doing nothing. CRTP, so that each client's empty state types are
// distinct types (the engine composes them as bases).
template <class Self>
struct ClientDefaults {
  struct ThreadState {};
  struct LaunchState {};
  struct DeviceState {};

  // Whether the client is one of the checks GPULAB_SIM_CHECK names (the profiler is not: it finds
  // nothing, and is on beside any checks).
  static constexpr bool is_check = true;

  // ---- accesses by instrumented kernels ----
  // Whether the client looks at accesses at all (the per-access path skips the others).
  static constexpr bool observes_accesses = false;
  // What this client knows of an access before anyone is asked (Vouch): that it passes every client
  // registered up to and including it (racecheck: a read of settled device words; an access to shared
  // memory it recorded, which is valid memory), or that only the checker can decide it. Of device
  // memory at `offset` from the device's base, or of anything else.
  // (The defaults take any state: a client's own ThreadState hides this one.)
  GPULAB_SIM_HOOK_INLINE static Vouch device_access_vouches(const EngineThreadState&, const auto&, const Access&,
                                                            std::size_t) {
    return Vouch::none;
  }
  GPULAB_SIM_HOOK_INLINE static Vouch host_access_vouches(const EngineThreadState&, const auto&, const Access&) {
    return Vouch::none;
  }
  // Whether an access needs nothing from the client's out-of-line check: of device memory (at `offset`
  // from the device's base), or of anything else (shared memory, stacks, globals, host memory). False
  // means "ask the checker", not "a finding". Inlined into every hook: a few instructions.
  GPULAB_SIM_HOOK_INLINE static bool device_access_passes(const EngineThreadState&, const auto&, const Access&,
                                                          std::size_t) {
    return true;
  }
  GPULAB_SIM_HOOK_INLINE static bool host_access_passes(const EngineThreadState&, const auto&, const Access&) {
    return true;
  }
  // A costlier second test of a device access that device_access_passes did not pass, still without the
  // checker: compiled once per instrumented file, out of the hooks' fast path.
  static constexpr bool has_second_device_test = false;
  GPULAB_SIM_HOOK_INLINE static bool device_access_passes_second(const EngineThreadState&, const auto&,
                                                                 const Access&, std::size_t) {
    return false;
  }
  // The full check of an access whose inline test did not pass (libgpulab); a finding never returns.
  static void check_access(BlockRun&, const Access&) {}
  // An atomic read-modify-write (atomics are not instrumented: each calls this explicitly).
  static void check_atomic(BlockRun&, const AtomicAccess&) {}
  // A fence at `scope` (fences are calls too, in the checked build).
  static void check_fence(BlockRun&, AtomicScope) {}

  // ---- the barrier's fast mode (fast_barrier.hpp), inlined into kernels ----
  // Whether thread `me`'s arrival at `where` may stay in fast mode (thread 0's site is
  // e.fast_sites[0]); false hands the arrival to the engine's barrier.
  GPULAB_SIM_HOOK_INLINE static bool fast_barrier_allows(const EngineThreadState&, const auto&, unsigned,
                                                         const std::source_location&) {
    return true;
  }

  // ---- engine events (libgpulab) ----
  // A launch being queued, on the calling host thread (may throw: the launch is refused).
  static void on_launch_queued(SimDevice&, LaunchJob&) {}
  // A launch starting, on its stream, before any block runs.
  static void on_launch_start(SimDevice&, LaunchJob&) {}
  // A launch whose blocks have all run (or were skipped after a finding), on its stream, before the
  // stream goes on.
  static void on_launch_end(SimDevice&, LaunchJob&) {}
  // A block starting and ending on this host thread.
  static void on_block_start(BlockRun&) {}
  static void on_block_end(BlockRun&) {}
  // Thread `me` arriving at a __syncthreads at `where` (another thread arrived first).
  static void on_barrier_arrival(BlockRun&, unsigned, const std::source_location&) {}
  // Every live thread is at the barrier; false ends the block (the client reported a finding).
  static bool on_barrier_release(BlockRun&) { return true; }
  // Thread `me` entering a warp-synchronous call with `mask` (before the engine adds the caller's
  // lane to it).
  static void on_warp_call(BlockRun&, WarpOp, unsigned, unsigned, const std::source_location&) {}
  // Lanes `a` and `b` of one mask wait in different warp calls (or with different masks).
  static void on_warp_mismatch(BlockRun&, unsigned, unsigned) {}
  // A cooperative launch's grid barrier releasing, on the host thread of the last block to arrive,
  // before any block goes on; then each block going on past it, on its own host thread.
  static void on_grid_sync(LaunchJob&) {}
  static void on_grid_sync_resumed(BlockRun&) {}
  // A copy or fill wrote device bytes [p, p + bytes), queued while `checks` were on.
  static void on_device_write(SimDevice&, const void*, std::size_t, unsigned) {}
  // A library's host task (a cuBLAS call, say) is about to read device bytes [p, p + bytes), all in live
  // memory, queued while `checks` were on: a finding's text ("initcheck: ..."), else empty.
  static std::string on_host_read(SimDevice&, const void*, std::size_t, unsigned) { return {}; }
  // A buffer is about to be freed.
  static void on_free(SimDevice&, const Buffer&) {}
  // The device was made, and is going away (a client's DeviceState lives in between).
  static void on_device_created(SimDevice&) {}
  static void on_device_destroyed(SimDevice&) {}
  // This host thread's block runner is going away (the host thread ends).
  static void on_host_thread_end(BlockRun&) {}
};

// ---- composing the clients' parts ----

template <class List>
struct ClientThreadStates;
template <class... C>
struct ClientThreadStates<ClientList<C...>> : C::ThreadState... {};

template <class List>
struct ClientLaunchStates;
template <class... C>
struct ClientLaunchStates<ClientList<C...>> : C::LaunchState... {};

template <class List>
struct ClientDeviceStates;
template <class... C>
struct ClientDeviceStates<ClientList<C...>> : C::DeviceState... {};

// Calls f.template operator()<C>() for each client C of the list, in order.
template <class... C, class F>
inline void for_each_client(ClientList<C...>, F&& f) {
  (f.template operator()<C>(), ...);
}

// The OR of the flags of the clients for which Pred<C>::value holds.
template <template <class> class Pred, class... C>
constexpr unsigned flags_where(ClientList<C...>) {
  return (0u | ... | (Pred<C>::value ? C::flag : 0u));
}

}  // namespace gpulab::sim::detail
