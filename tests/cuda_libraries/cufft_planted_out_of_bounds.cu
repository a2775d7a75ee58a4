// A planted bug: the input holds 255 complex numbers but the plan transforms 256, so cufftExecC2C reads
// one element past its end. A GPU may or may not fault; the simulator's memcheck must name the call,
// the operand and how far past the buffer it runs.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>
#include <cufft.h>

int main() {
  const int n = 256;
  std::vector<cufftComplex> h(n, make_cuComplex(0.5f, -0.25f));
  cufftComplex *in, *out;
  cudaMalloc(&in, (n - 1) * sizeof(cufftComplex));  // the bug: one element short
  cudaMalloc(&out, n * sizeof(cufftComplex));
  cudaMemcpy(in, h.data(), (n - 1) * sizeof(cufftComplex), cudaMemcpyHostToDevice);
  cufftHandle plan;
  cufftPlan1d(&plan, n, CUFFT_C2C, 1);
  cufftExecC2C(plan, in, out, CUFFT_FORWARD);
  const cudaError_t err = cudaDeviceSynchronize();
  std::printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(err));
  cufftDestroy(plan);
  return err == cudaSuccess ? 0 : 1;
}
