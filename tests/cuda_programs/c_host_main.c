/* The host side of c_host_kernels.cu, in C: nvcc compiles .c files with the host C compiler and links
   them with the CUDA objects. Uses the runtime API from C and a launcher with C linkage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

void launch_saxpy(float a, const float* x, float* y, int n); /* c_host_kernels.cu */

#define N 777

static int check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "FAILED: %s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
  return 0;
}

int main(void) {
  float hx[N], hy[N], out[N];
  float *dx = NULL, *dy = NULL;
  int i, bad = 0;
  srand(7);
  for (i = 0; i < N; ++i) {
    hx[i] = (float)(rand() % 1000) / 16.0f + 0.5f;
    hy[i] = (float)(rand() % 1000) / 32.0f - 3.0f;
  }
  check(cudaMalloc((void**)&dx, sizeof hx), "cudaMalloc");
  check(cudaMalloc((void**)&dy, sizeof hy), "cudaMalloc");
  check(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMemcpy(dy, hy, sizeof hy, cudaMemcpyHostToDevice), "cudaMemcpy");
  launch_saxpy(1.5f, dx, dy, N);
  check(cudaGetLastError(), "launch");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  check(cudaMemcpy(out, dy, sizeof out, cudaMemcpyDeviceToHost), "cudaMemcpy");
  for (i = 0; i < N; ++i) {
    if (fabsf(out[i] - (1.5f * hx[i] + hy[i])) > 1e-4f * (1.0f + fabsf(out[i]))) ++bad;
  }
  check(cudaFree(dx), "cudaFree");
  check(cudaFree(dy), "cudaFree");
  if (bad) {
    fprintf(stderr, "FAILED: %d wrong values\n", bad);
    return 1;
  }
  printf("verified: saxpy launched from a C host file\nPASSED\n");
  return 0;
}
