// A planted bug: a kernel reduces twice through one cub::BlockReduce TempStorage with no
// __syncthreads() between, which CUB's documentation forbids: the first warp to reach the second
// reduction stores its aggregate while thread 0 may still be reading the first's. A GPU gives wrong sums
// now and then; the simulator's racecheck must report the race on the TempStorage in shared memory.
#include <cstdio>
#include <vector>

#include <cub/cub.cuh>
#include <cuda_runtime.h>

__global__ void two_sums(const int* in, int* out) {
  using Reduce = cub::BlockReduce<int, 128>;
  __shared__ typename Reduce::TempStorage temp;
  const int x = in[threadIdx.x];
  const int first = Reduce(temp).Sum(x);
  // The bug: __syncthreads() belongs here.
  const int second = Reduce(temp).Sum(2 * x);
  if (threadIdx.x == 0) out[0] = first + second;
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 128 * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  const std::vector<int> ones(128, 1);
  cudaMemcpy(in, ones.data(), 128 * sizeof(int), cudaMemcpyHostToDevice);
  two_sums<<<1, 128>>>(in, out);
  const cudaError_t err = cudaDeviceSynchronize();
  std::printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(err));
  return err == cudaSuccess ? 0 : 1;
}
