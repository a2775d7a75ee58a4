#pragma once
// The state the simulator's CUDA runtime API keeps beyond gpulab's runtime: CUDA's error variables
// (a sticky one for the process, a last error per host thread), the allocations CUDA's calls made (so
// that copies can be bounds-checked and cudaMemcpyDefault can tell device from host memory), and the
// streams and events handed out as CUDA handles.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>

#include <gpulab/device.hpp>
#include <gpulab/stream.hpp>

#include <gpulab/sim/cuda/cuda_runtime_api.h>

struct CUstream_st {
  gpulab::Stream stream;
  unsigned flags = 0;
};

struct CUevent_st {
  gpulab::Event event;
  unsigned flags = 0;
  bool recorded = false;
};

namespace gpulab::sim::cuda::detail {

// A call the simulator does not support (or not with these arguments): reported on stderr, naming it,
// and returned as cudaErrorNotSupported.
class Unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A CUDA error with CUDA's code, raised inside an API call.
class ApiError : public std::runtime_error {
 public:
  ApiError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

enum class AllocationKind { device, managed };

struct DeviceAllocation {
  std::size_t bytes = 0;
  AllocationKind kind = AllocationKind::device;
};

class RuntimeState {
 public:
  static RuntimeState& get();

  Device device() const { return device_; }

  // Allocations.
  std::mutex mutex;
  std::map<std::uintptr_t, DeviceAllocation> device_allocations;  // begin -> allocation
  std::set<void*> host_allocations;                               // cudaMallocHost / cudaHostAlloc
  std::set<CUstream_st*> streams;                                 // created, not destroyed
  std::set<CUevent_st*> events;

  // The device allocation holding [p, p + bytes), or nullptr when p is not device memory. Throws
  // ApiError(cudaErrorInvalidValue) when p is device memory but the range runs past its buffer.
  const DeviceAllocation* device_range(const void* p, std::size_t bytes, const char* call);

  // The gpulab stream of a CUDA stream (validated): the sim device's default stream for the legacy
  // stream (0, cudaStreamLegacy, cudaStreamPerThread). Work queued on it is ordered by gpulab's
  // streams, the legacy default stream's rule included.
  Stream resolve(cudaStream_t stream);
  // Returns once everything queued on `stream` before now has run, as an operation of that stream
  // would (on the legacy stream: after the blocking streams' earlier work too). For what the
  // simulator does on the calling thread in stream order: host functions, symbol copies.
  void wait_in_order(cudaStream_t stream);
  bool is_legacy(cudaStream_t stream) const noexcept {
    return stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread;
  }

 private:
  RuntimeState();
  Device device_;
};

RuntimeState& state();

// CUDA's error variables: the sticky error, and each host thread's last error.
cudaError_t sticky_error() noexcept;
void set_last_error(cudaError_t code) noexcept;
cudaError_t take_last_error() noexcept;  // cudaGetLastError
cudaError_t peek_last_error() noexcept;  // cudaPeekAtLastError
void clear_errors() noexcept;            // cudaDeviceReset

// Throws ApiError(cudaErrorInvalidValue, what) unless `condition`.
void require(bool condition, const char* what);
// An event handle cudaEventCreate made (else ApiError(cudaErrorInvalidResourceHandle)).
CUevent_st* checked_event(cudaEvent_t event);

// Turns the exception being handled into CUDA's error for `call`: records it (sticky for faults inside
// kernels) and reports kernel faults on stderr as findings, which make the process exit non-zero.
cudaError_t translate_current_exception(const char* call) noexcept;
// Reports a finding (a KernelFault, or a check that cannot run) on stderr and counts it.
void report_finding(const std::string& what) noexcept;

// Runs an API call's body: returns the sticky error if there is one, else the body's outcome.
template <class F>
cudaError_t api_call(const char* call, F&& body) noexcept {
  if (const cudaError_t sticky = sticky_error(); sticky != cudaSuccess) {
    set_last_error(sticky);
    return sticky;
  }
  try {
    body();
    return cudaSuccess;
  } catch (...) {
    return translate_current_exception(call);
  }
}

}  // namespace gpulab::sim::cuda::detail
