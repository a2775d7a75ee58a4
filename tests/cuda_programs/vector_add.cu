// Vector add, as the CUDA samples write it: cudaMalloc, cudaMemcpy, a <<<>>> launch, error checks.
// Self-checking: exits 0 only when every element matches the host's sum.
#include <cstdio>
#include <cstdlib>
#include <cmath>

#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];  // "<<<" in a comment is left alone
}

int main() {
  const int n = 50021;  // not a multiple of the block
  const size_t bytes = n * sizeof(float);
  float* ha = static_cast<float*>(std::malloc(bytes));
  float* hb = static_cast<float*>(std::malloc(bytes));
  float* hc = static_cast<float*>(std::malloc(bytes));
  std::srand(12345);
  for (int i = 0; i < n; ++i) {
    ha[i] = std::rand() / static_cast<float>(RAND_MAX);
    hb[i] = std::rand() / static_cast<float>(RAND_MAX) - 0.5f;
    hc[i] = NAN;
  }
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  CHECK(cudaMalloc((void**)&dc, bytes));
  CHECK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dc, 0xff, bytes));  // NaN until written

  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  std::printf("launch \"vectorAdd<<<%d, %d>>>\"\n", blocks, threads);
  vectorAdd<<<blocks, threads>>>(da, db, dc, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    if (!(hc[i] == ha[i] + hb[i])) {
      if (bad++ < 5) std::fprintf(stderr, "c[%d] = %g, expected %g\n", i, hc[i], ha[i] + hb[i]);
    }
  }
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  std::free(ha);
  std::free(hb);
  std::free(hc);
  if (bad != 0) {
    std::printf("FAILED: %d of %d elements wrong\n", bad, n);
    return 1;
  }
  std::printf("PASSED: vector add of %d elements\n", n);
  return 0;
}
