// Rung 1 of the GPU matmul ladder [naive]: the guide's first kernel as written. One thread per output,
// 16x16 threads a block, and, as in the guide, the x index (the fast-varying one within a warp) picks
// the ROW: `i, j = cuda.grid(2)`, `result[i, j] = sum(a[i, k] * b[k, j])`.
//
// What it should buy: nothing yet; it is the baseline. Neighbouring threads of a warp read A a whole row
// apart and write C a row apart, so every load of A and every store of C is its own memory transaction
// (B is read at one address per half-warp and broadcast). Every operand is read through its view, so
// transposed operands work here, at the speed this layout gives them.
#include <gpulab/kernel.hpp>

#include "matmul_common.hpp"

namespace {

template <class T, int BX, int BY>
__global__ void GPULAB_MATMUL_LAUNCH_BOUNDS(BX* BY)
    naive_matmul(matrix_view<const T> a, matrix_view<const T> b, matrix_view<T> c, T alpha, T beta) {
  const auto [i, j] = gpulab::grid<2>();  // the guide's mapping: x -> row i, y -> column j
  if (i < c.rows() && j < c.cols()) {
    T sum{0};
    for (int k = 0; k < a.cols(); ++k) sum += a(i, k) * b(k, j);
    store_output(&c(i, j), sum, alpha, beta);
  }
}

constexpr int naive_block = 16;  // the guide's 16x16

}  // namespace

GPULAB_EXPORT_KERNEL(naive_matmul<float, naive_block, naive_block>);
GPULAB_EXPORT_KERNEL(naive_matmul<double, naive_block, naive_block>);
GPULAB_EXPORT_KERNEL(naive_matmul<std::int32_t, naive_block, naive_block>);

namespace {

template <class T>
void run_naive(const gpulab::MatmulArgs<T>& args, const gpulab::MatmulContext& context) {
  const gpulab::Dim3 block(naive_block, naive_block);
  const gpulab::Dim3 grid(gpulab::grid_for(args.c.rows(), block.x), gpulab::grid_for(args.c.cols(), block.y));  // x: rows
  launch_rung<T>(naive_matmul<T, naive_block, naive_block>, grid, block, 0, args, context);
}

#if GPULAB_REGISTERING_COMPILATION
const bool naive_registered = register_gpu_rung(
    "naive", "the guide's kernel: one thread per output, x index to row (uncoalesced), 16x16 blocks", 1, {},
    [](const auto& args, const auto& context) { run_naive(args, context); });
#endif

}  // namespace
