#pragma once
// CUDA's device-side vocabulary for kernels compiled by the host compiler for gpulab's simulator
// (GPULAB_SIM defined, __CUDA_ARCH__ not). <gpulab/kernel.hpp> includes this; kernel files never do.
//
// What needs the scheduler (barriers, warp-synchronous intrinsics) calls into libgpulab's engine;
// everything else (atomics, bit and math intrinsics, vector types) is inline here.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

#include <math.h>

#include <gpulab/sim/thread_state.hpp>

// ---- qualifiers ------------------------------------------------------------------------------------
// A kernel is an ordinary function; its threads are calls of it. __shared__ is per host thread, which is
// per block (see thread_state.hpp). `extern __shared__ T x[];` has no g++ equivalent: use
// gpulab::dynamic_shared<T>() (kernel.hpp), which means the same under nvcc. __noinline__ is not
// defined: libstdc++ spells `__attribute__((__noinline__))`, which such a macro would break; write
// [[gnu::noinline]] instead.
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __shared__ thread_local
#define __constant__
#define __managed__

// `#pragma unroll` is CUDA's; g++ ignores it (gpulab's warning flags carry -Wno-unknown-pragmas, the
// only place that silences it).

#if defined(GPULAB_SIM_CHECKED)
// Functions that touch memory on the kernel's behalf but must not be seen by racecheck as plain
// accesses (atomics are ordered by definition): not instrumented, checked explicitly instead.
#define GPULAB_SIM_UNCHECKED __attribute__((no_sanitize_address))
#else
#define GPULAB_SIM_UNCHECKED
#endif

constexpr int warpSize = 32;

// ---- vector types, with CUDA's sizes and alignments ----------------------------------------------------
struct alignas(8) float2 { float x, y; };
struct float3 { float x, y, z; };
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(8) int2 { int x, y; };
struct int3 { int x, y, z; };
struct alignas(16) int4 { int x, y, z, w; };
struct alignas(8) uint2 { unsigned int x, y; };
struct alignas(16) uint4 { unsigned int x, y, z, w; };
struct alignas(16) double2 { double x, y; };
struct alignas(16) longlong2 { long long x, y; };

inline constexpr float2 make_float2(float x, float y) { return {x, y}; }
inline constexpr float3 make_float3(float x, float y, float z) { return {x, y, z}; }
inline constexpr float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
inline constexpr int2 make_int2(int x, int y) { return {x, y}; }
inline constexpr int3 make_int3(int x, int y, int z) { return {x, y, z}; }
inline constexpr int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
inline constexpr uint2 make_uint2(unsigned x, unsigned y) { return {x, y}; }
inline constexpr uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return {x, y, z}; }
inline constexpr uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return {x, y, z, w}; }
inline constexpr double2 make_double2(double x, double y) { return {x, y}; }
inline constexpr longlong2 make_longlong2(long long x, long long y) { return {x, y}; }

static_assert(sizeof(float4) == 16 && alignof(float4) == 16 && alignof(float2) == 8 && alignof(double2) == 16);

#include <gpulab/sim/engine_abi.hpp>
#include <gpulab/sim/fast_barrier.hpp>

// ---- barriers and fences ----------------------------------------------------------------------------------
inline void __syncthreads(const std::source_location where = std::source_location::current()) {
  if (gpulab::sim::detail::fast_barrier(where)) return;
  gpulab::sim::detail::block_barrier(gpulab::sim::detail::BarrierKind::plain, 0, where);
}
inline int __syncthreads_count(int predicate, const std::source_location where = std::source_location::current()) {
  return gpulab::sim::detail::block_barrier(gpulab::sim::detail::BarrierKind::count, predicate, where);
}
inline int __syncthreads_and(int predicate, const std::source_location where = std::source_location::current()) {
  return gpulab::sim::detail::block_barrier(gpulab::sim::detail::BarrierKind::all, predicate, where);
}
inline int __syncthreads_or(int predicate, const std::source_location where = std::source_location::current()) {
  return gpulab::sim::detail::block_barrier(gpulab::sim::detail::BarrierKind::any, predicate, where);
}
inline void __syncwarp(unsigned mask = 0xffffffffu, const std::source_location where = std::source_location::current()) {
  gpulab::sim::detail::warp_collective(gpulab::sim::detail::WarpOp::sync, mask, 0, 0, 32, where);
}
// A block's threads share one host thread, so ordering within a block needs only the compiler's fence;
// other blocks run on other host threads.
inline void __threadfence_block() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// ---- warp intrinsics ----------------------------------------------------------------------------------------
template <class T>
inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize,
                     const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return from_bits<T>(warp_collective(WarpOp::shfl_idx, mask, to_bits(var), static_cast<unsigned>(srcLane), width, where));
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                        const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return from_bits<T>(warp_collective(WarpOp::shfl_up, mask, to_bits(var), delta, width, where));
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                          const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return from_bits<T>(warp_collective(WarpOp::shfl_down, mask, to_bits(var), delta, width, where));
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize,
                         const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return from_bits<T>(warp_collective(WarpOp::shfl_xor, mask, to_bits(var), static_cast<unsigned>(laneMask), width, where));
}
inline unsigned __ballot_sync(unsigned mask, int predicate, const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return static_cast<unsigned>(warp_collective(WarpOp::ballot, mask, predicate != 0, 0, 32, where));
}
inline int __any_sync(unsigned mask, int predicate, const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return static_cast<int>(warp_collective(WarpOp::any, mask, predicate != 0, 0, 32, where));
}
inline int __all_sync(unsigned mask, int predicate, const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return static_cast<int>(warp_collective(WarpOp::all, mask, predicate != 0, 0, 32, where));
}
template <class T>
inline unsigned __match_any_sync(unsigned mask, T value, const std::source_location where = std::source_location::current()) {
  using namespace gpulab::sim::detail;
  return static_cast<unsigned>(warp_collective(WarpOp::match_any, mask, to_bits(value), 0, 32, where));
}
// The lanes that are executing this call together. A GPU reports the lanes that are converged here; the
// simulator, whose lanes take turns, waits until every other lane of the warp is blocked (at a barrier,
// a warp call, this call) or has exited, and returns the lanes waiting at this same call site. So
// `if (p) { m = __activemask(); }` gives the lanes where p holds, as a converged warp would.
inline unsigned __activemask(const std::source_location where = std::source_location::current()) {
  return gpulab::sim::detail::active_mask(where);
}

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

// ---- bit intrinsics ----------------------------------------------------------------------------------------
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
         __brev(static_cast<unsigned>(x >> 32));
}
// Reinterpretations of a value's bits (the CAS loops of float atomics use them).
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }

// ---- math --------------------------------------------------------------------------------------------------
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float __fdividef(float x, float y) { return x / y; }
inline float __expf(float x) { return std::exp(x); }
inline float __logf(float x) { return std::log(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __fmaf_rn(float x, float y, float z) { return std::fma(x, y, z); }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fadd_rn(float x, float y) { return x + y; }
inline double __fma_rn(double x, double y, double z) { return std::fma(x, y, z); }
// Clamps to [0, 1]; NaN becomes 0, as on the device.
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

// CUDA's global min/max overloads (integer ones compare in the type of the arguments).
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a < b ? b : a; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a < b ? b : a; }
inline unsigned min(int a, unsigned b) { return min(static_cast<unsigned>(a), b); }
inline unsigned min(unsigned a, int b) { return min(a, static_cast<unsigned>(b)); }
inline unsigned max(int a, unsigned b) { return max(static_cast<unsigned>(a), b); }
inline unsigned max(unsigned a, int b) { return max(a, static_cast<unsigned>(b)); }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a < b ? b : a; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a < b ? b : a; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }

template <class T>
inline T __ldg(const T* address) {
  return *address;
}

namespace gpulab::sim {
// This block's dynamic shared memory (the launch's shared_bytes), 16-byte aligned.
inline unsigned char* dynamic_shared_memory() { return detail::host_thread.dynamic_shared; }
}  // namespace gpulab::sim

#if defined(GPULAB_SIM_CHECKED)
#include <gpulab/sim/checked_hooks.hpp>
#endif
