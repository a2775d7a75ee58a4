// Dynamic parallelism (a kernel launching a kernel) is refused by the simulator with the reason, never
// run wrongly or hung. nvcc refuses this file too without -rdc=true, so it is not in the nvcc build.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void child(int* out) { out[threadIdx.x] = static_cast<int>(threadIdx.x); }

__global__ void parent(int* out) {
  if (threadIdx.x == 0) child<<<1, 32>>>(out);
}

int main() {
  int* out;
  cudaMalloc(&out, 32 * sizeof(int));
  parent<<<1, 32>>>(out);
  const cudaError_t synced = cudaDeviceSynchronize();
  std::printf("parent launch: %s\n", cudaGetErrorName(synced));
  return synced == cudaSuccess ? 0 : 1;
}
