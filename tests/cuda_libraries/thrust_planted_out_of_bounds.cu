// A planted bug: a kernel over a device_vector of 1000 ints, given the vector's raw pointer, is launched
// for 1001 elements, so its last thread writes one int past the vector's storage. A GPU may or may not
// fault (the allocation is rounded up); the simulator's memcheck must see the vector's storage as the
// device buffer it is, and name the kernel, the thread and how far past the buffer the write lands.
#include <cstdio>

#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>

__global__ void increment(int* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

int main() {
  const int n = 1000;
  thrust::device_vector<int> v(n, 41);
  increment<<<(n + 1 + 127) / 128, 128>>>(thrust::raw_pointer_cast(v.data()), n + 1);  // the bug: n + 1
  const cudaError_t err = cudaDeviceSynchronize();
  std::printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(err));
  return err == cudaSuccess ? 0 : 1;
}
