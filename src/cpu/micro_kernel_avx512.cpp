// AVX-512 micro-kernels (compiled with -mavx512f and friends; see src/cpu/CMakeLists.txt). 32 zmm
// registers: a 12 x 2-vector tile keeps 24 accumulators, 2 B vectors, and the A broadcasts folded into
// the FMAs as memory operands, so each k step is 24 FMAs against 14 loads.
#include <immintrin.h>

#include "cpu/micro_kernel.hpp"
#include "cpu/micro_kernel_body.hpp"

namespace gpulab::cpu::detail {
namespace {

struct F32x16 {
  using scalar = float;
  using reg = __m512;
  static constexpr int width = 16;
  static reg zero() { return _mm512_setzero_ps(); }
  static reg load(const float* p) { return _mm512_loadu_ps(p); }
  static reg broadcast(const float* p) { return _mm512_set1_ps(*p); }
  static reg fma(reg a, reg b, reg c) { return _mm512_fmadd_ps(a, b, c); }
  static reg mul(reg a, reg b) { return _mm512_mul_ps(a, b); }
  static void store(float* p, reg r) { _mm512_storeu_ps(p, r); }
};

struct F64x8 {
  using scalar = double;
  using reg = __m512d;
  static constexpr int width = 8;
  static reg zero() { return _mm512_setzero_pd(); }
  static reg load(const double* p) { return _mm512_loadu_pd(p); }
  static reg broadcast(const double* p) { return _mm512_set1_pd(*p); }
  static reg fma(reg a, reg b, reg c) { return _mm512_fmadd_pd(a, b, c); }
  static reg mul(reg a, reg b) { return _mm512_mul_pd(a, b); }
  static void store(double* p, reg r) { _mm512_storeu_pd(p, r); }
};

// Integer lanes wrap on overflow, like the generic kernel's unsigned arithmetic.
struct I32x16 {
  using scalar = std::int32_t;
  using reg = __m512i;
  static constexpr int width = 16;
  static reg zero() { return _mm512_setzero_si512(); }
  static reg load(const std::int32_t* p) { return _mm512_loadu_si512(p); }
  static reg broadcast(const std::int32_t* p) { return _mm512_set1_epi32(*p); }
  static reg fma(reg a, reg b, reg c) { return _mm512_add_epi32(_mm512_mullo_epi32(a, b), c); }
  static reg mul(reg a, reg b) { return _mm512_mullo_epi32(a, b); }
  static void store(std::int32_t* p, reg r) { _mm512_storeu_si512(p, r); }
};

}  // namespace

MicroKernelSet avx512_micro_kernels() {
  MicroKernelSet set;
  set.f32 = {12, 32, &micro_kernel<F32x16, 12, 2>};
  set.f64 = {12, 16, &micro_kernel<F64x8, 12, 2>};
  set.i32 = {12, 32, &micro_kernel<I32x16, 12, 2>};
  return set;
}

}  // namespace gpulab::cpu::detail
