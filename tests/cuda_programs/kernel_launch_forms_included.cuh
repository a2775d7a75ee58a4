// Included by kernel_launch_forms.cu: a kernel and a launch in a user header, which gpulab-simcc
// rewrites like the .cu that includes it. Not compiled on its own.
#pragma once

__global__ void negateInIncluded(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = -in[i];
}

inline void launchNegateFromIncluded(const float* in, float* out, int n, int block) {
  negateInIncluded<<<(n + block - 1) / block, block>>>(in, out, n);
}
