// A planted bug for GPULAB_SIM_CHECK=racecheck (build with -G): a block-wide shift through shared memory
// that is missing the __syncthreads() between the write and the neighbour's read. Under racecheck the
// program must exit non-zero with a report that names the kernel.
#include <cstdio>

#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void shiftLeftRacy(const int* in, int* out, int n) {
  __shared__ int tile[128];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0;
  // missing: __syncthreads();
  const int next = threadIdx.x + 1 < blockDim.x ? tile[threadIdx.x + 1] : 0;
  if (i < n) out[i] = next;
}

int main() {
  const int n = 256;
  int *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMemset(in, 0, n * sizeof(int)));
  shiftLeftRacy<<<n / 128, 128>>>(in, out, n);
  std::printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaFree(in);
  cudaFree(out);
  return 0;
}
