// A planted bug for racecheck: each block publishes its partial sum in global memory and, in the same
// launch, reads its neighbour block's, as if a grid-wide barrier separated the two. On a GPU the
// result depends on which blocks happened to run first; the simulator's racecheck (global memory,
// across blocks) must report it, naming the kernel and both threads.
#include <cstdio>

#include <cuda_runtime.h>

#include "cuda_check.h"

constexpr int kBlock = 128;

__global__ void neighbourSumsRacy(const float* in, float* partial, float* out, int n) {
  __shared__ float sums[kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  sums[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = kBlock / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) sums[threadIdx.x] += sums[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
  __syncthreads();  // orders the threads of this block only: the neighbour may not have written yet
  if (i < n) out[i] = in[i] / partial[(blockIdx.x + 1) % gridDim.x];
}

int main() {
  const int n = 1000;
  const int blocks = (n + kBlock - 1) / kBlock;
  float host[n];
  for (int i = 0; i < n; ++i) host[i] = 1.0f + static_cast<float>(i % 7);
  float *in = nullptr, *partial = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&partial, blocks * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
  neighbourSumsRacy<<<blocks, kBlock>>>(in, partial, out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  std::printf("out[0] = %g\n", host[0]);
  CHECK(cudaFree(in));
  CHECK(cudaFree(partial));
  CHECK(cudaFree(out));
  std::printf("PASSED\n");
  return 0;
}
