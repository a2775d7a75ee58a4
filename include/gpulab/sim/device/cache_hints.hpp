#pragma once
// CUDA's loads and stores with cache hints (__ldg, __ldcg, __ldca, __ldcs, __ldlu, __ldcv, __stcg,
// __stcs, __stwb, __stwt) for code compiled for the simulator (part of <gpulab/sim/device_runtime.hpp>).
// The simulator has no caches, so each is the plain access of its type, seen by memcheck, racecheck and
// initcheck like any other. __ldcv ("fetch again") and __stwt ("write through") also keep the compiler
// from reusing or delaying the access, so a loop polling memory with them sees other threads' writes,
// as the GPU's uncached accesses do; an __ldcv is a poll for the engine (detail/polls.hpp), so the
// polling thread steps aside for the threads that will write.
#include <cstddef>
#include <type_traits>

#pragma push_macro("GPULAB_INSIDE_PUBLIC_HEADER")
#undef GPULAB_INSIDE_PUBLIC_HEADER
#define GPULAB_INSIDE_PUBLIC_HEADER 1
#include <gpulab/sim/detail/polls.hpp>
#pragma pop_macro("GPULAB_INSIDE_PUBLIC_HEADER")

namespace gpulab::sim::cache_hints {

// CUDA declares the hints for its scalar and vector types of 1 to 16 bytes; any such value works here.
template <class T>
inline constexpr bool loadable = std::is_trivially_copyable_v<T> && !std::is_pointer_v<T> &&
                                 (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16);

template <class T>
inline T load(const T* address) {
  static_assert(loadable<T>, "CUDA's cache-hint loads (__ldg, __ldcg, __ldca, __ldcs, __ldlu, __ldcv) take a "
                             "scalar or vector type of 1, 2, 4, 8 or 16 bytes");
  return *address;
}
template <class T>
inline void store(T* address, T value) {
  static_assert(loadable<T>, "CUDA's cache-hint stores (__stcg, __stcs, __stwb, __stwt) take a scalar or vector "
                             "type of 1, 2, 4, 8 or 16 bytes");
  *address = value;
}
inline void compiler_fence() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

}  // namespace gpulab::sim::cache_hints

template <class T>
inline T __ldg(const T* address) {  // read-only data cache
  return gpulab::sim::cache_hints::load(address);
}
template <class T>
inline T __ldcg(const T* address) {  // cache globally (L2 only)
  return gpulab::sim::cache_hints::load(address);
}
template <class T>
inline T __ldca(const T* address) {  // cache at all levels
  return gpulab::sim::cache_hints::load(address);
}
template <class T>
inline T __ldcs(const T* address) {  // streaming, likely read once
  return gpulab::sim::cache_hints::load(address);
}
template <class T>
inline T __ldlu(const T* address) {  // last use
  return gpulab::sim::cache_hints::load(address);
}
template <class T>
inline T __ldcv(const T* address) {  // do not cache: fetch again
  gpulab::sim::cache_hints::compiler_fence();
  const T value = gpulab::sim::cache_hints::load(address);
  gpulab::sim::cache_hints::compiler_fence();
  gpulab::sim::detail::note_poll(address, value);
  return value;
}
template <class T>
inline void __stcg(T* address, std::type_identity_t<T> value) {
  gpulab::sim::cache_hints::store(address, value);
}
template <class T>
inline void __stcs(T* address, std::type_identity_t<T> value) {
  gpulab::sim::cache_hints::store(address, value);
}
template <class T>
inline void __stwb(T* address, std::type_identity_t<T> value) {
  gpulab::sim::cache_hints::store(address, value);
}
template <class T>
inline void __stwt(T* address, std::type_identity_t<T> value) {  // write through to system memory
  gpulab::sim::cache_hints::compiler_fence();
  gpulab::sim::cache_hints::store(address, value);
  gpulab::sim::cache_hints::compiler_fence();
}
