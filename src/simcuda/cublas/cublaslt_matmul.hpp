#pragma once
// cublasLtMatmul's plan: what a descriptor and four layouts ask for, checked as cuBLASLt checks them, so
// that the heuristic query and the matmul refuse the same configurations with the same status.
#include <cstdint>

#include "simcuda/cublas/cublas_data_types.hpp"
#include "simcuda/cublas/cublaslt_descriptors.hpp"

namespace gpulab::sim::cublas {

struct LtPlan {
  ExPlan ex;
  Op opa, opb;
  int m = 0, n = 0, k = 0;
  LtLayout a, b, c, d;
  LtMatmulDesc desc;
  int batch = 1;
  bool bias = false, relu = false, gelu = false, aux = false;
  cudaDataType bias_type = CUDA_R_32F, aux_type = CUDA_R_32F;
};

// Throws StatusError: NOT_SUPPORTED for what the simulator (or cuBLASLt) does not do, naming it;
// INVALID_VALUE for shapes that do not chain, leading dimensions too small, batches that differ.
LtPlan plan_lt_matmul(const LtMatmulDesc& desc, const LtLayout& a, const LtLayout& b, const LtLayout& c,
                      const LtLayout& d);

// Throws StatusError(NOT_INITIALIZED) unless cublasLtCreate made `handle`.
void check_lt_handle(cublasLtHandle_t handle);

}  // namespace gpulab::sim::cublas
