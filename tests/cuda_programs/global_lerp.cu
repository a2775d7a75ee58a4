// Code in the style of the CUDA samples' helper_math.h, which countless programs copy: <math.h>, then a
// global lerp(float, float, float) of the program's own, used in a kernel and on the host. nvcc
// compiles it as C++17, its default; the simulator compiles C++20, where libstdc++'s <math.h> also
// declares a global lerp, which the simulator's shadow of <math.h> holds back so the program builds
// unchanged. Checked
// against the host on fresh random inputs of an odd size.
#include <math.h>

#include <cstdio>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

inline __host__ __device__ float lerp(float a, float b, float t) { return a + t * (b - a); }

__global__ void blend(const float* a, const float* b, float t, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = lerp(a[i], b[i], t) + sqrtf(fabsf(a[i]));
}

int main() {
  const int n = 1001;
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  std::vector<float> a(n), b(n), out(n, NAN);
  for (int i = 0; i < n; ++i) a[i] = d(rng), b[i] = d(rng);
  float *da, *db, *dout;
  CHECK(cudaMalloc(&da, n * sizeof(float)));
  CHECK(cudaMalloc(&db, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dout, out.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const float t = 0.3f;
  blend<<<(n + 127) / 128, 128>>>(da, db, t, dout, n);
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float want = lerp(a[i], b[i], t) + sqrtf(fabsf(a[i]));
    if (!(fabsf(out[i] - want) <= 1e-5f * (1.0f + fabsf(want)))) ++bad;
  }
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dout));
  std::printf("%s: %d of %d blends differ from the host's\n", bad == 0 ? "PASSED" : "FAILED", bad, n);
  return bad == 0 ? 0 : 1;
}
