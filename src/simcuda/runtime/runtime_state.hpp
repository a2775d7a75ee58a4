#pragma once
// The state the simulator's CUDA runtime API keeps beyond gpulab's runtime: CUDA's error variables
// (a sticky one for the process, a last error per host thread), the allocations CUDA's calls made (so
// that copies can be bounds-checked and cudaMemcpyDefault can tell device from host memory), and the
// streams and events handed out as CUDA handles.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <atomic>
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
  int priority = 0;  // recorded and reported; the simulator's streams are not scheduled by priority
  unsigned long long id = 0;
  // cudaStreamSetAttribute's values, read back by cudaStreamGetAttribute (hints to a GPU's caches and
  // scheduler, which the simulator has not).
  std::map<int, cudaLaunchAttributeValue> attributes;
};

struct CUevent_st {
  gpulab::Event event;
  unsigned flags = 0;
  bool recorded = false;
};

namespace gpulab::detail {
struct KernelRecord;
}
namespace gpulab::sim {
struct KernelEntry;
}

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

// What made an allocation of sim device memory. Pinned host memory (cudaMallocHost, cudaHostAlloc) is
// sim device memory too: the device is the host, so it is mapped by nature, and kernels and the checks
// treat it as the device's own.
enum class AllocationKind { device, managed, host_pinned };

// What cudaMemAdvise and cudaMemPrefetchAsync said of a managed allocation, for cudaMemRangeGetAttribute
// to read back (the simulator's managed memory never moves: it is the host's).
struct ManagedHints {
  bool read_mostly = false;
  int preferred_location = cudaInvalidDeviceId;
  int last_prefetch_location = cudaInvalidDeviceId;
  bool accessed_by_device = false;
  bool accessed_by_host = false;
};

struct DeviceAllocation {
  std::size_t bytes = 0;
  AllocationKind kind = AllocationKind::device;
  unsigned flags = 0;  // cudaHostAlloc's
  ManagedHints hints;
  CUmemPoolHandle_st* pool = nullptr;  // the pool of a stream-ordered allocation
};

// Host memory the program allocated itself and cudaHostRegister'ed.
struct HostRegistration {
  std::size_t bytes = 0;
  unsigned flags = 0;
};

class RuntimeState {
 public:
  static RuntimeState& get();

  Device device() const { return device_; }

  // Allocations.
  std::mutex mutex;
  std::map<std::uintptr_t, DeviceAllocation> device_allocations;  // begin -> allocation
  std::map<std::uintptr_t, HostRegistration> host_registrations;   // begin -> cudaHostRegister'ed range
  std::set<CUstream_st*> streams;                                 // created, not destroyed
  std::set<CUevent_st*> events;

  // The device allocation holding [p, p + bytes), or nullptr when p is not device memory. Throws
  // ApiError(cudaErrorInvalidValue) when p is device memory but the range runs past its buffer.
  const DeviceAllocation* device_range(const void* p, std::size_t bytes, const char* call);
  // The allocation whose range holds p (its begin in *begin), or nullptr.
  const DeviceAllocation* allocation_of(const void* p, std::uintptr_t* begin = nullptr);
  // The registration whose range holds p (its begin in *begin), or nullptr.
  const HostRegistration* registration_of(const void* p, std::uintptr_t* begin = nullptr);

  // Device-wide settings the program may set and read back: the flags of cudaSetDeviceFlags, the
  // cache and shared-memory configuration hints, the limits of cudaDeviceSetLimit.
  unsigned device_flags = cudaDeviceScheduleAuto;
  cudaFuncCache cache_config = cudaFuncCachePreferNone;
  cudaSharedMemConfig shared_mem_config = cudaSharedMemBankSizeFourByte;
  std::map<int, std::size_t> limits;  // cudaLimit -> value, once set
  unsigned long long next_stream_id = 1;

  // The gpulab stream of a CUDA stream (validated): the sim device's default stream for the legacy
  // stream (0, cudaStreamLegacy, cudaStreamPerThread). Work queued on it is ordered by gpulab's
  // streams, the legacy default stream's rule included.
  Stream resolve(cudaStream_t stream);
  // Returns once everything queued on `stream` before now has run, as an operation of that stream
  // would (on the legacy stream: after the blocking streams' earlier work too). For what the
  // simulator does on the calling thread in stream order: host functions, symbol copies.
  void wait_in_order(cudaStream_t stream);
  // The legacy default stream: 0 (unless the program was built for the per-thread default stream) and
  // cudaStreamLegacy.
  bool is_legacy(cudaStream_t stream) const noexcept {
    return stream == cudaStreamLegacy || (stream == nullptr && !per_thread_default_stream);
  }
  // The calling host thread's default stream: cudaStreamPerThread, and 0 in programs built with nvcc's
  // --default-stream per-thread. A blocking stream of its own per host thread, as CUDA's is: ordered
  // with the legacy stream, not with the other streams.
  bool is_per_thread(cudaStream_t stream) const noexcept {
    return stream == cudaStreamPerThread || (stream == nullptr && per_thread_default_stream);
  }
  bool is_default(cudaStream_t stream) const noexcept { return is_legacy(stream) || is_per_thread(stream); }
  bool per_thread_default_stream = false;

  // Set before main in a program that includes Thrust (gpulab_thrust_support.h): Thrust's algorithms
  // run on the calling host thread and read device memory there, so work queued on a default stream is
  // done before the call that queued it returns (host_waits_for).
  std::atomic<bool> host_reads_default_stream_work{false};
  bool host_waits_for(cudaStream_t stream) const noexcept {
    return host_reads_default_stream_work.load(std::memory_order_relaxed) && is_default(stream);
  }


 private:
  RuntimeState();
  Device device_;
};

RuntimeState& state();

// Allocates sim device memory for one of CUDA's allocation calls, and records it.
void* allocate_device(std::size_t size, AllocationKind kind, unsigned flags = 0);
// Frees the allocation of `kind` that begins at p (false when none does): after the whole device is
// idle when `wait_for_device`, at once otherwise (the caller has ordered it already).
bool free_allocation(void* p, AllocationKind kind, bool wait_for_device);

// CUDA's error variables: the sticky error, and each host thread's last error.
cudaError_t sticky_error() noexcept;
void set_last_error(cudaError_t code) noexcept;
cudaError_t take_last_error() noexcept;  // cudaGetLastError
cudaError_t peek_last_error() noexcept;  // cudaPeekAtLastError
void clear_errors() noexcept;            // cudaDeviceReset

// Prints, once per process and name, that `name` is accepted only as what `meaning` says (a call CUDA
// removed, or a hint the simulator has no use for): on stderr at run time, never at build time.
void note_once(const char* name, const char* meaning) noexcept;

// Throws ApiError(cudaErrorInvalidValue, what) unless `condition`.
void require(bool condition, const char* what);
// The simulator's compiled entry of a kernel (checked first, where it was built with -G); it knows the
// kernel's parameter types, so it copies arguments given as CUDA's void** (launches.cpp).
const gpulab::sim::KernelEntry& entry_of(const gpulab::detail::KernelRecord& kernel);
// Throws ApiError(cudaErrorInvalidDevice) naming `call` unless `device` is 0, the one device.
void check_device(int device, const char* call);
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
