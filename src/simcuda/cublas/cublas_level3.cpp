// cuBLAS level 3 on the simulator: gemm in each precision and its batched forms (on gpulab's CPU GEMM,
// cublas_gemm.hpp), syrk, trsm and geam, validated as cuBLAS validates them, each call one task on the
// handle's stream.
#include <vector>

#include <fmt/format.h>

#include "simcuda/cublas/cublas_context.hpp"
#include "simcuda/cublas/cublas_gemm.hpp"
#include "simcuda/cublas/cublas_numeric.hpp"
#include "simcuda/cublas/cublas_triangular.hpp"

namespace gpulab::sim::cublas {

namespace {

template <class T>
InputRounding rounding_of(const cublasContext& ctx) {
  if constexpr (std::is_same_v<T, float>) {
    return rounding_for_math_mode(ctx.math_mode);
  } else {
    (void)ctx;
    return InputRounding::none;
  }
}

// One product of a (possibly batched) gemm, declared and computed inside the work.
template <class T>
void run_product(HostTaskAccess& access, const GemmShape& s, T alpha, const T* a, const T* b, T beta, T* c,
                 InputRounding rounding) {
  declare_gemm(access, s, alpha == T(0), beta == T(0), a, sizeof(T), b, sizeof(T), c, sizeof(T));
  gemm_compute(s, alpha, a, b, beta, c, rounding);
}

// Whether the call has nothing to do: an empty C, or C = 1 * C.
template <class T>
bool no_work(const GemmShape& s, const cublasContext& ctx, const T* alpha, const T* beta) {
  if (s.m == 0 || s.n == 0) return true;
  return ctx.pointer_mode == CUBLAS_POINTER_MODE_HOST && (*alpha == T(0) || s.k == 0) && *beta == T(1);
}

template <class C>
cublasStatus_t gemm_call(const char* call, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                         int m, int n, int k, const C* alpha, const C* A, int lda, const C* B, int ldb,
                         const C* beta, C* Cm, int ldc) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    const GemmShape s = check_gemm(transa, transb, m, n, k, lda, ldb, ldc);
    const Scalar<T> a(ctx, elements(alpha), "alpha"), b(ctx, elements(beta), "beta");
    if (no_work(s, ctx, elements(alpha), elements(beta))) return;
    const T* ea = elements(A);
    const T* eb = elements(B);
    T* ec = elements(Cm);
    const InputRounding rounding = rounding_of<T>(ctx);
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      run_product(access, s, a.get(access), ea, eb, b.get(access), ec, rounding);
    });
  });
}

template <class C>
cublasStatus_t gemm_strided_call(const char* call, cublasHandle_t handle, cublasOperation_t transa,
                                 cublasOperation_t transb, int m, int n, int k, const C* alpha, const C* A, int lda,
                                 long long stride_a, const C* B, int ldb, long long stride_b, const C* beta, C* Cm,
                                 int ldc, long long stride_c, int batch_count) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    const GemmShape s = check_gemm(transa, transb, m, n, k, lda, ldb, ldc);
    check_batch(batch_count);
    const Scalar<T> a(ctx, elements(alpha), "alpha"), b(ctx, elements(beta), "beta");
    if (batch_count == 0 || no_work(s, ctx, elements(alpha), elements(beta))) return;
    const T* ea = elements(A);
    const T* eb = elements(B);
    T* ec = elements(Cm);
    const InputRounding rounding = rounding_of<T>(ctx);
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      const T av = a.get(access), bv = b.get(access);
      for (int i = 0; i < batch_count; ++i) {
        run_product(access, s, av, ea + i * stride_a, eb + i * stride_b, bv, ec + i * stride_c, rounding);
      }
    });
  });
}

// The arrays of matrix pointers live in device memory: the work reads them (declared) and then each
// matrix they point to.
template <class C>
cublasStatus_t gemm_batched_call(const char* call, cublasHandle_t handle, cublasOperation_t transa,
                                 cublasOperation_t transb, int m, int n, int k, const C* alpha,
                                 const C* const A[], int lda, const C* const B[], int ldb, const C* beta,
                                 C* const Cm[], int ldc, int batch_count) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    const GemmShape s = check_gemm(transa, transb, m, n, k, lda, ldb, ldc);
    check_batch(batch_count);
    const Scalar<T> a(ctx, elements(alpha), "alpha"), b(ctx, elements(beta), "beta");
    if (batch_count == 0 || no_work(s, ctx, elements(alpha), elements(beta))) return;
    const InputRounding rounding = rounding_of<T>(ctx);
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      const T av = a.get(access), bv = b.get(access);
      const auto count = static_cast<std::size_t>(batch_count);
      if (av != T(0) && s.k > 0) {
        access.read(DeviceRegion{A, count * sizeof(void*), 1, 0, "Aarray"});
        access.read(DeviceRegion{B, count * sizeof(void*), 1, 0, "Barray"});
      }
      access.read(DeviceRegion{Cm, count * sizeof(void*), 1, 0, "Carray"});
      for (int i = 0; i < batch_count; ++i) {
        const bool reads_ab = av != T(0) && s.k > 0;
        run_product(access, s, av, reads_ab ? elements(A[i]) : nullptr, reads_ab ? elements(B[i]) : nullptr, bv,
                    elements(Cm[i]), rounding);
      }
    });
  });
}

// C = alpha op(A) op(A)^T + beta C on C's `uplo` triangle (the other is never touched).
template <class C>
cublasStatus_t syrk_call(const char* call, cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,
                         int n, int k, const C* alpha, const C* A, int lda, const C* beta, C* Cm, int ldc) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    const bool upper = parse_upper(uplo, "uplo");
    const Op op = parse_op(trans, "trans");
    require(!(is_complex_v<T> && op.conjugate),
            [] { return std::string("trans = CUBLAS_OP_C is not allowed for a complex syrk (that is herk)"); });
    require(n >= 0 && k >= 0, [&] { return fmt::format("n = {} and k = {} must not be negative", n, k); });
    const int rows_a = op.transpose ? k : n;
    require_ld(lda, rows_a, "lda", op.transpose ? "k" : "n");
    require_ld(ldc, n, "ldc", "n");
    const Scalar<T> a(ctx, elements(alpha), "alpha"), b(ctx, elements(beta), "beta");
    if (n == 0) return;
    const T* ea = elements(A);
    T* ec = elements(Cm);
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      const T av = a.get(access), bv = b.get(access);
      if (av != T(0) && k > 0) access.read(matrix_region(ea, rows_a, op.transpose ? n : k, lda, sizeof(T), "A"));
      if (bv != T(0)) read_triangle(access, ec, n, ldc, upper, sizeof(T), "C");
      for (int j = 0; j < n; ++j) {
        const int first = upper ? 0 : j, last = upper ? j : n - 1;
        access.write(DeviceRegion{ec + static_cast<long long>(j) * ldc + first,
                                  static_cast<std::size_t>(last - first + 1) * sizeof(T), 1, 0, "C"});
        for (int i = first; i <= last; ++i) {
          T sum{};
          for (int l = 0; av != T(0) && l < k; ++l) {
            const T ail = op.transpose ? ea[static_cast<long long>(i) * lda + l] : ea[static_cast<long long>(l) * lda + i];
            const T ajl = op.transpose ? ea[static_cast<long long>(j) * lda + l] : ea[static_cast<long long>(l) * lda + j];
            sum += ail * ajl;
          }
          T& cij = ec[static_cast<long long>(j) * ldc + i];
          cij = bv == T(0) ? av * sum : av * sum + bv * cij;
        }
      }
    });
  });
}

// B = alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right), in place: each column of B solves op(A) x = b,
// or each row solves op(A)^T x = b (X op(A) = B transposed).
template <class C>
cublasStatus_t trsm_call(const char* call, cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
                         cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const C* alpha, const C* A,
                         int lda, C* B, int ldb) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    const bool left = parse_left(side);
    const bool upper = parse_upper(uplo, "uplo");
    const Op op = parse_op(trans, "trans");
    const bool unit = parse_unit(diag);
    require(m >= 0 && n >= 0, [&] { return fmt::format("m = {} and n = {} must not be negative", m, n); });
    const int order = left ? m : n;
    require_ld(lda, order, "lda", left ? "m" : "n");
    require_ld(ldb, m, "ldb", "m");
    const Scalar<T> a(ctx, elements(alpha), "alpha");
    if (m == 0 || n == 0) return;
    const T* ea = elements(A);
    T* eb = elements(B);
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      const T av = a.get(access);
      const DeviceRegion rb = matrix_region(eb, m, n, ldb, sizeof(T), "B");
      if (av != T(0)) {
        read_triangle(access, ea, order, lda, upper, sizeof(T), "A");
        access.read(rb);
      }
      access.write(rb);
      auto b = [&](int i, int j) -> T& { return eb[static_cast<long long>(j) * ldb + i]; };
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < m; ++i) b(i, j) = av == T(0) ? T(0) : av * b(i, j);
      }
      if (av == T(0)) return;
      if (left) {
        const Triangle<T> t{ea, lda, upper, unit, op};
        for (int j = 0; j < n; ++j) solve_triangular(t, m, [&](int i) -> T& { return b(i, j); });
      } else {
        const Triangle<T> t{ea, lda, upper, unit, Op{!op.transpose, op.conjugate}};
        for (int i = 0; i < m; ++i) solve_triangular(t, n, [&](int j) -> T& { return b(i, j); });
      }
    });
  });
}

// C = alpha op(A) + beta op(B). In place only as cuBLAS allows: C may be A (or B) when that operand is
// not transposed and has C's leading dimension.
template <class C>
cublasStatus_t geam_call(const char* call, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                         int m, int n, const C* alpha, const C* A, int lda, const C* beta, const C* B, int ldb,
                         C* Cm, int ldc) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    const Op opa = parse_op(transa, "transa"), opb = parse_op(transb, "transb");
    require(m >= 0 && n >= 0, [&] { return fmt::format("m = {} and n = {} must not be negative", m, n); });
    const int rows_a = opa.transpose ? n : m, rows_b = opb.transpose ? n : m;
    require_ld(lda, rows_a, "lda", opa.transpose ? "n" : "m");
    require_ld(ldb, rows_b, "ldb", opb.transpose ? "n" : "m");
    require_ld(ldc, m, "ldc", "m");
    const void* c = Cm;
    require(c != A || (!opa.transpose && lda == ldc),
            [] { return std::string("C is A, so A must not be transposed and lda must equal ldc"); });
    require(c != B || (!opb.transpose && ldb == ldc),
            [] { return std::string("C is B, so B must not be transposed and ldb must equal ldc"); });
    const Scalar<T> a(ctx, elements(alpha), "alpha"), b(ctx, elements(beta), "beta");
    if (m == 0 || n == 0) return;
    const T* ea = elements(A);
    const T* eb = elements(B);
    T* ec = elements(Cm);
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      const T av = a.get(access), bv = b.get(access);
      if (av != T(0)) access.read(matrix_region(ea, rows_a, opa.transpose ? m : n, lda, sizeof(T), "A"));
      if (bv != T(0)) access.read(matrix_region(eb, rows_b, opb.transpose ? m : n, ldb, sizeof(T), "B"));
      access.write(matrix_region(ec, m, n, ldc, sizeof(T), "C"));
      auto op_at = [](const T* p, int ld, Op op, int i, int j) {
        return conj_if(op.transpose ? p[static_cast<long long>(i) * ld + j] : p[static_cast<long long>(j) * ld + i], op.conjugate);
      };
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < m; ++i) {
          T v{};
          if (av != T(0)) v += av * op_at(ea, lda, opa, i, j);
          if (bv != T(0)) v += bv * op_at(eb, ldb, opb, i, j);
          ec[static_cast<long long>(j) * ldc + i] = v;
        }
      }
    });
  });
}

// C = alpha op(A) B (left) or alpha B op(A) (right) for a triangular A: cuBLAS's out-of-place trmm (C
// may be B).
template <class C>
cublasStatus_t trmm_call(const char* call, cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
                         cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const C* alpha, const C* A,
                         int lda, const C* B, int ldb, C* Cm, int ldc) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    const bool left = parse_left(side);
    const bool upper = parse_upper(uplo, "uplo");
    const Op op = parse_op(trans, "trans");
    const bool unit = parse_unit(diag);
    require(m >= 0 && n >= 0, [&] { return fmt::format("m = {} and n = {} must not be negative", m, n); });
    const int order = left ? m : n;
    require_ld(lda, order, "lda", left ? "m" : "n");
    require_ld(ldb, m, "ldb", "m");
    require_ld(ldc, m, "ldc", "m");
    const Scalar<T> a(ctx, elements(alpha), "alpha");
    if (m == 0 || n == 0) return;
    const T* ea = elements(A);
    const T* eb = elements(B);
    T* ec = elements(Cm);
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      const T av = a.get(access);
      read_triangle(access, ea, order, lda, upper, sizeof(T), "A");
      access.read(matrix_region(eb, m, n, ldb, sizeof(T), "B"));
      access.write(matrix_region(ec, m, n, ldc, sizeof(T), "C"));
      const Triangle<T> t{ea, lda, upper, unit, op};
      auto tij = [&](int i, int j) {  // op(A)(i, j), zero outside its triangle
        const bool inside = t.solves_upper() ? i <= j : i >= j;
        if (!inside) return T(0);
        return i == j && unit ? T(1) : t(i, j);
      };
      std::vector<T> out(static_cast<std::size_t>(m) * n);  // C may be B: the product first, then C
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
          T sum{};
          if (left) {
            for (int l = 0; l < m; ++l) sum += tij(i, l) * eb[static_cast<long long>(j) * ldb + l];
          } else {
            for (int l = 0; l < n; ++l) sum += eb[static_cast<long long>(l) * ldb + i] * tij(l, j);
          }
          out[static_cast<std::size_t>(j) * m + i] = av * sum;
        }
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) ec[static_cast<long long>(j) * ldc + i] = out[static_cast<std::size_t>(j) * m + i];
    });
  });
}

// C = alpha A B + beta C (left) or alpha B A + beta C (right), A symmetric with its `uplo` triangle stored.
template <class C>
cublasStatus_t symm_call(const char* call, cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, int m,
                         int n, const C* alpha, const C* A, int lda, const C* B, int ldb, const C* beta, C* Cm, int ldc) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    const bool left = parse_left(side);
    const bool upper = parse_upper(uplo, "uplo");
    require(m >= 0 && n >= 0, [&] { return fmt::format("m = {} and n = {} must not be negative", m, n); });
    const int order = left ? m : n;
    require_ld(lda, order, "lda", left ? "m" : "n");
    require_ld(ldb, m, "ldb", "m");
    require_ld(ldc, m, "ldc", "m");
    const Scalar<T> a(ctx, elements(alpha), "alpha"), b(ctx, elements(beta), "beta");
    if (m == 0 || n == 0) return;
    const T* ea = elements(A);
    const T* eb = elements(B);
    T* ec = elements(Cm);
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      const T av = a.get(access), bv = b.get(access);
      if (av != T(0)) {
        read_triangle(access, ea, order, lda, upper, sizeof(T), "A");
        access.read(matrix_region(eb, m, n, ldb, sizeof(T), "B"));
      }
      const DeviceRegion rc = matrix_region(ec, m, n, ldc, sizeof(T), "C");
      if (bv != T(0)) access.read(rc);
      access.write(rc);
      auto sym = [&](int i, int j) {
        const bool stored = upper ? i <= j : i >= j;
        return stored ? ea[static_cast<long long>(j) * lda + i] : ea[static_cast<long long>(i) * lda + j];
      };
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
          T sum{};
          for (int l = 0; av != T(0) && l < order; ++l) {
            sum += left ? sym(i, l) * eb[static_cast<long long>(j) * ldb + l] : eb[static_cast<long long>(l) * ldb + i] * sym(l, j);
          }
          T& cij = ec[static_cast<long long>(j) * ldc + i];
          cij = bv == T(0) ? av * sum : av * sum + bv * cij;
        }
    });
  });
}

// C = A diag(x) (right) or diag(x) A (left).
template <class C>
cublasStatus_t dgmm_call(const char* call, cublasHandle_t handle, cublasSideMode_t mode, int m, int n, const C* A,
                         int lda, const C* x, int incx, C* Cm, int ldc) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    const bool left = parse_left(mode);
    require(m >= 0 && n >= 0, [&] { return fmt::format("m = {} and n = {} must not be negative", m, n); });
    require_ld(lda, m, "lda", "m");
    require_ld(ldc, m, "ldc", "m");
    if (m == 0 || n == 0) return;
    const T* ea = elements(A);
    const T* ex = elements(x);
    T* ec = elements(Cm);
    const int len = left ? m : n;
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      access.read(matrix_region(ea, m, n, lda, sizeof(T), "A"));
      access.read(vector_region(ex, len, incx, sizeof(T), "x"));
      access.write(matrix_region(ec, m, n, ldc, sizeof(T), "C"));
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
          const T d = at(ex, left ? i : j, len, incx);
          ec[static_cast<long long>(j) * ldc + i] = ea[static_cast<long long>(j) * lda + i] * d;
        }
    });
  });
}

}  // namespace

}  // namespace gpulab::sim::cublas

using namespace gpulab::sim::cublas;  // NOLINT: the API below is cuBLAS's, at global scope

#define GPULAB_GEMM_ARGS transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc
extern "C" {

cublasStatus_t cublasSgemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const float* alpha, const float* A, int lda, const float* B, int ldb, const float* beta, float* C, int ldc) { return gemm_call("cublasSgemm_v2", h, GPULAB_GEMM_ARGS); }
cublasStatus_t cublasDgemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const double* alpha, const double* A, int lda, const double* B, int ldb, const double* beta, double* C, int ldc) { return gemm_call("cublasDgemm_v2", h, GPULAB_GEMM_ARGS); }
cublasStatus_t cublasCgemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuComplex* alpha, const cuComplex* A, int lda, const cuComplex* B, int ldb, const cuComplex* beta, cuComplex* C, int ldc) { return gemm_call("cublasCgemm_v2", h, GPULAB_GEMM_ARGS); }
cublasStatus_t cublasZgemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* A, int lda, const cuDoubleComplex* B, int ldb, const cuDoubleComplex* beta, cuDoubleComplex* C, int ldc) { return gemm_call("cublasZgemm_v2", h, GPULAB_GEMM_ARGS); }

cublasStatus_t cublasSgemmBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const float* alpha, const float* const A[], int lda, const float* const B[], int ldb, const float* beta, float* const C[], int ldc, int count) { return gemm_batched_call("cublasSgemmBatched", h, GPULAB_GEMM_ARGS, count); }
cublasStatus_t cublasDgemmBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const double* alpha, const double* const A[], int lda, const double* const B[], int ldb, const double* beta, double* const C[], int ldc, int count) { return gemm_batched_call("cublasDgemmBatched", h, GPULAB_GEMM_ARGS, count); }
cublasStatus_t cublasCgemmBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuComplex* alpha, const cuComplex* const A[], int lda, const cuComplex* const B[], int ldb, const cuComplex* beta, cuComplex* const C[], int ldc, int count) { return gemm_batched_call("cublasCgemmBatched", h, GPULAB_GEMM_ARGS, count); }
cublasStatus_t cublasZgemmBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* const A[], int lda, const cuDoubleComplex* const B[], int ldb, const cuDoubleComplex* beta, cuDoubleComplex* const C[], int ldc, int count) { return gemm_batched_call("cublasZgemmBatched", h, GPULAB_GEMM_ARGS, count); }

#define GPULAB_STRIDED_ARGS transa, transb, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, count
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const float* alpha, const float* A, int lda, long long sa, const float* B, int ldb, long long sb, const float* beta, float* C, int ldc, long long sc, int count) { return gemm_strided_call("cublasSgemmStridedBatched", h, GPULAB_STRIDED_ARGS); }
cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const double* alpha, const double* A, int lda, long long sa, const double* B, int ldb, long long sb, const double* beta, double* C, int ldc, long long sc, int count) { return gemm_strided_call("cublasDgemmStridedBatched", h, GPULAB_STRIDED_ARGS); }
cublasStatus_t cublasCgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuComplex* alpha, const cuComplex* A, int lda, long long sa, const cuComplex* B, int ldb, long long sb, const cuComplex* beta, cuComplex* C, int ldc, long long sc, int count) { return gemm_strided_call("cublasCgemmStridedBatched", h, GPULAB_STRIDED_ARGS); }
cublasStatus_t cublasZgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* A, int lda, long long sa, const cuDoubleComplex* B, int ldb, long long sb, const cuDoubleComplex* beta, cuDoubleComplex* C, int ldc, long long sc, int count) { return gemm_strided_call("cublasZgemmStridedBatched", h, GPULAB_STRIDED_ARGS); }

cublasStatus_t cublasSsyrk_v2(cublasHandle_t h, cublasFillMode_t u, cublasOperation_t t, int n, int k, const float* a, const float* A, int lda, const float* b, float* C, int ldc) { return syrk_call("cublasSsyrk_v2", h, u, t, n, k, a, A, lda, b, C, ldc); }
cublasStatus_t cublasDsyrk_v2(cublasHandle_t h, cublasFillMode_t u, cublasOperation_t t, int n, int k, const double* a, const double* A, int lda, const double* b, double* C, int ldc) { return syrk_call("cublasDsyrk_v2", h, u, t, n, k, a, A, lda, b, C, ldc); }
cublasStatus_t cublasCsyrk_v2(cublasHandle_t h, cublasFillMode_t u, cublasOperation_t t, int n, int k, const cuComplex* a, const cuComplex* A, int lda, const cuComplex* b, cuComplex* C, int ldc) { return syrk_call("cublasCsyrk_v2", h, u, t, n, k, a, A, lda, b, C, ldc); }
cublasStatus_t cublasZsyrk_v2(cublasHandle_t h, cublasFillMode_t u, cublasOperation_t t, int n, int k, const cuDoubleComplex* a, const cuDoubleComplex* A, int lda, const cuDoubleComplex* b, cuDoubleComplex* C, int ldc) { return syrk_call("cublasZsyrk_v2", h, u, t, n, k, a, A, lda, b, C, ldc); }

cublasStatus_t cublasStrsm_v2(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d, int m, int n, const float* a, const float* A, int lda, float* B, int ldb) { return trsm_call("cublasStrsm_v2", h, s, u, t, d, m, n, a, A, lda, B, ldb); }
cublasStatus_t cublasDtrsm_v2(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d, int m, int n, const double* a, const double* A, int lda, double* B, int ldb) { return trsm_call("cublasDtrsm_v2", h, s, u, t, d, m, n, a, A, lda, B, ldb); }
cublasStatus_t cublasCtrsm_v2(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d, int m, int n, const cuComplex* a, const cuComplex* A, int lda, cuComplex* B, int ldb) { return trsm_call("cublasCtrsm_v2", h, s, u, t, d, m, n, a, A, lda, B, ldb); }
cublasStatus_t cublasZtrsm_v2(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d, int m, int n, const cuDoubleComplex* a, const cuDoubleComplex* A, int lda, cuDoubleComplex* B, int ldb) { return trsm_call("cublasZtrsm_v2", h, s, u, t, d, m, n, a, A, lda, B, ldb); }

cublasStatus_t cublasSgeam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, const float* a, const float* A, int lda, const float* b, const float* B, int ldb, float* C, int ldc) { return geam_call("cublasSgeam", h, ta, tb, m, n, a, A, lda, b, B, ldb, C, ldc); }
cublasStatus_t cublasDgeam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, const double* a, const double* A, int lda, const double* b, const double* B, int ldb, double* C, int ldc) { return geam_call("cublasDgeam", h, ta, tb, m, n, a, A, lda, b, B, ldb, C, ldc); }
cublasStatus_t cublasCgeam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, const cuComplex* a, const cuComplex* A, int lda, const cuComplex* b, const cuComplex* B, int ldb, cuComplex* C, int ldc) { return geam_call("cublasCgeam", h, ta, tb, m, n, a, A, lda, b, B, ldb, C, ldc); }
cublasStatus_t cublasZgeam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, const cuDoubleComplex* a, const cuDoubleComplex* A, int lda, const cuDoubleComplex* b, const cuDoubleComplex* B, int ldb, cuDoubleComplex* C, int ldc) { return geam_call("cublasZgeam", h, ta, tb, m, n, a, A, lda, b, B, ldb, C, ldc); }

cublasStatus_t cublasStrmm_v2(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d, int m, int n, const float* a, const float* A, int lda, const float* B, int ldb, float* C, int ldc) { return trmm_call("cublasStrmm_v2", h, s, u, t, d, m, n, a, A, lda, B, ldb, C, ldc); }
cublasStatus_t cublasDtrmm_v2(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d, int m, int n, const double* a, const double* A, int lda, const double* B, int ldb, double* C, int ldc) { return trmm_call("cublasDtrmm_v2", h, s, u, t, d, m, n, a, A, lda, B, ldb, C, ldc); }
cublasStatus_t cublasCtrmm_v2(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d, int m, int n, const cuComplex* a, const cuComplex* A, int lda, const cuComplex* B, int ldb, cuComplex* C, int ldc) { return trmm_call("cublasCtrmm_v2", h, s, u, t, d, m, n, a, A, lda, B, ldb, C, ldc); }
cublasStatus_t cublasZtrmm_v2(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d, int m, int n, const cuDoubleComplex* a, const cuDoubleComplex* A, int lda, const cuDoubleComplex* B, int ldb, cuDoubleComplex* C, int ldc) { return trmm_call("cublasZtrmm_v2", h, s, u, t, d, m, n, a, A, lda, B, ldb, C, ldc); }

cublasStatus_t cublasSsymm_v2(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u, int m, int n, const float* a, const float* A, int lda, const float* B, int ldb, const float* b, float* C, int ldc) { return symm_call("cublasSsymm_v2", h, s, u, m, n, a, A, lda, B, ldb, b, C, ldc); }
cublasStatus_t cublasDsymm_v2(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u, int m, int n, const double* a, const double* A, int lda, const double* B, int ldb, const double* b, double* C, int ldc) { return symm_call("cublasDsymm_v2", h, s, u, m, n, a, A, lda, B, ldb, b, C, ldc); }
cublasStatus_t cublasCsymm_v2(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u, int m, int n, const cuComplex* a, const cuComplex* A, int lda, const cuComplex* B, int ldb, const cuComplex* b, cuComplex* C, int ldc) { return symm_call("cublasCsymm_v2", h, s, u, m, n, a, A, lda, B, ldb, b, C, ldc); }
cublasStatus_t cublasZsymm_v2(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u, int m, int n, const cuDoubleComplex* a, const cuDoubleComplex* A, int lda, const cuDoubleComplex* B, int ldb, const cuDoubleComplex* b, cuDoubleComplex* C, int ldc) { return symm_call("cublasZsymm_v2", h, s, u, m, n, a, A, lda, B, ldb, b, C, ldc); }

cublasStatus_t cublasSdgmm(cublasHandle_t h, cublasSideMode_t mode, int m, int n, const float* A, int lda, const float* x, int incx, float* C, int ldc) { return dgmm_call("cublasSdgmm", h, mode, m, n, A, lda, x, incx, C, ldc); }
cublasStatus_t cublasDdgmm(cublasHandle_t h, cublasSideMode_t mode, int m, int n, const double* A, int lda, const double* x, int incx, double* C, int ldc) { return dgmm_call("cublasDdgmm", h, mode, m, n, A, lda, x, incx, C, ldc); }
cublasStatus_t cublasCdgmm(cublasHandle_t h, cublasSideMode_t mode, int m, int n, const cuComplex* A, int lda, const cuComplex* x, int incx, cuComplex* C, int ldc) { return dgmm_call("cublasCdgmm", h, mode, m, n, A, lda, x, incx, C, ldc); }
cublasStatus_t cublasZdgmm(cublasHandle_t h, cublasSideMode_t mode, int m, int n, const cuDoubleComplex* A, int lda, const cuDoubleComplex* x, int incx, cuDoubleComplex* C, int ldc) { return dgmm_call("cublasZdgmm", h, mode, m, n, A, lda, x, incx, C, ldc); }

}  // extern "C"
