// A planted bug: C is allocated for 16 x 16 floats but the product is 16 x 17, so cublasSgemm writes
// one column past its end. A GPU may or may not fault; the simulator's memcheck must name the call,
// the operand and how far past the buffer it runs.
#include <cstdio>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

int main() {
  const int n = 16;
  std::vector<float> h(n * (n + 1), 0.5f);
  float *a, *b, *c;
  cudaMalloc(&a, h.size() * sizeof(float));
  cudaMalloc(&b, h.size() * sizeof(float));
  cudaMalloc(&c, n * n * sizeof(float));  // the bug: one column short
  cudaMemcpy(a, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  cublasHandle_t handle;
  cublasCreate(&handle);
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n + 1, n, &one, a, n, b, n, &zero, c, n);
  const cudaError_t err = cudaDeviceSynchronize();
  std::printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(err));
  cublasDestroy(handle);
  return err == cudaSuccess ? 0 : 1;
}
