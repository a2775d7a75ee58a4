// Rung 7 of the GPU matmul ladder [warptile]: warp tiling, with bank-conflict-free shared layouts.
// The block tile is split into warp tiles (WM x WN); a warp covers its tile in WNITER sub-tiles side
// by side, and within a sub-tile its 32 threads form a grid of thread_rows x thread_cols, each thread
// holding TM x TN outputs. A k step is twice as deep (BK = 16) as in rung 6.
//
// The transposed A tile is stored swizzled: element (k, m) lives at as[k][m ^ x(k)], where x(k) is a
// multiple of the vector width chosen from k's vector group. In rung 6 the four threads that load one
// row of A (four vectors along k) store into four rows of as with the same column, hence the same bank;
// the swizzle sends them to four different banks, so a warp's transposing stores hit 32 distinct banks.
// Reads stay vector loads: the XOR never splits an aligned vector.
//
// What changed from rung 6: an explicit warp level in the tiling (64x32 warp tiles of two 64x16
// sub-tiles, float32), BK 16, and the swizzled A layout.
// What it should buy: a warp's shared-memory reads touch a compact warp tile (fewer distinct lines per
// fragment load), more independent FMAs per thread per k to hide latency, conflict-free stores into
// the A tile, and fewer barriers per flop (one k step is twice as long).
#include <gpulab/kernel.hpp>

#include "matmul_common.hpp"

namespace {

// Where (k, m) of the transposed A tile lives: m XOR a multiple of the vector width that depends on
// k's vector group, so the threads storing one row of A spread over the banks.
template <class T, int BK>
GPULAB_DEVICE inline int swizzle_a(int k, int m) {
  constexpr int vw = vec_width<T>;
  constexpr int groups = BK / vw;  // vectors along k in one row of the A tile
  constexpr int step = 32 / groups;
  static_assert(32 % groups == 0 && step % vw == 0, "the swizzle must keep vectors whole");
  return m ^ (((k / vw) % groups) * step);
}

template <class T, class S>
__global__ void GPULAB_MATMUL_LAUNCH_BOUNDS(S::threads)
    warptile_matmul(matrix_view<const T> a, matrix_view<const T> b, matrix_view<T> c, T alpha, T beta) {
  constexpr int BM = S::bm, BN = S::bn, BK = S::bk, WM = S::wm, WN = S::wn, WNITER = S::wniter;
  constexpr int TM = S::tm, TN = S::tn, WSUBN = S::wsubn;
  constexpr int VW = vec_width<T>;
  constexpr int threads = S::threads;
  constexpr int WMITER = WM / (S::thread_rows * TM);
  constexpr int WSUBM = WM / WMITER;
  constexpr int a_vectors = BM * BK / VW / threads, b_vectors = BK * BN / VW / threads;
  static_assert(WMITER >= 1 && WM % (S::thread_rows * TM) == 0, "warp tile rows must split into thread rows");
  static_assert(BM % 32 == 0, "the A swizzle permutes within 32 columns");
  static_assert(BK % VW == 0 && BN % VW == 0 && TM % VW == 0 && TN % VW == 0, "tiles are whole vectors");
  static_assert(a_vectors * threads * VW == BM * BK && b_vectors * threads * VW == BK * BN,
                "every thread loads the same number of vectors of each tile");
  alignas(16) __shared__ T as[BK * BM];  // transposed and swizzled: (k, m) at as[k * BM + swizzle_a(k, m)]
  alignas(16) __shared__ T bs[BK * BN];  // bs[k * BN + n]

  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / 32, lane = tid % 32;
  const int warp_row = warp / (BN / WN), warp_col = warp % (BN / WN);
  const int t_row = lane / S::thread_cols, t_col = lane % S::thread_cols;
  const int row0 = static_cast<int>(blockIdx.y) * BM, col0 = static_cast<int>(blockIdx.x) * BN;
  const int m = c.rows(), n = c.cols(), k_total = a.cols();
  const index_t lda = a.ld(), ldb = b.ld();
  const T* a_tile = a.data() + static_cast<index_t>(row0) * lda;
  const T* b_tile = b.data() + col0;
  const bool a_vector = vector_rows(a) && row0 + BM <= m;
  const bool b_vector = vector_rows(b) && col0 + BN <= n;

  T acc[WMITER * TM][WNITER][TN] = {};
  for (int k0 = 0; k0 < k_total; k0 += BK, a_tile += BK, b_tile += BK * ldb) {
    const bool k_inside = k0 + BK <= k_total;
#pragma unroll
    for (int s = 0; s < a_vectors; ++s) {
      const int v = tid + s * threads, r = v / (BK / VW), kq = (v % (BK / VW)) * VW;
      const Vec16<T> x = load16_or_zero(a_tile + r * lda + kq, a_vector && k_inside,
                                        [&](int q) { return row0 + r < m && k0 + kq + q < k_total; });
#pragma unroll
      for (int q = 0; q < VW; ++q) as[(kq + q) * BM + swizzle_a<T, BK>(kq + q, r)] = x.v[q];
    }
#pragma unroll
    for (int s = 0; s < b_vectors; ++s) {
      const int v = tid + s * threads, r = v / (BN / VW), nq = (v % (BN / VW)) * VW;
      const Vec16<T> x = load16_or_zero(b_tile + r * ldb + nq, b_vector && k_inside,
                                        [&](int q) { return k0 + r < k_total && col0 + nq + q < n; });
      store16(&bs[r * BN + nq], x);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      T reg_m[WMITER * TM], reg_n[WNITER][TN];
#pragma unroll
      for (int wm = 0; wm < WMITER; ++wm) {
#pragma unroll
        for (int v = 0; v < TM; v += VW) {
          const int mm = warp_row * WM + wm * WSUBM + t_row * TM + v;
          const Vec16<T> x = load16(&as[kk * BM + swizzle_a<T, BK>(kk, mm)]);
#pragma unroll
          for (int q = 0; q < VW; ++q) reg_m[wm * TM + v + q] = x.v[q];
        }
      }
#pragma unroll
      for (int wn = 0; wn < WNITER; ++wn) {
#pragma unroll
        for (int v = 0; v < TN; v += VW) {
          const Vec16<T> x = load16(&bs[kk * BN + warp_col * WN + wn * WSUBN + t_col * TN + v]);
#pragma unroll
          for (int q = 0; q < VW; ++q) reg_n[wn][v + q] = x.v[q];
        }
      }
#pragma unroll
      for (int i = 0; i < WMITER * TM; ++i) {
#pragma unroll
        for (int wn = 0; wn < WNITER; ++wn) {
#pragma unroll
          for (int j = 0; j < TN; ++j) acc[i][wn][j] += reg_m[i] * reg_n[wn][j];
        }
      }
    }
    __syncthreads();
  }

#pragma unroll
  for (int wm = 0; wm < WMITER; ++wm) {
#pragma unroll
    for (int i = 0; i < TM; ++i) {
      const int row = row0 + warp_row * WM + wm * WSUBM + t_row * TM + i;
#pragma unroll
      for (int wn = 0; wn < WNITER; ++wn) {
        store_row_segment<true>(c, row, col0 + warp_col * WN + wn * WSUBN + t_col * TN, acc[wm * TM + i][wn], alpha,
                                beta);
      }
    }
  }
}

// The tuned tiles. float32/int32: 256 threads (8 warps of 64x32), 8x8 outputs a thread, about 150
// registers; the 128-thread variant with 64x64 warp tiles (8x16 a thread) needs more than 255 registers
// with the edge path and spills. float64: 128 threads of 32x32 warp tiles, 4x8 outputs a thread (its
// accumulators take two registers each).
template <class T>
using WarptileShape = std::conditional_t<sizeof(T) == 8, WarpTile<64, 64, 16, 32, 32, 2, 4, 4>,
                                         WarpTile<128, 128, 16, 64, 32, 2, 8, 4>>;

}  // namespace

GPULAB_EXPORT_KERNEL(warptile_matmul<float, WarptileShape<float>>);
GPULAB_EXPORT_KERNEL(warptile_matmul<double, WarptileShape<double>>);
GPULAB_EXPORT_KERNEL(warptile_matmul<std::int32_t, WarptileShape<std::int32_t>>);

namespace {

template <class T>
void run_warptile(const gpulab::MatmulArgs<T>& args, const gpulab::MatmulContext& context) {
  using S = WarptileShape<T>;
  launch_rung<T>(warptile_matmul<T, S>, tile_grid(args.c, S::bm, S::bn), gpulab::Dim3(S::threads), 0, args, context);
}

#if GPULAB_REGISTERING_COMPILATION
const bool warptile_registered = register_gpu_rung(
    "warptile", "warp tiling (64x32 warp tiles), BK 16, swizzled conflict-free A tile", 7, needs_row_major,
    [](const auto& args, const auto& context) { run_warptile(args, context); });
#endif

}  // namespace
