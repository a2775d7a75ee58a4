// Kernels only the GPU-matmul tests use, compiled for every backend like gpulab's own.
//
// guide_shared_matmul is the guide's shared-memory kernel exactly as printed (Numba, translated line by
// line; square n x n, 16x16 blocks). It is NOT a gpulab implementation: it is kept to show that its
// result is wrong. Its bug: `i, j = cuda.grid(2)` takes i (the row) from the x index, and the A tile is
// loaded as s_a[ty, tx] = a[i, k_tile + tx], so row i = bx*16 + tx goes into s_a's row ty: each s_a row
// holds one element from each of 16 different rows of A, not one row of A. The inner product
// s_a[ty, k] * s_b[k, tx] then multiplies unrelated numbers. (rung 3, src/kernels/matmul/shared.cu, is
// the corrected kernel.)
//
// planted_shared_race writes shared memory and reads a neighbour's slot with no barrier between: a
// control that the simulator's racecheck is active for kernels compiled like the ladder's, so that the
// ladder's "no findings" means something.
#include <gpulab/kernel.hpp>

namespace {

constexpr int guide_tile = 16;

__global__ void guide_shared_matmul(gpulab::matrix_view<const float> a, gpulab::matrix_view<const float> b,
                                    gpulab::matrix_view<float> result) {
  const auto [i, j] = gpulab::grid<2>();  // i, j = cuda.grid(2)
  const int n = a.rows();                 // n = a.shape[0]
  __shared__ float s_a[guide_tile][guide_tile];
  __shared__ float s_b[guide_tile][guide_tile];
  float sum = 0.0f;
  for (int k_tile = 0; k_tile < n; k_tile += guide_tile) {
    const int tx = static_cast<int>(threadIdx.x);
    const int ty = static_cast<int>(threadIdx.y);
    if (k_tile + tx < n && i < n) {
      s_a[ty][tx] = a(i, k_tile + tx);  // the printed line: s_a[ty, tx] = a[i, k_tile + tx]
    } else {
      s_a[ty][tx] = 0.0f;
    }
    if (k_tile + ty < n && j < n) {
      s_b[ty][tx] = b(k_tile + ty, j);
    } else {
      s_b[ty][tx] = 0.0f;
    }
    __syncthreads();
    for (int k = 0; k < guide_tile; ++k) sum += s_a[ty][k] * s_b[k][tx];
    __syncthreads();
  }
  if (i < n && j < n) result(i, j) = sum;
}

__global__ void planted_shared_race(int* out) {
  __shared__ int slots[64];
  const int t = static_cast<int>(threadIdx.x);
  slots[t] = t;
  out[t] = slots[(t + 1) % 64];  // no __syncthreads() between the write and a neighbour's read
}

}  // namespace

GPULAB_EXPORT_KERNEL(guide_shared_matmul);
GPULAB_EXPORT_KERNEL(planted_shared_race);
