#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// The engine's part of what simulated kernel code and the simulator share on each host thread. All
// threads of a block run on one host thread (as fibers) and a host thread runs one block at a time, so
// a thread_local per host thread is per block; the engine rewrites the built-in variables at every
// switch from one simulated thread to another. The instrumentation clients (the checks) keep parts of
// their own beside this one (host_thread.hpp).
//
// The variables are initial-exec TLS: an access is one load from %fs, not a __tls_get_addr call,
// which matters because kernels read threadIdx in their innermost loops. libgpulab is linked, never
// dlopen'ed, so its static TLS is always available.
#include <cstddef>
#include <cstdint>
#include <source_location>

#include <gpulab/sim/vector_types.hpp>

// constinit: they have no dynamic initialiser, so an access from another library or the program needs
// no call to a TLS wrapper function first.
#define GPULAB_SIM_TLS constinit thread_local __attribute__((tls_model("initial-exec")))

// What the instrumentation hooks inline: always inlined, never instrumented themselves.
#define GPULAB_SIM_HOOK_INLINE __attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline

namespace gpulab::sim::detail {

struct BlockRun;  // the engine's state of the block this host thread is running (src/sim/engine)

struct EngineThreadState {
  // ---- scheduling: the running block and thread ----
  BlockRun* block = nullptr;                // null outside a simulated block
  unsigned char* dynamic_shared = nullptr;  // this block's `extern __shared__` memory
  unsigned current = 0;                     // linear index of the simulated thread now running
  unsigned loop_end = 0;                    // loop mode runs threads [current, loop_end); 0 stops the loop
  unsigned thread_count = 0;                // threads of the running block
  std::uint64_t block_linear = 0;           // the running block's index in its grid, x fastest
  // Ordering events, counted on this host thread: barriers released (racecheck orders a block's
  // threads by it), and barriers, warp calls and block starts together (order_epoch); per warp of the
  // running block, its completed warp-synchronous calls.
  std::uint32_t barrier_epoch = 0;
  std::uint32_t order_epoch = 0;
  const std::uint32_t* warp_epochs = nullptr;
  // Non-null while the block is in the barrier's fast mode (see fast_barrier.hpp): the saved stack
  // pointer of each suspended thread, their indices and the call sites they wait at.
  void** fast_contexts = nullptr;
  const uint3* thread_indices = nullptr;
  std::source_location* fast_sites = nullptr;
  // The instrumentation clients on for the running launch (CheckFlags; 0 outside a launch).
  unsigned clients = 0;
  // Threads of the running block are polling memory (polls.hpp): an atomic that changes memory tells
  // the engine, which else hears nothing of it.
  bool block_polling = false;

  // ---- memory the engine lays out ----
  // The sim device's address range and its shadow: a byte per 8 bytes, how many of them, from the
  // first, are in a live buffer.
  std::uintptr_t device_base = 0;
  std::size_t device_bytes = 0;
  const std::uint8_t* device_shadow = nullptr;
  // The host thread's fiber stacks (fiber_stacks.hpp): slots of 2^stack_shift bytes aligned to their
  // size, the first stack_guard bytes of each a guard. Kernel arguments and locals live there.
  std::uintptr_t stacks_base = 0;
  std::size_t stacks_bytes = 0;
  unsigned stack_shift = 0;
  std::size_t stack_guard = 0;
};

// Whether the device bytes [offset, offset + bytes) from the device's base lie in a live buffer within
// one 8-byte granule (its shadow byte counts the live bytes from the granule's start).
GPULAB_SIM_HOOK_INLINE bool device_bytes_live(const EngineThreadState& e, std::size_t offset, std::size_t bytes) {
  return (offset & 7) + bytes <= e.device_shadow[offset >> 3];
}

// Whether [a, a + bytes) lies on the running simulated thread's own stack, past the guard: in the slot
// of the stack pointer (the thread runs on its own stack), found without knowing which thread runs.
GPULAB_SIM_HOOK_INLINE bool own_stack(const EngineThreadState& e, std::uintptr_t a, std::size_t bytes) {
  std::uintptr_t sp;
#if defined(__x86_64__)
  asm("mov %%rsp, %0" : "=r"(sp));
#else
  sp = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
#endif
  const std::uintptr_t last = a + bytes - 1;
  return a - e.stacks_base < e.stacks_bytes && ((a ^ sp) >> e.stack_shift) == 0 &&
         ((last ^ sp) >> e.stack_shift) == 0 && (a & ((std::uintptr_t{1} << e.stack_shift) - 1)) >= e.stack_guard;
}

}  // namespace gpulab::sim::detail

// CUDA's built-in variables. Mutable here (CUDA's are read-only) because the engine writes them.
extern GPULAB_SIM_TLS uint3 threadIdx;
extern GPULAB_SIM_TLS uint3 blockIdx;
extern GPULAB_SIM_TLS dim3 blockDim;
extern GPULAB_SIM_TLS dim3 gridDim;
