#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// The common case of __syncthreads, inlined into the kernel: every thread of the block is alive and
// nothing but plain barriers is pending. Then the threads run in rounds, 0, 1, ...,
// n - 1, each until its next barrier, and a barrier is nothing but a hop to the next thread: thread
// n - 1's arrival releases everyone and the round starts again at thread 0. No thread states are
// written; the engine rebuilds them from `current` the moment anything else happens (a warp call, an
// exit, __syncthreads_count, a fault), and turns this mode on again at the next barrier it releases
// with the conditions met (src/sim/engine/block_scheduler.cpp).
//
// The hop saves nothing but the stack pointer and a resume address. The asm statement tells the
// compiler that every register is clobbered, so the kernel keeps only what is live across the barrier,
// in its own frame, instead of a chain of engine frames each saving the callee-saved registers.
// Measured on the 16x16 tiled matmul (docs/simulator.md).
#include <source_location>

#include <gpulab/sim/detail/host_thread.hpp>
#include <gpulab/sim/detail/instrumentation/clients.hpp>

namespace gpulab::sim::detail {

// Called after a hop when the block has left fast mode while this thread waited: unwinds the thread
// (throws BlockAbort) when the block is ending early, else returns.
void fast_barrier_left();
// fast_barrier, compiled in libgpulab: what kernels compiled with a sanitizer's instrumentation call
// (the checking build's included), since the inlined code would be instrumented too, and memcheck
// would take the engine's arrays for host memory.
bool fast_barrier_outlined(const std::source_location& where);

// Inlined where the kernel is compiled without a sanitizer (their instrumentation would check the
// engine's own accesses, and ASan wants every switch announced, fiber_stacks.hpp).
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define GPULAB_SIM_FAST_BARRIER 1

// Where an indirect jump lands must be marked as such when the code is built for CET's indirect-branch
// tracking (-fcf-protection).
#if defined(__CET__) && (__CET__ & 1)
#define GPULAB_SIM_BRANCH_TARGET "endbr64\n\t"
#else
#define GPULAB_SIM_BRANCH_TARGET ""
#endif

// Saves this thread's resume point (the label after the jump) on its stack and the stack pointer in
// *save, then continues the thread suspended at `to` by popping its resume point and jumping there.
// A jump, not a `ret`: the thread resumed usually waits at another barrier than the one this thread
// calls from (a tiled kernel alternates two), so a return would be mispredicted at every hop, while
// the indirect-branch predictor learns the alternation. fiber_stacks.cpp suspends threads the same way.
__attribute__((always_inline)) inline void fiber_hop(void** save, void* to) {
  // The pushes write below the stack pointer, where a leaf function may keep data (the red zone); a
  // function with this asm is never a leaf, since fast_barrier's caller also calls the engine's
  // barrier. rbp cannot be named as clobbered where it is the frame pointer, so it is pushed.
  asm volatile(
      "pushq %%rbp\n\t"
      "leaq 1f(%%rip), %%rax\n\t"
      "pushq %%rax\n\t"
      "movq %%rsp, (%%rdi)\n\t"
      "movq %%rsi, %%rsp\n\t"
      "popq %%rax\n\t"
      "jmpq *%%rax\n"
      "1:\n\t" GPULAB_SIM_BRANCH_TARGET
      "popq %%rbp"
      : "+D"(save), "+S"(to)
      :
      : "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "memory", "cc",
        "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
        "xmm12", "xmm13", "xmm14", "xmm15"
#if defined(__AVX512F__)
        ,
        "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", "xmm26",
        "xmm27", "xmm28", "xmm29", "xmm30", "xmm31", "k1", "k2", "k3", "k4", "k5", "k6", "k7"
#endif
  );
}

template <class... C>
__attribute__((always_inline)) inline bool fast_barrier_clients_allow(const HostThreadState& h, unsigned me,
                                                                      const std::source_location& where,
                                                                      ClientList<C...>) {
  return (((h.clients & C::flag) == 0 ||
           C::fast_barrier_allows(h, static_cast<const typename C::ThreadState&>(h), me, where)) &&
          ...);
}

// A plain __syncthreads in fast mode; false when the block is not in it (the engine's barrier runs).
__attribute__((always_inline)) inline bool fast_barrier(const std::source_location& where) {
  HostThreadState& h = host_thread;
  void** const contexts = h.fast_contexts;
  if (contexts == nullptr) return false;
  const unsigned me = h.current;
  // The clients on may send an arrival to the engine's barrier (synccheck: a site other than thread 0's).
  if (!fast_barrier_clients_allow(h, me, where, Clients{})) [[unlikely]] return false;
  unsigned next = me + 1;
  if (next == h.thread_count) {  // the last arrival: everyone is released
    next = 0;
    ++h.barrier_epoch;
    ++h.order_epoch;
  }
  h.fast_sites[me] = where;
  // The thread after `next` runs next-but-one; its resume point and the kernel frame above it were
  // last touched a round of the block ago (256 threads' frames do not fit in L1). Two lines: on the
  // tiled matmul, 0 or 3 or 4 lines, or two threads ahead, measured no better.
  if (next + 1 < h.thread_count) {
    const char* after = static_cast<const char*>(contexts[next + 1]);
    __builtin_prefetch(after);
    __builtin_prefetch(after + 64);
  }
  h.current = next;
  threadIdx = h.thread_indices[next];
  fiber_hop(&contexts[me], contexts[next]);
  if (host_thread.fast_contexts == nullptr) [[unlikely]] fast_barrier_left();
  return true;
}

#else
inline bool fast_barrier(const std::source_location& where) { return fast_barrier_outlined(where); }
#endif

}  // namespace gpulab::sim::detail
