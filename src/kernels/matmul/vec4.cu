// Rung 6 of the GPU matmul ladder [vec4]: 16-byte vector loads and stores, with the A tile transposed.
// Global loads of A and B, shared loads of both fragments and the stores of C move 16 bytes at a time
// (float4 for float32 and int32, double2 for float64). The A tile is stored transposed, as[k][m], so a
// thread's TM values of A for one k are contiguous and come in TM/4 vector loads instead of TM scalar
// loads down a column.
//
// What changed from rung 5: vectorised global and shared accesses, A transposed in shared memory.
// What it should buy: a quarter of the load instructions (LDG.E.128, LDS.128), which frees issue slots
// for FFMA; the A fragment loads no longer go down a column, so they no longer conflict on banks, and
// the shared loads' conflicts fall four-fold with their instructions. The B fragment's 16-byte loads,
// 32 bytes apart across a quarter-warp, still conflict 2-way (the profiler's counts,
// tests/ops/test_matmul_ladder_counters.cpp): rung 7's warp tiling removes that. Edge tiles: a tile that crosses the
// matrix edge, or an operand whose base or leading dimension is not 16-byte aligned, is loaded element
// by element with zero fill into the same shared layout (decided per tile, uniformly for the block), so
// interior tiles keep the vector path. The transposing store into as[k][m] still conflicts on banks.
#include <gpulab/kernel.hpp>

#include "matmul_common.hpp"

namespace {

template <class T, class S>
__global__ void GPULAB_MATMUL_LAUNCH_BOUNDS(S::threads)
    vec4_matmul(matrix_view<const T> a, matrix_view<const T> b, matrix_view<T> c, T alpha, T beta) {
  constexpr int BM = S::bm, BN = S::bn, BK = S::bk, TM = S::tm, TN = S::tn;
  constexpr int VW = vec_width<T>;
  constexpr int threads = S::threads;
  constexpr int a_vectors = BM * BK / VW / threads, b_vectors = BK * BN / VW / threads;  // per thread
  static_assert(BK % VW == 0 && BN % VW == 0 && TM % VW == 0 && TN % VW == 0, "tiles are whole vectors");
  static_assert(a_vectors * threads * VW == BM * BK && b_vectors * threads * VW == BK * BN,
                "every thread loads the same number of vectors of each tile");
  alignas(16) __shared__ T as[BK * BM];  // transposed: as[k * BM + m]
  alignas(16) __shared__ T bs[BK * BN];  // bs[k * BN + n]

  const int tid = static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * BM, col0 = static_cast<int>(blockIdx.x) * BN;
  const int m = c.rows(), n = c.cols(), k_total = a.cols();
  const index_t lda = a.ld(), ldb = b.ld();
  const T* a_tile = a.data() + static_cast<index_t>(row0) * lda;  // advances by BK columns a step
  const T* b_tile = b.data() + col0;                               // advances by BK rows a step
  const bool a_vector = vector_rows(a) && row0 + BM <= m;
  const bool b_vector = vector_rows(b) && col0 + BN <= n;
  const int t_col = tid % (BN / TN), t_row = tid / (BN / TN);

  T acc[TM][TN] = {};
  for (int k0 = 0; k0 < k_total; k0 += BK, a_tile += BK, b_tile += BK * ldb) {
    const bool k_inside = k0 + BK <= k_total;
    // A: vector v covers row r, columns kq .. kq+VW-1 of the tile; stored transposed.
#pragma unroll
    for (int s = 0; s < a_vectors; ++s) {
      const int v = tid + s * threads, r = v / (BK / VW), kq = (v % (BK / VW)) * VW;
      const Vec16<T> x = load16_or_zero(a_tile + r * lda + kq, a_vector && k_inside,
                                        [&](int q) { return row0 + r < m && k0 + kq + q < k_total; });
#pragma unroll
      for (int q = 0; q < VW; ++q) as[(kq + q) * BM + r] = x.v[q];
    }
    // B: vector v covers row r (a k), columns nq .. nq+VW-1.
#pragma unroll
    for (int s = 0; s < b_vectors; ++s) {
      const int v = tid + s * threads, r = v / (BN / VW), nq = (v % (BN / VW)) * VW;
      const Vec16<T> x = load16_or_zero(b_tile + r * ldb + nq, b_vector && k_inside,
                                        [&](int q) { return k0 + r < k_total && col0 + nq + q < n; });
      store16(&bs[r * BN + nq], x);  // one vector store on either path
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      T reg_m[TM], reg_n[TN];
#pragma unroll
      for (int v = 0; v < TM; v += VW) {
        const Vec16<T> x = load16(&as[kk * BM + t_row * TM + v]);
#pragma unroll
        for (int q = 0; q < VW; ++q) reg_m[v + q] = x.v[q];
      }
#pragma unroll
      for (int v = 0; v < TN; v += VW) {
        const Vec16<T> x = load16(&bs[kk * BN + t_col * TN + v]);
#pragma unroll
        for (int q = 0; q < VW; ++q) reg_n[v + q] = x.v[q];
      }
      outer_product(acc, reg_m, reg_n);
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    store_row_segment<true>(c, row0 + t_row * TM + i, col0 + t_col * TN, acc[i], alpha, beta);
  }
}

template <class T>
using Vec4Tile = RegisterBlockTile<T>;  // rung 5's tiles, so the two compare like for like

}  // namespace

GPULAB_EXPORT_KERNEL(vec4_matmul<float, Vec4Tile<float>>);
GPULAB_EXPORT_KERNEL(vec4_matmul<double, Vec4Tile<double>>);
GPULAB_EXPORT_KERNEL(vec4_matmul<std::int32_t, Vec4Tile<std::int32_t>>);

namespace {

template <class T>
void run_vec4(const gpulab::MatmulArgs<T>& args, const gpulab::MatmulContext& context) {
  using S = Vec4Tile<T>;
  launch_rung<T>(vec4_matmul<T, S>, tile_grid(args.c, S::bm, S::bn), gpulab::Dim3(S::threads), 0, args, context);
}

#if GPULAB_REGISTERING_COMPILATION
const bool vec4_registered = register_gpu_rung(
    "vec4", "16-byte vector loads and stores, A tile transposed in shared memory", 6, needs_row_major,
    [](const auto& args, const auto& context) { run_vec4(args, context); });
#endif

}  // namespace
