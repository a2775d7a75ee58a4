// Two shared-memory patterns from the CUDA samples: a 256-bin histogram privatised per block with
// shared-memory atomics and merged with global atomics, and a matrix transpose through a 32x33 tile
// (the padding column keeps the column reads free of bank conflicts). Sizes are not multiples of any
// block or tile; results are checked exactly.
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

constexpr int kBins = 256;

__global__ void histogramShared(const unsigned char* data, int n, unsigned* bins) {
  __shared__ unsigned local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}

constexpr int kTile = 32, kRows = 8;  // a 32x32 tile moved by 32x8 threads

__global__ void transposePadded(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x;  // column of `in`
  int y = blockIdx.y * kTile + threadIdx.y;  // row of `in`
  for (int j = 0; j < kTile; j += kRows)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;  // column of `out` (a row of `in`)
  y = blockIdx.x * kTile + threadIdx.y;  // row of `out`
  for (int j = 0; j < kTile; j += kRows)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  int failures = 0;
  std::mt19937 rng(99);

  // Histogram of skewed bytes (a few hot bins: many atomics on the same shared word).
  const int n = 1000003;
  std::vector<unsigned char> data(n);
  std::geometric_distribution<int> skew(0.05);
  for (auto& d : data) d = static_cast<unsigned char>(std::min(skew(rng), 255));
  unsigned char* d_data = nullptr;
  unsigned* d_bins = nullptr;
  CHECK(cudaMalloc(&d_data, n));
  CHECK(cudaMalloc(&d_bins, kBins * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_data, data.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_bins, 0, kBins * sizeof(unsigned)));
  histogramShared<<<24, 192>>>(d_data, n, d_bins);
  CHECK(cudaGetLastError());
  std::vector<unsigned> bins(kBins), want(kBins, 0);
  CHECK(cudaMemcpy(bins.data(), d_bins, kBins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (unsigned char d : data) ++want[d];
  if (bins != want) {
    std::printf("FAIL histogram\n");
    ++failures;
  }

  // Transpose of a 1000 x 777 matrix.
  const int rows = 1000, cols = 777;
  std::vector<float> a(static_cast<size_t>(rows) * cols), t(a.size());
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (auto& v : a) v = dist(rng);
  float *d_a = nullptr, *d_t = nullptr;
  CHECK(cudaMalloc(&d_a, a.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_t, t.size() * sizeof(float)));
  CHECK(cudaMemcpy(d_a, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_t, 0xff, t.size() * sizeof(float)));  // NaN until written
  const dim3 block(kTile, kRows), grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
  transposePadded<<<grid, block>>>(d_a, d_t, rows, cols);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(t.data(), d_t, t.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows && failures == 0; ++r) {
    for (int c = 0; c < cols; ++c) {
      if (t[static_cast<size_t>(c) * rows + r] != a[static_cast<size_t>(r) * cols + c]) {
        std::printf("FAIL transpose at (%d, %d)\n", r, c);
        ++failures;
        break;
      }
    }
  }

  CHECK(cudaFree(d_data));
  CHECK(cudaFree(d_bins));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_t));
  if (failures != 0) return 1;
  std::printf("PASSED\n");
  return 0;
}
