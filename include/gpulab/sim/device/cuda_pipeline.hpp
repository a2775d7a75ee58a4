#pragma once
// libcu++'s asynchronous copies for code compiled for the simulator: cuda::aligned_size_t,
// cuda::memcpy_async (to a barrier or a pipeline, by one thread or by a group), and the thread-scope
// cuda::pipeline that cuda::make_pipeline() returns (<cuda/pipeline>).
//
// The simulator copies at the call, as the thread (or, for a group's copy, the group's threads each
// their share), so every later wait finds the data there, and the checks see each byte's access by the
// thread that made it. The stages of a pipeline are then bookkeeping; a pipeline shared by a block
// (make_pipeline(group, shared_state)) is refused at build time.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <gpulab/sim/device/cuda_barrier.hpp>

namespace gpulab::sim::detail {

// Copies n bytes as the running simulated thread: the checks see a read of the source and a write of
// the destination, word by word.
GPULAB_SIM_UNCHECKED inline void copy_as_thread(void* dst, const void* src, std::size_t n) {
#if defined(GPULAB_SIM_CHECKED)
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  for (std::size_t i = 0; i < n;) {
    const std::size_t chunk = n - i < 4 ? n - i : 4;
    check_access(s + i, chunk, false);
    check_access(d + i, chunk, true);
    i += chunk;
  }
#endif
  std::memcpy(dst, src, n);
}

// A group's copy: its threads copy 16-byte pieces in turn, as a GPU spreads it over the group's lanes.
template <class Group>
inline void copy_as_group(const Group& group, void* dst, const void* src, std::size_t n) {
  constexpr std::size_t piece = 16;
  const std::size_t stride = static_cast<std::size_t>(group.size()) * piece;
  for (std::size_t at = static_cast<std::size_t>(group.thread_rank()) * piece; at < n; at += stride) {
    copy_as_thread(static_cast<unsigned char*>(dst) + at, static_cast<const unsigned char*>(src) + at,
                   n - at < piece ? n - at : piece);
  }
}

}  // namespace gpulab::sim::detail

namespace cuda {

// A size that promises an alignment of Alignment bytes (a GPU copies in wider pieces for it).
template <std::size_t Alignment>
struct aligned_size_t {
  static_assert(Alignment != 0 && (Alignment & (Alignment - 1)) == 0, "cuda::aligned_size_t: alignment must be a power of two");
  static constexpr std::size_t align = Alignment;
  std::size_t value;
  explicit constexpr aligned_size_t(std::size_t size) : value(size) {}
  constexpr operator std::size_t() const { return value; }
};

template <thread_scope Scope>
class pipeline;

// The pipeline of one thread: stages are acquired and committed by it, then waited for and released.
template <>
class pipeline<thread_scope_thread> {
 public:
  pipeline(const pipeline&) = delete;
  pipeline(pipeline&&) noexcept = default;
  pipeline& operator=(const pipeline&) = delete;
  pipeline& operator=(pipeline&&) = delete;

  void producer_acquire() noexcept {}
  void producer_commit() noexcept { ++committed_; }
  // The oldest committed stage is complete: every copy is done at its call.
  void consumer_wait() noexcept {}
  template <class Rep, class Period>
  bool consumer_wait_for(const ::std::chrono::duration<Rep, Period>&) noexcept {
    return true;
  }
  void consumer_release() noexcept {
    if (released_ < committed_) ++released_;
  }
  bool quit() noexcept { return true; }

 private:
  friend pipeline make_pipeline() noexcept;
  pipeline() = default;
  unsigned long long committed_ = 0;
  unsigned long long released_ = 0;
};

inline pipeline<thread_scope_thread> make_pipeline() noexcept { return pipeline<thread_scope_thread>(); }

// Waits until all but the newest `Prior` committed stages are complete: they all are.
template <std::uint8_t Prior>
inline void pipeline_consumer_wait_prior(pipeline<thread_scope_thread>&) noexcept {}

// libcu++'s state of a pipeline shared by a block's threads: not supported by the simulator.
template <thread_scope Scope, std::uint8_t StagesCount>
class pipeline_shared_state {};

template <class Group, thread_scope Scope, std::uint8_t StagesCount, class... Rest>
pipeline<thread_scope_thread> make_pipeline(const Group&, pipeline_shared_state<Scope, StagesCount>*, Rest&&...) {
  static_assert(sizeof(Group) == 0,
                "gpulab sim: cuda::make_pipeline(group, shared_state) (a pipeline shared by a block) is not supported "
                "by the simulator; use the thread-scope cuda::make_pipeline()");
  return make_pipeline();  // never instantiated: only the assertion's message is seen
}

// One thread's copy, completed with the pipeline's current stage.
template <class Size>
inline void memcpy_async(void* dst, const void* src, Size size, pipeline<thread_scope_thread>&) {
  gpulab::sim::detail::copy_as_thread(dst, src, static_cast<std::size_t>(size));
}
template <class Group, class Size>
inline void memcpy_async(const Group& group, void* dst, const void* src, Size size, pipeline<thread_scope_thread>&) {
  gpulab::sim::detail::copy_as_group(group, dst, src, static_cast<std::size_t>(size));
}

// What a copy to a barrier obliges the caller to: `none`, the copy is complete when it returns (on a
// GPU, `async` says the barrier's phase waits for it).
enum class async_contract_fulfillment { none, async };

// Copies completed with the barrier's current phase.
template <class Size, thread_scope Scope, class Completion>
inline async_contract_fulfillment memcpy_async(void* dst, const void* src, Size size, barrier<Scope, Completion>&) {
  gpulab::sim::detail::copy_as_thread(dst, src, static_cast<std::size_t>(size));
  return async_contract_fulfillment::none;
}
template <class Group, class Size, thread_scope Scope, class Completion>
inline async_contract_fulfillment memcpy_async(const Group& group, void* dst, const void* src, Size size,
                                               barrier<Scope, Completion>&) {
  gpulab::sim::detail::copy_as_group(group, dst, src, static_cast<std::size_t>(size));
  return async_contract_fulfillment::none;
}

}  // namespace cuda
