// The vendor library as a peer of the ladder: `cublas` is cublasGemmEx with pure FP32 compute
// (CUBLAS_COMPUTE_32F: no TF32) for float32 and FP64 for float64; `cublas-tf32` is the same call with
// CUBLAS_COMPUTE_32F_FAST_TF32, which rounds the operands to TF32 on the tensor cores (a different
// arithmetic, so `auto` never picks it).
//
// cuBLAS is column-major; gpulab's views are row- or column-major. A row-major M x N matrix is the same
// memory as a column-major N x M one, so a row-major C = A B is computed as C^T = B^T A^T with the
// operands swapped, and each operand's transpose flag comes from its own layout: transposed views are
// handled natively, never copied.
//
// One cuBLAS handle per (device, stream), created on first use and kept: creating one costs
// milliseconds and allocates a workspace, and a handle bound to one stream keeps its work ordered there.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include <gpulab/device.hpp>
#include <gpulab/error.hpp>
#include <gpulab/matmul.hpp>
#include <gpulab/stream.hpp>

#include "backends/cuda/cuda_check.hpp"

namespace gpulab {
namespace {

// cuBLAS statuses in gpulab's hierarchy: a bad argument is InvalidArgument, a failed launch inside
// cuBLAS a KernelFault, everything else a CudaError carrying cuBLAS's code, name and text.
[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
  const std::string name = cublasGetStatusName(status);
  const std::string text = cublasGetStatusString(status);
  switch (status) {
    case CUBLAS_STATUS_INVALID_VALUE:
      throw InvalidArgument(fmt::format("{} rejected its arguments: {} ({})", call, name, text));
    case CUBLAS_STATUS_EXECUTION_FAILED:
      throw KernelFault("cublasGemmEx", fmt::format("{} failed to run on the GPU: {} ({})", call, name, text));
    default:
      throw CudaError(static_cast<int>(status), name, text, call, file, line);
  }
}

#define GPULAB_CUBLAS_CHECK(call)                                                               \
  do {                                                                                          \
    const cublasStatus_t gpulab_cublas_status = (call);                                         \
    if (gpulab_cublas_status != CUBLAS_STATUS_SUCCESS)                                          \
      throw_cublas_error(gpulab_cublas_status, #call, __FILE__, __LINE__);                      \
  } while (0)

// Makes `ordinal` the current device for a scope, restoring the previous one.
class CurrentDevice {
 public:
  explicit CurrentDevice(int ordinal) {
    GPULAB_CUDA_CHECK(cudaGetDevice(&previous_));
    if (previous_ != ordinal) GPULAB_CUDA_CHECK(cudaSetDevice(ordinal));
  }
  ~CurrentDevice() { (void)cudaSetDevice(previous_); }
  CurrentDevice(const CurrentDevice&) = delete;
  CurrentDevice& operator=(const CurrentDevice&) = delete;

 private:
  int previous_ = 0;
};

struct CachedHandle {
  cublasHandle_t handle = nullptr;
  std::mutex mutex;  // a handle is used by one host thread at a time
};

class HandleCache {
 public:
  // The handle for (device, stream); the device is current when this is called.
  CachedHandle& get(int device, cudaStream_t stream) {
    const std::lock_guard lock(mutex_);
    auto& slot = handles_[{device, stream}];
    if (!slot) {
      auto entry = std::make_unique<CachedHandle>();
      GPULAB_CUBLAS_CHECK(cublasCreate(&entry->handle));
      GPULAB_CUBLAS_CHECK(cublasSetStream(entry->handle, stream));
      slot = std::move(entry);
    }
    return *slot;
  }

 private:
  std::mutex mutex_;
  std::map<std::pair<int, cudaStream_t>, std::unique_ptr<CachedHandle>> handles_;
};

// Never destroyed: at exit the CUDA runtime may already be torn down, and cublasDestroy would then fail
// or crash; the driver frees everything with the process.
HandleCache& handle_cache() {
  static HandleCache* cache = new HandleCache;
  return *cache;
}

cublasOperation_t op_for(Layout operand, Layout result) {
  // Same layout as C: the memory already is the matrix cuBLAS wants; otherwise it is its transpose.
  return operand == result ? CUBLAS_OP_N : CUBLAS_OP_T;
}

// cuBLAS wants ld >= max(1, stored rows) even where it reads nothing (K = 0) or a single column.
index_t cublas_ld(index_t ld, index_t stored_rows, index_t stored_cols) {
  return stored_cols <= 1 ? std::max<index_t>({ld, stored_rows, 1}) : ld;
}

template <class T>
void run_cublas(const MatmulArgs<T>& args, const MatmulContext& context, bool tf32) {
  if constexpr (std::is_same_v<T, std::int32_t>) {
    throw InvalidArgument("cublas supports float32 and float64, not int32");  // the registry refuses it first
  } else {
    const int m = args.c.rows(), n = args.c.cols(), k = args.a.cols();
    if (m == 0 || n == 0) return;
    const int ordinal = args.c.space().ordinal;
    const CurrentDevice current(ordinal);
    const Stream stream = context.stream.valid() ? context.stream : Stream::default_for(cuda_device(ordinal));
    auto* native = static_cast<cudaStream_t>(stream.native_handle());
    CachedHandle& cached = handle_cache().get(ordinal, native);
    const std::lock_guard lock(cached.mutex);

    constexpr cudaDataType_t type = std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_64F;
    const cublasComputeType_t compute = std::is_same_v<T, double> ? CUBLAS_COMPUTE_64F
                                        : tf32                    ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                  : CUBLAS_COMPUTE_32F;
    const Layout lc = args.c.layout();
    // In column-major terms C (or C^T for a row-major C) has `rows` x `cols`; the first operand X is
    // A (or B^T), the second Y is B (or A^T).
    const bool row_major = lc == Layout::row_major;
    const matrix_view<const T>& x = row_major ? args.b : args.a;
    const matrix_view<const T>& y = row_major ? args.a : args.b;
    const int rows = row_major ? n : m, cols = row_major ? m : n;
    const cublasOperation_t op_x = op_for(x.layout(), lc), op_y = op_for(y.layout(), lc);
    // Stored (column-major) extents of X and Y: rows x k (op N) or k x rows (op T).
    const index_t ldx = cublas_ld(x.ld(), op_x == CUBLAS_OP_N ? rows : k, op_x == CUBLAS_OP_N ? k : rows);
    const index_t ldy = cublas_ld(y.ld(), op_y == CUBLAS_OP_N ? k : cols, op_y == CUBLAS_OP_N ? cols : k);
    const index_t ldc = cublas_ld(args.c.ld(), rows, cols);
    const T alpha = args.alpha, beta = args.beta;
    GPULAB_CUBLAS_CHECK(cublasGemmEx(cached.handle, op_x, op_y, rows, cols, k, &alpha, x.data(), type,
                                     static_cast<int>(ldx), y.data(), type, static_cast<int>(ldy), &beta,
                                     args.c.data(), type, static_cast<int>(ldc), compute, CUBLAS_GEMM_DEFAULT));
  }
}

std::string cublas_cannot_run(const MatmulProblem& p) {
  for (auto [name, ld] : {std::pair{"A", p.lda}, std::pair{"B", p.ldb}, std::pair{"C", p.ldc}}) {
    if (ld > INT_MAX) {
      return fmt::format("cuBLAS takes 32-bit leading dimensions; {}'s is {} (limit {})", name, ld, INT_MAX);
    }
  }
  return {};
}

bool register_cublas(const char* name, const char* description, int order, std::vector<Dtype> dtypes, bool tf32) {
  MatmulRegistration r;
  r.name = name;
  r.description = description;
  r.family = MatmulFamily::peer;
  r.order = order;
  r.device_kind = DeviceKind::cuda;
  r.dtypes = std::move(dtypes);
  r.automatic = !tf32;
  r.float32_as_tf32 = tf32;
  r.cannot_run = cublas_cannot_run;
  r.run = [tf32](const AnyMatmulArgs& any, const MatmulContext& context) {
    std::visit([&](const auto& args) { run_cublas(args, context, tf32); }, any);
  };
  return register_matmul(std::move(r));
}

const bool cublas_registered =
    register_cublas("cublas", "cuBLAS cublasGemmEx: pure FP32 compute for float32 (no TF32), FP64 for float64", 100,
                    {Dtype::float32, Dtype::float64}, false);
const bool cublas_tf32_registered = register_cublas(
    "cublas-tf32", "cuBLAS cublasGemmEx with TF32 tensor cores for float32 (10-bit mantissa operands)", 101,
    {Dtype::float32}, true);

}  // namespace
}  // namespace gpulab
