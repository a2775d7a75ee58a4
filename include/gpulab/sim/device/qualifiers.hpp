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

// The simulator compiles a kernel file twice, plain and instrumented, into one library or program, and
// the device headers' inline functions differ between the two (an atomic tells the checks of itself only
// when instrumented). Unoptimised, such functions are not inlined, and the linker would keep one copy
// of each for both compilations; so their internals live in an inline namespace of their compilation's
// own (GPULAB_SIM_VARIANT_BEGIN ... END), and the CUDA-named functions that call them are `static`
// (GPULAB_SIM_VARIANT_LINKAGE), one copy per file.
#if defined(GPULAB_SIM_CHECKED)
#define GPULAB_SIM_VARIANT_BEGIN inline namespace instrumented {
#else
#define GPULAB_SIM_VARIANT_BEGIN inline namespace plain {
#endif
#define GPULAB_SIM_VARIANT_END }
#define GPULAB_SIM_VARIANT_LINKAGE static

constexpr int warpSize = 32;

