// An outside project's plain CUDA program (no gpulab API), built with gpulab_add_sim_executable.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void square(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

int main() {
  const int n = 1000;
  float host[n], back[n];
  for (int i = 0; i < n; ++i) host[i] = 0.5f * static_cast<float>(i % 37) - 3.0f;
  float *in = nullptr, *out = nullptr;
  if (cudaMalloc(&in, n * sizeof(float)) != cudaSuccess || cudaMalloc(&out, n * sizeof(float)) != cudaSuccess) return 1;
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  square<<<(n + 127) / 128, 128>>>(in, out, n);
  if (cudaMemcpy(back, out, sizeof back, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  for (int i = 0; i < n; ++i) {
    if (back[i] != host[i] * host[i]) {
      std::printf("consumer_cuda_program: element %d is %g, expected %g\n", i, back[i], host[i] * host[i]);
      return 1;
    }
  }
  cudaFree(in);
  cudaFree(out);
  std::printf("consumer_cuda_program: %d squares right\n", n);
  return 0;
}
