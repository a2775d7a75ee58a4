#pragma once
// CUDA's atomic functions for code compiled for the simulator (part of <gpulab/sim/device_runtime.hpp>).
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <gpulab/sim/device/qualifiers.hpp>

#pragma push_macro("GPULAB_INSIDE_PUBLIC_HEADER")
#undef GPULAB_INSIDE_PUBLIC_HEADER
#define GPULAB_INSIDE_PUBLIC_HEADER 1
#include <gpulab/sim/detail/engine_abi.hpp>
#pragma pop_macro("GPULAB_INSIDE_PUBLIC_HEADER")

// ---- atomics ----------------------------------------------------------------------------------------------
// Relaxed, like CUDA's: other blocks run on other host threads, so these are real atomic instructions.
namespace gpulab::sim::detail {

template <class T>
GPULAB_SIM_UNCHECKED inline void note_atomic([[maybe_unused]] T* address) {
#if defined(GPULAB_SIM_CHECKED)
  check_atomic_access(address, sizeof(T));
#endif
}

// The unsigned integer with T's size, which atomics compare and swap in T's place.
template <class T>
using same_size_bits = std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                          std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>;

// Read-modify-write through compare-and-swap on the value's bits: for float and double, for the
// operations with no single instruction (min, max, inc, dec), and for cuda_fp16.h's half atomics.
template <class T, class F>
GPULAB_SIM_UNCHECKED inline T atomic_update(T* address, F update) {
  note_atomic(address);
  using Bits = same_size_bits<T>;
  static_assert(sizeof(T) == sizeof(Bits));
  Bits* word = reinterpret_cast<Bits*>(address);
  Bits expected = __atomic_load_n(word, __ATOMIC_RELAXED);
  for (;;) {
    T old;
    std::memcpy(&old, &expected, sizeof(T));
    const T next = update(old);
    Bits desired;
    std::memcpy(&desired, &next, sizeof(T));
    if (__atomic_compare_exchange_n(word, &expected, desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return old;
  }
}

template <class T>
inline constexpr bool atomic_integer = std::is_same_v<T, int> || std::is_same_v<T, unsigned int> ||
                                       std::is_same_v<T, unsigned long long> || std::is_same_v<T, long long>;
template <class T>
inline constexpr bool atomic_arithmetic = atomic_integer<T> || std::is_same_v<T, float> || std::is_same_v<T, double>;

}  // namespace gpulab::sim::detail

template <class T>
  requires gpulab::sim::detail::atomic_arithmetic<T>
GPULAB_SIM_UNCHECKED inline T atomicAdd(T* address, std::type_identity_t<T> val) {
  if constexpr (gpulab::sim::detail::atomic_integer<T>) {
    gpulab::sim::detail::note_atomic(address);
    return __atomic_fetch_add(address, val, __ATOMIC_RELAXED);
  } else {
    return gpulab::sim::detail::atomic_update(address, [val](T old) { return old + val; });
  }
}
template <class T>
  requires gpulab::sim::detail::atomic_arithmetic<T>
GPULAB_SIM_UNCHECKED inline T atomicSub(T* address, std::type_identity_t<T> val) {
  if constexpr (gpulab::sim::detail::atomic_integer<T>) {
    gpulab::sim::detail::note_atomic(address);
    return __atomic_fetch_sub(address, val, __ATOMIC_RELAXED);
  } else {
    return gpulab::sim::detail::atomic_update(address, [val](T old) { return old - val; });
  }
}
template <class T>
  requires gpulab::sim::detail::atomic_arithmetic<T>
GPULAB_SIM_UNCHECKED inline T atomicExch(T* address, std::type_identity_t<T> val) {
  return gpulab::sim::detail::atomic_update(address, [val](T) { return val; });
}
template <class T>
  requires gpulab::sim::detail::atomic_arithmetic<T>
GPULAB_SIM_UNCHECKED inline T atomicMin(T* address, std::type_identity_t<T> val) {
  return gpulab::sim::detail::atomic_update(address, [val](T old) { return val < old ? val : old; });
}
template <class T>
  requires gpulab::sim::detail::atomic_arithmetic<T>
GPULAB_SIM_UNCHECKED inline T atomicMax(T* address, std::type_identity_t<T> val) {
  return gpulab::sim::detail::atomic_update(address, [val](T old) { return old < val ? val : old; });
}
// CUDA's wrap rules: Inc counts up to `val` then wraps to 0; Dec counts down to 0 then wraps to `val`
// (and also resets to `val` from any value above it).
GPULAB_SIM_UNCHECKED inline unsigned atomicInc(unsigned* address, unsigned val) {
  return gpulab::sim::detail::atomic_update(address, [val](unsigned old) { return old >= val ? 0u : old + 1u; });
}
GPULAB_SIM_UNCHECKED inline unsigned atomicDec(unsigned* address, unsigned val) {
  return gpulab::sim::detail::atomic_update(address,
                                            [val](unsigned old) { return (old == 0u || old > val) ? val : old - 1u; });
}
template <class T>
  requires gpulab::sim::detail::atomic_arithmetic<T>
GPULAB_SIM_UNCHECKED inline T atomicCAS(T* address, std::type_identity_t<T> compare, std::type_identity_t<T> val) {
  gpulab::sim::detail::note_atomic(address);
  using Bits = gpulab::sim::detail::same_size_bits<T>;
  Bits expected, desired;
  std::memcpy(&expected, &compare, sizeof(T));
  std::memcpy(&desired, &val, sizeof(T));
  __atomic_compare_exchange_n(reinterpret_cast<Bits*>(address), &expected, desired, false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  T old;
  std::memcpy(&old, &expected, sizeof(T));
  return old;
}
template <class T>
  requires gpulab::sim::detail::atomic_integer<T>
GPULAB_SIM_UNCHECKED inline T atomicAnd(T* address, std::type_identity_t<T> val) {
  gpulab::sim::detail::note_atomic(address);
  return __atomic_fetch_and(address, val, __ATOMIC_RELAXED);
}
template <class T>
  requires gpulab::sim::detail::atomic_integer<T>
GPULAB_SIM_UNCHECKED inline T atomicOr(T* address, std::type_identity_t<T> val) {
  gpulab::sim::detail::note_atomic(address);
  return __atomic_fetch_or(address, val, __ATOMIC_RELAXED);
}
template <class T>
  requires gpulab::sim::detail::atomic_integer<T>
GPULAB_SIM_UNCHECKED inline T atomicXor(T* address, std::type_identity_t<T> val) {
  gpulab::sim::detail::note_atomic(address);
  return __atomic_fetch_xor(address, val, __ATOMIC_RELAXED);
}

