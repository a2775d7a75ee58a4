// cuBLAS's helper functions on the simulator: handles and their settings, versions, status names, and
// the shared pieces of cublas_context.hpp.
#include <mutex>
#include <set>

#include <fmt/format.h>

#include "simcuda/cublas/cublas_context.hpp"

namespace gpulab::sim::cublas {

namespace {

std::mutex handles_mutex;
std::set<cublasContext*>& live_handles() {
  static auto* handles = new std::set<cublasContext*>;  // never destroyed: handles may outlive statics
  return *handles;
}

struct StatusText {
  cublasStatus_t status;
  const char* name;
  const char* text;
};
constexpr StatusText status_texts[] = {
    {CUBLAS_STATUS_SUCCESS, "CUBLAS_STATUS_SUCCESS", "success"},
    {CUBLAS_STATUS_NOT_INITIALIZED, "CUBLAS_STATUS_NOT_INITIALIZED", "the library was not initialized"},
    {CUBLAS_STATUS_ALLOC_FAILED, "CUBLAS_STATUS_ALLOC_FAILED", "the resource allocation failed"},
    {CUBLAS_STATUS_INVALID_VALUE, "CUBLAS_STATUS_INVALID_VALUE", "an invalid numeric value was used as an argument"},
    {CUBLAS_STATUS_ARCH_MISMATCH, "CUBLAS_STATUS_ARCH_MISMATCH", "an absent device architectural feature is required"},
    {CUBLAS_STATUS_MAPPING_ERROR, "CUBLAS_STATUS_MAPPING_ERROR", "an access to GPU memory space failed"},
    {CUBLAS_STATUS_EXECUTION_FAILED, "CUBLAS_STATUS_EXECUTION_FAILED", "the GPU program failed to execute"},
    {CUBLAS_STATUS_INTERNAL_ERROR, "CUBLAS_STATUS_INTERNAL_ERROR", "an internal operation failed"},
    {CUBLAS_STATUS_NOT_SUPPORTED, "CUBLAS_STATUS_NOT_SUPPORTED", "the functionality requested is not supported"},
    {CUBLAS_STATUS_LICENSE_ERROR, "CUBLAS_STATUS_LICENSE_ERROR", "error detected trying to check the license"},
};

cublasLogCallback log_callback = nullptr;

}  // namespace

cublasContext& context_of(cublasHandle_t handle) {
  std::lock_guard lock(handles_mutex);
  if (handle == nullptr || live_handles().count(handle) == 0) {
    throw StatusError(CUBLAS_STATUS_NOT_INITIALIZED,
                      fmt::format("handle {} is not one cublasCreate made (or it was destroyed)",
                                  static_cast<const void*>(handle)));
  }
  return *handle;
}

const char* status_name(cublasStatus_t status) noexcept {
  for (const auto& s : status_texts) {
    if (s.status == status) return s.name;
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

Op parse_op(cublasOperation_t op, const char* name) {
  switch (op) {
    case CUBLAS_OP_N:
      return Op{false, false};
    case CUBLAS_OP_T:
      return Op{true, false};
    case CUBLAS_OP_C:
      return Op{true, true};
    default:
      throw StatusError(CUBLAS_STATUS_INVALID_VALUE,
                        fmt::format("{} = {} is not CUBLAS_OP_N, CUBLAS_OP_T or CUBLAS_OP_C", name, static_cast<int>(op)));
  }
}

bool parse_upper(cublasFillMode_t uplo, const char* name) {
  if (uplo == CUBLAS_FILL_MODE_UPPER) return true;
  if (uplo == CUBLAS_FILL_MODE_LOWER) return false;
  throw StatusError(CUBLAS_STATUS_INVALID_VALUE,
                    fmt::format("{} = {} is not CUBLAS_FILL_MODE_LOWER or CUBLAS_FILL_MODE_UPPER", name, static_cast<int>(uplo)));
}

bool parse_unit(cublasDiagType_t diag) {
  if (diag == CUBLAS_DIAG_UNIT) return true;
  if (diag == CUBLAS_DIAG_NON_UNIT) return false;
  throw StatusError(CUBLAS_STATUS_INVALID_VALUE,
                    fmt::format("diag = {} is not CUBLAS_DIAG_NON_UNIT or CUBLAS_DIAG_UNIT", static_cast<int>(diag)));
}

bool parse_left(cublasSideMode_t side) {
  if (side == CUBLAS_SIDE_LEFT) return true;
  if (side == CUBLAS_SIDE_RIGHT) return false;
  throw StatusError(CUBLAS_STATUS_INVALID_VALUE,
                    fmt::format("side = {} is not CUBLAS_SIDE_LEFT or CUBLAS_SIDE_RIGHT", static_cast<int>(side)));
}

void read_triangle(HostTaskAccess& access, const void* p, int n, int ld, bool upper, std::size_t elem,
                   const char* name) {
  const auto* base = static_cast<const unsigned char*>(p);
  for (int j = 0; j < n; ++j) {
    const int first = upper ? 0 : j;
    const int rows = upper ? j + 1 : n - j;
    access.read(DeviceRegion{base + (static_cast<std::size_t>(j) * ld + first) * elem,
                             static_cast<std::size_t>(rows) * elem, 1, 0, name});
  }
}

void enqueue(const cublasContext& ctx, const char* call, std::function<void(HostTaskAccess&)> work, bool wait) {
  gpulab::sim::cuda::detail::run_library_task(ctx.stream, call, std::move(work));
  if (wait) gpulab::sim::cuda::detail::synchronize_library_stream(ctx.stream);
}

}  // namespace gpulab::sim::cublas

using namespace gpulab::sim::cublas;  // NOLINT: the API below is cuBLAS's, at global scope

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
  return api("cublasCreate_v2", [&] {
    require(handle != nullptr, [] { return std::string("handle is null"); });
    // cuBLAS initialises the CUDA context here; a failed one fails the call.
    if (gpulab::sim::cuda::detail::library_context_error() != cudaSuccess) {
      throw StatusError(CUBLAS_STATUS_NOT_INITIALIZED, "the CUDA context has failed");
    }
    auto* ctx = new cublasContext;
    std::lock_guard lock(handles_mutex);
    live_handles().insert(ctx);
    *handle = ctx;
  });
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  return api("cublasDestroy_v2", [&] {
    cublasContext& ctx = context_of(handle);
    // The handle's work finishes first, as cuBLAS synchronises in cublasDestroy.
    gpulab::sim::cuda::detail::synchronize_library_stream(ctx.stream);
    std::lock_guard lock(handles_mutex);
    live_handles().erase(&ctx);
    delete &ctx;
  });
}

cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int* version) {
  return api("cublasGetVersion_v2", [&] {
    context_of(handle);
    require(version != nullptr, [] { return std::string("version is null"); });
    *version = CUBLAS_VERSION;
  });
}

cublasStatus_t cublasGetProperty(libraryPropertyType type, int* value) {
  return api("cublasGetProperty", [&] {
    require(value != nullptr, [] { return std::string("value is null"); });
    switch (type) {
      case MAJOR_VERSION:
        *value = CUBLAS_VER_MAJOR;
        break;
      case MINOR_VERSION:
        *value = CUBLAS_VER_MINOR;
        break;
      case PATCH_LEVEL:
        *value = CUBLAS_VER_PATCH;
        break;
      default:
        throw StatusError(CUBLAS_STATUS_INVALID_VALUE, fmt::format("type = {} is not a libraryPropertyType", static_cast<int>(type)));
    }
  });
}

size_t cublasGetCudartVersion(void) { return CUDART_VERSION; }

cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void* workspace, size_t workspaceSizeInBytes) {
  return api("cublasSetWorkspace_v2", [&] {
    cublasContext& ctx = context_of(handle);
    require(workspace != nullptr || workspaceSizeInBytes == 0,
            [] { return std::string("workspace is null but its size is not 0"); });
    ctx.workspace = workspace;
    ctx.workspace_bytes = workspaceSizeInBytes;
  });
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId) {
  return api("cublasSetStream_v2", [&] { context_of(handle).stream = streamId; });
}

cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t* streamId) {
  return api("cublasGetStream_v2", [&] {
    const cublasContext& ctx = context_of(handle);
    require(streamId != nullptr, [] { return std::string("streamId is null"); });
    *streamId = ctx.stream;
  });
}

cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t* mode) {
  return api("cublasGetPointerMode_v2", [&] {
    const cublasContext& ctx = context_of(handle);
    require(mode != nullptr, [] { return std::string("mode is null"); });
    *mode = ctx.pointer_mode;
  });
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode) {
  return api("cublasSetPointerMode_v2", [&] {
    cublasContext& ctx = context_of(handle);
    require(mode == CUBLAS_POINTER_MODE_HOST || mode == CUBLAS_POINTER_MODE_DEVICE, [&] {
      return fmt::format("mode = {} is not CUBLAS_POINTER_MODE_HOST or CUBLAS_POINTER_MODE_DEVICE", static_cast<int>(mode));
    });
    ctx.pointer_mode = mode;
  });
}

cublasStatus_t cublasGetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t* mode) {
  return api("cublasGetAtomicsMode", [&] {
    const cublasContext& ctx = context_of(handle);
    require(mode != nullptr, [] { return std::string("mode is null"); });
    *mode = ctx.atomics_mode;
  });
}

cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t mode) {
  return api("cublasSetAtomicsMode", [&] {
    cublasContext& ctx = context_of(handle);
    require(mode == CUBLAS_ATOMICS_NOT_ALLOWED || mode == CUBLAS_ATOMICS_ALLOWED,
            [&] { return fmt::format("mode = {} is not a cublasAtomicsMode_t", static_cast<int>(mode)); });
    ctx.atomics_mode = mode;
  });
}

cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t* mode) {
  return api("cublasGetMathMode", [&] {
    const cublasContext& ctx = context_of(handle);
    require(mode != nullptr, [] { return std::string("mode is null"); });
    *mode = ctx.math_mode;
  });
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  return api("cublasSetMathMode", [&] {
    cublasContext& ctx = context_of(handle);
    const unsigned base = static_cast<unsigned>(mode) & ~static_cast<unsigned>(CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION);
    require(base <= CUBLAS_TF32_TENSOR_OP_MATH || base == CUBLAS_FP32_EMULATED_BF16X9_MATH ||
                base == CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH,
            [&] { return fmt::format("mode = {} is not a cublasMath_t", static_cast<int>(mode)); });
    ctx.math_mode = mode;
  });
}

cublasStatus_t cublasGetSmCountTarget(cublasHandle_t handle, int* smCountTarget) {
  return api("cublasGetSmCountTarget", [&] {
    const cublasContext& ctx = context_of(handle);
    require(smCountTarget != nullptr, [] { return std::string("smCountTarget is null"); });
    *smCountTarget = ctx.sm_count_target;
  });
}

cublasStatus_t cublasSetSmCountTarget(cublasHandle_t handle, int smCountTarget) {
  return api("cublasSetSmCountTarget", [&] {
    cublasContext& ctx = context_of(handle);
    require(smCountTarget >= 0, [&] { return fmt::format("smCountTarget = {} is negative", smCountTarget); });
    ctx.sm_count_target = smCountTarget;
  });
}

const char* cublasGetStatusName(cublasStatus_t status) { return status_name(status); }

const char* cublasGetStatusString(cublasStatus_t status) {
  for (const auto& s : status_texts) {
    if (s.status == status) return s.text;
  }
  return "unknown error";
}

// cuBLAS's API log: there is nothing of the GPU's to log; the settings are accepted.
cublasStatus_t cublasLoggerConfigure(int, int, int, const char*) { return CUBLAS_STATUS_SUCCESS; }

cublasStatus_t cublasSetLoggerCallback(cublasLogCallback userCallback) {
  log_callback = userCallback;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetLoggerCallback(cublasLogCallback* userCallback) {
  if (userCallback == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *userCallback = log_callback;
  return CUBLAS_STATUS_SUCCESS;
}

}  // extern "C"
