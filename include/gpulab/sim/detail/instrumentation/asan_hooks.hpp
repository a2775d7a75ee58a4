#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// The instrumented compilation (GPULAB_SIM_CHECKED, -fsanitize=kernel-address in KASan's out-of-line
// mode) calls __asan_load<N>_noabort / __asan_store<N>_noabort before every memory access. They are
// defined here, in every instrumented kernel file, weak (one copy per program or library survives) and
// hidden (calls bind inside the same library), so they never collide with libasan's own definitions
// when a program is built with -fsanitize=address: the instrumented kernels reach gpulab's checker
// and everything else keeps ASan. A visibility attribute cannot be put on a compiler built-in, hence
// the .hidden directives.
#include <cstddef>

#include <gpulab/sim/detail/instrumentation/dispatch.hpp>

#define GPULAB_SIM_DETAIL_HOOKS(n)                                                                   \
  extern "C" __attribute__((weak, no_sanitize_address)) void __asan_load##n##_noabort(void* p) {      \
    ::gpulab::sim::detail::checked_access(p, n, false);                                              \
  }                                                                                                  \
  extern "C" __attribute__((weak, no_sanitize_address)) void __asan_store##n##_noabort(void* p) {     \
    ::gpulab::sim::detail::checked_access(p, n, true);                                               \
  }                                                                                                  \
  asm(".hidden __asan_load" #n "_noabort\n\t.hidden __asan_store" #n "_noabort")

GPULAB_SIM_DETAIL_HOOKS(1);
GPULAB_SIM_DETAIL_HOOKS(2);
GPULAB_SIM_DETAIL_HOOKS(4);
GPULAB_SIM_DETAIL_HOOKS(8);
GPULAB_SIM_DETAIL_HOOKS(16);

extern "C" __attribute__((weak, no_sanitize_address)) void __asan_loadN_noabort(void* p, long n) {
  ::gpulab::sim::detail::checked_access(p, static_cast<std::size_t>(n), false);
}
extern "C" __attribute__((weak, no_sanitize_address)) void __asan_storeN_noabort(void* p, long n) {
  ::gpulab::sim::detail::checked_access(p, static_cast<std::size_t>(n), true);
}
// Emitted before calls that do not return (throw). Being hidden, this one also serves the library's
// ASan-instrumented files in a sanitizer build, so it forwards to libasan's when there is one.
extern "C" __attribute__((weak, no_sanitize_address)) void __asan_handle_no_return() {
  ::gpulab::sim::detail::forward_handle_no_return();
}
// Emitted around a file's dynamic initialisers (ASan's init-order check, which the simulator does not do).
extern "C" __attribute__((weak, no_sanitize_address)) void __asan_before_dynamic_init(const void*) {}
extern "C" __attribute__((weak, no_sanitize_address)) void __asan_after_dynamic_init() {}
asm(".hidden __asan_loadN_noabort\n\t.hidden __asan_storeN_noabort\n\t.hidden __asan_handle_no_return");
asm(".hidden __asan_before_dynamic_init\n\t.hidden __asan_after_dynamic_init");

#undef GPULAB_SIM_DETAIL_HOOKS
