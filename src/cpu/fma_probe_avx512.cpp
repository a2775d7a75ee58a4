// The measured FMA loop (compiled with AVX-512 flags; see src/cpu/CMakeLists.txt). Sixteen independent
// accumulators cover the FMA latency on two pipes, so the loop runs at the FMA throughput: one 512-bit
// FMA a cycle where AVX-512 is split over two 256-bit units (Zen 4), two where the units are 512 bits
// wide (Zen 5, most AVX-512 Xeons).
#include <immintrin.h>

#include "cpu/cpu_probe.hpp"

namespace gpulab::cpu::detail {

float run_avx512_fma_loop(long iterations) {
  constexpr int chains = 16;
  __m512 acc[chains];
#pragma GCC unroll 16
  for (int j = 0; j < chains; ++j) acc[j] = _mm512_set1_ps(1.0f + 0.001f * static_cast<float>(j));
  const __m512 scale = _mm512_set1_ps(0.9999999f);
  const __m512 shift = _mm512_set1_ps(1e-7f);
  for (long i = 0; i < iterations; ++i) {
#pragma GCC unroll 16
    for (int j = 0; j < chains; ++j) acc[j] = _mm512_fmadd_ps(acc[j], scale, shift);
  }
  __m512 sum = acc[0];
#pragma GCC unroll 16
  for (int j = 1; j < chains; ++j) sum = _mm512_add_ps(sum, acc[j]);
  // (Not _mm512_reduce_add_ps: g++ 12's header trips -Wuninitialized in it.)
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, sum);
  float total = 0;
  for (float x : lanes) total += x;
  return total;
}

}  // namespace gpulab::cpu::detail
