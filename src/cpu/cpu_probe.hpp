#pragma once
// Short loops that tell what CPUID cannot: the core clock and the FMA throughput. The timing lives in
// cpu_info.cpp; the AVX-512 loop lives in its own file with AVX-512 flags, and uses no standard-library
// templates there, so no inline function compiled for AVX-512 can be picked by the linker for others.
namespace gpulab::cpu::detail {

#if defined(__x86_64__)
// `iterations` rounds of 16 independent 512-bit FMAs. Call it only when the CPU has AVX-512.
// Returns a value derived from the results, so the loop cannot be removed.
float run_avx512_fma_loop(long iterations);
#endif

}  // namespace gpulab::cpu::detail
