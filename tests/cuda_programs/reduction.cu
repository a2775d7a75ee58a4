// Parallel sum reductions, as the CUDA samples write them: one in dynamic shared memory
// (extern __shared__, sized by the launch), one with warp shuffles, templated on the block size and
// the element type. Self-checking against a float64 host sum, on a length no block size divides.
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

// Tree reduction in dynamic shared memory: each block writes its partial sum.
template <class T, unsigned BLOCK>
__global__ void reduceShared(const T* in, T* partial, unsigned n) {
  extern __shared__ __align__(sizeof(double)) unsigned char smem_bytes[];
  T* sdata = reinterpret_cast<T*>(smem_bytes);
  const unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BLOCK * 2) + threadIdx.x;
  const unsigned stride = BLOCK * 2 * gridDim.x;
  T sum = 0;
  while (i < n) {  // grid-stride, two elements per step
    sum += in[i];
    if (i + BLOCK < n) sum += in[i + BLOCK];
    i += stride;
  }
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = sum = sum + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

template <class T>
__device__ __forceinline__ T warpReduceSum(unsigned mask, T v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(mask, v, offset);
  return v;
}

// Warp shuffles within each warp, one shared slot per warp, then the first warp finishes.
template <class T, unsigned BLOCK>
__global__ void reduceShuffle(const T* __restrict__ in, T* __restrict__ partial, unsigned n) {
  static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");
  __shared__ T warpSums[BLOCK / 32];
  T sum = 0;
  for (unsigned i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x) sum += in[i];
  sum = warpReduceSum(0xffffffffu, sum);
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warpSums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < BLOCK / 32 ? warpSums[lane] : T(0);
    sum = warpReduceSum(0xffffffffu, sum);
    if (lane == 0) partial[blockIdx.x] = sum;
  }
}

template <class T>
static bool check(const char* what, const std::vector<T>& partial, double expected, double tolerance) {
  double got = 0.0;
  for (T p : partial) got += static_cast<double>(p);
  const double rel = std::fabs(got - expected) / std::fabs(expected);
  const bool ok = rel < tolerance;  // false for NaN too
  std::printf("%s: %s: sum %.10g, expected %.10g (relative error %.3g)\n", ok ? "ok" : "FAILED", what, got, expected,
              rel);
  return ok;
}

template <class T>
static bool run(const char* type, double tolerance) {
  const unsigned n = 1000003;  // prime
  std::mt19937 gen(2024);
  std::uniform_real_distribution<double> dist(0.5, 1.5);
  std::vector<T> host(n);
  double expected = 0.0;
  for (auto& x : host) {
    x = static_cast<T>(dist(gen));
    expected += static_cast<double>(x);
  }
  constexpr unsigned BLOCK = 256;
  const unsigned blocks = 61;
  T *in, *partial;
  CHECK(cudaMalloc(&in, n * sizeof(T)));
  CHECK(cudaMalloc(&partial, blocks * sizeof(T)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  std::vector<T> out(blocks);
  bool ok = true;

  CHECK(cudaMemset(partial, 0xff, blocks * sizeof(T)));  // NaN until written
  reduceShared<T, BLOCK><<<blocks, BLOCK, BLOCK * sizeof(T)>>>(in, partial, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), partial, blocks * sizeof(T), cudaMemcpyDeviceToHost));
  ok &= check((std::string("shared memory, ") + type).c_str(), out, expected, tolerance);

  CHECK(cudaMemset(partial, 0xff, blocks * sizeof(T)));
  reduceShuffle<T, BLOCK><<<blocks, BLOCK>>>(in, partial, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), partial, blocks * sizeof(T), cudaMemcpyDeviceToHost));
  ok &= check((std::string("warp shuffles, ") + type).c_str(), out, expected, tolerance);

  CHECK(cudaFree(in));
  CHECK(cudaFree(partial));
  return ok;
}

int main() {
  bool ok = run<float>("float", 1e-5);
  ok &= run<double>("double", 1e-12);
  std::printf("%s: reductions\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
