// Tiled matrix multiply C = A * B with shared-memory tiles, on shapes that are no multiple of the tile.
// Self-checking against a float64 host product by relative Frobenius error.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

template <int TILE>
__global__ void matmulTiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                            int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int ka = t * TILE + threadIdx.x;
    const int kb = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

static bool run(int M, int N, int K) {
  std::mt19937 gen(static_cast<unsigned>(M * 131 + N * 17 + K));
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> a(static_cast<size_t>(M) * K), b(static_cast<size_t>(K) * N), c(static_cast<size_t>(M) * N, NAN);
  for (auto& x : a) x = dist(gen);
  for (auto& x : b) x = dist(gen);
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, a.size() * sizeof(float)));
  CHECK(cudaMalloc(&dB, b.size() * sizeof(float)));
  CHECK(cudaMalloc(&dC, c.size() * sizeof(float)));
  CHECK(cudaMemcpy(dA, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dC, c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice));  // NaN-poisoned
  constexpr int TILE = 16;
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmulTiled<TILE><<<grid, block>>>(dA, dB, dC, M, N, K);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c.data(), dC, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
  double err = 0.0, ref = 0.0;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double s = 0.0;
      for (int k = 0; k < K; ++k) s += static_cast<double>(a[i * K + k]) * b[k * N + j];
      const double d = c[static_cast<size_t>(i) * N + j] - s;
      err += d * d;
      ref += s * s;
    }
  }
  const double rel = std::sqrt(err / ref);
  const bool ok = rel < 1e-5;  // also false for NaN
  std::printf("%s: %dx%d * %dx%d: relative Frobenius error %.3g\n", ok ? "ok" : "FAILED", M, K, K, N, rel);
  return ok;
}

int main() {
  bool ok = true;
  ok &= run(1, 1, 1);
  ok &= run(17, 33, 31);
  ok &= run(129, 95, 67);
  std::printf("%s: tiled matmul\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
