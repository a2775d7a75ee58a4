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
#include "simcuda/cublas/cublas_gemm.hpp"
#include "simcuda/cublas/cublas_numeric.hpp"

namespace gpulab::sim::cublas {

namespace {

std::size_t type_size(cudaDataType t) {
  switch (t) {
    case CUDA_R_16F:
    case CUDA_R_16BF:
      return 2;
    case CUDA_R_32F:
    case CUDA_R_32I:
      return 4;
    case CUDA_R_64F:
    case CUDA_C_32F:
      return 8;
    case CUDA_C_64F:
      return 16;
    case CUDA_R_8I:
      return 1;
    default:
      return 0;
  }
}

const char* type_name(cudaDataType t) {
  switch (t) {
    case CUDA_R_16F: return "CUDA_R_16F";
    case CUDA_R_16BF: return "CUDA_R_16BF";
    case CUDA_R_32F: return "CUDA_R_32F";
    case CUDA_R_64F: return "CUDA_R_64F";
    case CUDA_R_8I: return "CUDA_R_8I";
    case CUDA_R_32I: return "CUDA_R_32I";
    case CUDA_C_32F: return "CUDA_C_32F";
    case CUDA_C_64F: return "CUDA_C_64F";
    default: return "a type gemmEx does not take";
  }
}

// Which arithmetic a valid (compute type, A/B type, C type) combination runs in.
enum class Arithmetic { f32, f64, i32, c32, c64 };

struct ExPlan {
  Arithmetic arithmetic = Arithmetic::f32;
  InputRounding rounding = InputRounding::none;
  bool half_scalars = false;  // CUBLAS_COMPUTE_16F takes alpha and beta as __half
};

// cuBLAS's table of what cublasGemmEx accepts; anything else is CUBLAS_STATUS_NOT_SUPPORTED, as there.
ExPlan plan_ex(cublasComputeType_t compute, cudaDataType at, cudaDataType bt, cudaDataType ct, const cublasContext& ctx) {
  auto refuse = [&] {
    return StatusError(CUBLAS_STATUS_NOT_SUPPORTED,
                       fmt::format("computeType {} with Atype {}, Btype {}, Ctype {} is not a combination cublasGemmEx takes",
                                   static_cast<int>(compute), type_name(at), type_name(bt), type_name(ct)));
  };
  if (at != bt) throw refuse();
  ExPlan plan;
  switch (compute) {
    case CUBLAS_COMPUTE_16F:
    case CUBLAS_COMPUTE_16F_PEDANTIC:
      if (at != CUDA_R_16F || ct != CUDA_R_16F) throw refuse();
      plan.half_scalars = true;
      return plan;
    case CUBLAS_COMPUTE_32F:
    case CUBLAS_COMPUTE_32F_PEDANTIC:
    case CUBLAS_COMPUTE_32F_FAST_16F:
    case CUBLAS_COMPUTE_32F_FAST_16BF:
    case CUBLAS_COMPUTE_32F_FAST_TF32: {
      const bool real_ok = (at == CUDA_R_16F && (ct == CUDA_R_16F || ct == CUDA_R_32F)) ||
                           (at == CUDA_R_16BF && (ct == CUDA_R_16BF || ct == CUDA_R_32F)) ||
                           (at == CUDA_R_8I && ct == CUDA_R_32F) || (at == CUDA_R_32F && ct == CUDA_R_32F);
      const bool complex_ok = at == CUDA_C_32F && ct == CUDA_C_32F;
      if (!real_ok && !complex_ok) throw refuse();
      plan.arithmetic = complex_ok ? Arithmetic::c32 : Arithmetic::f32;
      if (at == CUDA_R_32F) {
        if (compute == CUBLAS_COMPUTE_32F_FAST_16F) plan.rounding = InputRounding::fp16;
        if (compute == CUBLAS_COMPUTE_32F_FAST_16BF) plan.rounding = InputRounding::bf16;
        if (compute == CUBLAS_COMPUTE_32F_FAST_TF32) plan.rounding = InputRounding::tf32;
        if (compute == CUBLAS_COMPUTE_32F) plan.rounding = rounding_for_math_mode(ctx.math_mode);
      }
      return plan;
    }
    case CUBLAS_COMPUTE_64F:
    case CUBLAS_COMPUTE_64F_PEDANTIC:
      if (at == CUDA_R_64F && ct == CUDA_R_64F) {
        plan.arithmetic = Arithmetic::f64;
      } else if (at == CUDA_C_64F && ct == CUDA_C_64F) {
        plan.arithmetic = Arithmetic::c64;
      } else {
        throw refuse();
      }
      return plan;
    case CUBLAS_COMPUTE_32I:
    case CUBLAS_COMPUTE_32I_PEDANTIC:
      if (at != CUDA_R_8I || ct != CUDA_R_32I) throw refuse();
      plan.arithmetic = Arithmetic::i32;
      return plan;
    default:
      throw refuse();
  }
}

template <class T>
auto real_part(T v) {
  if constexpr (is_complex_v<T>) {
    return v.real();
  } else {
    return v;
  }
}

// Element i of an array of type t, widened to T (exact for every type that widens).
template <class T>
T load(const void* p, std::size_t i, cudaDataType t) {
  const auto* bytes = static_cast<const unsigned char*>(p);
  switch (t) {
    case CUDA_R_16F: {
      _Float16 h;
      std::memcpy(&h, bytes + i * 2, 2);
      return static_cast<T>(static_cast<float>(h));
    }
    case CUDA_R_16BF: {
      std::uint16_t b;
      std::memcpy(&b, bytes + i * 2, 2);
      const std::uint32_t u = static_cast<std::uint32_t>(b) << 16;
      float f;
      std::memcpy(&f, &u, 4);
      return static_cast<T>(f);
    }
    case CUDA_R_8I:
      return static_cast<T>(reinterpret_cast<const std::int8_t*>(bytes)[i]);
    default:
      return reinterpret_cast<const T*>(bytes)[i];  // the compute type itself
  }
}

template <class T>
void store(void* p, std::size_t i, cudaDataType t, T v) {
  auto* bytes = static_cast<unsigned char*>(p);
  if constexpr (is_complex_v<T>) {
    reinterpret_cast<T*>(bytes)[i] = v;  // complex types are stored as computed
    return;
  }
  switch (t) {
    case CUDA_R_16F: {
      const auto h = static_cast<_Float16>(static_cast<float>(real_part(v)));
      std::memcpy(bytes + i * 2, &h, 2);
      return;
    }
    case CUDA_R_16BF: {
      const float f = round_input(static_cast<float>(real_part(v)), InputRounding::bf16);
      std::uint32_t u;
      std::memcpy(&u, &f, 4);
      const auto b = static_cast<std::uint16_t>(u >> 16);
      std::memcpy(bytes + i * 2, &b, 2);
      return;
    }
    default:
      reinterpret_cast<T*>(bytes)[i] = v;
  }
}

// A stored matrix of type t as a compact matrix of T (ld = rows).
template <class T>
std::vector<T> widen(const void* p, cudaDataType t, int rows, int cols, int ld) {
  std::vector<T> out(static_cast<std::size_t>(rows) * cols);
  for (int j = 0; j < cols; ++j) {
    for (int i = 0; i < rows; ++i) {
      out[static_cast<std::size_t>(j) * rows + i] = load<T>(p, static_cast<std::size_t>(j) * ld + i, t);
    }
  }
  return out;
}

std::size_t arithmetic_size(Arithmetic a) {
  switch (a) {
    case Arithmetic::f32: return 4;
    case Arithmetic::f64: return 8;
    case Arithmetic::i32: return 4;
    case Arithmetic::c32: return 8;
    case Arithmetic::c64: return 16;
  }
  return 0;
}

// alpha or beta, in the compute type's representation (half for CUBLAS_COMPUTE_16F): its bytes taken at
// the call in host pointer mode (the caller may change them once the call returns), its address in
// device pointer mode, read by the work.
struct RawScalar {
  unsigned char bytes[16] = {};
  std::size_t size = 0;
  const void* device = nullptr;
  const char* name = "";

  RawScalar(const cublasContext& ctx, const void* p, std::size_t n, const char* what) : size(n), name(what) {
    require(p != nullptr, [&] { return std::string(what) + " is null"; });
    if (ctx.pointer_mode == CUBLAS_POINTER_MODE_DEVICE) {
      device = p;
    } else {
      std::memcpy(bytes, p, n);
    }
  }
  template <class T>
  T get(HostTaskAccess& access, bool half) const {
    const void* p = bytes;
    if (device != nullptr) {
      access.read(DeviceRegion{device, size, 1, 0, name});
      p = device;
    }
    return half ? load<T>(p, 0, CUDA_R_16F) : load<T>(p, 0, CUDA_R_32F /* the compute type itself */);
  }
};

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
  const ExPlan plan = plan_ex(compute, at, bt, ct, ctx);
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
