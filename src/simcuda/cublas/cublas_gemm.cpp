// The product behind the simulator's gemms (cublas_gemm.hpp).
#include "simcuda/cublas/cublas_gemm.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include <gpulab/cpu/gemm.hpp>

namespace gpulab::sim::cublas {

float round_input(float x, InputRounding rounding) {
  if (rounding == InputRounding::none || !std::isfinite(x)) return x;
  if (rounding == InputRounding::fp16) return static_cast<float>(static_cast<_Float16>(x));
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  if (rounding == InputRounding::tf32) {
    u = (u + 0x1000u) & 0xffffe000u;  // half of the dropped 13 bits' weight, then truncate: ties away
  } else {
    u = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;  // to nearest even at bit 16
  }
  std::memcpy(&x, &u, 4);
  return x;
}

InputRounding rounding_for_math_mode(cublasMath_t mode) {
  switch (static_cast<int>(mode) & 0xf) {
    case CUBLAS_TF32_TENSOR_OP_MATH:
      return InputRounding::tf32;
    case CUBLAS_TENSOR_OP_MATH:  // cuBLAS: the same as CUBLAS_COMPUTE_32F_FAST_16F
      return InputRounding::fp16;
    default:
      return InputRounding::none;
  }
}

GemmShape check_gemm(cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, int lda, int ldb,
                     int ldc) {
  GemmShape s{parse_op(transa, "transa"), parse_op(transb, "transb"), m, n, k, lda, ldb, ldc};
  require(m >= 0 && n >= 0 && k >= 0,
          [&] { return fmt::format("m = {}, n = {}, k = {}: none may be negative", m, n, k); });
  require_ld(lda, s.rows_a(), "lda", s.opa.transpose ? "k" : "m");
  require_ld(ldb, s.rows_b(), "ldb", s.opb.transpose ? "n" : "k");
  require_ld(ldc, m, "ldc", "m");
  return s;
}

void check_batch(int batch_count) {
  require(batch_count >= 0, [&] { return fmt::format("batchCount = {} is negative", batch_count); });
}

void declare_gemm(HostTaskAccess& access, const GemmShape& s, bool alpha_zero, bool beta_zero, const void* a,
                  std::size_t elem_a, const void* b, std::size_t elem_b, void* c, std::size_t elem_c) {
  if (!alpha_zero && s.k > 0) {
    access.read(matrix_region(a, s.rows_a(), s.cols_a(), s.lda, elem_a, "A"));
    access.read(matrix_region(b, s.rows_b(), s.cols_b(), s.ldb, elem_b, "B"));
  }
  const DeviceRegion rc = matrix_region(c, s.m, s.n, s.ldc, elem_c, "C");
  if (!beta_zero) access.read(rc);
  access.write(rc);
}

namespace {

// op(X) of a stored column-major matrix, as a view gpulab's CPU GEMM takes (a transpose is a view).
template <class T>
gpulab::matrix_view<const T> op_view(const T* p, int rows, int cols, int ld, bool transpose) {
  const gpulab::matrix_view<const T> stored(p, rows, cols, ld, gpulab::host_space, gpulab::Layout::col_major);
  return transpose ? stored.transposed() : stored;
}

// A copy of the stored matrix with its inputs rounded, compact (ld = rows).
std::vector<float> rounded_copy(const float* p, int rows, int cols, int ld, InputRounding rounding) {
  std::vector<float> out(static_cast<std::size_t>(rows) * cols);
  for (int j = 0; j < cols; ++j) {
    for (int i = 0; i < rows; ++i) {
      out[static_cast<std::size_t>(j) * rows + i] = round_input(p[static_cast<long long>(j) * ld + i], rounding);
    }
  }
  return out;
}

template <class T>
void scale_c(const GemmShape& s, T beta, T* c) {
  for (int j = 0; j < s.n; ++j) {
    for (int i = 0; i < s.m; ++i) {
      T& cij = c[static_cast<long long>(j) * s.ldc + i];
      cij = beta == T(0) ? T(0) : beta * cij;
    }
  }
}

// Complex products (and anything conjugated): the plain loops, column by column of C. The simulator's
// complex gemm is correct, not fast.
template <class T>
void gemm_loops(const GemmShape& s, T alpha, const T* a, const T* b, T beta, T* c) {
  auto op_a = [&](int i, int l) {
    const T v = s.opa.transpose ? a[static_cast<long long>(i) * s.lda + l] : a[static_cast<long long>(l) * s.lda + i];
    return conj_if(v, s.opa.conjugate);
  };
  auto op_b = [&](int l, int j) {
    const T v = s.opb.transpose ? b[static_cast<long long>(l) * s.ldb + j] : b[static_cast<long long>(j) * s.ldb + l];
    return conj_if(v, s.opb.conjugate);
  };
  std::vector<T> column(static_cast<std::size_t>(s.m));
  for (int j = 0; j < s.n; ++j) {
    std::fill(column.begin(), column.end(), T{});
    for (int l = 0; l < s.k; ++l) {
      const T blj = op_b(l, j);
      for (int i = 0; i < s.m; ++i) column[i] += op_a(i, l) * blj;
    }
    for (int i = 0; i < s.m; ++i) {
      T& cij = c[static_cast<long long>(j) * s.ldc + i];
      cij = beta == T(0) ? alpha * column[i] : alpha * column[i] + beta * cij;
    }
  }
}

}  // namespace

template <class T>
void gemm_compute(const GemmShape& s, T alpha, const T* a, const T* b, T beta, T* c, InputRounding rounding) {
  if (s.m == 0 || s.n == 0) return;
  if (alpha == T(0) || s.k == 0) {
    scale_c(s, beta, c);
    return;
  }
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, std::int32_t>) {
    const gpulab::matrix_view<T> vc(c, s.m, s.n, s.ldc, gpulab::host_space, gpulab::Layout::col_major);
    if constexpr (std::is_same_v<T, float>) {
      if (rounding != InputRounding::none) {
        const auto ra = rounded_copy(a, s.rows_a(), s.cols_a(), s.lda, rounding);
        const auto rb = rounded_copy(b, s.rows_b(), s.cols_b(), s.ldb, rounding);
        gpulab::cpu::gemm<float>(op_view(ra.data(), s.rows_a(), s.cols_a(), s.rows_a(), s.opa.transpose),
                                 op_view(rb.data(), s.rows_b(), s.cols_b(), s.rows_b(), s.opb.transpose), vc, alpha,
                                 beta);
        return;
      }
    }
    gpulab::cpu::gemm<T>(op_view(a, s.rows_a(), s.cols_a(), s.lda, s.opa.transpose),
                         op_view(b, s.rows_b(), s.cols_b(), s.ldb, s.opb.transpose), vc, alpha, beta);
  } else {
    (void)rounding;
    gemm_loops(s, alpha, a, b, beta, c);
  }
}

template void gemm_compute<float>(const GemmShape&, float, const float*, const float*, float, float*, InputRounding);
template void gemm_compute<double>(const GemmShape&, double, const double*, const double*, double, double*,
                                   InputRounding);
template void gemm_compute<std::int32_t>(const GemmShape&, std::int32_t, const std::int32_t*, const std::int32_t*,
                                         std::int32_t, std::int32_t*, InputRounding);
template void gemm_compute<std::complex<float>>(const GemmShape&, std::complex<float>, const std::complex<float>*,
                                                const std::complex<float>*, std::complex<float>, std::complex<float>*,
                                                InputRounding);
template void gemm_compute<std::complex<double>>(const GemmShape&, std::complex<double>, const std::complex<double>*,
                                                 const std::complex<double>*, std::complex<double>,
                                                 std::complex<double>*, InputRounding);

}  // namespace gpulab::sim::cublas
