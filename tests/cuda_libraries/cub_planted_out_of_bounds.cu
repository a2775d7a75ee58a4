// A planted bug: cub::DeviceReduce::Sum is told of 1000 items in a buffer of 999, so it reads one int
// past the buffer's end. A GPU may or may not fault; the simulator's memcheck must name the call, the
// operand and how far past the buffer it reads.
#include <cstdio>

#include <cub/cub.cuh>
#include <cuda_runtime.h>

int main() {
  const int n = 1000;
  int *in, *out;
  cudaMalloc(&in, (n - 1) * sizeof(int));  // the bug: one int short
  cudaMalloc(&out, sizeof(int));
  cudaMemset(in, 0, (n - 1) * sizeof(int));
  void* temp = nullptr;
  std::size_t bytes = 0;
  cub::DeviceReduce::Sum(temp, bytes, in, out, n);
  cudaMalloc(&temp, bytes);
  cub::DeviceReduce::Sum(temp, bytes, in, out, n);
  const cudaError_t err = cudaDeviceSynchronize();
  std::printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(err));
  return err == cudaSuccess ? 0 : 1;
}
