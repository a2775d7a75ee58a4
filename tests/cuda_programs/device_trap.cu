// __trap() as CUDA reports it: the launch ends with cudaErrorLaunchFailure ("unspecified launch
// failure") at the next synchronising call, sticky, and the host goes on to report what it saw.
#include <cstdio>

#include <cuda_runtime.h>

// Counts the elements under a limit; a value over the hard ceiling traps the kernel.
__global__ void countUnder(const float* values, int n, float limit, float ceiling, unsigned* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (values[i] > ceiling) __trap();
  if (values[i] < limit) atomicAdd(count, 1u);
}

int main() {
  const int n = 777;
  float host[n];
  unsigned expected = 0;
  for (int i = 0; i < n; ++i) {
    host[i] = static_cast<float>((i * 7919) % 1000) / 10.0f;
    expected += host[i] < 50.0f;
  }
  float* values;
  unsigned* count;
  unsigned got = 0xffffffffu;
  cudaMalloc(&values, sizeof host);
  cudaMalloc(&count, sizeof(unsigned));
  cudaMemcpy(values, host, sizeof host, cudaMemcpyHostToDevice);
  cudaMemset(count, 0, sizeof(unsigned));
  countUnder<<<(n + 63) / 64, 64>>>(values, n, 50.0f, 1000.0f, count);
  const cudaError_t clean = cudaMemcpy(&got, count, sizeof got, cudaMemcpyDeviceToHost);

  host[n / 3] = 5000.0f;  // over the ceiling: that thread traps
  cudaMemcpy(values, host, sizeof host, cudaMemcpyHostToDevice);
  countUnder<<<(n + 63) / 64, 64>>>(values, n, 50.0f, 1000.0f, count);
  const cudaError_t synced = cudaDeviceSynchronize();
  const cudaError_t later = cudaMemset(count, 0, sizeof(unsigned));
  std::printf("clean launch: %s, %u of %u counted; trapping launch: synchronize %s, later memset %s\n",
              cudaGetErrorName(clean), got, expected, cudaGetErrorName(synced), cudaGetErrorName(later));
  if (clean != cudaSuccess || got != expected || synced != cudaErrorLaunchFailure || later != cudaErrorLaunchFailure) {
    std::printf("FAILED\n");
    return 1;
  }
  std::printf("PASSED: __trap() is cudaErrorLaunchFailure, sticky\n");
  return 0;
}
