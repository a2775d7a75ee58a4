// A planted bug for GPULAB_SIM_CHECK=synccheck (build with -G): __syncthreads() inside a branch that
// only some threads of the block take. CUDA calls this undefined (it may hang); the simulator must not
// hang, and under synccheck the program must exit non-zero with a report that names the kernel.
#include <cstdio>

#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void normaliseDivergent(float* data, int n) {
  __shared__ float total;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) total = 0.0f;
  __syncthreads();
  if (i < n) atomicAdd(&total, data[i]);
  if (threadIdx.x % 2 == 0) {
    __syncthreads();  // the bug: odd threads never reach this barrier
    if (i < n) data[i] /= total;
  }
}

int main() {
  const int n = 64;
  float* data;
  CHECK(cudaMalloc(&data, n * sizeof(float)));
  CHECK(cudaMemset(data, 0, n * sizeof(float)));
  normaliseDivergent<<<1, n>>>(data, n);
  std::printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaFree(data);
  return 0;
}
