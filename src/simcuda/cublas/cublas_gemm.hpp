#pragma once
// The matrix product behind every gemm of the simulator's cuBLAS (gemm, its batched forms, gemmEx,
// Hgemm): argument checks as cuBLAS makes them, the regions the product touches, and the product itself
// on gpulab's CPU GEMM (cpu-packed) for real types, so a simulated cublasSgemm runs at CPU-BLAS speed.
#include "simcuda/cublas/cublas_context.hpp"
#include "simcuda/cublas/cublas_numeric.hpp"

namespace gpulab::sim::cublas {

// What a GPU's reduced-precision modes do to a single-precision product's inputs before multiplying:
// TF32 keeps 10 bits of mantissa (rounded to nearest, ties away, as cvt.rna.tf32.f32 does), the FAST_16F
// and FAST_16BF compute types round to half and bfloat16 (to nearest even). Products still accumulate in
// float.
enum class InputRounding { none, tf32, fp16, bf16 };
float round_input(float x, InputRounding rounding);
// The rounding a single-precision routine (cublasSgemm, ...) gets from the handle's math mode.
InputRounding rounding_for_math_mode(cublasMath_t mode);

struct GemmShape {
  Op opa, opb;
  int m = 0, n = 0, k = 0;
  int lda = 0, ldb = 0, ldc = 0;
  // The stored shapes: A is rows_a x cols_a, B rows_b x cols_b (column-major).
  int rows_a() const { return opa.transpose ? k : m; }
  int cols_a() const { return opa.transpose ? m : k; }
  int rows_b() const { return opb.transpose ? n : k; }
  int cols_b() const { return opb.transpose ? k : n; }
};

// cuBLAS's checks of a gemm: transposes, m, n, k >= 0, lda >= max(1, rows of stored A), ldb likewise,
// ldc >= max(1, m). Throws StatusError(CUBLAS_STATUS_INVALID_VALUE) naming the argument.
GemmShape check_gemm(cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, int lda, int ldb,
                     int ldc);
void check_batch(int batch_count);

// C = alpha op(A) op(B) + beta C on memory already declared to the checks. alpha = 0 (or k = 0) reads
// neither A nor B, and beta = 0 never reads C, as BLAS specifies.
template <class T>
void gemm_compute(const GemmShape& s, T alpha, const T* a, const T* b, T beta, T* c,
                  InputRounding rounding = InputRounding::none);

// Declares what gemm_compute will touch for these scalars: A and B read unless alpha = 0 or k = 0, C read
// unless beta = 0, C written.
void declare_gemm(HostTaskAccess& access, const GemmShape& s, bool alpha_zero, bool beta_zero, const void* a,
                  std::size_t elem_a, const void* b, std::size_t elem_b, void* c, std::size_t elem_c);

}  // namespace gpulab::sim::cublas
