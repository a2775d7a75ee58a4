// Rung 2 of the GPU matmul ladder [coalesced]: the naive kernel with the thread mapping turned round.
// The x index now picks the COLUMN, so the 32 threads of a warp (32 x 8 blocks: one warp, one row)
// read 32 consecutive elements of B and write 32 consecutive elements of C, and all read the same
// element of A (a broadcast).
//
// What it should buy: one 128-byte transaction where rung 1 issued 32, so several times rung 1's speed
// on row-major operands; it is still bound by memory traffic, since every A and B element is fetched
// from L1/L2 once per output that uses it. Operands are read through their views (any layout).
#include <gpulab/kernel.hpp>

#include "matmul_common.hpp"

namespace {

template <class T, int BX, int BY>
__global__ void GPULAB_MATMUL_LAUNCH_BOUNDS(BX* BY)
    coalesced_matmul(matrix_view<const T> a, matrix_view<const T> b, matrix_view<T> c, T alpha, T beta) {
  const auto [j, i] = gpulab::grid<2>();  // x -> column j: consecutive threads, consecutive columns
  if (i < c.rows() && j < c.cols()) {
    T sum{0};
    for (int k = 0; k < a.cols(); ++k) sum += a(i, k) * b(k, j);
    store_output(&c(i, j), sum, alpha, beta);
  }
}

constexpr int coalesced_bx = 32, coalesced_by = 8;

}  // namespace

GPULAB_EXPORT_KERNEL(coalesced_matmul<float, coalesced_bx, coalesced_by>);
GPULAB_EXPORT_KERNEL(coalesced_matmul<double, coalesced_bx, coalesced_by>);
GPULAB_EXPORT_KERNEL(coalesced_matmul<std::int32_t, coalesced_bx, coalesced_by>);

namespace {

template <class T>
void run_coalesced(const gpulab::MatmulArgs<T>& args, const gpulab::MatmulContext& context) {
  launch_rung<T>(coalesced_matmul<T, coalesced_bx, coalesced_by>, tile_grid(args.c, coalesced_by, coalesced_bx),
                 gpulab::Dim3(coalesced_bx, coalesced_by), 0, args, context);
}

#if GPULAB_REGISTERING_COMPILATION
const bool coalesced_registered = register_gpu_rung(
    "coalesced", "naive with x index to column: a warp reads B and writes C in one 128-byte line", 2, {},
    [](const auto& args, const auto& context) { run_coalesced(args, context); });
#endif

}  // namespace
