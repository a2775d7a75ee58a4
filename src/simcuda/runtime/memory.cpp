// CUDA's memory API for gpulab-simcc programs: device, managed, pitched and pinned allocations, copies
// of every kind (device-side ranges bounds-checked), fills. Copies and fills are ordered on their
// stream by gpulab's streams, the legacy default stream's rule included.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>

#include <gpulab/array.hpp>

#include <fmt/format.h>

#include <gpulab/error.hpp>

#include "runtime/backend.hpp"
#include "simcuda/runtime/runtime_state.hpp"

namespace gpulab::sim::cuda::detail {

namespace {

constexpr std::size_t pitch_alignment = 512;

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
  if (dst_space.kind == DeviceKind::host && src_space.kind == DeviceKind::host) {
    state().wait_in_order(stream);  // ordered after the stream's work, like CUDA's host-to-host copies
    std::memmove(dst, src, count);
    return;
  }
  const Stream s = state().resolve(stream);
  gpulab::detail::copy_bytes(dst, dst_space, src, src_space, count, s);
  if (wait) s.synchronize();
}

void* allocate_device(std::size_t size, AllocationKind kind) {
  void* p = gpulab::detail::backend_for(DeviceKind::sim).allocate(0, std::max<std::size_t>(size, 1));
  std::lock_guard lock(state().mutex);
  state().device_allocations[reinterpret_cast<std::uintptr_t>(p)] = DeviceAllocation{size, kind};
  return p;
}

}  // namespace

}  // namespace gpulab::sim::cuda::detail

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope
using gpulab::Stream;

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
  const Stream s = state().resolve(stream);
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

