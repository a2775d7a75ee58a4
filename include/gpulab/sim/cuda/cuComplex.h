#pragma once
// gpulab-simcc's shadow of CUDA's <cuComplex.h>: single and double complex numbers as float2 and
// double2, with CUDA's names, usable in host and device code, C and C++.
#ifndef CU_COMPLEX_H_
#define CU_COMPLEX_H_

#include <math.h>

#include "vector_types.h"

#ifdef __cplusplus
#define GPULAB_CUCOMPLEX_FN inline
extern "C" {
#else
#define GPULAB_CUCOMPLEX_FN static inline
#endif

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

// One precision's functions: the scaled division and hypot-style magnitude guard against overflow and
// underflow of the intermediate squares, as CUDA's do.
#define GPULAB_CUCOMPLEX_FUNCTIONS(C, T, sfx, fabsT, sqrtT)                                                  \
  GPULAB_CUCOMPLEX_FN T cuCreal##sfx(C x) { return x.x; }                                                     \
  GPULAB_CUCOMPLEX_FN T cuCimag##sfx(C x) { return x.y; }                                                     \
  GPULAB_CUCOMPLEX_FN C make_##C(T r, T i) {                                                                  \
    C z;                                                                                                      \
    z.x = r;                                                                                                  \
    z.y = i;                                                                                                  \
    return z;                                                                                                 \
  }                                                                                                           \
  GPULAB_CUCOMPLEX_FN C cuConj##sfx(C x) { return make_##C(x.x, -x.y); }                                      \
  GPULAB_CUCOMPLEX_FN C cuCadd##sfx(C x, C y) { return make_##C(x.x + y.x, x.y + y.y); }                      \
  GPULAB_CUCOMPLEX_FN C cuCsub##sfx(C x, C y) { return make_##C(x.x - y.x, x.y - y.y); }                      \
  GPULAB_CUCOMPLEX_FN C cuCmul##sfx(C x, C y) {                                                               \
    return make_##C(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);                                            \
  }                                                                                                           \
  GPULAB_CUCOMPLEX_FN C cuCdiv##sfx(C x, C y) {                                                               \
    const T s = fabsT(y.x) + fabsT(y.y);                                                                      \
    const T inv = (T)1 / s;                                                                                   \
    const T ars = x.x * inv, ais = x.y * inv, brs = y.x * inv, bis = y.y * inv;                               \
    const T scale = (T)1 / (brs * brs + bis * bis);                                                           \
    return make_##C((ars * brs + ais * bis) * scale, (ais * brs - ars * bis) * scale);                        \
  }                                                                                                           \
  GPULAB_CUCOMPLEX_FN T cuCabs##sfx(C x) {                                                                    \
    T a = fabsT(x.x), b = fabsT(x.y);                                                                         \
    const T big = a > b ? a : b, small = a > b ? b : a;                                                       \
    if (big == (T)0 || big + small == big) return big + small; /* zero, or small below big's last bit */   \
    const T q = small / big;                                                                                  \
    return big * sqrtT((T)1 + q * q);                                                                         \
  }                                                                                                           \
  /* x * y + d, each product rounded as CUDA's cuCfma does (fused where a fused multiply-add exists). */      \
  GPULAB_CUCOMPLEX_FN C cuCfma##sfx(C x, C y, C d) {                                                          \
    T re = x.x * y.x + d.x, im = x.x * y.y + d.y;                                                             \
    re = -(x.y * y.y) + re;                                                                                   \
    im = x.y * y.x + im;                                                                                      \
    return make_##C(re, im);                                                                                  \
  }

GPULAB_CUCOMPLEX_FUNCTIONS(cuFloatComplex, float, f, fabsf, sqrtf)
GPULAB_CUCOMPLEX_FUNCTIONS(cuDoubleComplex, double, , fabs, sqrt)
#undef GPULAB_CUCOMPLEX_FUNCTIONS

GPULAB_CUCOMPLEX_FN cuComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
GPULAB_CUCOMPLEX_FN cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex((double)c.x, (double)c.y);
}
GPULAB_CUCOMPLEX_FN cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex((float)c.x, (float)c.y);
}

#ifdef __cplusplus
}
#endif
#undef GPULAB_CUCOMPLEX_FN

#endif
