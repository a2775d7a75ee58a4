// Rung 8 of the GPU matmul ladder [async]: a multi-stage pipeline of cp.async copies (sm_80 and up).
// Tiles of A and B go from global to shared memory by cp.async (async_copy.hpp), which needs no
// registers and no thread to wait for the data: while the block computes on tile t, the copies of tiles
// t+1 .. t+STAGES-1 are in flight. One barrier per k step: after waiting for tile t, the barrier also
// certifies that every thread has finished with the stage the next copy overwrites.
//
// cp.async cannot transpose, so the A tile stays row-major, each row padded by 16 bytes; a thread's TM
// rows are interleaved (row t_row + thread_rows*i instead of t_row*TM + i), and it reads a vector along
// k from each. With the padding, the 8 thread rows of a warp then start 20 floats apart: 8 distinct
// 4-bank groups, a conflict-free 16-byte read. Edge tiles are copied element by element with cp.async's
// zero fill (source size 0), so they land in the same layout without a branch in the compute loop.
//
// What changed from rung 7: cp.async with STAGES buffers in dynamic shared memory instead of loads
// through registers into one buffer; A row-major with padding and interleaved thread rows instead of
// transposed and swizzled; one barrier per k step instead of two.
// What it should buy: global-load latency hidden behind STAGES-1 tiles of compute, no registers held
// by in-flight loads (more for accumulators), fewer barriers. The machine code shows LDGSTS.
#include <gpulab/kernel.hpp>

#include "async_copy.hpp"
#include "matmul_common.hpp"

namespace {

template <class T, class S, int STAGES>
__global__ void GPULAB_MATMUL_LAUNCH_BOUNDS(S::threads)
    async_matmul(matrix_view<const T> a, matrix_view<const T> b, matrix_view<T> c, T alpha, T beta) {
  constexpr int BM = S::bm, BN = S::bn, BK = S::bk, WM = S::wm, WN = S::wn, WNITER = S::wniter;
  constexpr int TM = S::tm, TN = S::tn, WSUBN = S::wsubn, TROWS = S::thread_rows;
  constexpr int VW = vec_width<T>;
  constexpr int threads = S::threads;
  constexpr int AS = BK + VW;  // a padded row of the A tile
  constexpr int a_stage = BM * AS, b_stage = BK * BN;
  constexpr int a_vectors = BM * BK / VW / threads, b_vectors = BK * BN / VW / threads;
  static_assert(STAGES >= 2, "a pipeline has at least two stages");
  static_assert(WM == TROWS * TM, "a warp tile's rows are its thread rows interleaved TM times");
  static_assert(BK % VW == 0 && BN % VW == 0 && TN % VW == 0, "tiles are whole vectors");
  static_assert(a_vectors * threads * VW == BM * BK && b_vectors * threads * VW == BK * BN,
                "every thread copies the same number of vectors of each tile");
  T* const as = gpulab::dynamic_shared<T>();  // STAGES x [BM][AS]
  T* const bs = as + STAGES * a_stage;        // STAGES x [BK][BN]

  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / 32, lane = tid % 32;
  const int warp_row = warp / (BN / WN), warp_col = warp % (BN / WN);
  const int t_row = lane / S::thread_cols, t_col = lane % S::thread_cols;
  const int row0 = static_cast<int>(blockIdx.y) * BM, col0 = static_cast<int>(blockIdx.x) * BN;
  const int m = c.rows(), n = c.cols(), k_total = a.cols();
  const index_t lda = a.ld(), ldb = b.ld();
  const T* const a_block = a.data() + static_cast<index_t>(row0) * lda;
  const T* const b_block = b.data() + col0;
  const bool a_vector = vector_rows(a) && row0 + BM <= m;
  const bool b_vector = vector_rows(b) && col0 + BN <= n;
  const int tiles = (k_total + BK - 1) / BK;

  // Queues the copies of k tile `tile` into pipeline stage `stage` (not yet committed).
  auto copy_tile = [&](int tile, int stage) {
    const int k0 = tile * BK;
    const bool k_inside = k0 + BK <= k_total;
    T* const a_dst = as + stage * a_stage;
    T* const b_dst = bs + stage * b_stage;
#pragma unroll
    for (int s = 0; s < a_vectors; ++s) {
      const int v = tid + s * threads, r = v / (BK / VW), kq = (v % (BK / VW)) * VW;
      T* const dst = a_dst + r * AS + kq;
      const T* const src = a_block + r * lda + k0 + kq;
      if (a_vector && k_inside) {
        async_copy16(dst, src);
      } else {
#pragma unroll
        for (int q = 0; q < VW; ++q) {
          const bool inside = row0 + r < m && k0 + kq + q < k_total;
          async_copy_or_zero(dst + q, inside ? src + q : a.data(), inside);
        }
      }
    }
#pragma unroll
    for (int s = 0; s < b_vectors; ++s) {
      const int v = tid + s * threads, r = v / (BN / VW), nq = (v % (BN / VW)) * VW;
      T* const dst = b_dst + r * BN + nq;
      const T* const src = b_block + (k0 + r) * ldb + nq;
      if (b_vector && k_inside) {
        async_copy16(dst, src);
      } else {
#pragma unroll
        for (int q = 0; q < VW; ++q) {
          const bool inside = k0 + r < k_total && col0 + nq + q < n;
          async_copy_or_zero(dst + q, inside ? src + q : b.data(), inside);
        }
      }
    }
  };

  // Prologue: STAGES-1 tiles in flight. Every step commits a group, empty or not, so that "tile t has
  // landed" is always "at most STAGES-2 groups pending".
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) copy_tile(s, s);
    async_commit();
  }

  T acc[TM][WNITER][TN] = {};
  for (int t = 0; t < tiles; ++t) {
    async_wait<STAGES - 2>();
    __syncthreads();  // tile t is visible to all, and all have finished computing on tile t-1
    if (t + STAGES - 1 < tiles) copy_tile(t + STAGES - 1, (t + STAGES - 1) % STAGES);  // into tile t-1's stage
    async_commit();

    const T* const a_s = as + (t % STAGES) * a_stage + (warp_row * WM + t_row) * AS;
    const T* const b_s = bs + (t % STAGES) * b_stage + warp_col * WN + t_col * TN;
#pragma unroll
    for (int kq = 0; kq < BK; kq += VW) {
      Vec16<T> a_frag[TM];  // row t_row + TROWS*i, columns kq .. kq+VW-1
#pragma unroll
      for (int i = 0; i < TM; ++i) a_frag[i] = load16(a_s + i * TROWS * AS + kq);
#pragma unroll
      for (int q = 0; q < VW; ++q) {
        T reg_n[WNITER][TN];
#pragma unroll
        for (int wn = 0; wn < WNITER; ++wn) {
#pragma unroll
          for (int v = 0; v < TN; v += VW) {
            const Vec16<T> x = load16(b_s + (kq + q) * BN + wn * WSUBN + v);
#pragma unroll
            for (int e = 0; e < VW; ++e) reg_n[wn][v + e] = x.v[e];
          }
        }
#pragma unroll
        for (int i = 0; i < TM; ++i) {
#pragma unroll
          for (int wn = 0; wn < WNITER; ++wn) {
#pragma unroll
            for (int j = 0; j < TN; ++j) acc[i][wn][j] += a_frag[i].v[q] * reg_n[wn][j];
          }
        }
      }
    }
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + warp_row * WM + t_row + TROWS * i;
#pragma unroll
    for (int wn = 0; wn < WNITER; ++wn) {
      store_row_segment<true>(c, row, col0 + warp_col * WN + wn * WSUBN + t_col * TN, acc[i][wn], alpha, beta);
    }
  }
}

// The tuned configuration: rung 7's tiles (256 threads of 8x8 outputs for float32/int32; 128 threads of
// 4x8 for float64) and three stages, 54 KiB (float32) or 51 KiB (float64) of shared memory a block.
template <class T>
using AsyncShape = std::conditional_t<sizeof(T) == 8, WarpTile<64, 64, 16, 32, 32, 2, 4, 4>,
                                      WarpTile<128, 128, 16, 64, 32, 2, 8, 4>>;
constexpr int async_stages = 3;

template <class T>
constexpr std::size_t async_shared_bytes() {
  using S = AsyncShape<T>;
  return static_cast<std::size_t>(async_stages) *
         (static_cast<std::size_t>(S::bm) * (S::bk + vec_width<T>) + static_cast<std::size_t>(S::bk) * S::bn) *
         sizeof(T);
}

}  // namespace

GPULAB_EXPORT_KERNEL(async_matmul<float, AsyncShape<float>, async_stages>);
GPULAB_EXPORT_KERNEL(async_matmul<double, AsyncShape<double>, async_stages>);
GPULAB_EXPORT_KERNEL(async_matmul<std::int32_t, AsyncShape<std::int32_t>, async_stages>);

namespace {

template <class T>
void run_async(const gpulab::MatmulArgs<T>& args, const gpulab::MatmulContext& context) {
  using S = AsyncShape<T>;
  constexpr auto kernel = async_matmul<T, S, async_stages>;
  constexpr std::size_t shared_bytes = async_shared_bytes<T>();
  // Above the 48 KiB default; an attribute of the kernel on the current device, so set on every run
  // (cheap) rather than once per process, which would miss the second device.
  gpulab::set_max_dynamic_shared_bytes(kernel, shared_bytes);
  launch_rung<T>(kernel, tile_grid(args.c, S::bm, S::bn), gpulab::Dim3(S::threads), shared_bytes, args, context);
}

#if GPULAB_REGISTERING_COMPILATION
std::string async_cannot_run(const gpulab::MatmulProblem& problem) {
  if (std::string why = needs_row_major(problem); !why.empty()) return why;
  if (problem.space.kind == gpulab::DeviceKind::cuda) {
    const gpulab::DeviceProperties& p = gpulab::Device(problem.space.kind, problem.space.ordinal).properties();
    if (p.compute_major < 8) {
      return "needs cp.async, compute capability 8.0 or newer; " + p.id + " is " + std::to_string(p.compute_major) +
             "." + std::to_string(p.compute_minor);
    }
    const std::size_t needed = problem.dtype == gpulab::Dtype::float64 ? async_shared_bytes<double>()
                                                                       : async_shared_bytes<float>();
    if (p.shared_memory_per_block_optin < needed) {
      return "needs " + std::to_string(needed) + " bytes of shared memory a block; " + p.id + " allows " +
             std::to_string(p.shared_memory_per_block_optin);
    }
  }
  return {};
}

const bool async_registered = register_gpu_rung(
    "async", "3-stage cp.async pipeline (sm_80+), padded row-major A tile, one barrier a k step", 8,
    async_cannot_run, [](const auto& args, const auto& context) { run_async(args, context); });
#endif

}  // namespace
