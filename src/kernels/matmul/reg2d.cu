// Rung 5 of the GPU matmul ladder [reg2d]: 2-D register blocking. Each thread computes a TM x TN block
// of outputs. Per k it loads TM values of A and TN values of B from shared memory into registers and
// forms their outer product: TM*TN multiply-adds for TM+TN shared loads.
//
// What changed from rung 4: a TM x TN thread tile instead of TM x 1, and 128 x 128 block tiles (64 x 64
// for float64, whose accumulators take two registers each).
// What it should buy: shared loads per multiply-add fall from (1 + 1/TM) to (1/TM + 1/TN), a quarter
// with 8 x 8; each block reuses every loaded element 128 times. Still scalar global and shared
// accesses, and the A tile is read down a column of shared memory (bank conflicts): rung 6's targets.
#include <gpulab/kernel.hpp>

#include "matmul_common.hpp"

namespace {

template <class T, class S>
__global__ void GPULAB_MATMUL_LAUNCH_BOUNDS(S::threads)
    reg2d_matmul(matrix_view<const T> a, matrix_view<const T> b, matrix_view<T> c, T alpha, T beta) {
  constexpr int BM = S::bm, BN = S::bn, BK = S::bk, TM = S::tm, TN = S::tn;
  constexpr int threads = S::threads;
  static_assert((BM * BK) % threads == 0 && (BK * BN) % threads == 0,
                "every thread loads the same number of elements of each tile");
  __shared__ T as[BM * BK];  // as[r * BK + k]
  __shared__ T bs[BK * BN];  // bs[k * BN + n]

  const int tid = static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * BM, col0 = static_cast<int>(blockIdx.x) * BN;
  const int m = c.rows(), n = c.cols(), k_total = a.cols();
  const index_t lda = a.ld(), ldb = b.ld();
  const T* a_block = a.data() + static_cast<index_t>(row0) * lda;
  const T* b_block = b.data() + col0;
  const int t_col = tid % (BN / TN), t_row = tid / (BN / TN);  // outputs (t_row*TM + i, t_col*TN + j)

  T acc[TM][TN] = {};
  T reg_m[TM], reg_n[TN];
  for (int k0 = 0; k0 < k_total; k0 += BK) {
    stage_tile<BM, BK, threads>(as, a_block + k0, lda, m - row0, k_total - k0, tid);
    stage_tile<BK, BN, threads>(bs, b_block + k0 * ldb, ldb, k_total - k0, n - col0, tid);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int i = 0; i < TM; ++i) reg_m[i] = as[(t_row * TM + i) * BK + kk];
#pragma unroll
      for (int j = 0; j < TN; ++j) reg_n[j] = bs[kk * BN + t_col * TN + j];
      outer_product(acc, reg_m, reg_n);
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    store_row_segment<false>(c, row0 + t_row * TM + i, col0 + t_col * TN, acc[i], alpha, beta);
  }
}

template <class T>
using Reg2dTile = RegisterBlockTile<T>;

}  // namespace

GPULAB_EXPORT_KERNEL(reg2d_matmul<float, Reg2dTile<float>>);
GPULAB_EXPORT_KERNEL(reg2d_matmul<double, Reg2dTile<double>>);
GPULAB_EXPORT_KERNEL(reg2d_matmul<std::int32_t, Reg2dTile<std::int32_t>>);

namespace {

template <class T>
void run_reg2d(const gpulab::MatmulArgs<T>& args, const gpulab::MatmulContext& context) {
  using S = Reg2dTile<T>;
  launch_rung<T>(reg2d_matmul<T, S>, tile_grid(args.c, S::bm, S::bn), gpulab::Dim3(S::threads), 0, args, context);
}

#if GPULAB_REGISTERING_COMPILATION
const bool reg2d_registered = register_gpu_rung(
    "reg2d", "2-D register blocking: 128x128 block tiles, an 8x8 outer product per thread", 5, needs_row_major,
    [](const auto& args, const auto& context) { run_reg2d(args, context); });
#endif

}  // namespace
