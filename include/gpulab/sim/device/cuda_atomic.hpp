#pragma once
// libcu++'s atomics for code compiled for the simulator: cuda::thread_scope, cuda::atomic<T, Scope>,
// cuda::atomic_ref<T, Scope>, cuda::std::atomic<T>, cuda::std::atomic_ref<T>, cuda::std::atomic_flag and
// the fences, as <cuda/atomic> and <cuda/std/atomic> declare them.
//
// Every operation is a real atomic instruction of the host (blocks run on separate host threads) at
// least as strong as its memory order asks, and tells the checks its kind, scope and order
// (detail::note_atomic), and the engine whether it changed memory or polled it (detail/polls.hpp).
// wait() polls, stepping aside for the threads that will change the value, of its block or of others;
// notify_one and notify_all have nothing left to do.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

#include <gpulab/sim/device/atomics.hpp>
#include <gpulab/sim/device/cuda_std_namespace.hpp>

namespace cuda {

// libcu++'s names; each atomic's scope is part of its type.
enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };

using ::std::memory_order;
using ::std::memory_order_acq_rel;
using ::std::memory_order_acquire;
using ::std::memory_order_consume;
using ::std::memory_order_relaxed;
using ::std::memory_order_release;
using ::std::memory_order_seq_cst;

}  // namespace cuda

namespace gpulab::sim::detail {
GPULAB_SIM_VARIANT_BEGIN

constexpr AtomicScope scope_of(::cuda::thread_scope s) {
  switch (s) {
    case ::cuda::thread_scope_thread: return AtomicScope::thread;
    case ::cuda::thread_scope_block: return AtomicScope::block;
    case ::cuda::thread_scope_device: return AtomicScope::device;
    default: return AtomicScope::system;
  }
}
constexpr AtomicOrder order_of(::std::memory_order o) {
  switch (o) {
    case ::std::memory_order_relaxed: return AtomicOrder::relaxed;
    case ::std::memory_order_consume:
    case ::std::memory_order_acquire: return AtomicOrder::acquire;
    case ::std::memory_order_release: return AtomicOrder::release;
    case ::std::memory_order_acq_rel: return AtomicOrder::acq_rel;
    default: return AtomicOrder::seq_cst;
  }
}
// The order of a compare-exchange's failure, from its single order (as the standard derives it).
constexpr ::std::memory_order failure_order_of(::std::memory_order o) {
  if (o == ::std::memory_order_acq_rel) return ::std::memory_order_acquire;
  if (o == ::std::memory_order_release) return ::std::memory_order_relaxed;
  return o;
}

template <class T>
inline constexpr bool atomic_value_type = ::std::is_trivially_copyable_v<T> &&
                                          (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
template <class T>
inline constexpr bool atomic_integral = ::std::is_integral_v<T> && !::std::is_same_v<T, bool>;

// The operations of cuda::atomic and cuda::atomic_ref on the object at Derived::address(), at `Scope`.
template <class Derived, class T, ::cuda::thread_scope Scope>
class atomic_operations {
  static_assert(atomic_value_type<T>,
                "gpulab sim: cuda::atomic and cuda::atomic_ref take trivially copyable types of 1, 2, 4 or 8 bytes; "
                "larger ones (libcu++'s lock-based atomics) are not supported by the simulator");

 public:
  using value_type = T;
  static constexpr bool is_always_lock_free = true;
  static constexpr ::std::size_t required_alignment = sizeof(T);
  bool is_lock_free() const noexcept { return true; }

  GPULAB_SIM_UNCHECKED T load(::std::memory_order order = ::std::memory_order_seq_cst) const noexcept {
    note(AtomicKind::load, order);
    T out;
    __atomic_load(address(), &out, host_order(order_of(order)));
    note_poll(address(), out);
    return out;
  }
  GPULAB_SIM_UNCHECKED void store(T value, ::std::memory_order order = ::std::memory_order_seq_cst) const noexcept {
    note(AtomicKind::store, order);
    __atomic_store(address(), &value, host_order(order_of(order)));
    note_change();
  }
  operator T() const noexcept { return load(); }
  GPULAB_SIM_UNCHECKED T exchange(T value, ::std::memory_order order = ::std::memory_order_seq_cst) const noexcept {
    note(AtomicKind::read_modify_write, order);
    T out;
    __atomic_exchange(address(), &value, &out, host_order(order_of(order)));
    note_result(address(), out, same_bits(out, value));
    return out;
  }
  GPULAB_SIM_UNCHECKED bool compare_exchange_strong(T& expected, T desired, ::std::memory_order success,
                                                    ::std::memory_order failure) const noexcept {
    note(AtomicKind::read_modify_write, success);
    const bool swapped = __atomic_compare_exchange(address(), &expected, &desired, false, host_order(order_of(success)),
                                                   host_failure_order(order_of(failure)));
    note_result(address(), expected, !swapped || same_bits(expected, desired));
    return swapped;
  }
  GPULAB_SIM_UNCHECKED bool compare_exchange_weak(T& expected, T desired, ::std::memory_order success,
                                                  ::std::memory_order failure) const noexcept {
    note(AtomicKind::read_modify_write, success);
    const bool swapped = __atomic_compare_exchange(address(), &expected, &desired, true, host_order(order_of(success)),
                                                   host_failure_order(order_of(failure)));
    note_result(address(), expected, !swapped || same_bits(expected, desired));
    return swapped;
  }
  bool compare_exchange_strong(T& expected, T desired, ::std::memory_order order = ::std::memory_order_seq_cst) const noexcept {
    return compare_exchange_strong(expected, desired, order, failure_order_of(order));
  }
  bool compare_exchange_weak(T& expected, T desired, ::std::memory_order order = ::std::memory_order_seq_cst) const noexcept {
    return compare_exchange_weak(expected, desired, order, failure_order_of(order));
  }

  // Arithmetic: integers and pointers by the instruction, floating point by compare-and-swap.
  GPULAB_SIM_UNCHECKED T fetch_add(::std::conditional_t<::std::is_pointer_v<T>, ::std::ptrdiff_t, T> v,
                                   ::std::memory_order order = ::std::memory_order_seq_cst) const noexcept
    requires(atomic_integral<T> || ::std::is_floating_point_v<T> || ::std::is_pointer_v<T>)
  {
    if constexpr (::std::is_floating_point_v<T>) {
      return atomic_update(address(), [v](T old) { return old + v; }, scope_of(Scope), order_of(order));
    } else {
      note(AtomicKind::read_modify_write, order);
      T old;
      if constexpr (::std::is_pointer_v<T>) {
        old = __atomic_fetch_add(address(), v * static_cast<::std::ptrdiff_t>(sizeof(::std::remove_pointer_t<T>)), host_order(order_of(order)));
      } else {
        old = __atomic_fetch_add(address(), v, host_order(order_of(order)));
      }
      note_result(address(), old, v == 0);
      return old;
    }
  }
  GPULAB_SIM_UNCHECKED T fetch_sub(::std::conditional_t<::std::is_pointer_v<T>, ::std::ptrdiff_t, T> v,
                                   ::std::memory_order order = ::std::memory_order_seq_cst) const noexcept
    requires(atomic_integral<T> || ::std::is_floating_point_v<T> || ::std::is_pointer_v<T>)
  {
    if constexpr (::std::is_floating_point_v<T>) {
      return atomic_update(address(), [v](T old) { return old - v; }, scope_of(Scope), order_of(order));
    } else {
      note(AtomicKind::read_modify_write, order);
      T old;
      if constexpr (::std::is_pointer_v<T>) {
        old = __atomic_fetch_sub(address(), v * static_cast<::std::ptrdiff_t>(sizeof(::std::remove_pointer_t<T>)), host_order(order_of(order)));
      } else {
        old = __atomic_fetch_sub(address(), v, host_order(order_of(order)));
      }
      note_result(address(), old, v == 0);
      return old;
    }
  }
  GPULAB_SIM_UNCHECKED T fetch_and(T v, ::std::memory_order order = ::std::memory_order_seq_cst) const noexcept
    requires atomic_integral<T>
  {
    note(AtomicKind::read_modify_write, order);
    const T old = __atomic_fetch_and(address(), v, host_order(order_of(order)));
    note_result(address(), old, v == static_cast<T>(~T{0}));
    return old;
  }
  GPULAB_SIM_UNCHECKED T fetch_or(T v, ::std::memory_order order = ::std::memory_order_seq_cst) const noexcept
    requires atomic_integral<T>
  {
    note(AtomicKind::read_modify_write, order);
    const T old = __atomic_fetch_or(address(), v, host_order(order_of(order)));
    note_result(address(), old, v == T{0});
    return old;
  }
  GPULAB_SIM_UNCHECKED T fetch_xor(T v, ::std::memory_order order = ::std::memory_order_seq_cst) const noexcept
    requires atomic_integral<T>
  {
    note(AtomicKind::read_modify_write, order);
    const T old = __atomic_fetch_xor(address(), v, host_order(order_of(order)));
    note_result(address(), old, v == T{0});
    return old;
  }
  // libcu++'s extensions.
  T fetch_min(T v, ::std::memory_order order = ::std::memory_order_seq_cst) const noexcept
    requires(atomic_integral<T> || ::std::is_floating_point_v<T>)
  {
    return atomic_update(address(), [v](T old) { return v < old ? v : old; }, scope_of(Scope), order_of(order));
  }
  T fetch_max(T v, ::std::memory_order order = ::std::memory_order_seq_cst) const noexcept
    requires(atomic_integral<T> || ::std::is_floating_point_v<T>)
  {
    return atomic_update(address(), [v](T old) { return old < v ? v : old; }, scope_of(Scope), order_of(order));
  }

  T operator++() const noexcept requires(atomic_integral<T> || ::std::is_pointer_v<T>) { return fetch_add(1) + 1; }
  T operator--() const noexcept requires(atomic_integral<T> || ::std::is_pointer_v<T>) { return fetch_sub(1) - 1; }
  T operator++(int) const noexcept requires(atomic_integral<T> || ::std::is_pointer_v<T>) { return fetch_add(1); }
  T operator--(int) const noexcept requires(atomic_integral<T> || ::std::is_pointer_v<T>) { return fetch_sub(1); }
  T operator+=(::std::conditional_t<::std::is_pointer_v<T>, ::std::ptrdiff_t, T> v) const noexcept
    requires(atomic_integral<T> || ::std::is_floating_point_v<T> || ::std::is_pointer_v<T>)
  {
    return fetch_add(v) + v;
  }
  T operator-=(::std::conditional_t<::std::is_pointer_v<T>, ::std::ptrdiff_t, T> v) const noexcept
    requires(atomic_integral<T> || ::std::is_floating_point_v<T> || ::std::is_pointer_v<T>)
  {
    return fetch_sub(v) - v;
  }
  T operator&=(T v) const noexcept requires atomic_integral<T> { return fetch_and(v) & v; }
  T operator|=(T v) const noexcept requires atomic_integral<T> { return fetch_or(v) | v; }
  T operator^=(T v) const noexcept requires atomic_integral<T> { return fetch_xor(v) ^ v; }

  // Polls until the value differs from `old`: each load is a poll (detail/polls.hpp), so the thread
  // steps aside for the threads, of its block or others, that will change it.
  GPULAB_SIM_UNCHECKED void wait(T old, ::std::memory_order order = ::std::memory_order_seq_cst) const noexcept {
    while (same_bits(load(order), old)) {
    }
  }
  void notify_one() const noexcept {}
  void notify_all() const noexcept {}

 private:
  T* address() const noexcept { return static_cast<const Derived*>(this)->object(); }
  void note(AtomicKind kind, ::std::memory_order order) const noexcept {
    note_atomic(address(), kind, scope_of(Scope), order_of(order));
  }
  static bool same_bits(const T& a, const T& b) noexcept { return ::std::memcmp(&a, &b, sizeof(T)) == 0; }
};

GPULAB_SIM_VARIANT_END
}  // namespace gpulab::sim::detail

namespace cuda {

template <class T, thread_scope Scope = thread_scope_system>
class atomic_ref : public gpulab::sim::detail::atomic_operations<atomic_ref<T, Scope>, T, Scope> {
 public:
  explicit atomic_ref(T& object) noexcept : object_(&object) {}
  atomic_ref(const atomic_ref&) noexcept = default;
  atomic_ref& operator=(const atomic_ref&) = delete;
  T operator=(T value) const noexcept {
    this->store(value);
    return value;
  }
  T* object() const noexcept { return object_; }

 private:
  T* object_;
};

// Trivially default constructible, as libcu++'s, so that `__shared__ cuda::atomic<int, ...> a;` needs no
// constructor; the value is then set by a store.
template <class T, thread_scope Scope = thread_scope_system>
class atomic : public gpulab::sim::detail::atomic_operations<atomic<T, Scope>, T, Scope> {
 public:
  atomic() noexcept = default;
  constexpr atomic(T value) noexcept : value_(value) {}
  atomic(const atomic&) = delete;
  atomic& operator=(const atomic&) = delete;
  T operator=(T value) noexcept {
    this->store(value);
    return value;
  }
  T* object() const noexcept { return const_cast<T*>(&value_); }

 private:
  alignas(sizeof(T)) T value_;
};

// Fences at a scope: the host's fence is at least as strong as any scope's.
GPULAB_SIM_VARIANT_LINKAGE inline void atomic_thread_fence(memory_order order,
                                                       thread_scope scope = thread_scope_system) noexcept {
  if (order == memory_order_relaxed) return;
  __atomic_thread_fence(gpulab::sim::detail::host_order(gpulab::sim::detail::order_of(order)));
  gpulab::sim::detail::note_fence(gpulab::sim::detail::scope_of(scope));
}
inline void atomic_signal_fence(memory_order order) noexcept {
  if (order != memory_order_relaxed) __atomic_signal_fence(gpulab::sim::detail::host_order(gpulab::sim::detail::order_of(order)));
}

}  // namespace cuda

namespace cuda::std {

using ::std::memory_order;
using ::std::memory_order_acq_rel;
using ::std::memory_order_acquire;
using ::std::memory_order_consume;
using ::std::memory_order_relaxed;
using ::std::memory_order_release;
using ::std::memory_order_seq_cst;

// cuda::std's atomics are system scope, as libcu++'s.
template <class T>
using atomic = ::cuda::atomic<T, ::cuda::thread_scope_system>;
template <class T>
using atomic_ref = ::cuda::atomic_ref<T, ::cuda::thread_scope_system>;
using ::cuda::atomic_signal_fence;
using ::cuda::atomic_thread_fence;

class atomic_flag {
 public:
  atomic_flag() noexcept = default;
  GPULAB_SIM_UNCHECKED bool test(memory_order order = memory_order_seq_cst) const noexcept { return bits_.load(order) != 0; }
  GPULAB_SIM_UNCHECKED bool test_and_set(memory_order order = memory_order_seq_cst) noexcept {
    return bits_.exchange(1, order) != 0;
  }
  GPULAB_SIM_UNCHECKED void clear(memory_order order = memory_order_seq_cst) noexcept { bits_.store(0, order); }

 private:
  ::cuda::atomic<unsigned char, ::cuda::thread_scope_system> bits_{0};
};

using atomic_int = atomic<int>;
using atomic_uint = atomic<unsigned>;
using atomic_long = atomic<long>;
using atomic_ulong = atomic<unsigned long>;
using atomic_llong = atomic<long long>;
using atomic_ullong = atomic<unsigned long long>;
using atomic_bool = atomic<bool>;
using atomic_int32_t = atomic<::std::int32_t>;
using atomic_uint32_t = atomic<::std::uint32_t>;
using atomic_int64_t = atomic<::std::int64_t>;
using atomic_uint64_t = atomic<::std::uint64_t>;
using atomic_size_t = atomic<::std::size_t>;

}  // namespace cuda::std
