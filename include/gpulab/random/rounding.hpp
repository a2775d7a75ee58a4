#pragma once
// Floating-point operations with their rounding pinned, for code that must give the same bits on the
// host, in the simulator and on a GPU (gpulab's random transforms).
//
// Why it is needed: nvcc fuses a * b + c into one FMA by default, and g++ does too when the target has
// FMA (-march=native) and -ffp-contract is not off, which is the default in C++. A fused multiply-add
// rounds once, the separate pair twice, so the two compilers would disagree in the last bit.
//   - In device code each operation is CUDA's explicitly rounded intrinsic (__fmul_rn, __fadd_rn, ...),
//     which the compiler never contracts.
//   - On the host (and in the simulator, which is host code) the product passes through an empty asm
//     statement that the optimiser cannot see through, so there is no multiply left for it to fuse with
//     the add. This holds whatever -ffp-contract says, which `#pragma STDC FP_CONTRACT OFF` (ignored by
//     g++) would not guarantee.
// Division and square root are correctly rounded by IEEE 754 on both sides (and pinned with _rn under
// nvcc, so --use_fast_math cannot change them).
#include <cmath>
#include <cstdint>
#include <cstring>

#include <gpulab/kernel_qualifiers.hpp>

namespace gpulab::random::detail {

GPULAB_HD inline float opaque(float x) {
#if !defined(__CUDA_ARCH__) && defined(__GNUC__) && defined(__x86_64__)
  __asm__("" : "+x"(x));
#elif !defined(__CUDA_ARCH__) && defined(__GNUC__) && defined(__aarch64__)
  __asm__("" : "+w"(x));
#elif !defined(__CUDA_ARCH__)
  volatile float v = x;
  x = v;
#endif
  return x;
}

GPULAB_HD inline float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return opaque(a * b);
#endif
}

GPULAB_HD inline float add_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return opaque(a + b);
#endif
}

GPULAB_HD inline float sub_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fsub_rn(a, b);
#else
  return opaque(a - b);
#endif
}

GPULAB_HD inline float div_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return opaque(a / b);
#endif
}

GPULAB_HD inline float sqrt_rn(float a) {
#if defined(__CUDA_ARCH__)
  return __fsqrt_rn(a);
#else
  return opaque(std::sqrt(a));
#endif
}

GPULAB_HD inline std::uint32_t float_bits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}

GPULAB_HD inline float bits_float(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
#endif
}

}  // namespace gpulab::random::detail
