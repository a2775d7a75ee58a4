#include <cuda_runtime.h>

#include "saxpy.hpp"
#include "saxpy_config.cuh"

__global__ void saxpy(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = scaled(a, x[i]) + y[i];
}

std::string run_saxpy(int n, float a, const float* x, float* y) {
  float* dx = nullptr;
  float* dy = nullptr;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  cudaError_t e = cudaMalloc(&dx, bytes);
  if (e == cudaSuccess) e = cudaMalloc(&dy, bytes);
  if (e == cudaSuccess) e = cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  if (e == cudaSuccess) e = cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice);
  if (e == cudaSuccess) {
    saxpy<<<blocks_for(n), saxpy_block_size>>>(n, a, dx, dy);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  return e == cudaSuccess ? std::string() : std::string(cudaGetErrorName(e));
}
