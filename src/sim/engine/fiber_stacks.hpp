#pragma once
// The stacks a host thread runs its simulated threads on, and the switch between them. One mapping
// holds all of a host thread's stacks, each with a guard page below it, so an overflowing kernel
// faults instead of writing over its neighbour. Stacks are reused from block to block.
#include <bit>
#include <cstddef>
#include <vector>

#if !defined(__x86_64__)
#include <boost/context/detail/fcontext.hpp>
#endif

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define GPULAB_SIM_ASAN 1
#endif

namespace gpulab::sim::detail {

// A suspended fiber: where its registers are saved.
using FiberContext = void*;
// What a fresh fiber runs; it must never return (a fiber ends by switching away for good).
using FiberEntry = void (*)();

struct StackRange {
  char* bottom = nullptr;  // lowest usable address
  std::size_t size = 0;
  bool contains(const void* p) const noexcept {
    return static_cast<std::size_t>(static_cast<const char*>(p) - bottom) < size;
  }
};

class FiberStacks {
 public:
  FiberStacks() = default;
  ~FiberStacks();
  FiberStacks(const FiberStacks&) = delete;
  FiberStacks& operator=(const FiberStacks&) = delete;

  // Makes sure `count` stacks exist (maps more, keeping none of the old ones' contents: only called
  // between blocks).
  void reserve(unsigned count);
  unsigned count() const noexcept { return count_; }
  StackRange stack(unsigned i) const noexcept {
    return StackRange{base_ + static_cast<std::size_t>(i) * stride_ + guard_, stride_ - guard_};
  }
  // The whole mapping, for classifying an address as "some simulated thread's stack".
  bool contains(const void* p) const noexcept {
    return static_cast<std::size_t>(static_cast<const char*>(p) - base_) < bytes();
  }
  // The mapping's first address and size, log2 of a slot's size (guard + stack; slots are aligned to
  // it) and the guard's size at the bottom of each slot.
  char* base() const noexcept { return base_; }
  std::size_t bytes() const noexcept { return static_cast<std::size_t>(count_) * stride_; }
  unsigned slot_shift() const noexcept { return static_cast<unsigned>(std::countr_zero(stride_)); }
  std::size_t guard() const noexcept { return guard_; }
  unsigned index_of(const void* p) const noexcept {
    return static_cast<unsigned>(static_cast<std::size_t>(static_cast<const char*>(p) - base_) / stride_);
  }

  // A fresh context on stack `i` that starts in `entry`.
  FiberContext make_context(unsigned i, FiberEntry entry);

  // GPULAB_SIM_STACK (bytes, K/M suffixes); 64 KiB by default, 256 KiB under ASan.
  static std::size_t configured_stack_size();

 private:
  static constexpr std::size_t max_colour = 1023 * 64;  // how far below its slot's top a stack may start
  char* base_ = nullptr;
  std::size_t stride_ = 0;  // guard + stack, a power of two
  std::size_t guard_ = 0;   // a page
  unsigned count_ = 0;
};

// The host thread's own stack (where blocks start and end), for ASan's fiber annotations.
StackRange host_thread_stack();

// The switch itself: saves the callee-saved registers on the current stack, stores the stack pointer
// in *save, loads `to`'s and returns into it. On x86-64 it is gpulab's own (fiber_stacks.cpp): a `ret`
// into the resumed fiber keeps the CPU's return-stack predictor in step, where Boost.Context's
// `jmp` leaves it one entry off, so that every return up the resumed fiber's call chain was
// mispredicted; and it leaves MXCSR and the x87 control word alone (the simulated threads of a host
// thread share one floating-point environment; saving and reloading them costs serialising
// instructions). Elsewhere Boost.Context does the switch.
void raw_switch(FiberContext* save, FiberContext to);

// Switches to `to`; the context we leave is written to *save (unless save is null: the fiber we leave
// never runs again). ASan is told about every switch, else it reports false positives.
inline void switch_context(FiberContext to, FiberContext* save, [[maybe_unused]] const StackRange& to_stack) {
  FiberContext abandoned = nullptr;
#if defined(GPULAB_SIM_ASAN)
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(save != nullptr ? &fake_stack : nullptr, to_stack.bottom, to_stack.size);
  raw_switch(save != nullptr ? save : &abandoned, to);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#else
  raw_switch(save != nullptr ? save : &abandoned, to);
#endif
}

// The first thing a fiber does.
inline void fiber_started() {
#if defined(GPULAB_SIM_ASAN)
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
}

}  // namespace gpulab::sim::detail
