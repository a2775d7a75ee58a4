// The CUDA runtime API of gpulab-simcc programs (include/gpulab/sim/cuda/cuda_runtime_api.h), on the
// `sim` device: errors, devices, memory, streams and events. Kernel launches are in
// cuda_runtime_api_launch.cpp.
//
// CUDA's semantics kept here: a fault inside a kernel is sticky (every later call returns it; only
// cudaDeviceReset clears it), other errors are non-sticky (cudaGetLastError returns and clears the
// last one, cudaPeekAtLastError only returns it); the legacy default stream (0) waits for the work of
// every blocking stream queued before, and blocking streams wait for the default stream's.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <gpulab/array.hpp>
#include <gpulab/error.hpp>

#include "backends/sim/cuda_runtime_api_state.hpp"
#include "runtime/backend.hpp"

namespace gpulab::sim::cuda::detail {

namespace {

std::atomic<int> sticky{cudaSuccess};
thread_local cudaError_t last_error = cudaSuccess;
std::atomic<int> findings{0};

// At exit, work still queued is finished (a fault in it is reported), and a process with findings
// exits non-zero whatever main returned, as compute-sanitizer's --error-exitcode does.
void finish_at_exit() {
  try {
    gpulab::detail::backend_for(DeviceKind::sim).synchronize_device(0);
  } catch (...) {
    translate_current_exception("exit");
  }
  if (const int n = findings.load(); n > 0) {
    std::fprintf(stderr, "========= gpulab-sim: ERROR SUMMARY: %d error%s\n", n, n == 1 ? "" : "s");
    std::fflush(nullptr);
    std::_Exit(EXIT_FAILURE);
  }
}

constexpr std::size_t pitch_alignment = 512;

}  // namespace

RuntimeState::RuntimeState() : device_(sim_device()) {
  // The backend first, so that its destructor runs after the handler.
  gpulab::detail::backend_for(DeviceKind::sim);
  std::atexit(finish_at_exit);
}

RuntimeState& RuntimeState::get() {
  static RuntimeState* state = new RuntimeState;  // never destroyed: exit handlers and streams use it
  return *state;
}

const DeviceAllocation* RuntimeState::device_range(const void* p, std::size_t bytes, const char* call) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard lock(mutex);
  auto it = device_allocations.upper_bound(a);
  if (it == device_allocations.begin()) return nullptr;
  --it;
  const std::uintptr_t begin = it->first;
  const std::size_t size = it->second.bytes;
  if (a - begin >= std::max<std::size_t>(size, 1)) return nullptr;
  if (bytes > size - (a - begin)) {
    throw ApiError(cudaErrorInvalidValue,
                   fmt::format("{}: {} bytes at offset {} of a {}-byte device buffer run {} bytes past its end", call,
                               bytes, a - begin, size, bytes - (size - (a - begin))));
  }
  return &it->second;
}

Stream RuntimeState::resolve(cudaStream_t stream) {
  if (is_legacy(stream)) return Stream::default_for(device_);
  std::lock_guard lock(mutex);
  if (streams.count(stream) == 0) {
    throw ApiError(cudaErrorInvalidResourceHandle, "not a stream created by cudaStreamCreate (or destroyed)");
  }
  return stream->stream;
}

Stream RuntimeState::stream_for_work(cudaStream_t stream) {
  Stream target = resolve(stream);
  std::vector<Stream> before;
  if (is_legacy(stream)) {
    std::lock_guard lock(mutex);
    for (CUstream_st* s : streams) {
      if ((s->flags & cudaStreamNonBlocking) == 0) before.push_back(s->stream);
    }
  } else if ((stream->flags & cudaStreamNonBlocking) == 0) {
    before.push_back(Stream::default_for(device_));
  }
  for (const Stream& s : before) {
    Event e(device_);
    e.record(s);
    target.wait(e);
  }
  return target;
}

cudaError_t sticky_error() noexcept { return static_cast<cudaError_t>(sticky.load()); }
void set_last_error(cudaError_t code) noexcept { last_error = code; }

void report_finding(const std::string& what) noexcept {
  findings.fetch_add(1);
  std::fprintf(stderr, "========= gpulab-sim: %s\n", what.c_str());
  std::fflush(stderr);
}

cudaError_t translate_current_exception(const char* call) noexcept {
  cudaError_t code = cudaErrorUnknown;
  try {
    throw;
  } catch (const KernelFault& e) {
    const std::string what = e.what();
    code = what.find("memcheck") != std::string::npos ? cudaErrorIllegalAddress : cudaErrorLaunchFailure;
    report_finding(what);
    int expected = cudaSuccess;
    sticky.compare_exchange_strong(expected, code);
    code = static_cast<cudaError_t>(sticky.load());
  } catch (const ApiError& e) {
    code = e.code();
    if (code != cudaErrorNotReady) std::fprintf(stderr, "gpulab-sim: %s: %s\n", call, e.what());
  } catch (const Unsupported& e) {
    code = cudaErrorNotSupported;
    std::fprintf(stderr, "gpulab-sim: %s is not supported by the simulator: %s\n", call, e.what());
  } catch (const OutOfMemory& e) {
    code = cudaErrorMemoryAllocation;
  } catch (const InvalidArgument& e) {
    code = cudaErrorInvalidValue;
    std::fprintf(stderr, "gpulab-sim: %s: %s\n", call, e.what());
  } catch (const std::bad_alloc&) {
    code = cudaErrorMemoryAllocation;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpulab-sim: %s: %s\n", call, e.what());
  } catch (...) {
  }
  if (code != cudaErrorNotReady) last_error = code;  // "not ready" is an answer, not an error
  return code;
}

namespace {

RuntimeState& state() { return RuntimeState::get(); }

void require(bool condition, const char* what) {
  if (!condition) throw ApiError(cudaErrorInvalidValue, what);
}

// The gpulab memory space of `p` for a copy: the sim device's for memory cudaMalloc'ed (or managed),
// the host's otherwise. Device-side ranges are bounds-checked.
MemorySpace space_of(const void* p, std::size_t bytes, const char* call) {
  return state().device_range(p, bytes, call) != nullptr ? state().device().space() : host_space;
}

void check_direction(const void* dst, const void* src, std::size_t count, cudaMemcpyKind kind, const char* call,
                     MemorySpace& dst_space, MemorySpace& src_space) {
  dst_space = space_of(dst, count, call);
  src_space = space_of(src, count, call);
  const bool dst_dev = dst_space.kind == DeviceKind::sim, src_dev = src_space.kind == DeviceKind::sim;
  switch (kind) {
    case cudaMemcpyHostToDevice:
      if (!dst_dev) throw ApiError(cudaErrorInvalidValue, fmt::format("{}: cudaMemcpyHostToDevice to {}, which is not device memory", call, dst));
      break;
    case cudaMemcpyDeviceToHost:
      if (!src_dev) throw ApiError(cudaErrorInvalidValue, fmt::format("{}: cudaMemcpyDeviceToHost from {}, which is not device memory", call, src));
      break;
    case cudaMemcpyDeviceToDevice:
      if (!dst_dev || !src_dev) {
        throw ApiError(cudaErrorInvalidValue, fmt::format("{}: cudaMemcpyDeviceToDevice between {} and {}, which are not both device memory", call, src, dst));
      }
      break;
    case cudaMemcpyHostToHost:
    case cudaMemcpyDefault:
      break;
    default:
      throw ApiError(cudaErrorInvalidMemcpyDirection, fmt::format("{}: {} is not a cudaMemcpyKind", call, static_cast<int>(kind)));
  }
}

void copy(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind, cudaStream_t stream, bool wait,
          const char* call) {
  if (count == 0) return;
  require(dst != nullptr && src != nullptr, "a null pointer");
  MemorySpace dst_space, src_space;
  check_direction(dst, src, count, kind, call, dst_space, src_space);
  const Stream s = state().stream_for_work(stream);
  if (dst_space.kind == DeviceKind::host && src_space.kind == DeviceKind::host) {
    s.synchronize();  // ordered after the stream's work, like CUDA's host-to-host copies
    std::memmove(dst, src, count);
    return;
  }
  gpulab::detail::copy_bytes(dst, dst_space, src, src_space, count, s);
  if (wait) s.synchronize();
}

void* allocate_device(std::size_t size, AllocationKind kind) {
  void* p = gpulab::detail::backend_for(DeviceKind::sim).allocate(0, std::max<std::size_t>(size, 1));
  std::lock_guard lock(state().mutex);
  state().device_allocations[reinterpret_cast<std::uintptr_t>(p)] = DeviceAllocation{size, kind};
  return p;
}

CUevent_st* checked_event(cudaEvent_t event) {
  std::lock_guard lock(state().mutex);
  if (event == nullptr || state().events.count(event) == 0) {
    throw ApiError(cudaErrorInvalidResourceHandle, "not an event created by cudaEventCreate (or destroyed)");
  }
  return event;
}

}  // namespace

}  // namespace gpulab::sim::cuda::detail

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope
using gpulab::Event;
using gpulab::Stream;

// ---- errors -------------------------------------------------------------------------------------------------

cudaError_t cudaGetLastError() {
  if (const cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  return std::exchange(last_error, cudaSuccess);
}

cudaError_t cudaPeekAtLastError() {
  if (const cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  return last_error;
}

namespace {

struct ErrorText {
  cudaError_t code;
  const char* name;
  const char* text;
};

// CUDA's names and texts for the codes the simulator returns.
constexpr ErrorText error_texts[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorNotYetImplemented, "cudaErrorNotYetImplemented", "function not yet implemented"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotPermitted, "cudaErrorNotPermitted", "operation not permitted"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const ErrorText* find_error(cudaError_t code) {
  for (const ErrorText& e : error_texts) {
    if (e.code == code) return &e;
  }
  return nullptr;
}

}  // namespace

const char* cudaGetErrorString(cudaError_t error) {
  const ErrorText* e = find_error(error);
  return e != nullptr ? e->text : "unrecognized error code";
}

const char* cudaGetErrorName(cudaError_t error) {
  const ErrorText* e = find_error(error);
  return e != nullptr ? e->name : "cudaErrorUnknown";
}

// ---- devices --------------------------------------------------------------------------------------------------

cudaError_t cudaGetDeviceCount(int* count) {
  return api_call("cudaGetDeviceCount", [&] {
    require(count != nullptr, "count is null");
    *count = 1;
  });
}

cudaError_t cudaSetDevice(int device) {
  return api_call("cudaSetDevice", [&] {
    if (device != 0) {
      throw ApiError(cudaErrorInvalidDevice, fmt::format("device {}: the simulator has one device, 0", device));
    }
    state();
  });
}

cudaError_t cudaGetDevice(int* device) {
  return api_call("cudaGetDevice", [&] {
    require(device != nullptr, "device is null");
    *device = 0;
  });
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  return api_call("cudaGetDeviceProperties", [&] {
    require(prop != nullptr, "prop is null");
    if (device != 0) throw ApiError(cudaErrorInvalidDevice, fmt::format("device {}: the simulator has one device, 0", device));
    const gpulab::DeviceProperties& p = state().device().properties();
    *prop = cudaDeviceProp{};
    std::snprintf(prop->name, sizeof prop->name, "%s", p.name.c_str());
    prop->totalGlobalMem = p.total_memory;
    prop->sharedMemPerBlock = p.shared_memory_per_block;
    prop->regsPerBlock = p.registers_per_block;
    prop->warpSize = p.warp_size;
    prop->memPitch = 2147483647;
    prop->maxThreadsPerBlock = p.max_threads_per_block;
    for (int i = 0; i < 3; ++i) {
      prop->maxThreadsDim[i] = p.max_block_dim[static_cast<std::size_t>(i)];
      prop->maxGridSize[i] = p.max_grid_dim[static_cast<std::size_t>(i)];
    }
    prop->totalConstMem = 64 * 1024;
    prop->major = p.compute_major;
    prop->minor = p.compute_minor;
    prop->textureAlignment = 512;
    prop->deviceOverlap = 1;
    prop->multiProcessorCount = p.multiprocessor_count;
    prop->integrated = 1;  // its memory is the host's
    prop->canMapHostMemory = 0;
    prop->concurrentKernels = 1;
    prop->asyncEngineCount = 1;
    prop->unifiedAddressing = 1;
    prop->memoryBusWidth = p.memory_bus_width_bits;
    prop->l2CacheSize = static_cast<int>(p.l2_cache_bytes);
    prop->maxThreadsPerMultiProcessor = p.max_threads_per_multiprocessor;
    prop->sharedMemPerMultiprocessor = p.shared_memory_per_multiprocessor;
    prop->regsPerMultiprocessor = 65536;
    prop->managedMemory = 1;
    prop->concurrentManagedAccess = 0;
    prop->sharedMemPerBlockOptin = p.shared_memory_per_block_optin;
    prop->maxBlocksPerMultiProcessor = 32;
  });
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  return api_call("cudaDeviceGetAttribute", [&] {
    require(value != nullptr, "value is null");
    if (device != 0) throw ApiError(cudaErrorInvalidDevice, fmt::format("device {}: the simulator has one device, 0", device));
    const gpulab::DeviceProperties& p = state().device().properties();
    switch (attr) {
      case cudaDevAttrMaxThreadsPerBlock: *value = p.max_threads_per_block; break;
      case cudaDevAttrMaxBlockDimX: *value = p.max_block_dim[0]; break;
      case cudaDevAttrMaxBlockDimY: *value = p.max_block_dim[1]; break;
      case cudaDevAttrMaxBlockDimZ: *value = p.max_block_dim[2]; break;
      case cudaDevAttrMaxGridDimX: *value = p.max_grid_dim[0]; break;
      case cudaDevAttrMaxGridDimY: *value = p.max_grid_dim[1]; break;
      case cudaDevAttrMaxGridDimZ: *value = p.max_grid_dim[2]; break;
      case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.shared_memory_per_block); break;
      case cudaDevAttrTotalConstantMemory: *value = 64 * 1024; break;
      case cudaDevAttrWarpSize: *value = p.warp_size; break;
      case cudaDevAttrMaxRegistersPerBlock: *value = p.registers_per_block; break;
      case cudaDevAttrClockRate: *value = p.clock_khz; break;
      case cudaDevAttrMultiProcessorCount: *value = p.multiprocessor_count; break;
      case cudaDevAttrMemoryClockRate: *value = p.memory_clock_khz; break;
      case cudaDevAttrGlobalMemoryBusWidth: *value = p.memory_bus_width_bits; break;
      case cudaDevAttrL2CacheSize: *value = static_cast<int>(p.l2_cache_bytes); break;
      case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.max_threads_per_multiprocessor; break;
      case cudaDevAttrComputeCapabilityMajor: *value = p.compute_major; break;
      case cudaDevAttrComputeCapabilityMinor: *value = p.compute_minor; break;
      case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.shared_memory_per_multiprocessor); break;
      case cudaDevAttrManagedMemory: *value = 1; break;
      case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.shared_memory_per_block_optin); break;
      default:
        throw Unsupported(fmt::format("cudaDeviceAttr {}", static_cast<int>(attr)));
    }
  });
}

cudaError_t cudaDeviceSynchronize() {
  return api_call("cudaDeviceSynchronize", [] {
    state();
    gpulab::detail::backend_for(gpulab::DeviceKind::sim).synchronize_device(0);
  });
}

cudaError_t cudaDeviceReset() {
  try {
    gpulab::detail::backend_for(gpulab::DeviceKind::sim).synchronize_device(0);
  } catch (...) {
    translate_current_exception("cudaDeviceReset");
  }
  try {
    RuntimeState& st = state();
    std::vector<void*> device, host;
    std::vector<CUstream_st*> streams;
    std::vector<CUevent_st*> events;
    {
      std::lock_guard lock(st.mutex);
      for (const auto& [begin, a] : st.device_allocations) device.push_back(reinterpret_cast<void*>(begin));
      host.assign(st.host_allocations.begin(), st.host_allocations.end());
      streams.assign(st.streams.begin(), st.streams.end());
      events.assign(st.events.begin(), st.events.end());
      st.device_allocations.clear();
      st.host_allocations.clear();
      st.streams.clear();
      st.events.clear();
    }
    for (void* p : device) gpulab::detail::backend_for(gpulab::DeviceKind::sim).deallocate(0, p);
    for (void* p : host) std::free(p);
    for (CUstream_st* s : streams) delete s;
    for (CUevent_st* e : events) delete e;
  } catch (...) {
    return translate_current_exception("cudaDeviceReset");
  }
  gpulab::sim::cuda::detail::sticky.store(cudaSuccess);
  last_error = cudaSuccess;
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total) {
  return api_call("cudaMemGetInfo", [&] {
    require(free != nullptr && total != nullptr, "a null pointer");
    const gpulab::MemoryInfo info = state().device().memory_info();
    *free = info.free_bytes;
    *total = info.total_bytes;
  });
}

cudaError_t cudaRuntimeGetVersion(int* version) {
  if (version == nullptr) return cudaErrorInvalidValue;
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
  if (version == nullptr) return cudaErrorInvalidValue;
  *version = CUDART_VERSION;
  return cudaSuccess;
}

// ---- memory ---------------------------------------------------------------------------------------------------

cudaError_t cudaMalloc(void** devPtr, std::size_t size) {
  return api_call("cudaMalloc", [&] {
    require(devPtr != nullptr, "devPtr is null");
    *devPtr = allocate_device(size, AllocationKind::device);
  });
}

// Managed memory is sim device memory: the host can touch it directly, since the device is the host.
cudaError_t cudaMallocManaged(void** devPtr, std::size_t size, unsigned int flags) {
  return api_call("cudaMallocManaged", [&] {
    require(devPtr != nullptr, "devPtr is null");
    require(flags == cudaMemAttachGlobal || flags == cudaMemAttachHost, "flags is not cudaMemAttachGlobal or cudaMemAttachHost");
    *devPtr = allocate_device(size, AllocationKind::managed);
  });
}

cudaError_t cudaMallocPitch(void** devPtr, std::size_t* pitch, std::size_t width, std::size_t height) {
  return api_call("cudaMallocPitch", [&] {
    require(devPtr != nullptr && pitch != nullptr, "a null pointer");
    const std::size_t p = (width + pitch_alignment - 1) / pitch_alignment * pitch_alignment;
    *devPtr = allocate_device(p * height, AllocationKind::device);
    *pitch = p;
  });
}

cudaError_t cudaFree(void* devPtr) {
  return api_call("cudaFree", [&] {
    if (devPtr == nullptr) return;
    RuntimeState& st = state();
    {
      std::lock_guard lock(st.mutex);
      if (st.device_allocations.erase(reinterpret_cast<std::uintptr_t>(devPtr)) == 0) {
        throw ApiError(cudaErrorInvalidValue, fmt::format("{} is not a pointer cudaMalloc returned (or it was freed)", devPtr));
      }
    }
    // Like CUDA's, cudaFree waits for the device first: a kernel still running may use the buffer.
    std::exception_ptr fault;
    try {
      gpulab::detail::backend_for(gpulab::DeviceKind::sim).synchronize_device(0);
    } catch (...) {
      fault = std::current_exception();
    }
    gpulab::detail::backend_for(gpulab::DeviceKind::sim).deallocate(0, devPtr);
    if (fault) std::rethrow_exception(fault);
  });
}

// Pinned memory is ordinary host memory here: the simulator's copies gain nothing from page-locking.
cudaError_t cudaHostAlloc(void** ptr, std::size_t size, unsigned int flags) {
  return api_call("cudaHostAlloc", [&] {
    require(ptr != nullptr, "ptr is null");
    if (flags & cudaHostAllocMapped) throw Unsupported("cudaHostAllocMapped (mapped pinned memory)");
    void* p = std::aligned_alloc(4096, (std::max<std::size_t>(size, 1) + 4095) / 4096 * 4096);
    if (p == nullptr) throw ApiError(cudaErrorMemoryAllocation, "out of host memory");
    std::lock_guard lock(state().mutex);
    state().host_allocations.insert(p);
    *ptr = p;
  });
}

cudaError_t cudaMallocHost(void** ptr, std::size_t size) { return cudaHostAlloc(ptr, size, cudaHostAllocDefault); }

cudaError_t cudaFreeHost(void* ptr) {
  return api_call("cudaFreeHost", [&] {
    if (ptr == nullptr) return;
    {
      std::lock_guard lock(state().mutex);
      if (state().host_allocations.erase(ptr) == 0) {
        throw ApiError(cudaErrorInvalidValue, fmt::format("{} is not a pointer cudaMallocHost/cudaHostAlloc returned", ptr));
      }
    }
    gpulab::detail::backend_for(gpulab::DeviceKind::sim).synchronize_device(0);
    std::free(ptr);
  });
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind) {
  return api_call("cudaMemcpy", [&] { copy(dst, src, count, kind, nullptr, true, "cudaMemcpy"); });
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  return api_call("cudaMemcpyAsync", [&] { copy(dst, src, count, kind, stream, false, "cudaMemcpyAsync"); });
}

namespace {

void copy_2d(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width, std::size_t height,
             cudaMemcpyKind kind, cudaStream_t stream, bool wait, const char* call) {
  if (width > dpitch || width > spitch) {
    throw ApiError(cudaErrorInvalidPitchValue,
                   fmt::format("{}: width {} is more than a pitch (dpitch {}, spitch {})", call, width, dpitch, spitch));
  }
  if (width == 0 || height == 0) return;
  for (std::size_t row = 0; row < height; ++row) {
    copy(static_cast<char*>(dst) + row * dpitch, static_cast<const char*>(src) + row * spitch, width, kind, stream,
         false, call);
  }
  if (wait) state().resolve(stream).synchronize();
}

}  // namespace

cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                         std::size_t height, cudaMemcpyKind kind) {
  return api_call("cudaMemcpy2D", [&] { copy_2d(dst, dpitch, src, spitch, width, height, kind, nullptr, true, "cudaMemcpy2D"); });
}

cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                              std::size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  return api_call("cudaMemcpy2DAsync",
                  [&] { copy_2d(dst, dpitch, src, spitch, width, height, kind, stream, false, "cudaMemcpy2DAsync"); });
}

namespace {

void set_memory(void* devPtr, int value, std::size_t count, cudaStream_t stream, bool wait, const char* call) {
  if (count == 0) return;
  if (state().device_range(devPtr, count, call) == nullptr) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: {} is not device memory", call, devPtr));
  }
  const Stream s = state().stream_for_work(stream);
  gpulab::detail::fill_bytes(devPtr, state().device().space(), value, count, s);
  if (wait) s.synchronize();
}

}  // namespace

cudaError_t cudaMemset(void* devPtr, int value, std::size_t count) {
  return api_call("cudaMemset", [&] { set_memory(devPtr, value, count, nullptr, true, "cudaMemset"); });
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, std::size_t count, cudaStream_t stream) {
  return api_call("cudaMemsetAsync", [&] { set_memory(devPtr, value, count, stream, false, "cudaMemsetAsync"); });
}

// ---- streams ----------------------------------------------------------------------------------------------------

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  return api_call("cudaStreamCreateWithFlags", [&] {
    require(stream != nullptr, "stream is null");
    require((flags & ~static_cast<unsigned>(cudaStreamNonBlocking)) == 0, "unknown stream flags");
    auto* s = new CUstream_st{Stream(state().device()), flags};
    std::lock_guard lock(state().mutex);
    state().streams.insert(s);
    *stream = s;
  });
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  return api_call("cudaStreamDestroy", [&] {
    {
      std::lock_guard lock(state().mutex);
      if (stream == nullptr || state().streams.erase(stream) == 0) {
        throw ApiError(cudaErrorInvalidResourceHandle, "not a stream created by cudaStreamCreate (or destroyed)");
      }
    }
    delete stream;  // its queued work finishes first
  });
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  return api_call("cudaStreamSynchronize", [&] { state().stream_for_work(stream).synchronize(); });
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  return api_call("cudaStreamQuery", [&] {
    if (!state().resolve(stream).query()) throw ApiError(cudaErrorNotReady, "not ready");
  });
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return api_call("cudaStreamWaitEvent", [&] {
    require(flags == 0, "flags must be 0 (cudaEventWaitDefault)");
    CUevent_st* e = checked_event(event);
    if (!e->recorded) return;  // CUDA: waiting for an event never recorded does nothing
    state().resolve(stream).wait(e->event);
  });
}

// Host functions run once the stream's earlier work is done, on the calling thread: the call returns
// after the function has run, which is one order CUDA allows.
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  return api_call("cudaLaunchHostFunc", [&] {
    require(fn != nullptr, "fn is null");
    state().stream_for_work(stream).synchronize();
    fn(userData);
  });
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                  unsigned int flags) {
  return api_call("cudaStreamAddCallback", [&] {
    require(callback != nullptr, "callback is null");
    require(flags == 0, "flags must be 0");
    state().stream_for_work(stream).synchronize();
    callback(stream, cudaSuccess, userData);
  });
}

// ---- events -----------------------------------------------------------------------------------------------------

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  return api_call("cudaEventCreateWithFlags", [&] {
    require(event != nullptr, "event is null");
    require((flags & ~static_cast<unsigned>(cudaEventBlockingSync | cudaEventDisableTiming)) == 0,
            "unknown event flags (cudaEventInterprocess is not supported)");
    auto* e = new CUevent_st{Event(state().device()), flags, false};
    std::lock_guard lock(state().mutex);
    state().events.insert(e);
    *event = e;
  });
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  return api_call("cudaEventDestroy", [&] {
    {
      std::lock_guard lock(state().mutex);
      if (event == nullptr || state().events.erase(event) == 0) {
        throw ApiError(cudaErrorInvalidResourceHandle, "not an event created by cudaEventCreate (or destroyed)");
      }
    }
    delete event;
  });
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return api_call("cudaEventRecord", [&] {
    CUevent_st* e = checked_event(event);
    e->event.record(state().stream_for_work(stream));
    e->recorded = true;
  });
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return api_call("cudaEventSynchronize", [&] {
    CUevent_st* e = checked_event(event);
    if (e->recorded) e->event.synchronize();
  });
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  return api_call("cudaEventQuery", [&] {
    CUevent_st* e = checked_event(event);
    if (e->recorded && !e->event.query()) throw ApiError(cudaErrorNotReady, "not ready");
  });
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  return api_call("cudaEventElapsedTime", [&] {
    require(ms != nullptr, "ms is null");
    CUevent_st* a = checked_event(start);
    CUevent_st* b = checked_event(end);
    if (((a->flags | b->flags) & cudaEventDisableTiming) != 0 || !a->recorded || !b->recorded) {
      throw ApiError(cudaErrorInvalidResourceHandle,
                     "both events must have been recorded, and created without cudaEventDisableTiming");
    }
    if (!a->event.query() || !b->event.query()) throw ApiError(cudaErrorNotReady, "not ready");
    *ms = gpulab::elapsed_ms(a->event, b->event);
  });
}
