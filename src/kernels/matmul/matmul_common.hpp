#pragma once
// What the rungs of the GPU matmul ladder (src/kernels/matmul/*.cu) share: the tile-shape parameters,
// 16-byte vector moves, the epilogue C = alpha * acc + beta * C (which never reads C when beta is zero),
// and the registration of a rung. Only kernel files include this, and each is compiled once per backend
// (nvcc, the simulator, the instrumented simulator), so everything here has internal linkage.
//
// Conventions of every rung:
//   - M = c.rows(), N = c.cols(), K = a.cols(). K = 0 leaves the accumulators at zero, so the epilogue
//     gives beta * C with no special case; M = 0 or N = 0 launches nothing.
//   - Edge tiles (M, N, K not multiples of a tile; leading dimensions or base pointers that are not
//     16-byte aligned) are handled tile by tile, by predicated loads that fill zeros and predicated
//     stores, never by a slow path for the whole matrix.
//   - Kernels live in an anonymous namespace; GPULAB_EXPORT_KERNEL goes outside it (the macro opens its
//     own, and nvcc's generated stubs break on an anonymous namespace nested in another).
#include <gpulab/kernel.hpp>
#include <gpulab/matmul.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
#include <string>
#include <utility>
#include <variant>

#if defined(__CUDACC__)
#define GPULAB_MATMUL_LAUNCH_BOUNDS(threads) __launch_bounds__(threads)
#else
#define GPULAB_MATMUL_LAUNCH_BOUNDS(threads)
#endif

namespace {

using gpulab::index_t;
using gpulab::matrix_view;

// A thread-block tile: BM x BN outputs per block, BK deep per step, TM x TN outputs per thread.
template <int BM_, int BN_, int BK_, int TM_ = 1, int TN_ = 1>
struct BlockTile {
  static constexpr int bm = BM_, bn = BN_, bk = BK_, tm = TM_, tn = TN_;
  static constexpr int threads = (BM_ / TM_) * (BN_ / TN_);
  static_assert(BM_ % TM_ == 0 && BN_ % TN_ == 0, "thread tiles must divide the block tile");
};

// A warp-tiled block: the block tile is split into WM x WN warp tiles; a warp covers its tile in
// WNITER sub-tiles side by side; a thread holds TM x TN outputs in each sub-tile.
template <int BM_, int BN_, int BK_, int WM_, int WN_, int WNITER_, int TM_, int TN_>
struct WarpTile {
  static constexpr int bm = BM_, bn = BN_, bk = BK_, wm = WM_, wn = WN_, wniter = WNITER_, tm = TM_, tn = TN_;
  static constexpr int warps = (BM_ / WM_) * (BN_ / WN_);
  static constexpr int threads = warps * 32;
  static constexpr int wsubn = WN_ / WNITER_;      // columns of one warp sub-tile
  static constexpr int thread_cols = wsubn / TN_;  // threads of a warp along N
  static constexpr int thread_rows = 32 / thread_cols;
  static_assert(BM_ % WM_ == 0 && BN_ % WN_ == 0, "warp tiles must divide the block tile");
  static_assert(WN_ % WNITER_ == 0 && wsubn % TN_ == 0 && 32 % thread_cols == 0,
                "a warp sub-tile must split into 32 threads");
};

// Elements of T in 16 bytes: the width of one LDG.E.128 / STS.128 / cp.async.cg.
template <class T>
inline constexpr int vec_width = static_cast<int>(16 / sizeof(T));

template <class T>
struct alignas(16) Vec16 {
  T v[vec_width<T>];
};

// 16-byte loads and stores. nvcc turns the aligned aggregate copy into one 128-bit instruction; the
// simulator copies bytes (no aliasing through a foreign type in host C++).
template <class T>
GPULAB_DEVICE inline Vec16<T> load16(const T* p) {
#if defined(__CUDACC__)
  return *reinterpret_cast<const Vec16<T>*>(p);
#else
  Vec16<T> r;
  std::memcpy(&r, p, sizeof r);
  return r;
#endif
}

template <class T>
GPULAB_DEVICE inline void store16(T* p, const Vec16<T>& value) {
#if defined(__CUDACC__)
  *reinterpret_cast<Vec16<T>*>(p) = value;
#else
  std::memcpy(p, &value, sizeof value);
#endif
}

template <class T>
GPULAB_DEVICE inline bool aligned16(const T* p) {
  return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0;
}

// Whether a row-major operand can be read in 16-byte vectors at every row start: base aligned and
// the leading dimension a whole number of vectors. Decided once per launch; tiles that straddle the
// matrix edge still take the predicated path.
template <class T>
GPULAB_DEVICE inline bool vector_rows(const matrix_view<T>& m) {
  return aligned16(m.data()) && m.ld() % vec_width<std::remove_const_t<T>> == 0;
}

// Stages a ROWS x COLS tile of a row-major operand, whose first element is `src`, into shared memory
// as s[r * COLS + c], with zero where r >= rows_left or c >= cols_left (past the matrix edge). The
// block's THREADS threads take every THREADS-th element, so consecutive threads read consecutive
// addresses.
template <int ROWS, int COLS, int THREADS, class T>
GPULAB_DEVICE inline void stage_tile(T* s, const T* src, index_t ld, int rows_left, int cols_left, int tid) {
#pragma unroll
  for (int e = tid; e < ROWS * COLS; e += THREADS) {
    const int r = e / COLS, cc = e % COLS;
    s[e] = r < rows_left && cc < cols_left ? src[r * ld + cc] : T(0);
  }
}

// The vec_width<T> elements at `src`: one 16-byte load when `whole` (the vector lies inside the matrix
// and is aligned), else element by element with zero where inside(q) is false, so that an edge tile
// lands in the same layout as an interior one.
template <class T, class Inside>
GPULAB_DEVICE inline Vec16<T> load16_or_zero(const T* src, bool whole, Inside inside) {
  if (whole) return load16(src);
  Vec16<T> x;
#pragma unroll
  for (int q = 0; q < vec_width<T>; ++q) x.v[q] = inside(q) ? src[q] : T(0);
  return x;
}

// One k step of a thread's TM x TN register tile: acc[i][j] += x[i] * y[j], TM*TN multiply-adds for
// TM + TN loaded values.
template <class T, int TM, int TN>
GPULAB_DEVICE inline void outer_product(T (&acc)[TM][TN], const T (&x)[TM], const T (&y)[TN]) {
#pragma unroll
  for (int i = 0; i < TM; ++i) {
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] += x[i] * y[j];
  }
}

// The block tile of the register-blocked rungs (reg2d, vec4), tuned for 256 threads either way: 128 x
// 128 outputs of 8 x 8 a thread, or 64 x 64 of 4 x 4 for float64, whose accumulators take two
// registers each.
template <class T>
using RegisterBlockTile = std::conditional_t<sizeof(T) == 8, BlockTile<64, 64, 8, 4, 4>, BlockTile<128, 128, 8, 8, 8>>;

// The epilogue of one output. With beta == 0 the old value is not read, so NaN in C stays out.
template <class T>
GPULAB_DEVICE inline void store_output(T* out, T acc, T alpha, T beta) {
  *out = beta == T(0) ? alpha * acc : alpha * acc + beta * *out;
}

// Writes W consecutive outputs of row `row`, starting at column `col`. With Vectorize, a segment wholly
// inside C and 16-byte aligned goes out in vectors (loading old C only when beta != 0); any other is
// written element by element, skipping what lies outside.
template <bool Vectorize, class T, int W>
GPULAB_DEVICE inline void store_row_segment(const matrix_view<T>& c, int row, int col, const T (&acc)[W], T alpha,
                                            T beta) {
  if (row >= c.rows()) return;
  T* out = c.data() + static_cast<index_t>(row) * c.ld() + col;
  constexpr int vw = vec_width<T>;
  if constexpr (Vectorize && W % vw == 0) {
    if (col + W <= c.cols() && aligned16(out)) {
#pragma unroll
      for (int v = 0; v < W; v += vw) {
        Vec16<T> r;
        if (beta == T(0)) {
#pragma unroll
          for (int q = 0; q < vw; ++q) r.v[q] = alpha * acc[v + q];
        } else {
          const Vec16<T> old = load16(out + v);
#pragma unroll
          for (int q = 0; q < vw; ++q) r.v[q] = alpha * acc[v + q] + beta * old.v[q];
        }
        store16(out + v, r);
      }
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < W; ++j) {
    if (col + j < c.cols()) store_output(out + j, acc[j], alpha, beta);
  }
}

// Why a rung that reads its operands as row-major arrays cannot run `p` (empty when it can).
inline std::string needs_row_major(const gpulab::MatmulProblem& p) {
  using gpulab::Layout;
  if (p.a_layout != Layout::row_major || p.b_layout != Layout::row_major || p.c_layout != Layout::row_major) {
    return "needs row-major A, B and C (transposed operands: use naive, coalesced or shared, or cublas)";
  }
  return {};
}

// The launch geometry every tiled rung uses: x over column tiles of C, y over row tiles.
template <class T>
gpulab::Dim3 tile_grid(const matrix_view<T>& c, int bm, int bn) {
  return gpulab::Dim3(gpulab::grid_for(c.cols(), static_cast<unsigned>(bn)),
                      gpulab::grid_for(c.rows(), static_cast<unsigned>(bm)));
}

// The signature every rung's kernel has.
template <class T>
using RungKernel = void (*)(matrix_view<const T>, matrix_view<const T>, matrix_view<T>, T, T);

// Launches a rung's kernel on the problem's operands. An empty C launches nothing: a grid with a zero
// extent is not a valid launch, and there is nothing to compute (K = 0 still launches: C = beta * C).
template <class T>
void launch_rung(RungKernel<T> kernel, gpulab::Dim3 grid, gpulab::Dim3 block, std::size_t shared_bytes,
                 const gpulab::MatmulArgs<T>& args, const gpulab::MatmulContext& context) {
  if (args.c.rows() == 0 || args.c.cols() == 0) return;
  gpulab::launch(kernel, gpulab::LaunchConfig{grid, block, shared_bytes, context.stream}, args.a, args.b, args.c,
                 args.alpha, args.beta);
}

// Registers one rung for the device kind this compilation serves. `runner` is a generic callable taking
// (const MatmulArgs<T>&, const MatmulContext&) for each dtype; the registry hands it the visited
// alternative of AnyMatmulArgs.
template <class Runner>
bool register_gpu_rung(const char* name, const char* description, int order,
                       std::function<std::string(const gpulab::MatmulProblem&)> cannot_run, Runner runner) {
  gpulab::MatmulRegistration r;
  r.name = name;
  r.description = description;
  r.family = gpulab::MatmulFamily::gpu;
  r.order = order;
  r.device_kind = GPULAB_KERNEL_DEVICE_KIND;
  r.dtypes = {gpulab::Dtype::float32, gpulab::Dtype::float64, gpulab::Dtype::int32};
  r.cannot_run = std::move(cannot_run);
  r.run = [runner](const gpulab::AnyMatmulArgs& any, const gpulab::MatmulContext& context) {
    std::visit([&](const auto& args) { runner(args, context); }, any);
  };
  return gpulab::register_matmul(std::move(r));
}

}  // namespace
