#pragma once
// The one micro-kernel, written once over a vector type V. Each ISA file instantiates it with its own
// V (a struct in an anonymous namespace, so every instantiation stays local to that file and its ISA
// flags) and its own register tile: MR rows of C broadcast from packed A, NV vectors of V::width
// columns loaded from packed B. MR * NV accumulators stay in registers for the whole k loop; C is read
// and written once per call. `a_next` is the A micro-panel the caller will use next (or this one).
//
// V provides: scalar, reg, width, zero(), load(p), broadcast(p), fma(a, b, c) = a * b + c, mul(a, b),
// store(p, r).
#include <cstdint>

namespace gpulab::cpu::detail {

// One k step: NV vectors of B, MR broadcasts of A, MR * NV FMAs.
template <class V, int MR, int NV>
inline __attribute__((always_inline)) void micro_step(typename V::reg (&acc)[MR][NV],
                                                      const typename V::scalar* __restrict__ a,
                                                      const typename V::scalar* __restrict__ b) {
  typename V::reg bv[NV];
#pragma GCC unroll 8
  for (int v = 0; v < NV; ++v) bv[v] = V::load(b + v * V::width);
#pragma GCC unroll 32
  for (int i = 0; i < MR; ++i) {
    const typename V::reg ai = V::broadcast(a + i);
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[i][v] = V::fma(ai, bv[v], acc[i][v]);
  }
}

template <class V, int MR, int NV>
void micro_kernel(std::int64_t kc, const typename V::scalar* __restrict__ a, const typename V::scalar* __restrict__ b,
                  typename V::scalar* __restrict__ c, std::int64_t ldc, typename V::scalar alpha,
                  typename V::scalar beta, const typename V::scalar* a_next) {
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

  // The first MR steps each prefetch one row of the C tile, which is read only at the end: spread out
  // rather than all at once, so the prefetches do not take every miss buffer from the B stream. Every
  // step also prefetches a line of the next A micro-panel (into L2), so it is near when its turn comes.
  std::int64_t k = 0;
  const std::int64_t k_prefetch = kc < MR ? kc : MR;
  for (; k < k_prefetch; ++k) {
    __builtin_prefetch(c + k * ldc, 1, 3);
    __builtin_prefetch(c + k * ldc + NR - 1, 1, 3);
    __builtin_prefetch(a_next + k * MR, 0, 2);
    micro_step<V, MR, NV>(acc, a, b);
    a += MR;
    b += NR;
  }
#pragma GCC unroll 4
  for (; k < kc; ++k) {
    __builtin_prefetch(a_next + k * MR, 0, 2);
    micro_step<V, MR, NV>(acc, a, b);
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
