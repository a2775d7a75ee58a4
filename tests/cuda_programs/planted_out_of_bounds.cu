// A planted bug for GPULAB_SIM_CHECK=memcheck (build with -G): the last block writes one element past
// the end of the output buffer, because the bounds check uses <= where < was meant. Under memcheck the
// program must exit non-zero with a report that names the kernel.
#include <cstdio>

#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void scaleOffByOne(const float* in, float* out, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = factor * (i < n ? in[i] : 0.0f);  // the bug: i == n writes out[n]
}

int main() {
  const int n = 1000;  // 4 blocks of 256: thread 1000 exists
  float *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemset(in, 0, n * sizeof(float)));
  scaleOffByOne<<<(n + 255) / 256, 256>>>(in, out, n, 2.0f);
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t sync = cudaDeviceSynchronize();
  std::printf("launch: %s, synchronize: %s\n", cudaGetErrorName(launch), cudaGetErrorName(sync));
  cudaFree(in);
  cudaFree(out);
  return 0;  // memcheck's finding makes the exit status non-zero, whatever main returns
}
