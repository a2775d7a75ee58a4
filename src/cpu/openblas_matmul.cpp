// `openblas`: OpenBLAS's sgemm/dgemm as a peer of cpu-packed, so that bench shows the best CPU library
// beside gpulab's own GEMM. Built only when CMake found OpenBLAS. Column-major operands are passed as
// transposes, so no layout is copied.
#include <cblas.h>
#include <dlfcn.h>

#include <mutex>
#include <string>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include <gpulab/error.hpp>
#include <gpulab/matmul.hpp>

#include "runtime/thread_pool.hpp"

namespace gpulab {
namespace {

constexpr index_t blas_int_max = 2147483647;

// OpenBLAS keeps one global thread count; set it only when it changes, under a lock, since concurrent
// callers asking for different counts would otherwise race on it.
std::mutex thread_count_mutex;
int current_threads = -1;

template <class T>
void openblas_gemm(const MatmulArgs<T>& args, int threads) {
  const auto& a = args.a;
  const auto& b = args.b;
  const auto& c = args.c;
  const int m = c.rows(), n = c.cols(), k = a.cols();
  if (m == 0 || n == 0) return;
  // cblas in C's layout; an operand in the other layout is that layout's transpose.
  const CBLAS_ORDER order = c.is_row_major() ? CblasRowMajor : CblasColMajor;
  const CBLAS_TRANSPOSE ta = a.layout() == c.layout() ? CblasNoTrans : CblasTrans;
  const CBLAS_TRANSPOSE tb = b.layout() == c.layout() ? CblasNoTrans : CblasTrans;
  // BLAS wants ld >= 1 even for an empty operand (K = 0).
  const auto ld = [](index_t v) { return static_cast<int>(v < 1 ? 1 : v); };
  std::lock_guard lock(thread_count_mutex);
  const int wanted = threads > 0 ? threads : detail::host_core_count();
  if (wanted != current_threads) {
    openblas_set_num_threads(wanted);
    current_threads = wanted;
  }
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(order, ta, tb, m, n, k, args.alpha, a.data(), ld(a.ld()), b.data(), ld(b.ld()), args.beta, c.data(),
                ld(c.ld()));
  } else {
    cblas_dgemm(order, ta, tb, m, n, k, args.alpha, a.data(), ld(a.ld()), b.data(), ld(b.ld()), args.beta, c.data(),
                ld(c.ld()));
  }
}

// OpenBLAS's pthread build starts its workers when it loads, and after every call they spin on
// sched_yield for 2^28 cycles (OPENBLAS_THREAD_TIMEOUT, read at load) before sleeping: for the first
// ~100 ms of every gpulab process, and after each openblas bench row, a core goes to them. Measured: the
// simulator's naive kernel at 256 timed 13.5 ms instead of 6.9 in 3 of 8 runs started right after
// another process (its two workers left on one core), none with OPENBLAS_NUM_THREADS=1. Their shutdown
// function (OpenBLAS runs it before a fork; the next threaded call starts the workers again) ends that
// now. Looked up at run time: it is not in cblas.h, and a build without it only keeps the spinning.
void park_openblas_workers() {
  using Shutdown = int (*)();
  static const auto shutdown = reinterpret_cast<Shutdown>(dlsym(RTLD_DEFAULT, "blas_thread_shutdown_"));
  if (shutdown == nullptr) return;
  std::lock_guard lock(thread_count_mutex);  // not while a call of ours runs
  shutdown();
}
const bool parked_at_load = (park_openblas_workers(), true);

// OPENBLAS_VERSION is " OpenBLAS 0.3.21 ".
std::string version() {
  std::string v = OPENBLAS_VERSION;
  v.erase(0, v.find_first_not_of(' '));
  v.erase(v.find_last_not_of(' ') + 1);
  return v;
}

std::string why_not(const MatmulProblem& p) {
  if (p.dtype == Dtype::int32) return "OpenBLAS has no int32 GEMM";
  for (index_t ld : {p.lda, p.ldb, p.ldc}) {
    if (ld > blas_int_max) return fmt::format("leading dimension {} exceeds BLAS's 32-bit int ({})", ld, blas_int_max);
  }
  return {};
}

const bool registered = register_matmul({
    .name = "openblas",
    .description = version() + " cblas_sgemm/dgemm: the best CPU library, as the peer of cpu-packed",
    .family = MatmulFamily::peer,
    .order = 100,
    .device_kind = DeviceKind::host,
    .dtypes = {Dtype::float32, Dtype::float64},
    .cannot_run = why_not,
    .run =
        [](const AnyMatmulArgs& args, const MatmulContext& context) {
          std::visit(
              [&](const auto& a) {
                using T = std::decay_t<decltype(a.alpha)>;
                if constexpr (std::is_same_v<T, std::int32_t>) {
                  throw InvalidArgument("openblas: OpenBLAS has no int32 GEMM");
                } else {
                  openblas_gemm(a, context.threads);
                }
              },
              args);
        },
    .after_bench_row = park_openblas_workers,
});

}  // namespace
}  // namespace gpulab
