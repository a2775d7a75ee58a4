// AVX2 + FMA micro-kernels (compiled with -mavx2 -mfma -mno-avx512f; see src/cpu/CMakeLists.txt). 16 ymm
// registers: a 6 x 2-vector tile keeps 12 accumulators, 2 B vectors and one A broadcast.
#include <immintrin.h>

#include "cpu/micro_kernel.hpp"
#include "cpu/micro_kernel_body.hpp"

namespace gpulab::cpu::detail {
namespace {

struct F32x8 {
  using scalar = float;
  using reg = __m256;
  static constexpr int width = 8;
  static reg zero() { return _mm256_setzero_ps(); }
  static reg load(const float* p) { return _mm256_loadu_ps(p); }
  static reg broadcast(const float* p) { return _mm256_broadcast_ss(p); }
  static reg fma(reg a, reg b, reg c) { return _mm256_fmadd_ps(a, b, c); }
  static reg mul(reg a, reg b) { return _mm256_mul_ps(a, b); }
  static void store(float* p, reg r) { _mm256_storeu_ps(p, r); }
};

struct F64x4 {
  using scalar = double;
  using reg = __m256d;
  static constexpr int width = 4;
  static reg zero() { return _mm256_setzero_pd(); }
  static reg load(const double* p) { return _mm256_loadu_pd(p); }
  static reg broadcast(const double* p) { return _mm256_broadcast_sd(p); }
  static reg fma(reg a, reg b, reg c) { return _mm256_fmadd_pd(a, b, c); }
  static reg mul(reg a, reg b) { return _mm256_mul_pd(a, b); }
  static void store(double* p, reg r) { _mm256_storeu_pd(p, r); }
};

struct I32x8 {
  using scalar = std::int32_t;
  using reg = __m256i;
  static constexpr int width = 8;
  static reg zero() { return _mm256_setzero_si256(); }
  static reg load(const std::int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static reg broadcast(const std::int32_t* p) { return _mm256_set1_epi32(*p); }
  static reg fma(reg a, reg b, reg c) { return _mm256_add_epi32(_mm256_mullo_epi32(a, b), c); }
  static reg mul(reg a, reg b) { return _mm256_mullo_epi32(a, b); }
  static void store(std::int32_t* p, reg r) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), r); }
};

}  // namespace

MicroKernelSet avx2_micro_kernels() {
  MicroKernelSet set;
  set.f32 = {6, 16, &micro_kernel<F32x8, 6, 2>};
  set.f64 = {6, 8, &micro_kernel<F64x4, 6, 2>};
  set.i32 = {6, 16, &micro_kernel<I32x8, 6, 2>};
  return set;
}

}  // namespace gpulab::cpu::detail
