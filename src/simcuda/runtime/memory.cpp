// CUDA's memory API for gpulab-simcc programs: device, managed, pitched and pinned allocations, copies
// of every kind (device-side ranges bounds-checked), fills. Copies and fills are ordered on their
// stream by gpulab's streams, the legacy default stream's rule included.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

#include <gpulab/array.hpp>

#include <fmt/format.h>

#include <gpulab/error.hpp>

#include "runtime/backend.hpp"
#include "simcuda/runtime/cuda_arrays.hpp"
#include "simcuda/runtime/graph_memory.hpp"
#include "simcuda/runtime/runtime_state.hpp"
#include "simcuda/runtime/stream_capture.hpp"

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
  if (wait || state().host_waits_for(stream)) s.synchronize();
}

}  // namespace

void* allocate_device(std::size_t size, AllocationKind kind, unsigned flags) {
  void* p = gpulab::detail::backend_for(DeviceKind::sim).allocate(0, std::max<std::size_t>(size, 1));
  std::lock_guard lock(state().mutex);
  state().device_allocations[reinterpret_cast<std::uintptr_t>(p)] = DeviceAllocation{size, kind, flags, {}};
  return p;
}

bool free_allocation(void* p, AllocationKind kind, bool wait_for_device) {
  RuntimeState& st = state();
  {
    std::lock_guard lock(st.mutex);
    const auto it = st.device_allocations.find(reinterpret_cast<std::uintptr_t>(p));
    if (it == st.device_allocations.end() || it->second.kind != kind) return false;
    st.device_allocations.erase(it);
  }
  // Like CUDA's, the free waits for the device first: a kernel still running may use the buffer.
  std::exception_ptr fault;
  try {
    if (wait_for_device) gpulab::detail::backend_for(gpulab::DeviceKind::sim).synchronize_device(0);
  } catch (...) {
    fault = std::current_exception();
  }
  gpulab::detail::backend_for(gpulab::DeviceKind::sim).deallocate(0, p);
  if (fault) std::rethrow_exception(fault);
  return true;
}

}  // namespace gpulab::sim::cuda::detail

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope
using gpulab::Stream;

cudaError_t cudaMalloc(void** devPtr, std::size_t size) {
  return api_call("cudaMalloc", [&] {
    refuse_unsafe_in_capture("cudaMalloc", false);
    require(devPtr != nullptr, "devPtr is null");
    *devPtr = allocate_device(size, AllocationKind::device);
  });
}

// Managed memory is sim device memory: the host can touch it directly, since the device is the host.
cudaError_t cudaMallocManaged(void** devPtr, std::size_t size, unsigned int flags) {
  return api_call("cudaMallocManaged", [&] {
    refuse_unsafe_in_capture("cudaMallocManaged", false);
    require(devPtr != nullptr, "devPtr is null");
    require(flags == cudaMemAttachGlobal || flags == cudaMemAttachHost, "flags is not cudaMemAttachGlobal or cudaMemAttachHost");
    *devPtr = allocate_device(size, AllocationKind::managed);
  });
}

cudaError_t cudaMallocPitch(void** devPtr, std::size_t* pitch, std::size_t width, std::size_t height) {
  return api_call("cudaMallocPitch", [&] {
    refuse_unsafe_in_capture("cudaMallocPitch", false);
    require(devPtr != nullptr && pitch != nullptr, "a null pointer");
    const std::size_t p = (width + pitch_alignment - 1) / pitch_alignment * pitch_alignment;
    *devPtr = allocate_device(p * height, AllocationKind::device);
    *pitch = p;
  });
}

cudaError_t cudaFree(void* devPtr) {
  return api_call("cudaFree", [&] {
    if (devPtr == nullptr) return;
    refuse_unsafe_in_capture("cudaFree", false);
    if (free_graph_allocation(devPtr, "cudaFree")) return;
    if (free_allocation(devPtr, AllocationKind::device, true) || free_allocation(devPtr, AllocationKind::managed, true)) return;
    const DeviceAllocation* a = state().allocation_of(devPtr);
    if (a != nullptr && a->kind == AllocationKind::host_pinned) {
      throw ApiError(cudaErrorInvalidValue, fmt::format("cudaFree: {} is pinned host memory: free it with cudaFreeHost", devPtr));
    }
    throw ApiError(cudaErrorInvalidValue, fmt::format("cudaFree: {} is not a pointer cudaMalloc returned (or it was freed)", devPtr));
  });
}

// Pinned host memory is sim device memory, and so mapped by nature: kernels may use it in place
// (cudaHostGetDevicePointer returns the same address, as with unified addressing), and the checks
// watch kernels' accesses to it as to any device buffer.
cudaError_t cudaHostAlloc(void** ptr, std::size_t size, unsigned int flags) {
  return api_call("cudaHostAlloc", [&] {
    refuse_unsafe_in_capture("cudaHostAlloc", false);
    require(ptr != nullptr, "ptr is null");
    constexpr unsigned known = cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
    if ((flags & ~known) != 0) {
      throw ApiError(cudaErrorInvalidValue, fmt::format("cudaHostAlloc: flags {:#x} has bits no flag has ({:#x})", flags, flags & ~known));
    }
    *ptr = allocate_device(size, AllocationKind::host_pinned, flags);
  });
}

cudaError_t cudaMallocHost(void** ptr, std::size_t size) {
  return api_call("cudaMallocHost", [&] {
    refuse_unsafe_in_capture("cudaMallocHost", false);
    require(ptr != nullptr, "ptr is null");
    *ptr = allocate_device(size, AllocationKind::host_pinned, cudaHostAllocDefault);
  });
}

cudaError_t cudaFreeHost(void* ptr) {
  return api_call("cudaFreeHost", [&] {
    if (ptr == nullptr) return;
    refuse_unsafe_in_capture("cudaFreeHost", false);
    if (!free_allocation(ptr, AllocationKind::host_pinned, true)) {
      throw ApiError(cudaErrorInvalidValue, fmt::format("cudaFreeHost: {} is not a pointer cudaMallocHost/cudaHostAlloc returned", ptr));
    }
  });
}

// Host memory the program owns, registered: kernels may use it in place; memcheck accepts the range.
cudaError_t cudaHostRegister(void* ptr, std::size_t size, unsigned int flags) {
  return api_call("cudaHostRegister", [&] {
    require(ptr != nullptr && size > 0, "ptr is null or size is 0");
    constexpr unsigned known =
        cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterIoMemory | cudaHostRegisterReadOnly;
    if ((flags & ~known) != 0) {
      throw ApiError(cudaErrorInvalidValue, fmt::format("cudaHostRegister: flags {:#x} has bits no flag has ({:#x})", flags, flags & ~known));
    }
    if (state().device_range(ptr, 1, "cudaHostRegister") != nullptr) {
      throw ApiError(cudaErrorHostMemoryAlreadyRegistered, fmt::format("cudaHostRegister: {} is device or pinned memory already", ptr));
    }
    if (!gpulab::detail::backend_for(gpulab::DeviceKind::sim).register_host_memory(0, ptr, size)) {
      throw ApiError(cudaErrorHostMemoryAlreadyRegistered,
                     fmt::format("cudaHostRegister: [{}, +{}) overlaps memory registered before", ptr, size));
    }
    std::lock_guard lock(state().mutex);
    state().host_registrations[reinterpret_cast<std::uintptr_t>(ptr)] = HostRegistration{size, flags};
  });
}

cudaError_t cudaHostUnregister(void* ptr) {
  return api_call("cudaHostUnregister", [&] {
    {
      std::lock_guard lock(state().mutex);
      if (ptr == nullptr || state().host_registrations.erase(reinterpret_cast<std::uintptr_t>(ptr)) == 0) {
        throw ApiError(cudaErrorHostMemoryNotRegistered, fmt::format("cudaHostUnregister: {} begins no range cudaHostRegister registered", ptr));
      }
    }
    std::exception_ptr fault;  // kernels still running may use the range
    try {
      gpulab::detail::backend_for(gpulab::DeviceKind::sim).synchronize_device(0);
    } catch (...) {
      fault = std::current_exception();
    }
    gpulab::detail::backend_for(gpulab::DeviceKind::sim).unregister_host_memory(0, ptr);
    if (fault) std::rethrow_exception(fault);
  });
}

cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  return api_call("cudaHostGetDevicePointer", [&] {
    require(pDevice != nullptr, "pDevice is null");
    require(flags == 0, "flags must be 0");
    const DeviceAllocation* a = state().allocation_of(pHost);
    if ((a == nullptr || a->kind != AllocationKind::host_pinned) && state().registration_of(pHost) == nullptr) {
      throw ApiError(cudaErrorInvalidValue,
                     fmt::format("cudaHostGetDevicePointer: {} is neither pinned (cudaHostAlloc) nor registered host memory", pHost));
    }
    *pDevice = pHost;
  });
}

cudaError_t cudaHostGetFlags(unsigned int* pFlags, void* pHost) {
  return api_call("cudaHostGetFlags", [&] {
    require(pFlags != nullptr, "pFlags is null");
    if (const DeviceAllocation* a = state().allocation_of(pHost); a != nullptr && a->kind == AllocationKind::host_pinned) {
      *pFlags = a->flags | cudaHostAllocMapped;
    } else if (const HostRegistration* r = state().registration_of(pHost); r != nullptr) {
      *pFlags = r->flags | cudaHostRegisterMapped;
    } else {
      throw ApiError(cudaErrorInvalidValue, fmt::format("cudaHostGetFlags: {} is not pinned or registered host memory", pHost));
    }
  });
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  return api_call("cudaPointerGetAttributes", [&] {
    require(attributes != nullptr, "attributes is null");
    *attributes = cudaPointerAttributes{};
    void* p = const_cast<void*>(ptr);
    if (const DeviceAllocation* a = state().allocation_of(ptr); a != nullptr) {
      attributes->device = 0;
      attributes->devicePointer = p;
      switch (a->kind) {
        case AllocationKind::device:
          attributes->type = cudaMemoryTypeDevice;
          break;
        case AllocationKind::managed:
          attributes->type = cudaMemoryTypeManaged;
          attributes->hostPointer = p;
          break;
        case AllocationKind::host_pinned:
          attributes->type = cudaMemoryTypeHost;
          attributes->hostPointer = p;
          break;
      }
    } else if (state().registration_of(ptr) != nullptr) {
      attributes->type = cudaMemoryTypeHost;
      attributes->device = 0;
      attributes->devicePointer = p;
      attributes->hostPointer = p;
    } else {
      attributes->type = cudaMemoryTypeUnregistered;  // CUDA 11 on: not an error
      attributes->device = cudaInvalidDeviceId;
      attributes->hostPointer = p;
    }
  });
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind) {
  return api_call("cudaMemcpy", [&] {
    refuse_unsafe_in_capture("cudaMemcpy", true);
    copy(dst, src, count, kind, nullptr, true, "cudaMemcpy");
  });
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  return api_call("cudaMemcpyAsync", [&] {
    if (capture_memcpy_1d(stream, dst, src, count, kind, "cudaMemcpyAsync")) return;
    copy(dst, src, count, kind, stream, false, "cudaMemcpyAsync");
  });
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
  return api_call("cudaMemcpy2D", [&] {
    refuse_unsafe_in_capture("cudaMemcpy2D", true);
    copy_2d(dst, dpitch, src, spitch, width, height, kind, nullptr, true, "cudaMemcpy2D");
  });
}

cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                              std::size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  return api_call("cudaMemcpy2DAsync", [&] {
    if (capture_memcpy_2d(stream, dst, dpitch, src, spitch, width, height, kind, "cudaMemcpy2DAsync")) return;
    copy_2d(dst, dpitch, src, spitch, width, height, kind, stream, false, "cudaMemcpy2DAsync");
  });
}

namespace {

void set_memory(void* devPtr, int value, std::size_t count, cudaStream_t stream, bool wait, const char* call) {
  if (count == 0) return;
  if (state().device_range(devPtr, count, call) == nullptr) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: {} is not device memory", call, devPtr));
  }
  const Stream s = state().resolve(stream);
  gpulab::detail::fill_bytes(devPtr, state().device().space(), value, count, s);
  if (wait || state().host_waits_for(stream)) s.synchronize();
}

}  // namespace

cudaError_t cudaMemset(void* devPtr, int value, std::size_t count) {
  return api_call("cudaMemset", [&] {
    refuse_unsafe_in_capture("cudaMemset", true);
    set_memory(devPtr, value, count, nullptr, true, "cudaMemset");
  });
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, std::size_t count, cudaStream_t stream) {
  return api_call("cudaMemsetAsync", [&] {
    if (capture_memset(stream, devPtr, count, value, count, 1, "cudaMemsetAsync")) return;
    set_memory(devPtr, value, count, stream, false, "cudaMemsetAsync");
  });
}


namespace {

void set_memory_2d(void* devPtr, std::size_t pitch, int value, std::size_t width, std::size_t height, cudaStream_t stream,
                   bool wait, const char* call) {
  if (width > pitch) {
    throw ApiError(cudaErrorInvalidPitchValue, fmt::format("{}: width {} is more than the pitch {}", call, width, pitch));
  }
  if (width == 0 || height == 0) return;
  for (std::size_t row = 0; row < height; ++row) {
    set_memory(static_cast<char*>(devPtr) + row * pitch, value, width, stream, false, call);
  }
  if (wait) state().resolve(stream).synchronize();
}

void check_peer_devices(int dstDevice, int srcDevice, const char* call) {
  if (dstDevice != 0 || srcDevice != 0) {
    throw ApiError(cudaErrorInvalidDevice,
                   fmt::format("{}: devices {} and {}: the simulator has one device, 0", call, dstDevice, srcDevice));
  }
}

}  // namespace

cudaError_t cudaMemset2D(void* devPtr, std::size_t pitch, int value, std::size_t width, std::size_t height) {
  return api_call("cudaMemset2D", [&] {
    refuse_unsafe_in_capture("cudaMemset2D", true);
    set_memory_2d(devPtr, pitch, value, width, height, nullptr, true, "cudaMemset2D");
  });
}

cudaError_t cudaMemset2DAsync(void* devPtr, std::size_t pitch, int value, std::size_t width, std::size_t height,
                              cudaStream_t stream) {
  return api_call("cudaMemset2DAsync", [&] {
    if (capture_memset(stream, devPtr, pitch, value, width, height, "cudaMemset2DAsync")) return;
    set_memory_2d(devPtr, pitch, value, width, height, stream, false, "cudaMemset2DAsync");
  });
}

// Peer copies between the one device and itself are device-to-device copies.
cudaError_t cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice, std::size_t count) {
  return api_call("cudaMemcpyPeer", [&] {
    check_peer_devices(dstDevice, srcDevice, "cudaMemcpyPeer");
    refuse_unsafe_in_capture("cudaMemcpyPeer", true);
    copy(dst, src, count, cudaMemcpyDeviceToDevice, nullptr, true, "cudaMemcpyPeer");
  });
}

cudaError_t cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src, int srcDevice, std::size_t count,
                                cudaStream_t stream) {
  return api_call("cudaMemcpyPeerAsync", [&] {
    check_peer_devices(dstDevice, srcDevice, "cudaMemcpyPeerAsync");
    if (capture_memcpy_1d(stream, dst, src, count, cudaMemcpyDeviceToDevice, "cudaMemcpyPeerAsync")) return;
    copy(dst, src, count, cudaMemcpyDeviceToDevice, stream, false, "cudaMemcpyPeerAsync");
  });
}

// ---- 3-D memory -------------------------------------------------------------------------------------------------
// A pitched 3-D allocation is a 2-D pitched one of height x depth rows; extent.width is in bytes.

cudaError_t cudaMalloc3D(cudaPitchedPtr* pitchedDevPtr, cudaExtent extent) {
  return api_call("cudaMalloc3D", [&] {
    refuse_unsafe_in_capture("cudaMalloc3D", false);
    require(pitchedDevPtr != nullptr, "pitchedDevPtr is null");
    const std::size_t pitch = (extent.width + pitch_alignment - 1) / pitch_alignment * pitch_alignment;
    const std::size_t rows = extent.height * extent.depth;
    if (rows != 0 && pitch > SIZE_MAX / rows) {
      throw ApiError(cudaErrorMemoryAllocation, fmt::format("cudaMalloc3D: {} x {} x {} bytes overflow", extent.width, extent.height, extent.depth));
    }
    void* p = allocate_device(pitch * rows, AllocationKind::device);
    *pitchedDevPtr = cudaPitchedPtr{p, pitch, extent.width, extent.height};
  });
}

namespace {

void copy_3d(const cudaMemcpy3DParms* p, cudaStream_t stream, bool wait, const char* call) {
  require(p != nullptr, "the cudaMemcpy3DParms pointer is null");
  if (p->srcArray != nullptr || p->dstArray != nullptr) {
    copy3d_array_case(p, stream, wait, call);  // cuda_arrays.cpp
    return;
  }
  const cudaPitchedPtr& s = p->srcPtr;
  const cudaPitchedPtr& d = p->dstPtr;
  require(s.ptr != nullptr && d.ptr != nullptr, "srcPtr.ptr or dstPtr.ptr is null");
  const cudaExtent& e = p->extent;
  if (e.width == 0 || e.height == 0 || e.depth == 0) return;
  if (p->srcPos.x + e.width > s.pitch || p->dstPos.x + e.width > d.pitch) {
    throw ApiError(cudaErrorInvalidPitchValue,
                   fmt::format("{}: x + width ({} + {} bytes, {} + {} bytes) is more than a pitch (source {}, destination {})",
                               call, p->srcPos.x, e.width, p->dstPos.x, e.width, s.pitch, d.pitch));
  }
  // The rows of a slice are ysize apart; with ysize 0 (a 2-D pitched pointer) the slices are 1 row.
  const std::size_t s_rows = std::max<std::size_t>(s.ysize, 1), d_rows = std::max<std::size_t>(d.ysize, 1);
  for (std::size_t z = 0; z < e.depth; ++z) {
    for (std::size_t y = 0; y < e.height; ++y) {
      const std::size_t s_row = (p->srcPos.z + z) * s_rows + p->srcPos.y + y;
      const std::size_t d_row = (p->dstPos.z + z) * d_rows + p->dstPos.y + y;
      copy(static_cast<char*>(d.ptr) + d_row * d.pitch + p->dstPos.x,
           static_cast<const char*>(s.ptr) + s_row * s.pitch + p->srcPos.x, e.width, p->kind, stream, false, call);
    }
  }
  if (wait) state().resolve(stream).synchronize();
}

void copy_3d_peer(const cudaMemcpy3DPeerParms* p, cudaStream_t stream, bool wait, const char* call) {
  require(p != nullptr, "the cudaMemcpy3DPeerParms pointer is null");
  check_peer_devices(p->dstDevice, p->srcDevice, call);
  const cudaMemcpy3DParms same{p->srcArray, p->srcPos, p->srcPtr, p->dstArray, p->dstPos, p->dstPtr, p->extent, cudaMemcpyDefault};
  copy_3d(&same, stream, wait, call);
}

void set_memory_3d(cudaPitchedPtr ptr, int value, cudaExtent e, cudaStream_t stream, bool wait, const char* call) {
  if (e.width > ptr.pitch) {
    throw ApiError(cudaErrorInvalidPitchValue, fmt::format("{}: width {} is more than the pitch {}", call, e.width, ptr.pitch));
  }
  const std::size_t rows = std::max<std::size_t>(ptr.ysize, 1);
  for (std::size_t z = 0; z < e.depth; ++z) {
    set_memory_2d(static_cast<char*>(ptr.ptr) + z * rows * ptr.pitch, ptr.pitch, value, e.width, e.height, stream, false, call);
  }
  if (wait) state().resolve(stream).synchronize();
}

}  // namespace

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  return api_call("cudaMemcpy3D", [&] {
    refuse_unsafe_in_capture("cudaMemcpy3D", true);
    copy_3d(p, nullptr, true, "cudaMemcpy3D");
  });
}

cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  return api_call("cudaMemcpy3DAsync", [&] {
    if (capture_memcpy_3d(stream, p, "cudaMemcpy3DAsync")) return;
    copy_3d(p, stream, false, "cudaMemcpy3DAsync");
  });
}

cudaError_t cudaMemcpy3DPeer(const cudaMemcpy3DPeerParms* p) {
  return api_call("cudaMemcpy3DPeer", [&] { copy_3d_peer(p, nullptr, true, "cudaMemcpy3DPeer"); });
}

cudaError_t cudaMemcpy3DPeerAsync(const cudaMemcpy3DPeerParms* p, cudaStream_t stream) {
  return api_call("cudaMemcpy3DPeerAsync", [&] {
    refuse_in_capture(stream, "cudaMemcpy3DPeerAsync", "use cudaMemcpy3DAsync, the same copy on the one device");
    copy_3d_peer(p, stream, false, "cudaMemcpy3DPeerAsync");
  });
}

cudaError_t cudaMemset3D(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent) {
  return api_call("cudaMemset3D", [&] {
    refuse_unsafe_in_capture("cudaMemset3D", true);
    set_memory_3d(pitchedDevPtr, value, extent, nullptr, true, "cudaMemset3D");
  });
}

cudaError_t cudaMemset3DAsync(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent, cudaStream_t stream) {
  return api_call("cudaMemset3DAsync", [&] {
    if (capture_memset_3d(stream, pitchedDevPtr, value, extent, "cudaMemset3DAsync")) return;
    set_memory_3d(pitchedDevPtr, value, extent, stream, false, "cudaMemset3DAsync");
  });
}

// ---- unified-memory hints ---------------------------------------------------------------------------------------
// Managed memory is the host's and the device's at once here, so prefetches and advice move nothing:
// they are checked as CUDA checks them (a managed range, a valid location) and remembered for
// cudaMemRangeGetAttribute. A prefetch is still a stream operation, ordered after the stream's work.

namespace {

// The location as a device ordinal (cudaCpuDeviceId for the host), after checking it.
int location_id(const cudaMemLocation& where, const char* call) {
  switch (where.type) {
    case cudaMemLocationTypeDevice:
      if (where.id != 0) throw ApiError(cudaErrorInvalidDevice, fmt::format("{}: device {}: the simulator has one device, 0", call, where.id));
      return 0;
    case cudaMemLocationTypeHost:
    case cudaMemLocationTypeHostNuma:
    case cudaMemLocationTypeHostNumaCurrent:
      return cudaCpuDeviceId;
    default:
      throw ApiError(cudaErrorInvalidValue, fmt::format("{}: cudaMemLocationType {} is not a location", call, static_cast<int>(where.type)));
  }
}

// The managed allocation holding [p, p + count), under the state's lock.
DeviceAllocation& managed_range(const void* p, std::size_t count, const char* call) {
  auto& all = state().device_allocations;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  auto it = all.upper_bound(a);
  if (p == nullptr || count == 0 || it == all.begin()) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: [{}, +{}) is not managed memory", call, p, count));
  }
  --it;
  if (a - it->first + count > it->second.bytes || it->second.kind != AllocationKind::managed) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: [{}, +{}) is not inside one cudaMallocManaged allocation", call, p, count));
  }
  return it->second;
}

}  // namespace

cudaError_t cudaMemPrefetchAsync(const void* devPtr, std::size_t count, cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream) {
  return api_call("cudaMemPrefetchAsync", [&] {
    require(flags == 0, "flags must be 0");
    const int id = location_id(location, "cudaMemPrefetchAsync");
    state().resolve(stream);  // a valid stream
    std::lock_guard lock(state().mutex);
    managed_range(devPtr, count, "cudaMemPrefetchAsync").hints.last_prefetch_location = id;
  });
}

cudaError_t cudaMemAdvise(const void* devPtr, std::size_t count, cudaMemoryAdvise advice, cudaMemLocation location) {
  return api_call("cudaMemAdvise", [&] {
    std::lock_guard lock(state().mutex);
    ManagedHints& h = managed_range(devPtr, count, "cudaMemAdvise").hints;
    switch (advice) {
      case cudaMemAdviseSetReadMostly: h.read_mostly = true; break;
      case cudaMemAdviseUnsetReadMostly: h.read_mostly = false; break;
      case cudaMemAdviseSetPreferredLocation: h.preferred_location = location_id(location, "cudaMemAdvise"); break;
      case cudaMemAdviseUnsetPreferredLocation: h.preferred_location = cudaInvalidDeviceId; break;
      case cudaMemAdviseSetAccessedBy:
      case cudaMemAdviseUnsetAccessedBy: {
        const bool on = advice == cudaMemAdviseSetAccessedBy;
        (location_id(location, "cudaMemAdvise") == cudaCpuDeviceId ? h.accessed_by_host : h.accessed_by_device) = on;
        break;
      }
      default:
        throw ApiError(cudaErrorInvalidValue, fmt::format("cudaMemAdvise: {} is not a cudaMemoryAdvise", static_cast<int>(advice)));
    }
  });
}

cudaError_t cudaMemRangeGetAttribute(void* data, std::size_t dataSize, cudaMemRangeAttribute attribute, const void* devPtr,
                                     std::size_t count) {
  return api_call("cudaMemRangeGetAttribute", [&] {
    require(data != nullptr, "data is null");
    std::lock_guard lock(state().mutex);
    const ManagedHints& h = managed_range(devPtr, count, "cudaMemRangeGetAttribute").hints;
    const auto put_int = [&](int v) {
      require(dataSize == sizeof(int), "dataSize must be 4 for this attribute");
      std::memcpy(data, &v, sizeof v);
    };
    switch (attribute) {
      case cudaMemRangeAttributeReadMostly: put_int(h.read_mostly ? 1 : 0); break;
      case cudaMemRangeAttributePreferredLocation: put_int(h.preferred_location); break;
      case cudaMemRangeAttributeLastPrefetchLocation: put_int(h.last_prefetch_location); break;
      case cudaMemRangeAttributeAccessedBy: {
        require(dataSize % sizeof(int) == 0 && dataSize > 0, "dataSize must be a positive multiple of 4");
        std::vector<int> ids(dataSize / sizeof(int), cudaInvalidDeviceId);
        std::size_t n = 0;
        if (h.accessed_by_device && n < ids.size()) ids[n++] = 0;
        if (h.accessed_by_host && n < ids.size()) ids[n++] = cudaCpuDeviceId;
        std::memcpy(data, ids.data(), dataSize);
        break;
      }
      default:
        throw ApiError(cudaErrorInvalidValue, fmt::format("cudaMemRangeGetAttribute: {} is not a cudaMemRangeAttribute", static_cast<int>(attribute)));
    }
  });
}

// Attaching managed memory to a stream limits which streams' kernels may touch it on GPUs without
// concurrent managed access; here every stream may, so the call is checked and changes nothing.
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, std::size_t length, unsigned int flags) {
  return api_call("cudaStreamAttachMemAsync", [&] {
    require(flags == cudaMemAttachGlobal || flags == cudaMemAttachHost || flags == cudaMemAttachSingle,
            "flags is not cudaMemAttachGlobal, cudaMemAttachHost or cudaMemAttachSingle");
    state().resolve(stream);
    std::lock_guard lock(state().mutex);
    managed_range(devPtr, std::max<std::size_t>(length, 1), "cudaStreamAttachMemAsync");
  });
}
