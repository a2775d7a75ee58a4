// cuBLAS's vector and matrix transfers (cublasSetVector, cublasGetMatrix, ...): strided copies between
// host and device memory, done by the simulator's CUDA runtime (cudaMemcpy2D), which checks the
// device side of each as it checks any copy.
#include <fmt/format.h>

#include "simcuda/cublas/cublas_context.hpp"

using namespace gpulab::sim::cublas;  // NOLINT: the API below is cuBLAS's, at global scope

namespace {

// A vector of n elements `inc` apart is a 2-D copy of n rows of one element.
void copy_vector(int n, int elem, const void* src, int incsrc, void* dst, int incdst,
                 cudaMemcpyKind kind, const cudaStream_t* stream) {
  require(n >= 0, [&] { return fmt::format("n = {} is negative", n); });
  require(elem > 0, [&] { return fmt::format("elemSize = {} is not positive", elem); });
  require(incsrc > 0 && incdst > 0, [&] { return fmt::format("incx = {} and incy = {} must both be positive", incsrc, incdst); });
  if (n == 0) return;
  const auto e = static_cast<std::size_t>(elem);
  const cudaError_t err =
      stream ? cudaMemcpy2DAsync(dst, incdst * e, src, incsrc * e, e, static_cast<std::size_t>(n), kind, *stream)
             : cudaMemcpy2D(dst, incdst * e, src, incsrc * e, e, static_cast<std::size_t>(n), kind);
  if (err != cudaSuccess) {
    throw StatusError(CUBLAS_STATUS_MAPPING_ERROR, fmt::format("the copy failed: {}", cudaGetErrorName(err)));
  }
}

void copy_matrix(int rows, int cols, int elem, const void* src, int ldsrc, void* dst, int lddst, cudaMemcpyKind kind,
                 const cudaStream_t* stream) {
  require(rows >= 0 && cols >= 0, [&] { return fmt::format("rows = {} and cols = {} must not be negative", rows, cols); });
  require(elem > 0, [&] { return fmt::format("elemSize = {} is not positive", elem); });
  const int least = rows > 1 ? rows : 1;
  require(ldsrc >= least && lddst >= least, [&] {
    return fmt::format("lda = {} and ldb = {} must be at least max(1, rows) = {}", ldsrc, lddst, least);
  });
  if (rows == 0 || cols == 0) return;
  const auto e = static_cast<std::size_t>(elem);
  const cudaError_t err =
      stream ? cudaMemcpy2DAsync(dst, lddst * e, src, ldsrc * e, rows * e, static_cast<std::size_t>(cols), kind, *stream)
             : cudaMemcpy2D(dst, lddst * e, src, ldsrc * e, rows * e, static_cast<std::size_t>(cols), kind);
  if (err != cudaSuccess) {
    throw StatusError(CUBLAS_STATUS_MAPPING_ERROR, fmt::format("the copy failed: {}", cudaGetErrorName(err)));
  }
}

}  // namespace

extern "C" {

cublasStatus_t cublasSetVector(int n, int elemSize, const void* x, int incx, void* devicePtr, int incy) {
  return api("cublasSetVector", [&] {
    copy_vector(n, elemSize, x, incx, devicePtr, incy, cudaMemcpyHostToDevice, nullptr);
  });
}

cublasStatus_t cublasGetVector(int n, int elemSize, const void* x, int incx, void* y, int incy) {
  return api("cublasGetVector", [&] {
    copy_vector(n, elemSize, x, incx, y, incy, cudaMemcpyDeviceToHost, nullptr);
  });
}

cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void* hostPtr, int incx, void* devicePtr, int incy,
                                    cudaStream_t stream) {
  return api("cublasSetVectorAsync", [&] {
    copy_vector(n, elemSize, hostPtr, incx, devicePtr, incy, cudaMemcpyHostToDevice, &stream);
  });
}

cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void* devicePtr, int incx, void* hostPtr, int incy,
                                    cudaStream_t stream) {
  return api("cublasGetVectorAsync", [&] {
    copy_vector(n, elemSize, devicePtr, incx, hostPtr, incy, cudaMemcpyDeviceToHost, &stream);
  });
}

cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb) {
  return api("cublasSetMatrix", [&] { copy_matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyHostToDevice, nullptr); });
}

cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb) {
  return api("cublasGetMatrix", [&] { copy_matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyDeviceToHost, nullptr); });
}

cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb,
                                    cudaStream_t stream) {
  return api("cublasSetMatrixAsync",
             [&] { copy_matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyHostToDevice, &stream); });
}

cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb,
                                    cudaStream_t stream) {
  return api("cublasGetMatrixAsync",
             [&] { copy_matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyDeviceToHost, &stream); });
}

}  // extern "C"
