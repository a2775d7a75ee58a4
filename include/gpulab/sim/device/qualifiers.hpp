#pragma once
// CUDA's declaration qualifiers and constants for code compiled for the simulator (part of
// <gpulab/sim/device_runtime.hpp>, which kernel files get through <gpulab/kernel.hpp>).
//
// A kernel is an ordinary function; its threads are calls of it. __shared__ is per host thread, which is
// per block (see detail/engine_state.hpp). `extern __shared__ T x[];` has no g++ equivalent: use
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
#define GPULAB_SIM_UNCHECKED __attribute__((no_sanitize_address, no_sanitize_thread))
#else
#define GPULAB_SIM_UNCHECKED
#endif

constexpr int warpSize = 32;

