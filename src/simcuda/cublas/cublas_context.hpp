#pragma once
// What every call of the simulator's cuBLAS shares: the handle (cuBLAS's context: its stream, pointer
// mode, math mode), the status a call returns, scalars that live in host or device memory as the
// pointer mode says, and the device regions that operands occupy (what the checks are told a call
// touches).
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

#include <gpulab/sim/cuda/cublas_api.h>

#include "simcuda/runtime/library_tasks.hpp"

struct cublasContext {
  cudaStream_t stream = nullptr;
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
  cublasAtomicsMode_t atomics_mode = CUBLAS_ATOMICS_NOT_ALLOWED;
  cublasMath_t math_mode = CUBLAS_DEFAULT_MATH;
  int sm_count_target = 0;
  void* workspace = nullptr;  // cublasSetWorkspace's: recorded, not needed (the work runs on the host)
  std::size_t workspace_bytes = 0;
};

namespace gpulab::sim::cublas {

using gpulab::sim::cuda::detail::DeviceRegion;
using gpulab::sim::cuda::detail::HostTaskAccess;

// A call refused with a cuBLAS status; the text names the argument, its value and the rule.
class StatusError : public std::runtime_error {
 public:
  StatusError(cublasStatus_t status, const std::string& what) : std::runtime_error(what), status_(status) {}
  cublasStatus_t status() const noexcept { return status_; }

 private:
  cublasStatus_t status_;
};

// Throws StatusError(CUBLAS_STATUS_INVALID_VALUE, what()) unless `ok`.
template <class What>
void require(bool ok, What&& what) {
  if (!ok) throw StatusError(CUBLAS_STATUS_INVALID_VALUE, std::forward<What>(what)());
}

// The context of a handle cublasCreate made and cublasDestroy has not destroyed (else NOT_INITIALIZED).
cublasContext& context_of(cublasHandle_t handle);
const char* status_name(cublasStatus_t status) noexcept;

// Runs a call: its body validates and queues the work. Returns the call's status: a StatusError's, or
// EXECUTION_FAILED when the CUDA context has failed, the stream is not one, or the work faulted
// (reported as the CUDA runtime reports it). Refusals are reported on stderr, naming the call.
template <class F>
cublasStatus_t api(const char* call, F&& body) noexcept {
  try {
    if (gpulab::sim::cuda::detail::library_context_error() != cudaSuccess) {
      return CUBLAS_STATUS_EXECUTION_FAILED;  // a failed kernel before left the context unusable
    }
    body();
    return CUBLAS_STATUS_SUCCESS;
  } catch (const StatusError& e) {
    std::fprintf(stderr, "gpulab-sim: %s: %s: %s\n", call, status_name(e.status()), e.what());
    return e.status();
  } catch (...) {
    gpulab::sim::cuda::detail::record_library_error(call);
    return CUBLAS_STATUS_EXECUTION_FAILED;
  }
}

// BLAS's leading-dimension rule: ld >= max(1, rows), where `rows_name` names the argument rows comes
// from ("m", "k"); else INVALID_VALUE saying so.
inline void require_ld(long long ld, long long rows, const char* name, const char* rows_name) {
  const long long least = rows > 1 ? rows : 1;
  require(ld >= least, [&] { return fmt::format("{} = {} is less than max(1, {}) = {}", name, ld, rows_name, least); });
}

// Which operation an operand takes. CUBLAS_OP_CONJG is a placeholder cuBLAS refuses too.
struct Op {
  bool transpose = false;
  bool conjugate = false;
};
Op parse_op(cublasOperation_t op, const char* name);
bool parse_upper(cublasFillMode_t uplo, const char* name);  // FULL is refused where a triangle is meant
bool parse_unit(cublasDiagType_t diag);
bool parse_left(cublasSideMode_t side);

// A scalar argument (alpha, beta, c, s): read at the call in host pointer mode, read by the work from
// device memory (a region the checks see) in device pointer mode.
template <class T>
class Scalar {
 public:
  Scalar() = default;
  Scalar(const cublasContext& ctx, const T* p, const char* name) : name_(name) {
    require(p != nullptr, [&] { return std::string(name) + " is null"; });
    if (ctx.pointer_mode == CUBLAS_POINTER_MODE_HOST) {
      value_ = *p;
    } else {
      device_ = p;
    }
  }
  // The value, inside the work.
  T get(HostTaskAccess& access) const {
    if (device_ == nullptr) return value_;
    access.read(DeviceRegion{device_, sizeof(T), 1, 0, name_});
    return *device_;
  }

 private:
  T value_{};
  const T* device_ = nullptr;
  const char* name_ = "";
};

// Where a call's scalar result goes: a host pointer, written after the work and waited for (cuBLAS
// returns such results synchronously), or device memory, written by the work.
template <class T>
class Result {
 public:
  Result(const cublasContext& ctx, T* p) : host_(ctx.pointer_mode == CUBLAS_POINTER_MODE_HOST), p_(p) {
    require(p != nullptr, [] { return std::string("result is null"); });
  }
  void set(HostTaskAccess& access, T value) const {
    if (!host_) access.write(DeviceRegion{p_, sizeof(T), 1, 0, "result"});
    *p_ = value;
  }
  bool on_host() const noexcept { return host_; }

 private:
  bool host_;
  T* p_;
};

// A strided vector of n elements of `elem` bytes: BLAS's convention, a negative increment walking it
// from its end, so the lowest address is always `p`.
inline DeviceRegion vector_region(const void* p, long long n, long long inc, std::size_t elem, const char* name) {
  const auto step = static_cast<std::size_t>(inc < 0 ? -inc : inc);
  if (n <= 0) return DeviceRegion{p, 0, 0, 0, name};
  if (step == 0) return DeviceRegion{p, elem, 1, 0, name};  // every element is the first
  if (step == 1) return DeviceRegion{p, static_cast<std::size_t>(n) * elem, 1, 0, name};
  return DeviceRegion{p, elem, static_cast<std::size_t>(n), step * elem, name};
}

// A column-major rows x cols matrix with leading dimension ld.
inline DeviceRegion matrix_region(const void* p, long long rows, long long cols, long long ld, std::size_t elem,
                                  const char* name) {
  if (rows <= 0 || cols <= 0) return DeviceRegion{p, 0, 0, 0, name};
  if (ld == rows) return DeviceRegion{p, static_cast<std::size_t>(rows * cols) * elem, 1, 0, name};
  return DeviceRegion{p, static_cast<std::size_t>(rows) * elem, static_cast<std::size_t>(cols),
                      static_cast<std::size_t>(ld) * elem, name};
}

// The triangle of an n x n column-major matrix that a symmetric or triangular operation reads (the
// other is never touched, so may be unwritten): a region per column.
void read_triangle(HostTaskAccess& access, const void* p, int n, int ld, bool upper, std::size_t elem,
                   const char* name);

// Queues a call's work on the handle's stream (library_tasks.hpp); with `wait`, returns once it ran
// (a result for host memory).
void enqueue(const cublasContext& ctx, const char* call, std::function<void(HostTaskAccess&)> work,
             bool wait = false);

}  // namespace gpulab::sim::cublas
