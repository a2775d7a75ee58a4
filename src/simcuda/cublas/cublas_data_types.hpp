#pragma once
// cudaDataType operands as the simulator's cuBLAS computes with them (gemmEx, cublasLtMatmul): each
// type's size and name, which (compute type, A/B type, C type) combinations cuBLAS's table allows and in
// what arithmetic each runs, and elements widened from their stored type and rounded back to it.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "simcuda/cublas/cublas_context.hpp"
#include "simcuda/cublas/cublas_gemm.hpp"
#include "simcuda/cublas/cublas_numeric.hpp"

namespace gpulab::sim::cublas {

inline std::size_t type_size(cudaDataType t) {
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

inline const char* type_name(cudaDataType t) {
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

// cuBLAS's table of what cublasGemmEx (and cublasLtMatmul) accepts; anything else is CUBLAS_STATUS_NOT_SUPPORTED, as there.
inline ExPlan plan_ex(cublasComputeType_t compute, cudaDataType at, cudaDataType bt, cudaDataType ct, cublasMath_t math_mode) {
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
        if (compute == CUBLAS_COMPUTE_32F) plan.rounding = rounding_for_math_mode(math_mode);
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

inline std::size_t arithmetic_size(Arithmetic a) {
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

}  // namespace gpulab::sim::cublas
