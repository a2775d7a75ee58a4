#pragma once
// The stacks a host thread runs its simulated threads on, and the switch between them. One mapping
// holds all of a host thread's stacks, each with a guard page below it, so an overflowing kernel
// faults instead of writing over its neighbour. Stacks are reused from block to block.
#include <cstddef>
#include <vector>

#include <boost/context/detail/fcontext.hpp>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define GPULAB_SIM_ASAN 1
#endif

namespace gpulab::sim::detail {

using boost::context::detail::fcontext_t;
using boost::context::detail::transfer_t;

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
    return static_cast<std::size_t>(static_cast<const char*>(p) - base_) < static_cast<std::size_t>(count_) * stride_;
  }
  unsigned index_of(const void* p) const noexcept {
    return static_cast<unsigned>(static_cast<std::size_t>(static_cast<const char*>(p) - base_) / stride_);
  }

  // A fresh context on stack `i` that starts in `fn`.
  fcontext_t make_context(unsigned i, void (*fn)(transfer_t));

  // GPULAB_SIM_STACK (bytes, K/M suffixes); 64 KiB by default, 256 KiB under ASan.
  static std::size_t configured_stack_size();

 private:
  char* base_ = nullptr;
  std::size_t stride_ = 0;  // guard + stack
  std::size_t guard_ = 0;
  unsigned count_ = 0;
};

// The host thread's own stack (where blocks start and end), for ASan's fiber annotations.
StackRange host_thread_stack();

// Switches to `to`; the context we leave is written to *save (unless save is null: the fiber we leave
// never runs again). ASan is told about every switch, else it reports false positives.
inline transfer_t switch_context(fcontext_t to, fcontext_t* save, [[maybe_unused]] const StackRange& to_stack) {
#if defined(GPULAB_SIM_ASAN)
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(save != nullptr ? &fake_stack : nullptr, to_stack.bottom, to_stack.size);
  transfer_t t = boost::context::detail::jump_fcontext(to, save);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#else
  transfer_t t = boost::context::detail::jump_fcontext(to, save);
#endif
  if (t.data != nullptr) *static_cast<fcontext_t*>(t.data) = t.fctx;
  return t;
}

// The first thing a fiber does: record where it came from.
inline void fiber_started(transfer_t t) {
#if defined(GPULAB_SIM_ASAN)
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
  if (t.data != nullptr) *static_cast<fcontext_t*>(t.data) = t.fctx;
}

}  // namespace gpulab::sim::detail
