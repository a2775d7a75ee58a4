// cuBLAS level 2 on the simulator: matrix-vector operations on column-major matrices (gemv, ger,
// symv, trsv), validated as cuBLAS validates them, each one task on the handle's stream.
#include <fmt/format.h>

#include "simcuda/cublas/cublas_context.hpp"
#include "simcuda/cublas/cublas_numeric.hpp"
#include "simcuda/cublas/cublas_triangular.hpp"

namespace gpulab::sim::cublas {

namespace {

void require_inc(int inc, const char* name) {
  require(inc != 0, [&] { return fmt::format("{} is 0", name); });
}

void require_size(int v, const char* name) {
  require(v >= 0, [&] { return fmt::format("{} = {} is negative", name, v); });
}

// y = alpha op(A) x + beta y; beta = 0 never reads y.
template <class C>
cublasStatus_t gemv_call(const char* call, cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                         const C* alpha, const C* A, int lda, const C* x, int incx, const C* beta, C* y, int incy) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    const Op op = parse_op(trans, "trans");
    require_size(m, "m");
    require_size(n, "n");
    require_ld(lda, m, "lda", "m");
    require_inc(incx, "incx");
    require_inc(incy, "incy");
    const Scalar<T> a(ctx, elements(alpha), "alpha"), b(ctx, elements(beta), "beta");
    if (m == 0 || n == 0) return;
    const T* ea = elements(A);
    const T* ex = elements(x);
    T* ey = elements(y);
    const int lx = op.transpose ? m : n, ly = op.transpose ? n : m;
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      const T av = a.get(access), bv = b.get(access);
      const DeviceRegion ry = vector_region(ey, ly, incy, sizeof(T), "y");
      if (bv != T(0)) access.read(ry);
      if (av != T(0)) {
        access.read(matrix_region(ea, m, n, lda, sizeof(T), "A"));
        access.read(vector_region(ex, lx, incx, sizeof(T), "x"));
      }
      access.write(ry);
      for (int i = 0; i < ly; ++i) {
        T sum{};
        if (av != T(0)) {
          for (int j = 0; j < lx; ++j) {
            const T aij = op.transpose ? ea[static_cast<long long>(i) * lda + j] : ea[static_cast<long long>(j) * lda + i];
            sum += conj_if(aij, op.conjugate) * at(ex, j, lx, incx);
          }
        }
        T& yi = at(ey, i, ly, incy);
        yi = bv == T(0) ? av * sum : av * sum + bv * yi;
      }
    });
  });
}

// A += alpha x y^T (or y^H).
template <class C>
cublasStatus_t ger_call(const char* call, cublasHandle_t handle, int m, int n, const C* alpha, const C* x, int incx,
                        const C* y, int incy, C* A, int lda, bool conjugate) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    require_size(m, "m");
    require_size(n, "n");
    require_inc(incx, "incx");
    require_inc(incy, "incy");
    require_ld(lda, m, "lda", "m");
    const Scalar<T> a(ctx, elements(alpha), "alpha");
    if (m == 0 || n == 0) return;
    const T* ex = elements(x);
    const T* ey = elements(y);
    T* ea = elements(A);
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      const T av = a.get(access);
      if (av == T(0)) return;
      access.read(vector_region(ex, m, incx, sizeof(T), "x"));
      access.read(vector_region(ey, n, incy, sizeof(T), "y"));
      const DeviceRegion ra = matrix_region(ea, m, n, lda, sizeof(T), "A");
      access.read(ra);
      access.write(ra);
      for (int j = 0; j < n; ++j) {
        const T t = av * conj_if(at(ey, j, n, incy), conjugate);
        for (int i = 0; i < m; ++i) ea[static_cast<long long>(j) * lda + i] += at(ex, i, m, incx) * t;
      }
    });
  });
}

// y = alpha A x + beta y with A symmetric, only its `uplo` triangle stored (and read).
template <class C>
cublasStatus_t symv_call(const char* call, cublasHandle_t handle, cublasFillMode_t uplo, int n, const C* alpha,
                         const C* A, int lda, const C* x, int incx, const C* beta, C* y, int incy) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    const bool upper = parse_upper(uplo, "uplo");
    require_size(n, "n");
    require_ld(lda, n, "lda", "n");
    require_inc(incx, "incx");
    require_inc(incy, "incy");
    const Scalar<T> a(ctx, elements(alpha), "alpha"), b(ctx, elements(beta), "beta");
    if (n == 0) return;
    const T* ea = elements(A);
    const T* ex = elements(x);
    T* ey = elements(y);
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      const T av = a.get(access), bv = b.get(access);
      const DeviceRegion ry = vector_region(ey, n, incy, sizeof(T), "y");
      if (bv != T(0)) access.read(ry);
      if (av != T(0)) {
        read_triangle(access, ea, n, lda, upper, sizeof(T), "A");
        access.read(vector_region(ex, n, incx, sizeof(T), "x"));
      }
      access.write(ry);
      auto aij = [&](int i, int j) {
        const bool stored = upper ? i <= j : i >= j;
        return stored ? ea[static_cast<long long>(j) * lda + i] : ea[static_cast<long long>(i) * lda + j];
      };
      for (int i = 0; i < n; ++i) {
        T sum{};
        for (int j = 0; av != T(0) && j < n; ++j) sum += aij(i, j) * at(ex, j, n, incx);
        T& yi = at(ey, i, n, incy);
        yi = bv == T(0) ? av * sum : av * sum + bv * yi;
      }
    });
  });
}

template <class C>
cublasStatus_t trsv_call(const char* call, cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,
                         cublasDiagType_t diag, int n, const C* A, int lda, C* x, int incx) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    const bool upper = parse_upper(uplo, "uplo");
    const Op op = parse_op(trans, "trans");
    const bool unit = parse_unit(diag);
    require_size(n, "n");
    require_ld(lda, n, "lda", "n");
    require_inc(incx, "incx");
    if (n == 0) return;
    const T* ea = elements(A);
    T* ex = elements(x);
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      read_triangle(access, ea, n, lda, upper, sizeof(T), "A");
      const DeviceRegion rx = vector_region(ex, n, incx, sizeof(T), "x");
      access.read(rx);
      access.write(rx);
      const Triangle<T> t{ea, lda, upper, unit, op};
      solve_triangular(t, n, [&](int i) -> T& { return at(ex, i, n, incx); });
    });
  });
}

}  // namespace

}  // namespace gpulab::sim::cublas

using namespace gpulab::sim::cublas;  // NOLINT: the API below is cuBLAS's, at global scope

extern "C" {

cublasStatus_t cublasSgemv_v2(cublasHandle_t h, cublasOperation_t t, int m, int n, const float* a, const float* A, int lda, const float* x, int incx, const float* b, float* y, int incy) { return gemv_call("cublasSgemv_v2", h, t, m, n, a, A, lda, x, incx, b, y, incy); }
cublasStatus_t cublasDgemv_v2(cublasHandle_t h, cublasOperation_t t, int m, int n, const double* a, const double* A, int lda, const double* x, int incx, const double* b, double* y, int incy) { return gemv_call("cublasDgemv_v2", h, t, m, n, a, A, lda, x, incx, b, y, incy); }
cublasStatus_t cublasCgemv_v2(cublasHandle_t h, cublasOperation_t t, int m, int n, const cuComplex* a, const cuComplex* A, int lda, const cuComplex* x, int incx, const cuComplex* b, cuComplex* y, int incy) { return gemv_call("cublasCgemv_v2", h, t, m, n, a, A, lda, x, incx, b, y, incy); }
cublasStatus_t cublasZgemv_v2(cublasHandle_t h, cublasOperation_t t, int m, int n, const cuDoubleComplex* a, const cuDoubleComplex* A, int lda, const cuDoubleComplex* x, int incx, const cuDoubleComplex* b, cuDoubleComplex* y, int incy) { return gemv_call("cublasZgemv_v2", h, t, m, n, a, A, lda, x, incx, b, y, incy); }

cublasStatus_t cublasSger_v2(cublasHandle_t h, int m, int n, const float* a, const float* x, int incx, const float* y, int incy, float* A, int lda) { return ger_call("cublasSger_v2", h, m, n, a, x, incx, y, incy, A, lda, false); }
cublasStatus_t cublasDger_v2(cublasHandle_t h, int m, int n, const double* a, const double* x, int incx, const double* y, int incy, double* A, int lda) { return ger_call("cublasDger_v2", h, m, n, a, x, incx, y, incy, A, lda, false); }
cublasStatus_t cublasCgeru_v2(cublasHandle_t h, int m, int n, const cuComplex* a, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* A, int lda) { return ger_call("cublasCgeru_v2", h, m, n, a, x, incx, y, incy, A, lda, false); }
cublasStatus_t cublasCgerc_v2(cublasHandle_t h, int m, int n, const cuComplex* a, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* A, int lda) { return ger_call("cublasCgerc_v2", h, m, n, a, x, incx, y, incy, A, lda, true); }
cublasStatus_t cublasZgeru_v2(cublasHandle_t h, int m, int n, const cuDoubleComplex* a, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* A, int lda) { return ger_call("cublasZgeru_v2", h, m, n, a, x, incx, y, incy, A, lda, false); }
cublasStatus_t cublasZgerc_v2(cublasHandle_t h, int m, int n, const cuDoubleComplex* a, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* A, int lda) { return ger_call("cublasZgerc_v2", h, m, n, a, x, incx, y, incy, A, lda, true); }

cublasStatus_t cublasSsymv_v2(cublasHandle_t h, cublasFillMode_t u, int n, const float* a, const float* A, int lda, const float* x, int incx, const float* b, float* y, int incy) { return symv_call("cublasSsymv_v2", h, u, n, a, A, lda, x, incx, b, y, incy); }
cublasStatus_t cublasDsymv_v2(cublasHandle_t h, cublasFillMode_t u, int n, const double* a, const double* A, int lda, const double* x, int incx, const double* b, double* y, int incy) { return symv_call("cublasDsymv_v2", h, u, n, a, A, lda, x, incx, b, y, incy); }
cublasStatus_t cublasCsymv_v2(cublasHandle_t h, cublasFillMode_t u, int n, const cuComplex* a, const cuComplex* A, int lda, const cuComplex* x, int incx, const cuComplex* b, cuComplex* y, int incy) { return symv_call("cublasCsymv_v2", h, u, n, a, A, lda, x, incx, b, y, incy); }
cublasStatus_t cublasZsymv_v2(cublasHandle_t h, cublasFillMode_t u, int n, const cuDoubleComplex* a, const cuDoubleComplex* A, int lda, const cuDoubleComplex* x, int incx, const cuDoubleComplex* b, cuDoubleComplex* y, int incy) { return symv_call("cublasZsymv_v2", h, u, n, a, A, lda, x, incx, b, y, incy); }

cublasStatus_t cublasStrsv_v2(cublasHandle_t h, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d, int n, const float* A, int lda, float* x, int incx) { return trsv_call("cublasStrsv_v2", h, u, t, d, n, A, lda, x, incx); }
cublasStatus_t cublasDtrsv_v2(cublasHandle_t h, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d, int n, const double* A, int lda, double* x, int incx) { return trsv_call("cublasDtrsv_v2", h, u, t, d, n, A, lda, x, incx); }
cublasStatus_t cublasCtrsv_v2(cublasHandle_t h, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d, int n, const cuComplex* A, int lda, cuComplex* x, int incx) { return trsv_call("cublasCtrsv_v2", h, u, t, d, n, A, lda, x, incx); }
cublasStatus_t cublasZtrsv_v2(cublasHandle_t h, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d, int n, const cuDoubleComplex* A, int lda, cuDoubleComplex* x, int incx) { return trsv_call("cublasZtrsv_v2", h, u, t, d, n, A, lda, x, incx); }

}  // extern "C"
