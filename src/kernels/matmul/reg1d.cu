// Rung 4 of the GPU matmul ladder [reg1d]: 1-D register blocking. A block computes a BM x BN tile of C
// with BM*BN/TM threads; each thread computes TM outputs of one column, keeping them in registers.
// Per step of BK, the block stages a BM x BK tile of A and a BK x BN tile of B in shared memory (one
// element per thread each, zero outside the matrix); then, for each k, a thread loads one B value into
// a register and reuses it for its TM multiply-adds.
//
// What changed from rung 3: TM outputs per thread instead of 1, and larger, non-square tiles.
// What it should buy: shared-memory loads per multiply-add drop from 2 to (1 + 1/TM); arithmetic
// intensity per block grows with the tile: each element is fetched once per 64-wide tile instead of
// once per 16-wide one, so global traffic falls four-fold (the profiler's counts,
// tests/ops/test_matmul_ladder_counters.cpp). Reads operands as row-major arrays (transposed operands
// are refused).
#include <gpulab/kernel.hpp>

#include "matmul_common.hpp"

namespace {

template <class T, class S>
__global__ void GPULAB_MATMUL_LAUNCH_BOUNDS(S::threads)
    reg1d_matmul(matrix_view<const T> a, matrix_view<const T> b, matrix_view<T> c, T alpha, T beta) {
  constexpr int BM = S::bm, BN = S::bn, BK = S::bk, TM = S::tm;
  constexpr int threads = S::threads;
  static_assert(BM % TM == 0 && (BM * BK) % threads == 0 && (BK * BN) % threads == 0,
                "every thread loads the same number of elements of each tile");
  __shared__ T as[BM * BK];  // as[r * BK + k]
  __shared__ T bs[BK * BN];  // bs[k * BN + n]

  const int tid = static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * BM, col0 = static_cast<int>(blockIdx.x) * BN;
  const int m = c.rows(), n = c.cols(), k_total = a.cols();
  const index_t lda = a.ld(), ldb = b.ld();
  const T* a_block = a.data() + static_cast<index_t>(row0) * lda;
  const T* b_block = b.data() + col0;
  const int t_col = tid % BN, t_row = tid / BN;  // outputs (t_row*TM + i, t_col)

  T acc[TM] = {};
  for (int k0 = 0; k0 < k_total; k0 += BK) {
    stage_tile<BM, BK, threads>(as, a_block + k0, lda, m - row0, k_total - k0, tid);
    stage_tile<BK, BN, threads>(bs, b_block + k0 * ldb, ldb, k_total - k0, n - col0, tid);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      const T b_value = bs[kk * BN + t_col];
#pragma unroll
      for (int i = 0; i < TM; ++i) acc[i] += as[(t_row * TM + i) * BK + kk] * b_value;
    }
    __syncthreads();
  }

  const int col = col0 + t_col;
  if (col >= n) return;
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + t_row * TM + i;
    if (row < m) store_output(c.data() + static_cast<index_t>(row) * c.ld() + col, acc[i], alpha, beta);
  }
}

using Reg1dTile = BlockTile<64, 64, 8, 8>;  // 512 threads, 8 outputs each

}  // namespace

GPULAB_EXPORT_KERNEL(reg1d_matmul<float, Reg1dTile>);
GPULAB_EXPORT_KERNEL(reg1d_matmul<double, Reg1dTile>);
GPULAB_EXPORT_KERNEL(reg1d_matmul<std::int32_t, Reg1dTile>);

namespace {

template <class T>
void run_reg1d(const gpulab::MatmulArgs<T>& args, const gpulab::MatmulContext& context) {
  using S = Reg1dTile;
  launch_rung<T>(reg1d_matmul<T, S>, tile_grid(args.c, S::bm, S::bn), gpulab::Dim3(S::threads), 0, args, context);
}

#if GPULAB_REGISTERING_COMPILATION
const bool reg1d_registered = register_gpu_rung(
    "reg1d", "1-D register blocking: 64x64 block tiles, 8 outputs of a column per thread", 4, needs_row_major,
    [](const auto& args, const auto& context) { run_reg1d(args, context); });
#endif

}  // namespace
