// A planted bug: B is allocated and never written before cublasSgemv reads it as x. initcheck must
// report the read, naming the call and the operand.
#include <cstdio>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

int main() {
  const int m = 8, n = 8;
  std::vector<float> h(m * n, 0.25f);
  float *a, *x, *y;
  cudaMalloc(&a, h.size() * sizeof(float));
  cudaMalloc(&x, n * sizeof(float));  // the bug: never written
  cudaMalloc(&y, m * sizeof(float));
  cudaMemcpy(a, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  cublasHandle_t handle;
  cublasCreate(&handle);
  const float one = 1.0f, zero = 0.0f;
  cublasSgemv(handle, CUBLAS_OP_N, m, n, &one, a, m, x, 1, &zero, y, 1);
  const cudaError_t err = cudaDeviceSynchronize();
  std::printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(err));
  cublasDestroy(handle);
  return err == cudaSuccess ? 0 : 1;
}
