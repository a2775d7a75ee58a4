// The guide's kernels, in CUDA C++ with gpulab, compiled for CUDA devices and for the simulator
// (gpulab_add_kernels in CMakeLists.txt). The examples launch them by name.
//
// The guide's convention is kept throughout: `i, j = cuda.grid(2)`, so the x index (the one that
// varies fastest within a warp) picks the ROW i of C and the y index the column j.
#include <gpulab/kernel.hpp>

namespace {

using gpulab::matrix_view;

// The guide's first kernel: one thread per element of C, a loop over k.
__global__ void guide_naive_matmul(matrix_view<const float> a, matrix_view<const float> b, matrix_view<float> c) {
  const auto [i, j] = gpulab::grid<2>();
  if (i < c.rows() && j < c.cols()) {
    float sum = 0.0f;
    for (int k = 0; k < a.cols(); ++k) sum += a(i, k) * b(k, j);
    c(i, j) = sum;
  }
}

constexpr int tile = 16;

// The guide's shared-memory kernel exactly as printed. It is wrong: thread (tx, ty) computes C(i, j)
// with i = blockIdx.x * 16 + tx, yet it stores A's element of row i at s_a[ty][tx] and then reads
// s_a[ty][k], i.e. the element that thread (k, ty) loaded, from row blockIdx.x * 16 + k. Likewise
// s_b[k][tx] holds column blockIdx.y * 16 + k of B. So every thread of a block sums
// a(bx*16 + k, kt + k) * b(kt + k, by*16 + k): the same "diagonal" value for the whole 16x16 tile.
// It only looks plausible because the guide's inputs (np.random.rand) are all positive, so every
// sum is about n/4 whichever products it adds.
__global__ void guide_shared_matmul_as_printed(matrix_view<const float> a, matrix_view<const float> b,
                                               matrix_view<float> c) {
  const auto [i, j] = gpulab::grid<2>();
  const int n = a.rows();
  __shared__ float s_a[tile][tile];
  __shared__ float s_b[tile][tile];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  float sum = 0.0f;
  for (int k_tile = 0; k_tile < n; k_tile += tile) {
    s_a[ty][tx] = (k_tile + tx < n && i < n) ? a(i, k_tile + tx) : 0.0f;
    s_b[ty][tx] = (k_tile + ty < n && j < n) ? b(k_tile + ty, j) : 0.0f;
    __syncthreads();
    for (int k = 0; k < tile; ++k) sum += s_a[ty][k] * s_b[k][tx];
    __syncthreads();
  }
  if (i < n && j < n) c(i, j) = sum;
}

// The same kernel made right, keeping the guide's mapping: each thread loads the element of A's row i
// that it will share (s_a[tx][ty] = a(i, kt + ty)) and the element of B's column j
// (s_b[tx][ty] = b(kt + tx, j)), and reads its own row and column back: s_a[tx][k] * s_b[k][ty].
// Any shape works (edges are padded with zeros), not only square n.
__global__ void guide_shared_matmul_fixed(matrix_view<const float> a, matrix_view<const float> b,
                                          matrix_view<float> c) {
  const auto [i, j] = gpulab::grid<2>();
  const int m = c.rows(), n = c.cols(), depth = a.cols();
  __shared__ float s_a[tile][tile];
  __shared__ float s_b[tile][tile];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  float sum = 0.0f;
  for (int k_tile = 0; k_tile < depth; k_tile += tile) {
    s_a[tx][ty] = (i < m && k_tile + ty < depth) ? a(i, k_tile + ty) : 0.0f;
    s_b[tx][ty] = (k_tile + tx < depth && j < n) ? b(k_tile + tx, j) : 0.0f;
    __syncthreads();
    for (int k = 0; k < tile; ++k) sum += s_a[tx][k] * s_b[k][ty];
    __syncthreads();
  }
  if (i < m && j < n) c(i, j) = sum;
}

}  // namespace

GPULAB_EXPORT_KERNEL(guide_naive_matmul);
GPULAB_EXPORT_KERNEL(guide_shared_matmul_as_printed);
GPULAB_EXPORT_KERNEL(guide_shared_matmul_fixed);
