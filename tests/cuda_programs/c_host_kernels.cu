// The kernels of c_host_main.c, with a launcher that C code can call.
#include <cuda_runtime.h>

__global__ void saxpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" void launch_saxpy(float a, const float* x, float* y, int n) {
  saxpy<<<(n + 127) / 128, 128>>>(a, x, y, n);
}
