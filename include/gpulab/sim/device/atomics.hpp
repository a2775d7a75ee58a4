#pragma once
// CUDA's atomic functions for code compiled for the simulator (part of <gpulab/sim/device_runtime.hpp>).
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <gpulab/sim/device/qualifiers.hpp>
#include <gpulab/sim/vector_types.hpp>

#pragma push_macro("GPULAB_INSIDE_PUBLIC_HEADER")
#undef GPULAB_INSIDE_PUBLIC_HEADER
#define GPULAB_INSIDE_PUBLIC_HEADER 1
#include <gpulab/sim/detail/engine_abi.hpp>
#include <gpulab/sim/detail/polls.hpp>
#pragma pop_macro("GPULAB_INSIDE_PUBLIC_HEADER")

// ---- atomics ----------------------------------------------------------------------------------------------
// Relaxed, like CUDA's: other blocks run on other host threads, so these are real atomic instructions,
// whatever their scope (a block's threads share a host thread, so a block-scope atomic is one too).
// Each form tells the checks its scope: atomicX is device scope, atomicX_block block, atomicX_system system.
// Each also tells the engine whether it changed memory or only polled it (detail/polls.hpp).
namespace gpulab::sim::detail {
GPULAB_SIM_VARIANT_BEGIN

// Tells the checked build's hooks of an atomic access (and its kind, scope and order, for the
// memory-model checks); nothing in an unchecked build.
template <class T>
GPULAB_SIM_UNCHECKED inline void note_atomic([[maybe_unused]] T* address,
                                             [[maybe_unused]] AtomicKind kind = AtomicKind::read_modify_write,
                                             [[maybe_unused]] AtomicScope scope = AtomicScope::device,
                                             [[maybe_unused]] AtomicOrder order = AtomicOrder::relaxed) {
#if defined(GPULAB_SIM_CHECKED)
  check_atomic_access(address, sizeof(T), kind, scope, order);
#endif
}

// Tells the checked build's hooks of a fence at `scope`; nothing in an unchecked build.
GPULAB_SIM_UNCHECKED inline void note_fence([[maybe_unused]] AtomicScope scope) {
#if defined(GPULAB_SIM_CHECKED)
  check_fence(scope);
#endif
}

// After a read-modify-write whose operand makes it a read (an add of 0, an or of 0, ...): a poll; any
// other changes memory, as far as forward progress is concerned (detail/polls.hpp).
template <class T>
GPULAB_SIM_UNCHECKED inline void note_result(const T* address, const T& old, bool identity) {
  if (identity) {
    note_poll(address, old);
  } else {
    note_change();
  }
}

// The host compiler's memory order for an atomic's order: the host's are at least as strong as the
// GPU's at every scope.
constexpr int host_order(AtomicOrder order) {
  switch (order) {
    case AtomicOrder::relaxed: return __ATOMIC_RELAXED;
    case AtomicOrder::acquire: return __ATOMIC_ACQUIRE;
    case AtomicOrder::release: return __ATOMIC_RELEASE;
    case AtomicOrder::acq_rel: return __ATOMIC_ACQ_REL;
    default: return __ATOMIC_SEQ_CST;
  }
}
// The order a failed compare-exchange loads with: no release part, as the language requires.
constexpr int host_failure_order(AtomicOrder order) {
  switch (order) {
    case AtomicOrder::relaxed:
    case AtomicOrder::release: return __ATOMIC_RELAXED;
    case AtomicOrder::acquire:
    case AtomicOrder::acq_rel: return __ATOMIC_ACQUIRE;
    default: return __ATOMIC_SEQ_CST;
  }
}

// The unsigned integer with T's size, which atomics compare and swap in T's place.
template <class T>
using same_size_bits =
    std::conditional_t<sizeof(T) == 1, std::uint8_t,
                       std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                          std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

// Read-modify-write through compare-and-swap on the value's bits: for float and double, for the
// operations with no single instruction (min, max, inc, dec), and for cuda_fp16.h's half atomics.
template <class T, class F>
GPULAB_SIM_UNCHECKED inline T atomic_update(T* address, F update, AtomicScope scope = AtomicScope::device,
                                            AtomicOrder order = AtomicOrder::relaxed, bool unchanged_polls = false) {
  note_atomic(address, AtomicKind::read_modify_write, scope, order);
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
    if (__atomic_compare_exchange_n(word, &expected, desired, true, host_order(order), host_failure_order(order))) {
      // A min, max, inc or dec that keeps the value is a reduction's step, not a wait; an exchange that
      // stores what was there is (a spin lock's).
      if (desired != expected) {
        note_change();
      } else if (unchanged_polls) {
        note_poll(address, old);
      }
      return old;
    }
  }
}

// Compare-and-swap on T's bits; returns the old value.
template <class T>
GPULAB_SIM_UNCHECKED inline T atomic_compare_swap(T* address, T compare, T val, AtomicScope scope,
                                                  AtomicOrder order = AtomicOrder::relaxed) {
  note_atomic(address, AtomicKind::read_modify_write, scope, order);
  using Bits = same_size_bits<T>;
  static_assert(sizeof(T) == sizeof(Bits));
  Bits expected, desired;
  std::memcpy(&expected, &compare, sizeof(T));
  std::memcpy(&desired, &val, sizeof(T));
  const bool swapped = __atomic_compare_exchange_n(reinterpret_cast<Bits*>(address), &expected, desired, false,
                                                  host_order(order), host_failure_order(order));
  T old;
  std::memcpy(&old, &expected, sizeof(T));
  if (swapped && expected != desired) {
    note_change();
  } else {
    note_poll(address, old);  // a failed compare-and-swap, or one that stores what was there
  }
  return old;
}

template <class T>
inline constexpr bool atomic_integer = std::is_same_v<T, int> || std::is_same_v<T, unsigned int> ||
                                       std::is_same_v<T, unsigned long long> || std::is_same_v<T, long long>;
template <class T>
inline constexpr bool atomic_arithmetic = atomic_integer<T> || std::is_same_v<T, float> || std::is_same_v<T, double>;
// CUDA's 128-bit atomicCAS and atomicExch (sm_90) take any 16-byte trivially copyable type.
template <class T>
inline constexpr bool atomic_128_bit = sizeof(T) == 16 && std::is_trivially_copyable_v<T>;

// One operation at one scope: what atomicX, atomicX_block and atomicX_system share.
template <AtomicScope S, class T>
GPULAB_SIM_UNCHECKED inline T atomic_add(T* address, T val) {
  if constexpr (atomic_integer<T>) {
    note_atomic(address, AtomicKind::read_modify_write, S);
    const T old = __atomic_fetch_add(address, val, __ATOMIC_RELAXED);
    note_result(address, old, val == T{0});
    return old;
  } else {
    return atomic_update(address, [val](T old) { return old + val; }, S);
  }
}
template <AtomicScope S, class T>
GPULAB_SIM_UNCHECKED inline T atomic_sub(T* address, T val) {
  if constexpr (atomic_integer<T>) {
    note_atomic(address, AtomicKind::read_modify_write, S);
    const T old = __atomic_fetch_sub(address, val, __ATOMIC_RELAXED);
    note_result(address, old, val == T{0});
    return old;
  } else {
    return atomic_update(address, [val](T old) { return old - val; }, S);
  }
}
template <AtomicScope S, class T>
GPULAB_SIM_UNCHECKED inline T atomic_exchange(T* address, T val) {
  return atomic_update(address, [val](T) { return val; }, S, AtomicOrder::relaxed, true);
}
template <AtomicScope S, class T>
GPULAB_SIM_UNCHECKED inline T atomic_min(T* address, T val) {
  return atomic_update(address, [val](T old) { return val < old ? val : old; }, S);
}
template <AtomicScope S, class T>
GPULAB_SIM_UNCHECKED inline T atomic_max(T* address, T val) {
  return atomic_update(address, [val](T old) { return old < val ? val : old; }, S);
}
// CUDA's wrap rules: Inc counts up to `val` then wraps to 0; Dec counts down to 0 then wraps to `val`
// (and also resets to `val` from any value above it).
template <AtomicScope S>
GPULAB_SIM_UNCHECKED inline unsigned atomic_inc(unsigned* address, unsigned val) {
  return atomic_update(address, [val](unsigned old) { return old >= val ? 0u : old + 1u; }, S);
}
template <AtomicScope S>
GPULAB_SIM_UNCHECKED inline unsigned atomic_dec(unsigned* address, unsigned val) {
  return atomic_update(address, [val](unsigned old) { return (old == 0u || old > val) ? val : old - 1u; }, S);
}
template <AtomicScope S, class T>
GPULAB_SIM_UNCHECKED inline T atomic_and(T* address, T val) {
  note_atomic(address, AtomicKind::read_modify_write, S);
  const T old = __atomic_fetch_and(address, val, __ATOMIC_RELAXED);
  note_result(address, old, val == T(~T{0}));
  return old;
}
template <AtomicScope S, class T>
GPULAB_SIM_UNCHECKED inline T atomic_or(T* address, T val) {
  note_atomic(address, AtomicKind::read_modify_write, S);
  const T old = __atomic_fetch_or(address, val, __ATOMIC_RELAXED);
  note_result(address, old, val == T{0});
  return old;
}
template <AtomicScope S, class T>
GPULAB_SIM_UNCHECKED inline T atomic_xor(T* address, T val) {
  note_atomic(address, AtomicKind::read_modify_write, S);
  const T old = __atomic_fetch_xor(address, val, __ATOMIC_RELAXED);
  note_result(address, old, val == T{0});
  return old;
}
// sm_90's vector adds: each element is an atomic add of its own, as CUDA documents (the vector as a
// whole is not one atomic access).
template <AtomicScope S>
GPULAB_SIM_UNCHECKED inline float2 atomic_add_vector(float2* address, float2 val) {
  return float2{atomic_add<S>(&address->x, val.x), atomic_add<S>(&address->y, val.y)};
}
template <AtomicScope S>
GPULAB_SIM_UNCHECKED inline float4 atomic_add_vector(float4* address, float4 val) {
  return float4{atomic_add<S>(&address->x, val.x), atomic_add<S>(&address->y, val.y),
                atomic_add<S>(&address->z, val.z), atomic_add<S>(&address->w, val.w)};
}

GPULAB_SIM_VARIANT_END
}  // namespace gpulab::sim::detail

// atomicX, atomicX_block and atomicX_system for one operation, over the types `accepts` admits.
#define GPULAB_SIM_ATOMIC_FORMS(Name, operation, accepts)                                                       \
  template <class T>                                                                                            \
    requires gpulab::sim::detail::accepts<T>                                                                    \
  GPULAB_SIM_VARIANT_LINKAGE inline T atomic##Name(T* address, std::type_identity_t<T> val) {                   \
    return gpulab::sim::detail::operation<gpulab::sim::detail::AtomicScope::device>(address, val);              \
  }                                                                                                             \
  template <class T>                                                                                            \
    requires gpulab::sim::detail::accepts<T>                                                                    \
  GPULAB_SIM_VARIANT_LINKAGE inline T atomic##Name##_block(T* address, std::type_identity_t<T> val) {           \
    return gpulab::sim::detail::operation<gpulab::sim::detail::AtomicScope::block>(address, val);               \
  }                                                                                                             \
  template <class T>                                                                                            \
    requires gpulab::sim::detail::accepts<T>                                                                    \
  GPULAB_SIM_VARIANT_LINKAGE inline T atomic##Name##_system(T* address, std::type_identity_t<T> val) {          \
    return gpulab::sim::detail::operation<gpulab::sim::detail::AtomicScope::system>(address, val);              \
  }

GPULAB_SIM_ATOMIC_FORMS(Add, atomic_add, atomic_arithmetic)
GPULAB_SIM_ATOMIC_FORMS(Sub, atomic_sub, atomic_arithmetic)
GPULAB_SIM_ATOMIC_FORMS(Exch, atomic_exchange, atomic_arithmetic)
GPULAB_SIM_ATOMIC_FORMS(Min, atomic_min, atomic_arithmetic)
GPULAB_SIM_ATOMIC_FORMS(Max, atomic_max, atomic_arithmetic)
GPULAB_SIM_ATOMIC_FORMS(And, atomic_and, atomic_integer)
GPULAB_SIM_ATOMIC_FORMS(Or, atomic_or, atomic_integer)
GPULAB_SIM_ATOMIC_FORMS(Xor, atomic_xor, atomic_integer)
#undef GPULAB_SIM_ATOMIC_FORMS

// atomicX, atomicX_block and atomicX_system for the operations with one signature each.
#define GPULAB_SIM_ATOMIC_FORM(suffix, scope)                                                                   \
  GPULAB_SIM_VARIANT_LINKAGE inline unsigned atomicInc##suffix(unsigned* address, unsigned val) {               \
    return gpulab::sim::detail::atomic_inc<gpulab::sim::detail::AtomicScope::scope>(address, val);              \
  }                                                                                                             \
  GPULAB_SIM_VARIANT_LINKAGE inline unsigned atomicDec##suffix(unsigned* address, unsigned val) {               \
    return gpulab::sim::detail::atomic_dec<gpulab::sim::detail::AtomicScope::scope>(address, val);              \
  }                                                                                                             \
  GPULAB_SIM_VARIANT_LINKAGE inline float2 atomicAdd##suffix(float2* address, float2 val) {                     \
    return gpulab::sim::detail::atomic_add_vector<gpulab::sim::detail::AtomicScope::scope>(address, val);       \
  }                                                                                                             \
  GPULAB_SIM_VARIANT_LINKAGE inline float4 atomicAdd##suffix(float4* address, float4 val) {                     \
    return gpulab::sim::detail::atomic_add_vector<gpulab::sim::detail::AtomicScope::scope>(address, val);       \
  }                                                                                                             \
  template <class T>                                                                                            \
    requires gpulab::sim::detail::atomic_arithmetic<T>                                                          \
  GPULAB_SIM_VARIANT_LINKAGE inline T atomicCAS##suffix(T* address, std::type_identity_t<T> compare,          \
                                                        std::type_identity_t<T> val) {                      \
    return gpulab::sim::detail::atomic_compare_swap<T>(address, compare, val,                                   \
                                                       gpulab::sim::detail::AtomicScope::scope);                \
  }                                                                                                             \
  template <class T>                                                                                            \
    requires(gpulab::sim::detail::atomic_128_bit<T> && !gpulab::sim::detail::atomic_arithmetic<T>)              \
  GPULAB_SIM_VARIANT_LINKAGE inline T atomicCAS##suffix(T*, T, T) {                                             \
    static_assert(sizeof(T) == 0, "gpulab sim: 128-bit atomicCAS" #suffix " (sm_90) is not supported");         \
    return T{};                                                                                                 \
  }                                                                                                             \
  template <class T>                                                                                            \
    requires(gpulab::sim::detail::atomic_128_bit<T> && !gpulab::sim::detail::atomic_arithmetic<T>)              \
  GPULAB_SIM_VARIANT_LINKAGE inline T atomicExch##suffix(T*, T) {                                               \
    static_assert(sizeof(T) == 0, "gpulab sim: 128-bit atomicExch" #suffix " (sm_90) is not supported");        \
    return T{};                                                                                                 \
  }

GPULAB_SIM_ATOMIC_FORM(, device)
GPULAB_SIM_ATOMIC_FORM(_block, block)
GPULAB_SIM_ATOMIC_FORM(_system, system)
#undef GPULAB_SIM_ATOMIC_FORM

// sm_70's 16-bit compare-and-swap (device scope only, as in CUDA).
GPULAB_SIM_VARIANT_LINKAGE inline unsigned short atomicCAS(unsigned short* address, unsigned short compare,
                                                           unsigned short val) {
  return gpulab::sim::detail::atomic_compare_swap(address, compare, val, gpulab::sim::detail::AtomicScope::device);
}
