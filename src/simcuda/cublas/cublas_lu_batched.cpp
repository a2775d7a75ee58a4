// cuBLAS's batched LU routines on the simulator: getrfBatched (LU with partial pivoting, LAPACK's
// convention: 1-based pivots, info = i when U(i, i) is exactly zero), getrsBatched (solve with the
// factors) and getriBatched (the inverse from the factors). A null pivot array means no pivoting, as in
// cuBLAS. The arrays of matrix pointers, the pivots and the infos are device memory, read and written by
// the work and declared to the checks; getrsBatched's info is a host int, as in cuBLAS.
#include <cmath>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "simcuda/cublas/cublas_context.hpp"
#include "simcuda/cublas/cublas_numeric.hpp"

namespace gpulab::sim::cublas {

namespace {

template <class T>
struct Lu {
  T* a;
  int n, lda;
  T& operator()(int i, int j) const { return a[static_cast<long long>(j) * lda + i]; }
};

// In-place LU of one matrix; pivots (1-based) into piv unless null. Returns LAPACK's info.
template <class T>
int factor(const Lu<T>& lu, int* piv) {
  int info = 0;
  for (int k = 0; k < lu.n; ++k) {
    int p = k;
    if (piv != nullptr) {
      for (int i = k + 1; i < lu.n; ++i) {
        if (abs1(lu(i, k)) > abs1(lu(p, k))) p = i;
      }
      piv[k] = p + 1;
      if (p != k) {
        for (int j = 0; j < lu.n; ++j) std::swap(lu(k, j), lu(p, j));
      }
    }
    const T pivot = lu(k, k);
    if (pivot == T(0)) {
      if (info == 0) info = k + 1;
      continue;  // LAPACK goes on, leaving the column as it is
    }
    for (int i = k + 1; i < lu.n; ++i) lu(i, k) /= pivot;
    for (int j = k + 1; j < lu.n; ++j) {
      const T ukj = lu(k, j);
      for (int i = k + 1; i < lu.n; ++i) lu(i, j) -= lu(i, k) * ukj;
    }
  }
  return info;
}

// Solves op(A) x = b in place for one column x (stride 1) with A's factors.
template <class T>
void solve(const Lu<T>& lu, const int* piv, Op op, T* x) {
  const int n = lu.n;
  auto f = [&](int i, int j) { return conj_if(op.transpose ? lu(j, i) : lu(i, j), op.conjugate); };
  if (!op.transpose) {
    if (piv != nullptr) {
      for (int i = 0; i < n; ++i) std::swap(x[i], x[piv[i] - 1]);
    }
    for (int i = 0; i < n; ++i)  // L, unit diagonal
      for (int j = 0; j < i; ++j) x[i] -= f(i, j) * x[j];
    for (int i = n - 1; i >= 0; --i) {  // U
      for (int j = i + 1; j < n; ++j) x[i] -= f(i, j) * x[j];
      x[i] /= f(i, i);
    }
  } else {
    for (int i = 0; i < n; ++i) {  // U^T, lower
      for (int j = 0; j < i; ++j) x[i] -= f(i, j) * x[j];
      x[i] /= f(i, i);
    }
    for (int i = n - 1; i >= 0; --i)  // L^T, upper, unit diagonal
      for (int j = i + 1; j < n; ++j) x[i] -= f(i, j) * x[j];
    if (piv != nullptr) {
      for (int i = n - 1; i >= 0; --i) std::swap(x[i], x[piv[i] - 1]);
    }
  }
}

void check_square(int n, int lda, int batch) {
  require(n >= 0, [&] { return fmt::format("n = {} is negative", n); });
  require_ld(lda, n, "lda", "n");
  require(batch >= 0, [&] { return fmt::format("batchSize = {} is negative", batch); });
}

DeviceRegion pointers(const void* array, int batch, const char* name) {
  return DeviceRegion{array, static_cast<std::size_t>(batch) * sizeof(void*), 1, 0, name};
}

template <class C>
cublasStatus_t getrf_call(const char* call, cublasHandle_t handle, int n, C* const A[], int lda, int* piv, int* info,
                          int batch) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    check_square(n, lda, batch);
    require(info != nullptr, [] { return std::string("infoArray is null"); });
    if (batch == 0) return;
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      access.read(pointers(A, batch, "Aarray"));
      access.write(DeviceRegion{info, static_cast<std::size_t>(batch) * sizeof(int), 1, 0, "infoArray"});
      if (piv != nullptr && n > 0) {
        access.write(DeviceRegion{piv, static_cast<std::size_t>(batch) * n * sizeof(int), 1, 0, "PivotArray"});
      }
      for (int b = 0; b < batch; ++b) {
        T* a = elements(A[b]);
        const DeviceRegion ra = matrix_region(a, n, n, lda, sizeof(T), "Aarray[i]");
        access.read(ra);
        access.write(ra);
        info[b] = factor(Lu<T>{a, n, lda}, piv != nullptr ? piv + static_cast<long long>(b) * n : nullptr);
      }
    });
  });
}

template <class C>
cublasStatus_t getrs_call(const char* call, cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs,
                          const C* const A[], int lda, const int* piv, C* const B[], int ldb, int* info, int batch) {
  using T = typename element_of<C>::type;
  // cuBLAS reports a bad argument in *info as -(its position), and returns INVALID_VALUE.
  int bad = 0;
  std::string why;
  const int least = n > 1 ? n : 1;
  if (trans != CUBLAS_OP_N && trans != CUBLAS_OP_T && trans != CUBLAS_OP_C) {
    bad = -1;
    why = fmt::format("trans = {} is not CUBLAS_OP_N, CUBLAS_OP_T or CUBLAS_OP_C", static_cast<int>(trans));
  } else if (n < 0) {
    bad = -2;
    why = fmt::format("n = {} is negative", n);
  } else if (nrhs < 0) {
    bad = -3;
    why = fmt::format("nrhs = {} is negative", nrhs);
  } else if (lda < least) {
    bad = -5;
    why = fmt::format("lda = {} is less than max(1, n) = {}", lda, least);
  } else if (ldb < least) {
    bad = -8;
    why = fmt::format("ldb = {} is less than max(1, n) = {}", ldb, least);
  } else if (batch < 0) {
    bad = -10;
    why = fmt::format("batchSize = {} is negative", batch);
  }
  if (info != nullptr) *info = bad;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    require(info != nullptr, [] { return std::string("info is null"); });
    require(bad == 0, [&] { return fmt::format("{} (info = {})", why, bad); });
    const Op op = parse_op(trans, "trans");
    if (batch == 0 || n == 0 || nrhs == 0) return;
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      access.read(pointers(A, batch, "Aarray"));
      access.read(pointers(B, batch, "Barray"));
      if (piv != nullptr) access.read(DeviceRegion{piv, static_cast<std::size_t>(batch) * n * sizeof(int), 1, 0, "devIpiv"});
      for (int b = 0; b < batch; ++b) {
        const T* a = elements(A[b]);
        T* x = elements(B[b]);
        access.read(matrix_region(a, n, n, lda, sizeof(T), "Aarray[i]"));
        const DeviceRegion rb = matrix_region(x, n, nrhs, ldb, sizeof(T), "Barray[i]");
        access.read(rb);
        access.write(rb);
        const Lu<T> lu{const_cast<T*>(a), n, lda};
        for (int j = 0; j < nrhs; ++j) {
          solve(lu, piv != nullptr ? piv + static_cast<long long>(b) * n : nullptr, op, x + static_cast<long long>(j) * ldb);
        }
      }
    });
  });
}

template <class C>
cublasStatus_t getri_call(const char* call, cublasHandle_t handle, int n, const C* const A[], int lda, const int* piv,
                          C* const Cm[], int ldc, int* info, int batch) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    check_square(n, lda, batch);
    require_ld(ldc, n, "ldc", "n");
    require(info != nullptr, [] { return std::string("infoArray is null"); });
    if (batch == 0) return;
    enqueue(ctx, call, [=](HostTaskAccess& access) {
      access.read(pointers(A, batch, "Aarray"));
      access.read(pointers(Cm, batch, "Carray"));
      access.write(DeviceRegion{info, static_cast<std::size_t>(batch) * sizeof(int), 1, 0, "infoArray"});
      if (piv != nullptr && n > 0) access.read(DeviceRegion{piv, static_cast<std::size_t>(batch) * n * sizeof(int), 1, 0, "PivotArray"});
      for (int b = 0; b < batch; ++b) {
        const T* a = elements(A[b]);
        T* c = elements(Cm[b]);
        access.read(matrix_region(a, n, n, lda, sizeof(T), "Aarray[i]"));
        access.write(matrix_region(c, n, n, ldc, sizeof(T), "Carray[i]"));
        const Lu<T> lu{const_cast<T*>(a), n, lda};
        int singular = 0;
        for (int i = 0; i < n && singular == 0; ++i) {
          if (lu(i, i) == T(0)) singular = i + 1;
        }
        info[b] = singular;
        if (singular != 0) continue;  // C is left as it is, as cuBLAS documents
        for (int j = 0; j < n; ++j) {
          T* col = c + static_cast<long long>(j) * ldc;
          for (int i = 0; i < n; ++i) col[i] = i == j ? T(1) : T(0);
          solve(lu, piv != nullptr ? piv + static_cast<long long>(b) * n : nullptr, Op{}, col);
        }
      }
    });
  });
}

}  // namespace

}  // namespace gpulab::sim::cublas

using namespace gpulab::sim::cublas;  // NOLINT: the API below is cuBLAS's, at global scope

extern "C" {

cublasStatus_t cublasSgetrfBatched(cublasHandle_t h, int n, float* const A[], int lda, int* P, int* info, int b) { return getrf_call("cublasSgetrfBatched", h, n, A, lda, P, info, b); }
cublasStatus_t cublasDgetrfBatched(cublasHandle_t h, int n, double* const A[], int lda, int* P, int* info, int b) { return getrf_call("cublasDgetrfBatched", h, n, A, lda, P, info, b); }
cublasStatus_t cublasCgetrfBatched(cublasHandle_t h, int n, cuComplex* const A[], int lda, int* P, int* info, int b) { return getrf_call("cublasCgetrfBatched", h, n, A, lda, P, info, b); }
cublasStatus_t cublasZgetrfBatched(cublasHandle_t h, int n, cuDoubleComplex* const A[], int lda, int* P, int* info, int b) { return getrf_call("cublasZgetrfBatched", h, n, A, lda, P, info, b); }

cublasStatus_t cublasSgetrsBatched(cublasHandle_t h, cublasOperation_t t, int n, int nrhs, const float* const A[], int lda, const int* P, float* const B[], int ldb, int* info, int b) { return getrs_call("cublasSgetrsBatched", h, t, n, nrhs, A, lda, P, B, ldb, info, b); }
cublasStatus_t cublasDgetrsBatched(cublasHandle_t h, cublasOperation_t t, int n, int nrhs, const double* const A[], int lda, const int* P, double* const B[], int ldb, int* info, int b) { return getrs_call("cublasDgetrsBatched", h, t, n, nrhs, A, lda, P, B, ldb, info, b); }
cublasStatus_t cublasCgetrsBatched(cublasHandle_t h, cublasOperation_t t, int n, int nrhs, const cuComplex* const A[], int lda, const int* P, cuComplex* const B[], int ldb, int* info, int b) { return getrs_call("cublasCgetrsBatched", h, t, n, nrhs, A, lda, P, B, ldb, info, b); }
cublasStatus_t cublasZgetrsBatched(cublasHandle_t h, cublasOperation_t t, int n, int nrhs, const cuDoubleComplex* const A[], int lda, const int* P, cuDoubleComplex* const B[], int ldb, int* info, int b) { return getrs_call("cublasZgetrsBatched", h, t, n, nrhs, A, lda, P, B, ldb, info, b); }

cublasStatus_t cublasSgetriBatched(cublasHandle_t h, int n, const float* const A[], int lda, const int* P, float* const C[], int ldc, int* info, int b) { return getri_call("cublasSgetriBatched", h, n, A, lda, P, C, ldc, info, b); }
cublasStatus_t cublasDgetriBatched(cublasHandle_t h, int n, const double* const A[], int lda, const int* P, double* const C[], int ldc, int* info, int b) { return getri_call("cublasDgetriBatched", h, n, A, lda, P, C, ldc, info, b); }
cublasStatus_t cublasCgetriBatched(cublasHandle_t h, int n, const cuComplex* const A[], int lda, const int* P, cuComplex* const C[], int ldc, int* info, int b) { return getri_call("cublasCgetriBatched", h, n, A, lda, P, C, ldc, info, b); }
cublasStatus_t cublasZgetriBatched(cublasHandle_t h, int n, const cuDoubleComplex* const A[], int lda, const int* P, cuDoubleComplex* const C[], int ldc, int* info, int b) { return getri_call("cublasZgetriBatched", h, n, A, lda, P, C, ldc, info, b); }

}  // extern "C"
