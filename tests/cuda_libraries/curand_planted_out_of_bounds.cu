// A planted bug: curandGenerateUniform asked for one float more than the device buffer holds. The
// generator's work runs on its stream as a kernel would, so memcheck must report the write past the end
// of the buffer, naming the call and its output operand.
#include <cstdio>

#include <cuda_runtime.h>
#include <curand.h>

int main() {
  const size_t n = 1024;
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) return 2;
  curandGenerator_t g;
  if (curandCreateGenerator(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10) != CURAND_STATUS_SUCCESS) return 2;
  curandSetPseudoRandomGeneratorSeed(g, 1);
  curandGenerateUniform(g, d, n + 1);  // one past the end
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(e));
  curandDestroyGenerator(g);
  cudaFree(d);
  return e == cudaSuccess ? 0 : 1;
}
