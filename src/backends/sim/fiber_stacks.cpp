#include "backends/sim/fiber_stacks.hpp"

#include <pthread.h>
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
  guard_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  stride_ = guard_ + configured_stack_size();
  const std::size_t total = static_cast<std::size_t>(count) * stride_;
  void* p = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    throw OutOfMemory("sim (fiber stacks for a block's threads)", total, 0, 0);
  }
  base_ = static_cast<char*>(p);
  for (unsigned i = 0; i < count; ++i) mprotect(base_ + static_cast<std::size_t>(i) * stride_, guard_, PROT_NONE);
  count_ = count;
}

fcontext_t FiberStacks::make_context(unsigned i, void (*fn)(transfer_t)) {
  const StackRange s = stack(i);
#if defined(GPULAB_SIM_ASAN)
  // A fiber abandoned by a fault leaves its frames' poison behind.
  ASAN_UNPOISON_MEMORY_REGION(s.bottom, s.size);
#endif
  return boost::context::detail::make_fcontext(s.bottom + s.size, s.size, fn);
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
