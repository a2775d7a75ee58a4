#include "sim/engine/fiber_stacks.hpp"

#include <pthread.h>

#include <bit>
#include <cstdint>
#include <sys/mman.h>
#include <unistd.h>

#include <gpulab/error.hpp>

#include <fmt/format.h>

#include "runtime/env.hpp"

namespace gpulab::sim::detail {

FiberStacks::~FiberStacks() {
  if (base_ != nullptr) munmap(base_, static_cast<std::size_t>(count_) * stride_);
}

std::size_t FiberStacks::configured_stack_size() {
  static const std::size_t size = [] {
#if defined(GPULAB_SIM_ASAN)
    std::size_t bytes = 256 * 1024;
#else
    std::size_t bytes = 64 * 1024;
#endif
    if (auto text = gpulab::detail::env_value("GPULAB_SIM_STACK")) {
      bytes = gpulab::detail::parse_byte_size(*text, "GPULAB_SIM_STACK");
      if (bytes < 16 * 1024) {
        throw InvalidArgument(fmt::format("GPULAB_SIM_STACK={} is below the minimum of 16 KiB", *text));
      }
    }
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return (bytes + page - 1) / page * page;
  }();
  return size;
}

void FiberStacks::reserve(unsigned count) {
  if (count <= count_) return;
  if (base_ != nullptr) munmap(base_, static_cast<std::size_t>(count_) * stride_);
  base_ = nullptr;
  count_ = 0;
  // Slots of a power-of-two size, aligned to it: memcheck's inline test (own_stack, detail/engine_state.hpp)
  // then tells whether an address is on the running thread's stack by comparing its slot with the stack
  // pointer's, with no table and no division. A slot is a guard page, then the stack, with room above it
  // for the cache colour (make_context).
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t size = configured_stack_size();
  stride_ = std::bit_ceil(page + size + max_colour);
  guard_ = page;
  const std::size_t total = static_cast<std::size_t>(count) * stride_;
  void* p = mmap(nullptr, total + stride_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    throw OutOfMemory("sim (fiber stacks for a block's threads)", total, 0, 0);
  }
  // Keep the aligned part of the mapping; give back what lies before and after it.
  const auto raw = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t aligned = (raw + stride_ - 1) & ~(stride_ - 1);
  if (aligned > raw) munmap(p, aligned - raw);
  if (raw + stride_ > aligned) munmap(reinterpret_cast<void*>(aligned + total), raw + stride_ - aligned);
  base_ = reinterpret_cast<char*>(aligned);
  for (unsigned i = 0; i < count; ++i) mprotect(base_ + static_cast<std::size_t>(i) * stride_, guard_, PROT_NONE);
  count_ = count;
}

#if defined(__x86_64__)

// A suspended thread's saved stack pointer points at the address it resumes at; resuming is loading
// the stack pointer, popping that address and jumping to it. The inlined barrier hop
// (fast_barrier.hpp) suspends a thread that way with every register given up to the compiler;
// raw_switch, called as a function, saves the callee-saved registers first: r15, r14, r13, r12, rbx,
// rbp sit above the resume address. Its `ret` returns into the resumed thread's caller: every thread
// calls it from the same place in BlockRun, so the CPU's return predictor is right. A fresh fiber
// resumes at gpulab_sim_fiber_start with its entry function in the next slot.
extern "C" void gpulab_sim_fiber_switch(FiberContext* save, FiberContext to);
extern "C" void gpulab_sim_fiber_start();
// Both places a switch jumps to are marked as indirect-branch targets for CET (-fcf-protection).
#if defined(__CET__) && (__CET__ & 1)
#define GPULAB_SIM_RESUMED "endbr64"
#else
#define GPULAB_SIM_RESUMED ""
#endif
asm(R"(
    .text
    .p2align 4
    .globl gpulab_sim_fiber_switch
    .hidden gpulab_sim_fiber_switch
    .type gpulab_sim_fiber_switch, @function
gpulab_sim_fiber_switch:
    .cfi_startproc
    pushq %rbp
    .cfi_adjust_cfa_offset 8
    pushq %rbx
    .cfi_adjust_cfa_offset 8
    pushq %r12
    .cfi_adjust_cfa_offset 8
    pushq %r13
    .cfi_adjust_cfa_offset 8
    pushq %r14
    .cfi_adjust_cfa_offset 8
    pushq %r15
    .cfi_adjust_cfa_offset 8
    leaq 1f(%rip), %rax
    pushq %rax
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %rax
    jmpq *%rax
1:
    )" GPULAB_SIM_RESUMED R"(
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    .cfi_adjust_cfa_offset -48
    ret
    .cfi_endproc
    .size gpulab_sim_fiber_switch, .-gpulab_sim_fiber_switch

    .p2align 4
    .globl gpulab_sim_fiber_start
    .hidden gpulab_sim_fiber_start
    .type gpulab_sim_fiber_start, @function
gpulab_sim_fiber_start:
    .cfi_startproc
    .cfi_undefined rip
    )" GPULAB_SIM_RESUMED R"(
    popq %rax
    callq *%rax
    ud2
    .cfi_endproc
    .size gpulab_sim_fiber_start, .-gpulab_sim_fiber_start
)");

void raw_switch(FiberContext* save, FiberContext to) { gpulab_sim_fiber_switch(save, to); }

namespace {
FiberContext initial_frame(char* top, FiberEntry entry) {
  // After the resume address and the entry are popped the stack is 16-byte aligned, so that
  // gpulab_sim_fiber_start's call leaves the entry function the alignment the ABI promises.
  auto* aligned = reinterpret_cast<std::uintptr_t*>((reinterpret_cast<std::uintptr_t>(top) & ~std::uintptr_t{15}) - 16);
  std::uintptr_t* frame = aligned - 2;
  frame[0] = reinterpret_cast<std::uintptr_t>(&gpulab_sim_fiber_start);
  frame[1] = reinterpret_cast<std::uintptr_t>(entry);
  return frame;
}
}  // namespace

#else  // Boost.Context elsewhere: the switcher passes its save slot along, and the resumed side fills it.

namespace {
thread_local FiberEntry boost_fiber_entry = nullptr;  // one entry per host thread (BlockRun's)
void boost_entry(boost::context::detail::transfer_t t) {
  if (t.data != nullptr) *static_cast<FiberContext*>(t.data) = t.fctx;
  boost_fiber_entry();
}
}  // namespace

void raw_switch(FiberContext* save, FiberContext to) {
  const auto t = boost::context::detail::jump_fcontext(to, save);
  if (t.data != nullptr) *static_cast<FiberContext*>(t.data) = t.fctx;
}

#endif

FiberContext FiberStacks::make_context(unsigned i, FiberEntry entry) {
  const StackRange s = stack(i);
#if defined(GPULAB_SIM_ASAN)
  // A fiber abandoned by a fault leaves its frames' poison behind.
  ASAN_UNPOISON_MEMORY_REGION(s.bottom, s.size);
#endif
  // Cache colouring: every fiber runs the same frames at the same depth, so with stack tops a whole
  // number of slots apart their hot lines would all fall in the same few cache sets. Starting stack i
  // i cache lines below its slot's top (modulo 1024) puts consecutive threads' frames in consecutive
  // sets of a 64 KiB cache way (an L2 of 1 MiB, 16 ways), and so of every smaller way. Measured on the
  // tiled kernel at n = 256, whose 256 threads resume at a barrier twice a tile: colours within 4 KiB
  // alone (every top in the same 64 sets of the L2) took 16.3 ms where stacks 68 KiB apart (before the
  // slots) took 15.0; this layout is level with the latter.
  const std::size_t colour = (i % (max_colour / 64 + 1)) * 64;
#if defined(__x86_64__)
  return initial_frame(s.bottom + s.size - colour, entry);
#else
  boost_fiber_entry = entry;
  return boost::context::detail::make_fcontext(s.bottom + s.size - colour, s.size - colour, &boost_entry);
#endif
}

StackRange host_thread_stack() {
  StackRange r;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* addr = nullptr;
    std::size_t size = 0;
    pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
    r.bottom = static_cast<char*>(addr);
    r.size = size;
  }
  return r;
}

}  // namespace gpulab::sim::detail
