#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// The instrumented compilation (GPULAB_SIM_CHECKED: g++'s -fsanitize=thread, with volatile accesses told
// apart and no function entry or exit hooks; cmake/GpulabKernels.cmake) calls a hook before every memory
// access: __tsan_read<N> / __tsan_write<N> (and their unaligned forms) for plain ones,
// __tsan_volatile_read<N> / __tsan_volatile_write<N> for volatile ones, and __tsan_atomic<bits>_<op>
// in place of each atomic built-in the host compiler sees (std::atomic, __atomic_*, __sync_*) outside
// the simulator's own atomics, which are not instrumented and tell the checks themselves. No thread
// sanitizer runtime is linked: the hooks are defined here, in every instrumented file, weak (one copy
// per program or library survives) and hidden (calls bind inside the same library).
//
// Each hook passes its return address, the access's site in the kernel, to the profiler.
//
// Why this instrumentation: it tells volatile accesses apart (CUDA's volatile loads and stores are
// relaxed accesses at system scope, and a volatile load in a loop is a poll), and it hooks each access
// of a read-modify-write, where address sanitizing checks an address once per basic block.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <gpulab/sim/detail/instrumentation/dispatch.hpp>

#define GPULAB_SIM_DETAIL_HOOK extern "C" __attribute__((weak, no_sanitize_address, no_sanitize_thread))
// The instruction after the hook's call in the kernel: the access's site, for the profiler.
#define GPULAB_SIM_DETAIL_CALL_SITE __builtin_return_address(0)

#define GPULAB_SIM_DETAIL_ACCESS_HOOKS(n)                                                                       \
  GPULAB_SIM_DETAIL_HOOK void __tsan_read##n(void* p) {                                                         \
    ::gpulab::sim::detail::checked_access(p, n, false, GPULAB_SIM_DETAIL_CALL_SITE);                             \
  }                                                                                                             \
  GPULAB_SIM_DETAIL_HOOK void __tsan_write##n(void* p) {                                                        \
    ::gpulab::sim::detail::checked_access(p, n, true, GPULAB_SIM_DETAIL_CALL_SITE);                              \
  }                                                                                                             \
  GPULAB_SIM_DETAIL_HOOK void __tsan_volatile_read##n(void* p) {                                                \
    ::gpulab::sim::detail::volatile_access(p, n, false, GPULAB_SIM_DETAIL_CALL_SITE);                            \
  }                                                                                                             \
  GPULAB_SIM_DETAIL_HOOK void __tsan_volatile_write##n(void* p) {                                               \
    ::gpulab::sim::detail::volatile_access(p, n, true, GPULAB_SIM_DETAIL_CALL_SITE);                             \
  }                                                                                                             \
  asm(".hidden __tsan_read" #n "\n\t.hidden __tsan_write" #n "\n\t.hidden __tsan_volatile_read" #n               \
      "\n\t.hidden __tsan_volatile_write" #n)
#define GPULAB_SIM_DETAIL_UNALIGNED_HOOKS(n)                                                                    \
  GPULAB_SIM_DETAIL_HOOK void __tsan_unaligned_read##n(void* p) {                                               \
    ::gpulab::sim::detail::checked_access(p, n, false, GPULAB_SIM_DETAIL_CALL_SITE);                             \
  }                                                                                                             \
  GPULAB_SIM_DETAIL_HOOK void __tsan_unaligned_write##n(void* p) {                                              \
    ::gpulab::sim::detail::checked_access(p, n, true, GPULAB_SIM_DETAIL_CALL_SITE);                              \
  }                                                                                                             \
  asm(".hidden __tsan_unaligned_read" #n "\n\t.hidden __tsan_unaligned_write" #n)

GPULAB_SIM_DETAIL_ACCESS_HOOKS(1);
GPULAB_SIM_DETAIL_ACCESS_HOOKS(2);
GPULAB_SIM_DETAIL_ACCESS_HOOKS(4);
GPULAB_SIM_DETAIL_ACCESS_HOOKS(8);
GPULAB_SIM_DETAIL_ACCESS_HOOKS(16);
GPULAB_SIM_DETAIL_UNALIGNED_HOOKS(2);
GPULAB_SIM_DETAIL_UNALIGNED_HOOKS(4);
GPULAB_SIM_DETAIL_UNALIGNED_HOOKS(8);
GPULAB_SIM_DETAIL_UNALIGNED_HOOKS(16);

GPULAB_SIM_DETAIL_HOOK void __tsan_read_range(void* p, long n) {
  ::gpulab::sim::detail::checked_access(p, static_cast<std::size_t>(n), false, GPULAB_SIM_DETAIL_CALL_SITE);
}
GPULAB_SIM_DETAIL_HOOK void __tsan_write_range(void* p, long n) {
  ::gpulab::sim::detail::checked_access(p, static_cast<std::size_t>(n), true, GPULAB_SIM_DETAIL_CALL_SITE);
}
// Each instrumented file's constructor calls __tsan_init; entry and exit hooks are off, but a file built
// with them on still links. A virtual table pointer's update is not a kernel's data.
GPULAB_SIM_DETAIL_HOOK void __tsan_init() {}
GPULAB_SIM_DETAIL_HOOK void __tsan_func_entry(void*) {}
GPULAB_SIM_DETAIL_HOOK void __tsan_func_exit(void*) {}
GPULAB_SIM_DETAIL_HOOK void __tsan_vptr_update(void*, void*) {}
GPULAB_SIM_DETAIL_HOOK void __tsan_vptr_read(void*) {}
asm(".hidden __tsan_read_range\n\t.hidden __tsan_write_range\n\t.hidden __tsan_init\n\t.hidden __tsan_func_entry");
asm(".hidden __tsan_func_exit\n\t.hidden __tsan_vptr_update\n\t.hidden __tsan_vptr_read");

// The host compiler's atomics in instrumented code: done (at least as strongly ordered as asked: the
// order arrives as a run-time value, which the built-ins take as seq_cst), and told to the checks as
// atomics of system scope, which is what an atomic of the host's C++ is on a GPU (a thread on the host
// sees it). 128-bit atomics are not given (they would need libatomic in every program).
namespace gpulab::sim::detail {
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline AtomicOrder host_atomic_order(int mo) {
  switch (mo) {
    case __ATOMIC_RELAXED: return AtomicOrder::relaxed;
    case __ATOMIC_CONSUME:
    case __ATOMIC_ACQUIRE: return AtomicOrder::acquire;
    case __ATOMIC_RELEASE: return AtomicOrder::release;
    case __ATOMIC_ACQ_REL: return AtomicOrder::acq_rel;
    default: return AtomicOrder::seq_cst;
  }
}
template <class T>
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline void note_host_atomic(
    const volatile T* a, AtomicKind kind, int mo) {
  if (host_thread.clients != 0) {
    check_atomic_access(const_cast<const T*>(a), sizeof(T), kind, AtomicScope::system, host_atomic_order(mo));
  }
}
}  // namespace gpulab::sim::detail

// The signatures are the compiler's built-in declarations of the hooks, which take the address as a
// `volatile void*`.
#define GPULAB_SIM_DETAIL_ATOMIC_RMW(bits, T, op)                                                               \
  GPULAB_SIM_DETAIL_HOOK T __tsan_atomic##bits##_##op(volatile void* p, T v, int mo) {                          \
    volatile T* a = static_cast<volatile T*>(p);                                                                \
    ::gpulab::sim::detail::note_host_atomic(a, ::gpulab::sim::detail::AtomicKind::read_modify_write, mo);       \
    return __atomic_##op(a, v, __ATOMIC_SEQ_CST);                                                               \
  }                                                                                                             \
  asm(".hidden __tsan_atomic" #bits "_" #op)
#define GPULAB_SIM_DETAIL_ATOMIC_CAS(bits, T, kind, weak)                                                       \
  GPULAB_SIM_DETAIL_HOOK bool __tsan_atomic##bits##_compare_exchange_##kind(volatile void* p, void* expected,   \
                                                                             T v, int mo, int) {                 \
    volatile T* a = static_cast<volatile T*>(p);                                                                \
    ::gpulab::sim::detail::note_host_atomic(a, ::gpulab::sim::detail::AtomicKind::read_modify_write, mo);       \
    return __atomic_compare_exchange_n(a, static_cast<T*>(expected), v, weak, __ATOMIC_SEQ_CST,                 \
                                       __ATOMIC_SEQ_CST);                                                       \
  }                                                                                                             \
  asm(".hidden __tsan_atomic" #bits "_compare_exchange_" #kind)
#define GPULAB_SIM_DETAIL_ATOMICS(bits, T)                                                                      \
  GPULAB_SIM_DETAIL_HOOK T __tsan_atomic##bits##_load(const volatile void* p, int mo) {                         \
    const volatile T* a = static_cast<const volatile T*>(p);                                                    \
    ::gpulab::sim::detail::note_host_atomic(a, ::gpulab::sim::detail::AtomicKind::load, mo);                    \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                                \
  }                                                                                                             \
  GPULAB_SIM_DETAIL_HOOK void __tsan_atomic##bits##_store(volatile void* p, T v, int mo) {                      \
    volatile T* a = static_cast<volatile T*>(p);                                                                \
    ::gpulab::sim::detail::note_host_atomic(a, ::gpulab::sim::detail::AtomicKind::store, mo);                   \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                                   \
  }                                                                                                             \
  GPULAB_SIM_DETAIL_HOOK T __tsan_atomic##bits##_exchange(volatile void* p, T v, int mo) {                      \
    volatile T* a = static_cast<volatile T*>(p);                                                                \
    ::gpulab::sim::detail::note_host_atomic(a, ::gpulab::sim::detail::AtomicKind::read_modify_write, mo);       \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                                         \
  }                                                                                                             \
  asm(".hidden __tsan_atomic" #bits "_load\n\t.hidden __tsan_atomic" #bits "_store\n\t.hidden __tsan_atomic" #bits \
      "_exchange");                                                                                             \
  GPULAB_SIM_DETAIL_ATOMIC_CAS(bits, T, strong, false);                                                         \
  GPULAB_SIM_DETAIL_ATOMIC_CAS(bits, T, weak, true);                                                            \
  GPULAB_SIM_DETAIL_ATOMIC_RMW(bits, T, fetch_add);                                                             \
  GPULAB_SIM_DETAIL_ATOMIC_RMW(bits, T, fetch_sub);                                                             \
  GPULAB_SIM_DETAIL_ATOMIC_RMW(bits, T, fetch_and);                                                             \
  GPULAB_SIM_DETAIL_ATOMIC_RMW(bits, T, fetch_or);                                                              \
  GPULAB_SIM_DETAIL_ATOMIC_RMW(bits, T, fetch_xor);                                                             \
  GPULAB_SIM_DETAIL_ATOMIC_RMW(bits, T, fetch_nand)

GPULAB_SIM_DETAIL_ATOMICS(8, std::uint8_t);
GPULAB_SIM_DETAIL_ATOMICS(16, std::uint16_t);
GPULAB_SIM_DETAIL_ATOMICS(32, std::uint32_t);
GPULAB_SIM_DETAIL_ATOMICS(64, std::uint64_t);

GPULAB_SIM_DETAIL_HOOK void __tsan_atomic_thread_fence(int mo) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  if (mo != __ATOMIC_RELAXED && ::gpulab::sim::detail::host_thread.clients != 0) {
    ::gpulab::sim::detail::check_fence(::gpulab::sim::detail::AtomicScope::system);
  }
}
GPULAB_SIM_DETAIL_HOOK void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
asm(".hidden __tsan_atomic_thread_fence\n\t.hidden __tsan_atomic_signal_fence");

#undef GPULAB_SIM_DETAIL_ATOMICS
#undef GPULAB_SIM_DETAIL_ATOMIC_CAS
#undef GPULAB_SIM_DETAIL_ATOMIC_RMW
#undef GPULAB_SIM_DETAIL_UNALIGNED_HOOKS
#undef GPULAB_SIM_DETAIL_ACCESS_HOOKS
#undef GPULAB_SIM_DETAIL_CALL_SITE
#undef GPULAB_SIM_DETAIL_HOOK
