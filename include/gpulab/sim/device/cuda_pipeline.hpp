#pragma once
// libcu++'s asynchronous copies for code compiled for the simulator: cuda::aligned_size_t,
// cuda::memcpy_async (to a barrier or a pipeline, by one thread or by a group), and the thread-scope
// cuda::pipeline that cuda::make_pipeline() returns (<cuda/pipeline>).
//
// The simulator copies at the call, as the thread (or, for a group's copy, the group's threads each
// their share), so every later wait finds the data there, and the checks see each byte's access by the
// thread that made it. The stages of a thread's pipeline are then bookkeeping; a pipeline shared by a
// group (make_pipeline(group, &shared_state, ...)) keeps the waits of its producers and consumers on
// barriers, as libcu++'s does.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>

#include <gpulab/sim/device/cuda_barrier.hpp>

namespace gpulab::sim::detail {
GPULAB_SIM_VARIANT_BEGIN

// Copies n bytes as the running simulated thread: the checks see a read of the source and a write of
// the destination, word by word.
GPULAB_SIM_UNCHECKED inline void copy_as_thread(void* dst, const void* src, ::std::size_t n) {
#if defined(GPULAB_SIM_CHECKED)
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  for (::std::size_t i = 0; i < n;) {
    const ::std::size_t chunk = n - i < 4 ? n - i : 4;
    check_access(s + i, chunk, false);
    check_access(d + i, chunk, true);
    i += chunk;
  }
#endif
  ::std::memcpy(dst, src, n);
}

// A group's copy: its threads copy 16-byte pieces in turn, as a GPU spreads it over the group's lanes.
template <class Group>
inline void copy_as_group(const Group& group, void* dst, const void* src, ::std::size_t n) {
  constexpr ::std::size_t piece = 16;
  const ::std::size_t stride = static_cast<::std::size_t>(group.size()) * piece;
  for (::std::size_t at = static_cast<::std::size_t>(group.thread_rank()) * piece; at < n; at += stride) {
    copy_as_thread(static_cast<unsigned char*>(dst) + at, static_cast<const unsigned char*>(src) + at,
                   n - at < piece ? n - at : piece);
  }
}

GPULAB_SIM_VARIANT_END
}  // namespace gpulab::sim::detail

namespace cuda {

// A size that promises an alignment of Alignment bytes (a GPU copies in wider pieces for it).
template <::std::size_t Alignment>
struct aligned_size_t {
  static_assert(Alignment != 0 && (Alignment & (Alignment - 1)) == 0, "cuda::aligned_size_t: alignment must be a power of two");
  static constexpr ::std::size_t align = Alignment;
  ::std::size_t value;
  explicit constexpr aligned_size_t(::std::size_t size) : value(size) {}
  constexpr operator ::std::size_t() const { return value; }
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
template <::std::uint8_t Prior>
inline void pipeline_consumer_wait_prior(pipeline<thread_scope_thread>&) noexcept {}

enum class pipeline_role { producer, consumer };

template <thread_scope Scope, ::std::uint8_t StagesCount>
class pipeline_shared_state;

// A pipeline shared by a group's threads (make_pipeline(group, &shared_state[, producers or role])): each
// stage has a barrier its producers arrive at when they commit it and one its consumers arrive at when
// they release it; a producer acquiring a stage waits for its consumers' release of the round before,
// a consumer waits for the producers' commit. The copies are done at their call, so a committed stage
// holds its data; the barriers give the waits, and racecheck the order, that a GPU's has.
template <thread_scope Scope>
class pipeline {
 public:
  pipeline(const pipeline&) = delete;
  pipeline& operator=(const pipeline&) = delete;
  pipeline& operator=(pipeline&&) = delete;
  pipeline(pipeline&& other) noexcept
      : stages_(other.stages_), refcount_(other.refcount_), count_(other.count_), head_(other.head_),
        tail_(other.tail_), produced_parity_(other.produced_parity_), consumed_parity_(other.consumed_parity_),
        producer_(other.producer_), consumer_(other.consumer_), active_(other.active_) {
    other.active_ = false;
  }
  ~pipeline() {
    if (active_) (void)quit();
  }

  void producer_acquire(const ::std::source_location where = ::std::source_location::current()) {
    stage(head_)[1].wait_parity(consumed_parity_, where);
  }
  void producer_commit() {
    (void)stage(head_)[0].arrive();
    if (++head_ == count_) {
      head_ = 0;
      consumed_parity_ = !consumed_parity_;
    }
  }
  void consumer_wait(const ::std::source_location where = ::std::source_location::current()) {
    stage(tail_)[0].wait_parity(produced_parity_, where);
  }
  template <class Rep, class Period>
  bool consumer_wait_for(const ::std::chrono::duration<Rep, Period>&,
                         const ::std::source_location where = ::std::source_location::current()) {
    consumer_wait(where);  // a simulated thread has no clock to give up by
    return true;
  }
  template <class Clock, class Duration>
  bool consumer_wait_until(const ::std::chrono::time_point<Clock, Duration>&,
                           const ::std::source_location where = ::std::source_location::current()) {
    consumer_wait(where);
    return true;
  }
  void consumer_release() {
    (void)stage(tail_)[1].arrive();
    if (++tail_ == count_) {
      tail_ = 0;
      produced_parity_ = !produced_parity_;
    }
  }
  // The thread leaves the pipeline: it no longer counts at the barriers of its role. True for the last
  // thread of the group to leave. Unchecked: the count is atomic, which the instrumentation cannot tell.
  GPULAB_SIM_UNCHECKED bool quit() {
    for (::std::uint8_t s = 0; s < count_; ++s) {
      if (producer_) stage(s)[0].arrive_and_drop();
      if (consumer_) stage(s)[1].arrive_and_drop();
    }
    active_ = false;
    return __atomic_sub_fetch(refcount_, 1, __ATOMIC_ACQ_REL) == 0;
  }

 private:
  template <class Group, thread_scope S, ::std::uint8_t N>
  friend pipeline<S> gpulab_make_shared_pipeline(const Group&, pipeline_shared_state<S, N>*, bool, bool);
  pipeline(barrier<Scope>* stages, ::std::ptrdiff_t* refcount, ::std::uint8_t count, bool producer, bool consumer)
      : stages_(stages), refcount_(refcount), count_(count), producer_(producer), consumer_(consumer) {}
  barrier<Scope>* stage(::std::uint8_t s) const { return stages_ + 2 * s; }

  barrier<Scope>* stages_;    // 2 a stage: [0] produced, [1] consumed
  ::std::ptrdiff_t* refcount_;  // the group's threads still in the pipeline
  ::std::uint8_t count_;
  ::std::uint8_t head_ = 0, tail_ = 0;
  bool produced_parity_ = false;  // the parity of the produced phase a consumer waits for
  bool consumed_parity_ = true;   // of the consumed phase a producer waits for (none yet: the one before)
  bool producer_, consumer_;
  bool active_ = true;
};

// Shared by the group's threads, in shared (or global) memory; make_pipeline initialises it.
template <thread_scope Scope, ::std::uint8_t StagesCount>
class pipeline_shared_state {
 public:
  static_assert(StagesCount >= 1, "cuda::pipeline_shared_state needs at least one stage");
  pipeline_shared_state() = default;
  pipeline_shared_state(const pipeline_shared_state&) = delete;
  pipeline_shared_state& operator=(const pipeline_shared_state&) = delete;

 private:
  template <class Group, thread_scope S, ::std::uint8_t N>
  friend pipeline<S> gpulab_make_shared_pipeline(const Group&, pipeline_shared_state<S, N>*, bool, bool);
  barrier<Scope> stages_[2 * StagesCount];
  ::std::ptrdiff_t refcount_;
  ::std::ptrdiff_t producers_, consumers_;
};

// Collective over the group: each thread says whether it produces, consumes or both; the barriers
// count the group's producers and consumers. Unchecked: its counts are atomics.
template <class Group, thread_scope Scope, ::std::uint8_t StagesCount>
GPULAB_SIM_UNCHECKED pipeline<Scope> gpulab_make_shared_pipeline(const Group& group, pipeline_shared_state<Scope, StagesCount>* state,
                                            bool producer, bool consumer) {
  if (group.thread_rank() == 0) {
    __atomic_store_n(&state->producers_, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&state->consumers_, 0, __ATOMIC_RELAXED);
  }
  group.sync();
  if (producer) __atomic_fetch_add(&state->producers_, 1, __ATOMIC_ACQ_REL);
  if (consumer) __atomic_fetch_add(&state->consumers_, 1, __ATOMIC_ACQ_REL);
  group.sync();
  if (group.thread_rank() == 0) {
    for (::std::uint8_t s = 0; s < StagesCount; ++s) {
      init(&state->stages_[2 * s], __atomic_load_n(&state->producers_, __ATOMIC_ACQUIRE));
      init(&state->stages_[2 * s + 1], __atomic_load_n(&state->consumers_, __ATOMIC_ACQUIRE));
    }
    __atomic_store_n(&state->refcount_, static_cast<::std::ptrdiff_t>(group.size()), __ATOMIC_RELEASE);
  }
  group.sync();
  return pipeline<Scope>(state->stages_, &state->refcount_, StagesCount, producer, consumer);
}

// Every thread of the group produces and consumes.
template <class Group, thread_scope Scope, ::std::uint8_t StagesCount>
pipeline<Scope> make_pipeline(const Group& group, pipeline_shared_state<Scope, StagesCount>* state) {
  return gpulab_make_shared_pipeline(group, state, true, true);
}
// The first `producer_count` threads (by rank) produce, the others consume.
template <class Group, thread_scope Scope, ::std::uint8_t StagesCount>
pipeline<Scope> make_pipeline(const Group& group, pipeline_shared_state<Scope, StagesCount>* state,
                              ::std::size_t producer_count) {
  const bool producer = static_cast<::std::size_t>(group.thread_rank()) < producer_count;
  return gpulab_make_shared_pipeline(group, state, producer, !producer);
}
// Each thread says its role.
template <class Group, thread_scope Scope, ::std::uint8_t StagesCount>
pipeline<Scope> make_pipeline(const Group& group, pipeline_shared_state<Scope, StagesCount>* state, pipeline_role role) {
  return gpulab_make_shared_pipeline(group, state, role == pipeline_role::producer, role == pipeline_role::consumer);
}

// A copy into a shared pipeline's current stage: done at the call.
template <thread_scope Scope, class Size>
GPULAB_SIM_VARIANT_LINKAGE inline void memcpy_async(void* dst, const void* src, Size size, pipeline<Scope>&) {
  gpulab::sim::detail::copy_as_thread(dst, src, static_cast<::std::size_t>(size));
}
template <class Group, thread_scope Scope, class Size>
GPULAB_SIM_VARIANT_LINKAGE inline void memcpy_async(const Group& group, void* dst, const void* src, Size size, pipeline<Scope>&) {
  gpulab::sim::detail::copy_as_group(group, dst, src, static_cast<::std::size_t>(size));
}

// One thread's copy, completed with the pipeline's current stage.
template <class Size>
GPULAB_SIM_VARIANT_LINKAGE inline void memcpy_async(void* dst, const void* src, Size size, pipeline<thread_scope_thread>&) {
  gpulab::sim::detail::copy_as_thread(dst, src, static_cast<::std::size_t>(size));
}
template <class Group, class Size>
GPULAB_SIM_VARIANT_LINKAGE inline void memcpy_async(const Group& group, void* dst, const void* src, Size size, pipeline<thread_scope_thread>&) {
  gpulab::sim::detail::copy_as_group(group, dst, src, static_cast<::std::size_t>(size));
}

// What a copy to a barrier obliges the caller to: `none`, the copy is complete when it returns (on a
// GPU, `async` says the barrier's phase waits for it).
enum class async_contract_fulfillment { none, async };

// Copies completed with the barrier's current phase.
template <class Size, thread_scope Scope, class Completion>
GPULAB_SIM_VARIANT_LINKAGE inline async_contract_fulfillment memcpy_async(void* dst, const void* src, Size size, barrier<Scope, Completion>&) {
  gpulab::sim::detail::copy_as_thread(dst, src, static_cast<::std::size_t>(size));
  return async_contract_fulfillment::none;
}
template <class Group, class Size, thread_scope Scope, class Completion>
GPULAB_SIM_VARIANT_LINKAGE inline async_contract_fulfillment memcpy_async(const Group& group, void* dst, const void* src, Size size,
                                               barrier<Scope, Completion>&) {
  gpulab::sim::detail::copy_as_group(group, dst, src, static_cast<::std::size_t>(size));
  return async_contract_fulfillment::none;
}

}  // namespace cuda
