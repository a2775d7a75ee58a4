#pragma once
// gpulab::matmul: C = alpha * A * B + beta * C, on matrix views of any memory space, through the
// registry of implementations (the guide's kernels and their successors, cuBLAS, the CPU GEMMs).
//
//   - Any M, N, K. M = 0 or N = 0 does nothing; K = 0 gives C = beta * C. With beta = 0, C is never
//     read, so a NaN already in C stays out of the result.
//   - Transposed operands come as views (matrix_view::transposed()); an implementation handles them
//     natively or refuses them in can_run, never with a silent full copy.
//   - Operands in different memory spaces, or shapes that do not chain, raise InvalidArgument.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <gpulab/device.hpp>
#include <gpulab/dtype.hpp>
#include <gpulab/stream.hpp>
#include <gpulab/view.hpp>

namespace gpulab {

// What an implementation needs to know to say whether it can run a product.
struct MatmulProblem {
  int m = 0, n = 0, k = 0;
  Dtype dtype = Dtype::float32;
  Layout a_layout = Layout::row_major, b_layout = Layout::row_major, c_layout = Layout::row_major;
  index_t lda = 0, ldb = 0, ldc = 0;
  MemorySpace space{};  // where all three operands live
  bool beta_is_zero = true;
};

template <class T>
struct MatmulArgs {
  matrix_view<const T> a;
  matrix_view<const T> b;
  matrix_view<T> c;
  T alpha{1};
  T beta{0};
};
using AnyMatmulArgs = std::variant<MatmulArgs<float>, MatmulArgs<double>, MatmulArgs<std::int32_t>>;

struct MatmulContext {
  Stream stream{};  // device work is queued here (none: the device's default stream)
  int threads = 0;  // CPU implementations: worker threads, 0 for all cores
};

struct MatmulOptions {
  std::string impl = "auto";  // a registry name, or "auto"
  Stream stream{};
  int threads = 0;
};

// C = alpha * A * B + beta * C. Returns the name of the implementation that ran (useful with "auto").
// Device work is queued on options.stream; host implementations have finished on return.
template <class T>
std::string matmul(matrix_view<const T> a, matrix_view<const T> b, matrix_view<T> c, T alpha = T{1},
                   T beta = T{0}, const MatmulOptions& options = {});

// ---- the registry --------------------------------------------------------------------------------

enum class MatmulFamily : std::uint8_t { cpu, gpu, peer };

struct MatmulImpl {
  std::string name;         // registry name: "naive", "cublas", "cpu-packed"
  std::string description;  // one line: what it is and what it changes
  MatmulFamily family = MatmulFamily::gpu;
  int order = 0;            // position in listings: the ladder's rung, peers last
  std::vector<Dtype> dtypes;
  // Why it cannot run `problem` (empty when it can). The registry already checked the device kind and
  // the dtype before calling it.
  std::function<std::string(const MatmulProblem&)> cannot_run;
  // The runner for each device kind it was registered on, indexed by DeviceKind.
  std::function<void(const AnyMatmulArgs&, const MatmulContext&)> run[3];
  // Whether `auto` may pick it (false for implementations that change the arithmetic, such as TF32).
  bool automatic = true;
  // Whether float32 operands enter the product rounded to TF32 (10-bit mantissa): what accuracy to
  // expect of it, so the bench's tolerance follows this flag.
  bool float32_as_tf32 = false;
  // Called by bench after the implementation's row is timed, to stop what would take cores from the
  // rows after it (OpenBLAS's idle workers spin on sched_yield for a while after every call). May be empty.
  std::function<void()> after_bench_row;

  bool runs_on(DeviceKind kind) const { return static_cast<bool>(run[static_cast<int>(kind)]); }
  std::vector<DeviceKind> device_kinds() const;
  // Empty when it can run `problem`, otherwise why not (device, dtype, or the impl's own reason).
  std::string why_not(const MatmulProblem& problem) const;
};

// One backend's half of an implementation. A kernel file registers once per compilation (CUDA, sim);
// registrations with the same name merge into one entry.
struct MatmulRegistration {
  std::string name;
  std::string description;
  MatmulFamily family = MatmulFamily::gpu;
  int order = 0;
  DeviceKind device_kind = DeviceKind::host;
  std::vector<Dtype> dtypes;
  std::function<std::string(const MatmulProblem&)> cannot_run;  // may be empty: can run everything
  std::function<void(const AnyMatmulArgs&, const MatmulContext&)> run;
  bool automatic = true;  // false: `auto` never picks it (it changes the arithmetic, e.g. TF32)
  bool float32_as_tf32 = false;  // float32 operands are rounded to TF32 before multiplying
  std::function<void()> after_bench_row{};  // may be empty (MatmulImpl::after_bench_row)
};

// Returns true, so that a registration can initialise a namespace-scope constant.
bool register_matmul(MatmulRegistration registration);

// Every implementation, in listing order.
std::vector<const MatmulImpl*> matmul_impls();
const MatmulImpl* find_matmul(std::string_view name);
// The implementation `auto` picks for `problem`: on a CUDA device the vendor library (the peer), else
// the highest rung that can run it; on the host the best CPU implementation, else the peer. Never one
// registered with automatic = false.
const MatmulImpl& choose_matmul(const MatmulProblem& problem);

// The problem the views describe; throws InvalidArgument for shapes that do not chain or operands in
// different memory spaces, naming the shapes and the spaces.
template <class T>
MatmulProblem describe_matmul(const matrix_view<const T>& a, const matrix_view<const T>& b,
                              const matrix_view<T>& c, T beta);

// Runs one named implementation on type-erased arguments: what bench and the tests use.
void run_matmul(const MatmulImpl& impl, const AnyMatmulArgs& args, const MatmulContext& context);

}  // namespace gpulab
