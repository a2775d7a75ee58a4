// cublasGemmEx and its batched forms, cublasSgemmEx and cublasHgemm on the simulator: the type
// combinations cuBLAS's table allows, each computed in its compute type on gpulab's CPU GEMM. Inputs of
// a narrower type are widened exactly; the result is rounded to C's type once (to nearest even). On a
// GPU, CUBLAS_COMPUTE_16F may accumulate in half precision: the simulator accumulates in float, which
// is within cuBLAS's error bound but not bit-identical.
#include <cstdint>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "simcuda/cublas/cublas_context.hpp"
#include "simcuda/cublas/cublas_data_types.hpp"
#include "simcuda/cublas/cublas_gemm.hpp"
#include "simcuda/cublas/cublas_numeric.hpp"

namespace gpulab::sim::cublas {

namespace {

struct ExOperands {
  const void* a;
  const void* b;
  void* c;
};

// One product of T arithmetic on operands of the given types.
template <class T>
void ex_product(HostTaskAccess& access, const GemmShape& s, T alpha, T beta, const ExOperands& o, cudaDataType at,
                cudaDataType ct, InputRounding rounding) {
  const std::size_t ea = type_size(at), ec = type_size(ct);
  declare_gemm(access, s, alpha == T(0), beta == T(0), o.a, ea, o.b, ea, o.c, ec);
  const bool same = type_size(at) == sizeof(T) && type_size(ct) == sizeof(T) && at != CUDA_R_8I;
  if (same) {  // the compute type throughout: in place
    gemm_compute(s, alpha, static_cast<const T*>(o.a), static_cast<const T*>(o.b), beta, static_cast<T*>(o.c), rounding);
    return;
  }
  if (s.m == 0 || s.n == 0) return;
  const bool reads_ab = alpha != T(0) && s.k > 0;
  const auto wa = reads_ab ? widen<T>(o.a, at, s.rows_a(), s.cols_a(), s.lda) : std::vector<T>();
  const auto wb = reads_ab ? widen<T>(o.b, at, s.rows_b(), s.cols_b(), s.ldb) : std::vector<T>();
  std::vector<T> wc(static_cast<std::size_t>(s.m) * s.n);
  if (beta != T(0)) wc = widen<T>(o.c, ct, s.m, s.n, s.ldc);
  GemmShape compact = s;
  compact.lda = s.rows_a() > 0 ? s.rows_a() : 1;
  compact.ldb = s.rows_b() > 0 ? s.rows_b() : 1;
  compact.ldc = s.m;
  gemm_compute(compact, alpha, wa.data(), wb.data(), beta, wc.data(), rounding);
  for (int j = 0; j < s.n; ++j) {
    for (int i = 0; i < s.m; ++i) {
      store(o.c, static_cast<std::size_t>(j) * s.ldc + i, ct, wc[static_cast<std::size_t>(j) * s.m + i]);
    }
  }
}

// The work of a gemmEx-family call: `operands(i)` gives batch i's operands (reading device pointer
// arrays through `access` where the call has them).
template <class Operands>
void ex_call(const char* call, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
             int k, const void* alpha, cudaDataType at, int lda, cudaDataType bt, int ldb, const void* beta,
             cudaDataType ct, int ldc, int batch_count, cublasComputeType_t compute, Operands operands) {
  const cublasContext& ctx = context_of(handle);
  const GemmShape s = check_gemm(transa, transb, m, n, k, lda, ldb, ldc);
  check_batch(batch_count);
  const ExPlan plan = plan_ex(compute, at, bt, ct, ctx.math_mode);
  const std::size_t scalar_bytes = plan.half_scalars ? 2 : arithmetic_size(plan.arithmetic);
  const RawScalar a(ctx, alpha, scalar_bytes, "alpha"), b(ctx, beta, scalar_bytes, "beta");
  if (batch_count == 0 || m == 0 || n == 0) return;
  enqueue(ctx, call, [=](HostTaskAccess& access) {
    auto run = [&]<class T>(T) {
      const T av = a.get<T>(access, plan.half_scalars);
      const T bv = b.get<T>(access, plan.half_scalars);
      for (int i = 0; i < batch_count; ++i) ex_product<T>(access, s, av, bv, operands(access, i), at, ct, plan.rounding);
    };
    switch (plan.arithmetic) {
      case Arithmetic::f32: run(float{}); break;
      case Arithmetic::f64: run(double{}); break;
      case Arithmetic::i32: run(std::int32_t{}); break;
      case Arithmetic::c32: run(std::complex<float>{}); break;
      case Arithmetic::c64: run(std::complex<double>{}); break;
    }
  });
}

}  // namespace

}  // namespace gpulab::sim::cublas

using namespace gpulab::sim::cublas;  // NOLINT: the API below is cuBLAS's, at global scope

extern "C" {

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                            int k, const void* alpha, const void* A, cudaDataType Atype, int lda, const void* B,
                            cudaDataType Btype, int ldb, const void* beta, void* C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t) {
  return api("cublasGemmEx", [&] {
    ex_call("cublasGemmEx", handle, transa, transb, m, n, k, alpha, Atype, lda, Btype, ldb, beta, Ctype, ldc, 1,
            computeType, [=](HostTaskAccess&, int) { return ExOperands{A, B, C}; });
  });
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void* alpha, const void* A, cudaDataType Atype,
                                          int lda, long long int strideA, const void* B, cudaDataType Btype, int ldb,
                                          long long int strideB, const void* beta, void* C, cudaDataType Ctype,
                                          int ldc, long long int strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t) {
  return api("cublasGemmStridedBatchedEx", [&] {
    const std::size_t ea = type_size(Atype), eb = type_size(Btype), ec = type_size(Ctype);
    ex_call("cublasGemmStridedBatchedEx", handle, transa, transb, m, n, k, alpha, Atype, lda, Btype, ldb, beta, Ctype,
            ldc, batchCount, computeType, [=](HostTaskAccess&, int i) {
              return ExOperands{static_cast<const char*>(A) + i * strideA * static_cast<long long>(ea),
                                static_cast<const char*>(B) + i * strideB * static_cast<long long>(eb),
                                static_cast<char*>(C) + i * strideC * static_cast<long long>(ec)};
            });
  });
}

cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                   int n, int k, const void* alpha, const void* const Aarray[], cudaDataType Atype,
                                   int lda, const void* const Barray[], cudaDataType Btype, int ldb,
                                   const void* beta, void* const Carray[], cudaDataType Ctype, int ldc,
                                   int batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t) {
  return api("cublasGemmBatchedEx", [&] {
    ex_call("cublasGemmBatchedEx", handle, transa, transb, m, n, k, alpha, Atype, lda, Btype, ldb, beta, Ctype, ldc,
            batchCount, computeType, [=](HostTaskAccess& access, int i) {
              if (i == 0) {
                const auto bytes = static_cast<std::size_t>(batchCount) * sizeof(void*);
                access.read(DeviceRegion{Aarray, bytes, 1, 0, "Aarray"});
                access.read(DeviceRegion{Barray, bytes, 1, 0, "Barray"});
                access.read(DeviceRegion{Carray, bytes, 1, 0, "Carray"});
              }
              return ExOperands{Aarray[i], Barray[i], Carray[i]};
            });
  });
}

cublasStatus_t cublasSgemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                             int k, const float* alpha, const void* A, cudaDataType Atype, int lda, const void* B,
                             cudaDataType Btype, int ldb, const float* beta, void* C, cudaDataType Ctype, int ldc) {
  return api("cublasSgemmEx", [&] {
    ex_call("cublasSgemmEx", handle, transa, transb, m, n, k, alpha, Atype, lda, Btype, ldb, beta, Ctype, ldc, 1,
            CUBLAS_COMPUTE_32F, [=](HostTaskAccess&, int) { return ExOperands{A, B, C}; });
  });
}

cublasStatus_t cublasHgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const __half* alpha, const __half* A, int lda, const __half* B, int ldb,
                           const __half* beta, __half* C, int ldc) {
  return api("cublasHgemm", [&] {
    ex_call("cublasHgemm", handle, transa, transb, m, n, k, alpha, CUDA_R_16F, lda, CUDA_R_16F, ldb, beta, CUDA_R_16F,
            ldc, 1, CUBLAS_COMPUTE_16F, [=](HostTaskAccess&, int) { return ExOperands{A, B, C}; });
  });
}

cublasStatus_t cublasHgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const __half* alpha, const __half* A, int lda,
                                         long long int strideA, const __half* B, int ldb, long long int strideB,
                                         const __half* beta, __half* C, int ldc, long long int strideC,
                                         int batchCount) {
  return api("cublasHgemmStridedBatched", [&] {
    ex_call("cublasHgemmStridedBatched", handle, transa, transb, m, n, k, alpha, CUDA_R_16F, lda, CUDA_R_16F, ldb,
            beta, CUDA_R_16F, ldc, batchCount, CUBLAS_COMPUTE_16F, [=](HostTaskAccess&, int i) {
              constexpr long long half_bytes = 2;  // __half is incomplete here: its bytes
              return ExOperands{reinterpret_cast<const char*>(A) + i * strideA * half_bytes,
                                reinterpret_cast<const char*>(B) + i * strideB * half_bytes,
                                reinterpret_cast<char*>(C) + i * strideC * half_bytes};
            });
  });
}

cublasStatus_t cublasHgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const __half* alpha, const __half* const Aarray[], int lda,
                                  const __half* const Barray[], int ldb, const __half* beta, __half* const Carray[],
                                  int ldc, int batchCount) {
  return api("cublasHgemmBatched", [&] {
    ex_call("cublasHgemmBatched", handle, transa, transb, m, n, k, alpha, CUDA_R_16F, lda, CUDA_R_16F, ldb, beta,
            CUDA_R_16F, ldc, batchCount, CUBLAS_COMPUTE_16F, [=](HostTaskAccess& access, int i) {
              if (i == 0) {
                const auto bytes = static_cast<std::size_t>(batchCount) * sizeof(void*);
                access.read(DeviceRegion{Aarray, bytes, 1, 0, "Aarray"});
                access.read(DeviceRegion{Barray, bytes, 1, 0, "Barray"});
                access.read(DeviceRegion{Carray, bytes, 1, 0, "Carray"});
              }
              return ExOperands{Aarray[i], Barray[i], Carray[i]};
            });
  });
}

}  // extern "C"
