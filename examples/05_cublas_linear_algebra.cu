// The guide's next step, "linear algebra through cuBLAS", as a plain CUDA program: the guide's
// 1024 x 1024 float32 product by cublasSgemm against its 16 x 16-block naive kernel, timed with events
// after a warm-up (so, unlike the guide's figures, no one-time set-up is in the time), then a linear
// system solved with cuBLAS alone (two triangular solves on a Cholesky-style factor, the residual by
// gemv). Self-checking against float64: exits 1 on a wrong answer. Built unchanged by nvcc for a GPU
// and by gpulab-simcc for the simulator:
//   gpulab-simcc -O2 05_cublas_linear_algebra.cu -lcublas -o linalg && ./linalg [n]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    const cudaError_t e = (call);                                                                  \
    if (e != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e));   \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)
#define CHECK_CUBLAS(call)                                                                         \
  do {                                                                                             \
    const cublasStatus_t s = (call);                                                               \
    if (s != CUBLAS_STATUS_SUCCESS) {                                                              \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cublasGetStatusString(s)); \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// The guide's kernel: one thread per element of C, row-major, on a 2-D grid of 16 x 16 blocks.
__global__ void matmulNaive(const float* a, const float* b, float* c, int n) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  if (n <= 0) {
    std::fprintf(stderr, "usage: %s [n > 0]\n", argv[0]);
    return 2;
  }
  const std::size_t count = static_cast<std::size_t>(n) * n;
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> a(count), b(count), c_blas(count), c_naive(count);
  for (auto& v : a) v = dist(rng);
  for (auto& v : b) v = dist(rng);

  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, count * sizeof(float)));
  CHECK(cudaMalloc(&db, count * sizeof(float)));
  CHECK(cudaMalloc(&dc, count * sizeof(float)));
  CHECK(cudaMemcpy(da, a.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  // Row-major C = A B is column-major C^T = B^T A^T: cuBLAS is column-major, so pass B first.
  const float one = 1.0f, zero = 0.0f;
  auto blas = [&] { CHECK_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, db, n, da, n, &zero, dc, n)); };
  const dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
  auto naive = [&] { matmulNaive<<<grid, block>>>(da, db, dc, n); CHECK(cudaGetLastError()); };
  auto time_ms = [&](auto&& run) {
    run();  // warm-up: first-call set-up is not part of the figure
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(start));
    run();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
  };
  const float ms_blas = time_ms(blas);
  CHECK(cudaMemcpy(c_blas.data(), dc, count * sizeof(float), cudaMemcpyDeviceToHost));
  const float ms_naive = time_ms(naive);
  CHECK(cudaMemcpy(c_naive.data(), dc, count * sizeof(float), cudaMemcpyDeviceToHost));

  // Both against float64, by relative Frobenius error; the bound is 4 n u for float.
  double num_blas = 0, num_naive = 0, den = 0;
  std::vector<double> row(n);
  for (int i = 0; i < n; ++i) {
    std::fill(row.begin(), row.end(), 0.0);
    for (int k = 0; k < n; ++k) {
      const double aik = a[static_cast<std::size_t>(i) * n + k];
      for (int j = 0; j < n; ++j) row[j] += aik * b[static_cast<std::size_t>(k) * n + j];
    }
    for (int j = 0; j < n; ++j) {
      const double eb = c_blas[static_cast<std::size_t>(i) * n + j] - row[j];
      const double en = c_naive[static_cast<std::size_t>(i) * n + j] - row[j];
      num_blas += eb * eb;
      num_naive += en * en;
      den += row[j] * row[j];
    }
  }
  const double err_blas = std::sqrt(num_blas / den), err_naive = std::sqrt(num_naive / den);
  const double bound = 4.0 * n * 0x1p-24;
  const double gflop = 2.0 * n * static_cast<double>(n) * n * 1e-9;
  std::printf("%d x %d float32 product          time       GFLOP/s   rel. error (bound %.1e)\n", n, n, bound);
  std::printf("  naive kernel (16x16 blocks)  %8.3f ms %9.2f   %.2e\n", ms_naive, gflop / (ms_naive * 1e-3), err_naive);
  std::printf("  cublasSgemm                  %8.3f ms %9.2f   %.2e\n", ms_blas, gflop / (ms_blas * 1e-3), err_blas);
  std::printf("  speed-up of cuBLAS over the naive kernel: %.1fx\n", ms_naive / ms_blas);
  bool ok = err_blas <= bound && err_naive <= bound;

  // A x = rhs with A = L L^T: L lower triangular with a dominant diagonal, rhs made from a known x. Two
  // triangular solves (L y = rhs, L^T x = y) recover x; the residual ||A x - rhs|| / ||rhs|| by gemv.
  const int m = n < 512 ? n : 512;
  std::vector<float> l(static_cast<std::size_t>(m) * m, 0.0f), x_true(m), rhs(m, 0.0f), x(m);
  for (int j = 0; j < m; ++j)
    for (int i = j; i < m; ++i) l[static_cast<std::size_t>(j) * m + i] = i == j ? 2.0f + dist(rng) * 0.5f : dist(rng) / m;
  for (auto& v : x_true) v = dist(rng);
  std::vector<double> lt_x(m, 0.0);  // L^T x, then L (L^T x), in float64
  for (int i = 0; i < m; ++i)
    for (int k = i; k < m; ++k) lt_x[i] += static_cast<double>(l[static_cast<std::size_t>(i) * m + k]) * x_true[k];
  for (int i = 0; i < m; ++i) {
    double s = 0;
    for (int k = 0; k <= i; ++k) s += static_cast<double>(l[static_cast<std::size_t>(k) * m + i]) * lt_x[k];
    rhs[i] = static_cast<float>(s);
  }
  float *dl, *dx;
  CHECK(cudaMalloc(&dl, l.size() * sizeof(float)));
  CHECK(cudaMalloc(&dx, m * sizeof(float)));
  CHECK(cudaMemcpy(dl, l.data(), l.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dx, rhs.data(), m * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUBLAS(cublasStrsv(handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, dl, m, dx, 1));
  CHECK_CUBLAS(cublasStrsv(handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, m, dl, m, dx, 1));
  CHECK(cudaMemcpy(x.data(), dx, m * sizeof(float), cudaMemcpyDeviceToHost));
  double ex = 0, nx = 0;
  for (int i = 0; i < m; ++i) {
    ex += (x[i] - static_cast<double>(x_true[i])) * (x[i] - static_cast<double>(x_true[i]));
    nx += static_cast<double>(x_true[i]) * x_true[i];
  }
  const double err_x = std::sqrt(ex / nx);
  std::printf("%d x %d system A x = b, A = L L^T, by two cublasStrsv: rel. error of x %.2e\n", m, m, err_x);
  ok = ok && err_x <= 1e-4;

  CHECK_CUBLAS(cublasDestroy(handle));
  for (float* p : {da, db, dc, dl, dx}) CHECK(cudaFree(p));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
