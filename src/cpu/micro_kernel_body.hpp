#pragma once
// The one micro-kernel, written once over a vector type V. Each ISA file instantiates it with its own
// V (a struct in an anonymous namespace, so every instantiation stays local to that file and its ISA
// flags) and its own register tile: MR rows of C broadcast from packed A, NV vectors of V::width
// columns loaded from packed B. MR * NV accumulators stay in registers for the whole k loop; C is read
// and written once per call.
//
// V provides: scalar, reg, width, zero(), load(p), broadcast(p), fma(a, b, c) = a * b + c, mul(a, b),
// store(p, r).
#include <cstdint>

namespace gpulab::cpu::detail {

template <class V, int MR, int NV>
void micro_kernel(std::int64_t kc, const typename V::scalar* __restrict__ a, const typename V::scalar* __restrict__ b,
                  typename V::scalar* __restrict__ c, std::int64_t ldc, typename V::scalar alpha,
                  typename V::scalar beta) {
  using T = typename V::scalar;
  using R = typename V::reg;
  constexpr int W = V::width;
  constexpr int NR = NV * W;

  R acc[MR][NV];
#pragma GCC unroll 32
  for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[i][v] = V::zero();
  }
  // C is needed only at the end: start bringing its rows in now, behind the arithmetic.
#pragma GCC unroll 32
  for (int i = 0; i < MR; ++i) {
    __builtin_prefetch(c + i * ldc, 1);
    __builtin_prefetch(c + i * ldc + NR - 1, 1);
  }

#pragma GCC unroll 4
  for (std::int64_t k = 0; k < kc; ++k) {
    R bv[NV];
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) bv[v] = V::load(b + v * W);
#pragma GCC unroll 32
    for (int i = 0; i < MR; ++i) {
      const R ai = V::broadcast(a + i);
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) acc[i][v] = V::fma(ai, bv[v], acc[i][v]);
    }
    a += MR;
    b += NR;
  }

  const R va = V::broadcast(&alpha);
  if (beta == T{0}) {
#pragma GCC unroll 32
    for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) V::store(c + i * ldc + v * W, V::mul(va, acc[i][v]));
    }
  } else {
    const R vb = V::broadcast(&beta);
#pragma GCC unroll 32
    for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) {
        T* p = c + i * ldc + v * W;
        V::store(p, V::fma(vb, V::load(p), V::mul(va, acc[i][v])));
      }
    }
  }
}

}  // namespace gpulab::cpu::detail
