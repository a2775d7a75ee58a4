// Rung 3 of the GPU matmul ladder [shared]: the guide's 16x16 shared-memory tiling, done right. A block
// stages a TILE x TILE tile of A and of B in shared memory, each thread loading one element of each
// (zero outside the matrix), then every thread takes TILE products from shared memory.
//
// The guide's printed kernel stores s_a[ty, tx] = a[i, k0 + tx] with i taken from the x index, so
// s_a holds the wrong rows and the result is wrong (guide_shared_matmul in
// tests/ops/gpu_matmul_test_kernels.cu keeps it, and a test shows it). Here the row comes from y and
// the column from x for both tiles:
//   s_a[ty][tx] = A(row0 + ty, k0 + tx),  s_b[ty][tx] = B(k0 + ty, col0 + tx).
//
// What it should buy over rung 2: each element of A and B is fetched from global memory once per tile
// instead of once per output, cutting global traffic TILE-fold; the limit becomes shared-memory
// bandwidth (two shared loads per multiply-add). Operands are read through their views (any layout).
#include <gpulab/kernel.hpp>

#include "matmul_common.hpp"

namespace {

template <class T, int TILE>
__global__ void GPULAB_MATMUL_LAUNCH_BOUNDS(TILE* TILE)
    shared_matmul(matrix_view<const T> a, matrix_view<const T> b, matrix_view<T> c, T alpha, T beta) {
  __shared__ T s_a[TILE][TILE];
  __shared__ T s_b[TILE][TILE];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int row = static_cast<int>(blockIdx.y) * TILE + ty;
  const int col = static_cast<int>(blockIdx.x) * TILE + tx;
  const int m = c.rows(), n = c.cols(), k_total = a.cols();
  T sum{0};
  for (int k0 = 0; k0 < k_total; k0 += TILE) {
    s_a[ty][tx] = row < m && k0 + tx < k_total ? a(row, k0 + tx) : T(0);
    s_b[ty][tx] = k0 + ty < k_total && col < n ? b(k0 + ty, col) : T(0);
    __syncthreads();  // the tiles are complete
#pragma unroll
    for (int k = 0; k < TILE; ++k) sum += s_a[ty][k] * s_b[k][tx];
    __syncthreads();  // everyone is done with the tiles before they are overwritten
  }
  if (row < m && col < n) store_output(&c(row, col), sum, alpha, beta);
}

constexpr int shared_tile = 16;  // the guide's TILE_SIZE

}  // namespace

GPULAB_EXPORT_KERNEL(shared_matmul<float, shared_tile>);
GPULAB_EXPORT_KERNEL(shared_matmul<double, shared_tile>);
GPULAB_EXPORT_KERNEL(shared_matmul<std::int32_t, shared_tile>);

namespace {

template <class T>
void run_shared(const gpulab::MatmulArgs<T>& args, const gpulab::MatmulContext& context) {
  launch_rung<T>(shared_matmul<T, shared_tile>, tile_grid(args.c, shared_tile, shared_tile),
                 gpulab::Dim3(shared_tile, shared_tile), 0, args, context);
}

#if GPULAB_REGISTERING_COMPILATION
const bool shared_registered = register_gpu_rung(
    "shared", "the guide's 16x16 shared-memory tiling, with the tile loads corrected", 3, {},
    [](const auto& args, const auto& context) { run_shared(args, context); });
#endif

}  // namespace
