#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// The per-access path: what the instrumentation hooks (tsan_hooks.hpp) do for every load and store of
// an instrumented kernel. It asks the clients the running launch has on, in the registry's order, each
// through its inline test; only when a test does not pass does the access leave the kernel, for the
// checker (check_access, src/sim/checks/checker.cpp), which runs every client's full check in the same
// order. Everything here is inlined into the hooks: no call, no virtual dispatch, for the common case.
//
// A client may vouch for an access (racecheck: a read of settled device words, a shared access it
// recorded): then the clients up to and including it pass without their own tests, and only the later
// ones are asked. A client may also have a second, costlier test of a device access, tried out of the
// hooks' fast path before the checker.
#include <cstddef>
#include <cstdint>

#include <gpulab/sim/detail/engine_abi.hpp>
#include <gpulab/sim/detail/host_thread.hpp>
#include <gpulab/sim/detail/instrumentation/client.hpp>
#include <gpulab/sim/detail/instrumentation/clients.hpp>

namespace gpulab::sim::detail {

// The clients that look at accesses, in the registry's order.
template <class List, class... Kept>
struct access_observers;
template <class... Kept>
struct access_observers<ClientList<>, Kept...> {
  using type = ClientList<Kept...>;
};
template <class C, class... Rest, class... Kept>
struct access_observers<ClientList<C, Rest...>, Kept...>
    : std::conditional_t<C::observes_accesses, access_observers<ClientList<Rest...>, Kept..., C>,
                         access_observers<ClientList<Rest...>, Kept...>> {};
using AccessObservers = typename access_observers<Clients>::type;

template <class C>
GPULAB_SIM_HOOK_INLINE bool client_on(const HostThreadState& h) {
  return (h.clients & C::flag) != 0;
}

template <class C>
GPULAB_SIM_HOOK_INLINE const typename C::ThreadState& part(const HostThreadState& h) {
  return h;
}

template <class... C>
constexpr bool any_second_device_test(ClientList<C...>) {
  return (false || ... || C::has_second_device_test);
}

template <class... C>
constexpr std::size_t client_count(ClientList<C...>) {
  return sizeof...(C);
}
inline constexpr std::size_t observer_count = client_count(AccessObservers{});

// The observer at index I.
template <std::size_t I, class List>
struct client_at;
template <class C, class... Rest>
struct client_at<0, ClientList<C, Rest...>> {
  using type = C;
};
template <std::size_t I, class C, class... Rest>
struct client_at<I, ClientList<C, Rest...>> : client_at<I - 1, ClientList<Rest...>> {};
template <std::size_t I>
using observer_at = typename client_at<I, AccessObservers>::type;

// Every observer from index I on that is on passes its test of a device access; with Second, one whose
// first test fails may pass its second. Unrolled at compile time: what follows a vouch is only the
// tests of the observers after it (none, for racecheck's settled reads: the hook returns at once).
template <std::size_t I, bool Second>
GPULAB_SIM_HOOK_INLINE bool device_rest_passes(const HostThreadState& h, const Access& a, std::size_t offset) {
  if constexpr (I == observer_count) {
    return true;
  } else {
    using C = observer_at<I>;
    if (client_on<C>(h) && !C::device_access_passes(h, part<C>(h), a, offset) &&
        !(Second && C::device_access_passes_second(h, part<C>(h), a, offset)))
      return false;
    return device_rest_passes<I + 1, Second>(h, a, offset);
  }
}
template <std::size_t I>
GPULAB_SIM_HOOK_INLINE bool host_rest_passes(const HostThreadState& h, const Access& a) {
  if constexpr (I == observer_count) {
    return true;
  } else {
    using C = observer_at<I>;
    if (client_on<C>(h) && !C::host_access_passes(h, part<C>(h), a)) return false;
    return host_rest_passes<I + 1>(h, a);
  }
}

// The second tests of a device access from observer `from` on (the first observers were vouched for),
// at run time: this is out of the hooks' fast path.
template <std::size_t I>
GPULAB_SIM_HOOK_INLINE bool device_rest_passes_second(const HostThreadState& h, const Access& a, std::size_t offset,
                                                      std::size_t from) {
  if constexpr (I == observer_count) {
    return true;
  } else {
    using C = observer_at<I>;
    if (I >= from && client_on<C>(h) && !C::device_access_passes(h, part<C>(h), a, offset) &&
        !C::device_access_passes_second(h, part<C>(h), a, offset))
      return false;
    return device_rest_passes_second<I + 1>(h, a, offset, from);
  }
}

// A device access whose first tests did not all pass: the second tests, then the checker. Out of the
// hooks (one copy per instrumented library or program), so that their common path is nothing but
// loads, compares and tail calls, and saves no registers.
__attribute__((noinline, no_sanitize_address, no_sanitize_thread, visibility("hidden"))) inline void device_access_second(
    const void* p, std::size_t bytes, bool write, std::size_t from) {
  const HostThreadState& h = host_thread;
  const Access a{reinterpret_cast<std::uintptr_t>(p), bytes, write};
  if (device_rest_passes_second<0>(h, a, a.address - h.device_base, from)) return;
  check_access(p, bytes, write);
}

// The device access's tests once observers before I were vouched for: those after it, then the slow
// path.
template <std::size_t I>
GPULAB_SIM_HOOK_INLINE void device_tests_from(const HostThreadState& h, const Access& a, std::size_t offset) {
  if (device_rest_passes<I, false>(h, a, offset)) return;
  if constexpr (any_second_device_test(AccessObservers{})) {
    device_access_second(a.pointer(), a.bytes, a.write, I);
  } else {
    check_access(a.pointer(), a.bytes, a.write);
  }
}

// A device access: the first observer (from I on) that is on and vouches decides what follows (Vouch);
// when none does, every observer's test.
template <std::size_t I>
GPULAB_SIM_HOOK_INLINE void device_access_from(const HostThreadState& h, const Access& a, std::size_t offset) {
  if constexpr (I == observer_count) {
    device_tests_from<0>(h, a, offset);
  } else {
    using C = observer_at<I>;
    if (client_on<C>(h)) {
      const Vouch v = C::device_access_vouches(h, part<C>(h), a, offset);
      if (v == Vouch::passes) return device_tests_from<I + 1>(h, a, offset);
      if (v == Vouch::ask_checker) return check_access(a.pointer(), a.bytes, a.write);
    }
    device_access_from<I + 1>(h, a, offset);
  }
}
template <std::size_t I>
GPULAB_SIM_HOOK_INLINE void host_access_from(const HostThreadState& h, const Access& a) {
  if constexpr (I == observer_count) {
    if (host_rest_passes<0>(h, a)) return;
    check_access(a.pointer(), a.bytes, a.write);
  } else {
    using C = observer_at<I>;
    if (client_on<C>(h)) {
      const Vouch v = C::host_access_vouches(h, part<C>(h), a);
      if (v == Vouch::passes) {
        if (host_rest_passes<I + 1>(h, a)) return;
        return check_access(a.pointer(), a.bytes, a.write);
      }
      if (v == Vouch::ask_checker) return check_access(a.pointer(), a.bytes, a.write);
    }
    host_access_from<I + 1>(h, a);
  }
}

// The profiler's record of an access made at `pc` (the hook's return address), when it is on.
GPULAB_SIM_HOOK_INLINE void profile_access(const HostThreadState& h, const void* p, std::size_t bytes,
                                           ProfileKind kind, const void* pc) {
  if ((h.clients & Profiler::flag) != 0) [[unlikely]] {
    Profiler::record(h, h, profile_site_id(pc, bytes, kind), reinterpret_cast<std::uintptr_t>(p));
  }
}

// Every access of an instrumented kernel, made at `pc`: the profiler's record, then the checks.
GPULAB_SIM_HOOK_INLINE void checked_access(const void* p, std::size_t bytes, bool write, const void* pc) {
  const HostThreadState& h = host_thread;
  if (h.clients == 0) return;
  profile_access(h, p, bytes, write ? ProfileKind::store : ProfileKind::load, pc);
  const Access a{reinterpret_cast<std::uintptr_t>(p), bytes, write};
  const std::size_t offset = a.address - h.device_base;
  if (offset < h.device_bytes) {
    device_access_from<0>(h, a, offset);
  } else {
    host_access_from<0>(h, a);
  }
}

// A volatile access made at `pc`: the profiler's record, then the checks and the poll (engine_abi.hpp).
GPULAB_SIM_HOOK_INLINE void volatile_access(const void* p, std::size_t bytes, bool write, const void* pc) {
  profile_access(host_thread, p, bytes, write ? ProfileKind::store : ProfileKind::load, pc);
  check_volatile_access(p, bytes, write);
}

}  // namespace gpulab::sim::detail
