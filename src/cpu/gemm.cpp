// The GEMM driver: BLIS's five loops around the micro-kernel, in gpulab's orientation. C is always
// handled row-major (a column-major C is computed as C^T = B^T A^T, which is the same memory), and the
// micro-kernel vectorises along C's rows, broadcasting from A. So, from the outside in:
//
//   ic: rows of A in blocks of mc      the packed A block (mc x kc) is shared by all threads, in L3
//   pc: the k dimension in blocks of kc
//   jc: each thread's columns, in blocks of nc: it packs its own B block (kc x nc), which stays in its L2
//   ir: micro-panels of A (mr x kc), each in L1 while ...
//   jr: ... every micro-panel of B (kc x nr) streams past it from L2
//
// Threads split the columns (and, when there are too few, the rows) of each A block, so each core packs
// and reuses B in its own L2.
#include <gpulab/cpu/gemm.hpp>

#include <algorithm>
#include <memory>
#include <new>
#include <type_traits>

#include <fmt/format.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <gpulab/error.hpp>

#include "cpu/micro_kernel.hpp"
#include "cpu/pack.hpp"
#include "runtime/env.hpp"
#include "runtime/thread_pool.hpp"

namespace gpulab::cpu {

using detail::MicroKernel;
using detail::pack_a_panel;
using detail::pack_b_block;

namespace {

bool isa_supported(Isa isa) {
  const auto& isas = cpu_info().isas;
  return std::find(isas.begin(), isas.end(), isa) != isas.end();
}

std::string supported_list() {
  std::string s;
  for (Isa isa : cpu_info().isas) s += std::string(s.empty() ? "" : ", ") + to_string(isa);
  return s;
}

// Only called for an ISA the CPU has: building a table may itself use that ISA's instructions.
detail::MicroKernelSet kernel_set(Isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512: return detail::avx512_micro_kernels();
    case Isa::avx2: return detail::avx2_micro_kernels();
#endif
    default: return detail::generic_micro_kernels();
  }
}

template <class T>
MicroKernel<T> pick(const detail::MicroKernelSet& set) {
  if constexpr (std::is_same_v<T, float>) {
    return set.f32;
  } else if constexpr (std::is_same_v<T, double>) {
    return set.f64;
  } else {
    return set.i32;
  }
}

// The largest register tile any ISA uses, for the scratch tile of edge cases.
constexpr int max_tile_elements = 16 * 64;

struct Blocking {
  int kc = 0, mc = 0, nc = 0;
};

int round_up(int x, int multiple) { return (x + multiple - 1) / multiple * multiple; }
int round_down_at_least(long x, int multiple) {
  return static_cast<int>(std::max<long>(multiple, x / multiple * multiple));
}

// The block size for `extent` split into as few blocks of at most `limit` as possible, as evenly as
// `multiple` allows.
int even_block(int extent, int limit, int multiple) {
  const int blocks = std::max(1, (extent + limit - 1) / limit);
  return std::min(round_up((extent + blocks - 1) / blocks, multiple), std::max(limit, multiple));
}

// kc: an A micro-panel (mr x kc) fills about 3/4 of L1, leaving room for the B panel streaming past
// (measured on Zen 4: float64 kc = 256 ran about 5% faster than 168, float32 was indifferent).
// nc: a B block (kc x nc) fills about half of L2. mc: an A block (mc x kc) about half of L3.
template <class T>
Blocking choose_blocking(const MicroKernel<T>& mk, const GemmOptions& options) {
  const CpuInfo& info = cpu_info();
  const std::size_t l1 = info.l1d_bytes ? info.l1d_bytes : 32 * 1024;
  const std::size_t l2 = info.l2_bytes ? info.l2_bytes : 512 * 1024;
  const std::size_t l3 = info.l3_bytes ? info.l3_bytes : 8 * 1024 * 1024;
  Blocking b;
  b.kc = options.kc > 0 ? options.kc
                        : std::clamp(round_down_at_least(static_cast<long>(l1 * 3 / 4 / (mk.mr * sizeof(T))), 8), 64, 1024);
  b.nc = options.nc > 0 ? round_up(options.nc, mk.nr)
                        : round_down_at_least(static_cast<long>(l2 / 2 / (b.kc * sizeof(T))), mk.nr);
  b.mc = options.mc > 0 ? round_up(options.mc, mk.mr)
                        : round_down_at_least(static_cast<long>(l3 / 2 / (b.kc * sizeof(T))), mk.mr);
  return b;
}

// Packing buffers, kept per thread across calls so that the pages are touched once, not every call.
// A buffer of 2 MiB or more is aligned to 2 MiB and offered to the kernel for transparent huge pages
// (where THP is in `madvise` mode, as on these machines, nothing else asks): a 16 MiB A block is
// then 8 TLB entries instead of 4096, more than the second-level TLB holds, so streaming its
// micro-panels no longer walks the page tables.
class Workspace {
 public:
  Workspace() = default;
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  ~Workspace() { release(); }

  template <class T>
  T* get(std::size_t count) {
    const std::size_t bytes = count * sizeof(T);
    if (bytes > capacity_) {
      release();
      alignment_ = bytes >= huge_page ? huge_page : 64;
      capacity_ = (bytes + alignment_ - 1) / alignment_ * alignment_;
      data_ = ::operator new(capacity_, std::align_val_t{alignment_});
#if defined(__linux__)
      if (alignment_ == huge_page) ::madvise(data_, capacity_, MADV_HUGEPAGE);  // a hint; failure is harmless
#endif
    }
    return static_cast<T*>(data_);
  }

 private:
  static constexpr std::size_t huge_page = std::size_t{2} << 20;
  void release() {
    if (data_ != nullptr) ::operator delete(data_, std::align_val_t{alignment_});
    data_ = nullptr;
    capacity_ = 0;
  }
  void* data_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t alignment_ = 64;
};
thread_local Workspace a_workspace;  // the shared A block, owned by the calling thread
thread_local Workspace b_workspace;  // each thread's own B block

// How the threads split one A block: tm groups of rows times tn groups of columns.
struct ThreadGrid {
  int tm = 1, tn = 1;
};
ThreadGrid split(int threads, int m_panels, int n_panels) {
  ThreadGrid best;
  long best_work = -1;
  for (int tn = threads; tn >= 1; --tn) {
    if (threads % tn != 0) continue;
    const int tm = threads / tn;
    const long work = static_cast<long>((m_panels + tm - 1) / tm) * ((n_panels + tn - 1) / tn);
    if (best_work < 0 || work < best_work) {
      best_work = work;
      best = {tm, tn};
    }
  }
  return best;
}

// alpha * product + beta * out, with beta = 0 never reading `out`. int32 wraps on overflow, as the SIMD
// kernels' lanes do, instead of overflowing into undefined behaviour.
template <class T>
T combine(T alpha, T product, T beta, const T& out) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    const U scaled = static_cast<U>(alpha) * static_cast<U>(product);
    return static_cast<T>(beta == T{0} ? scaled : static_cast<U>(beta) * static_cast<U>(out) + scaled);
  } else {
    return beta == T{0} ? alpha * product : beta * out + alpha * product;
  }
}

template <class T>
void scale_c(matrix_view<T> c, T beta) {
  for (int i = 0; i < c.rows(); ++i) {
    for (int j = 0; j < c.cols(); ++j) c(i, j) = combine(T{1}, T{0}, beta, c(i, j));
  }
}

// One tile of C at (row, col), rows x cols of it valid: the micro-kernel writes straight into C when
// the tile is whole, and into a scratch tile merged by hand at the edges.
template <class T>
void run_tile(const MicroKernel<T>& mk, std::int64_t kc, const T* a, const T* b, T* c, std::int64_t ldc, int rows,
              int cols, T alpha, T beta, const T* a_next) {
  if (rows == mk.mr && cols == mk.nr) {
    mk.run(kc, a, b, c, ldc, alpha, beta, a_next);
    return;
  }
  alignas(64) T tile[max_tile_elements];
  mk.run(kc, a, b, tile, mk.nr, T{1}, T{0}, a_next);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      T& out = c[i * ldc + j];
      out = combine(alpha, tile[i * mk.nr + j], beta, out);
    }
  }
}

template <class T>
void check_operands(const matrix_view<const T>& a, const matrix_view<const T>& b, const matrix_view<T>& c) {
  if (a.rows() != c.rows() || b.cols() != c.cols() || a.cols() != b.rows()) {
    throw InvalidArgument(fmt::format("cpu gemm: shapes do not chain: A is {}x{}, B is {}x{}, C is {}x{} "
                                      "(need A MxK, B KxN, C MxN)",
                                      a.rows(), a.cols(), b.rows(), b.cols(), c.rows(), c.cols()));
  }
  auto check = [](const char* name, auto& v) {
    if (v.space().kind != DeviceKind::host) {
      throw InvalidArgument(fmt::format("cpu gemm: {} lives in {}, not in host memory", name, to_string(v.space())));
    }
    if (v.rows() < 0 || v.cols() < 0) {
      throw InvalidArgument(fmt::format("cpu gemm: {} has a negative extent ({}x{})", name, v.rows(), v.cols()));
    }
    if (v.empty()) return;
    const index_t min_ld = v.is_row_major() ? v.cols() : v.rows();
    if (v.ld() < min_ld) {
      throw InvalidArgument(fmt::format("cpu gemm: {} is {}x{} {} with leading dimension {}, less than {}", name,
                                        v.rows(), v.cols(), v.is_row_major() ? "row-major" : "column-major", v.ld(),
                                        min_ld));
    }
    if (v.data() == nullptr) throw InvalidArgument(fmt::format("cpu gemm: {} is {}x{} with no data", name, v.rows(), v.cols()));
  };
  check("A", a);
  check("B", b);
  check("C", c);
}

template <class T>
void gemm_row_major_c(matrix_view<const T> a, matrix_view<const T> b, matrix_view<T> c, T alpha, T beta,
                      const GemmOptions& options) {
  const int m = c.rows(), n = c.cols(), k = a.cols();
  const MicroKernel<T> mk = pick<T>(kernel_set(resolve_isa(options.isa)));
  const Blocking blk = choose_blocking(mk, options);
  const int threads = options.threads > 0 ? options.threads : gpulab::detail::host_core_count();
  gpulab::detail::ThreadPool& pool = gpulab::detail::host_thread_pool();
  const std::int64_t ldc = c.ld();
  const int n_panels = (n + mk.nr - 1) / mk.nr;

  // Even blocks: k = 1024 with kc = 336 runs as 4 x 256, not 3 x 336 and a sliver of 16 that would
  // cost a full pass over C.
  const int kc = even_block(k, blk.kc, 8);
  const int mc = even_block(m, blk.mc, mk.mr);
  for (int ic = 0; ic < m; ic += mc) {
    const int mcur = std::min(mc, m - ic);
    const int m_panels = (mcur + mk.mr - 1) / mk.mr;
    const ThreadGrid grid = split(threads, m_panels, n_panels);
    for (int pc = 0; pc < k; pc += kc) {
      const int kcur = std::min(kc, k - pc);
      const T beta_here = pc == 0 ? beta : T{1};

      // The A block, packed by all threads together.
      T* packed_a = a_workspace.get<T>(static_cast<std::size_t>(m_panels) * mk.mr * kcur);
      pool.parallel_for(
          threads,
          [&](int t) {
            // Contiguous panels: with the rows split between threads (grid.tm == threads) each thread
            // packs exactly the panels it computes on, which then stay in its own caches.
            const int p_end = (t + 1) * m_panels / threads;
            for (int p = t * m_panels / threads; p < p_end; ++p) {
              const int row = ic + p * mk.mr;
              const int next_row = row + mk.mr;
              pack_a_panel(&a(row, pc), a.row_stride(), a.col_stride(), std::min(mk.mr, m - row), kcur, mk.mr,
                           packed_a + static_cast<std::size_t>(p) * mk.mr * kcur,
                           next_row + mk.mr <= ic + mcur ? &a(next_row, pc) : nullptr);
            }
          },
          threads);

      pool.parallel_for(
          threads,
          [&](int t) {
            const int ti = t / grid.tn, tj = t % grid.tn;
            const int p_begin = ti * m_panels / grid.tm, p_end = (ti + 1) * m_panels / grid.tm;
            const int col_begin = std::min(n, tj * n_panels / grid.tn * mk.nr);
            const int col_end = std::min(n, (tj + 1) * n_panels / grid.tn * mk.nr);
            if (p_begin >= p_end || col_begin >= col_end) return;
            const int nc = even_block(col_end - col_begin, blk.nc, mk.nr);
            T* packed_b = b_workspace.get<T>(static_cast<std::size_t>(nc) * kcur);
            for (int jc = col_begin; jc < col_end; jc += nc) {
              const int ncur = std::min(nc, col_end - jc);
              const int b_panels = (ncur + mk.nr - 1) / mk.nr;
              pack_b_block(&b(pc, jc), b.row_stride(), b.col_stride(), ncur, kcur, mk.nr, packed_b);
              for (int p = p_begin; p < p_end; ++p) {
                const int row = ic + p * mk.mr;
                const int rows = std::min(mk.mr, m - row);
                const T* a_panel = packed_a + static_cast<std::size_t>(p) * mk.mr * kcur;
                // The first tile of a row of tiles prefetches the next A micro-panel; the rest re-touch
                // their own, which is already in L1.
                const T* a_next = p + 1 < p_end ? a_panel + static_cast<std::size_t>(mk.mr) * kcur : a_panel;
                for (int q = 0; q < b_panels; ++q) {
                  const int col = jc + q * mk.nr;
                  run_tile(mk, kcur, a_panel, packed_b + static_cast<std::size_t>(q) * mk.nr * kcur,
                           &c(row, col), ldc, rows, std::min(mk.nr, n - col), alpha, beta_here,
                           q == 0 ? a_next : a_panel);
                }
              }
            }
          },
          threads);
    }
  }
}

}  // namespace

Isa resolve_isa(std::optional<Isa> requested) {
  const char* source = "requested";
  if (!requested) {
    if (auto env = gpulab::detail::env_value("GPULAB_CPU_ISA")) {
      requested = parse_isa(*env);
      source = "GPULAB_CPU_ISA";
    }
  }
  if (!requested) return cpu_info().best_isa;
  if (!isa_supported(*requested)) {
    throw InvalidArgument(fmt::format("{} ISA '{}' is not supported by this CPU ({}); it supports: {}", source,
                                      to_string(*requested), cpu_info().model_name, supported_list()));
  }
  return *requested;
}

MicroTile micro_tile(Isa isa, Dtype dtype) {
  if (!isa_supported(isa)) {
    throw InvalidArgument(fmt::format("ISA '{}' is not supported by this CPU; it supports: {}", to_string(isa),
                                      supported_list()));
  }
  const detail::MicroKernelSet set = kernel_set(isa);
  switch (dtype) {
    case Dtype::float32: return {set.f32.mr, set.f32.nr};
    case Dtype::float64: return {set.f64.mr, set.f64.nr};
    case Dtype::int32: return {set.i32.mr, set.i32.nr};
  }
  return {};
}

template <class T>
void gemm(matrix_view<const T> a, matrix_view<const T> b, matrix_view<T> c, T alpha, T beta,
          const GemmOptions& options) {
  check_operands(a, b, c);
  if (options.threads < 0) throw InvalidArgument(fmt::format("cpu gemm: threads = {}, need >= 0", options.threads));
  if (c.rows() == 0 || c.cols() == 0) return;
  // The kernels write C by rows; a column-major C is the row-major C^T = B^T A^T.
  if (!c.is_row_major()) {
    gemm(b.transposed(), a.transposed(), c.transposed(), alpha, beta, options);
    return;
  }
  if (a.cols() == 0) {
    scale_c(c, beta);
    return;
  }
  gemm_row_major_c(a, b, c, alpha, beta, options);
}

template void gemm<float>(matrix_view<const float>, matrix_view<const float>, matrix_view<float>, float, float,
                          const GemmOptions&);
template void gemm<double>(matrix_view<const double>, matrix_view<const double>, matrix_view<double>, double,
                           double, const GemmOptions&);
template void gemm<std::int32_t>(matrix_view<const std::int32_t>, matrix_view<const std::int32_t>,
                                 matrix_view<std::int32_t>, std::int32_t, std::int32_t, const GemmOptions&);

}  // namespace gpulab::cpu
