// CUDA's device API for gpulab-simcc programs: the one sim device, its properties and attributes,
// synchronising and resetting it, its memory and the versions.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include <gpulab/error.hpp>

#include "runtime/backend.hpp"
#include "simcuda/runtime/runtime_state.hpp"
#include "sim/engine/device_limits.hpp"

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope

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
    prop->totalConstMem = gpulab::sim::detail::device_limits::constant_bytes;
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
    prop->regsPerMultiprocessor = gpulab::sim::detail::device_limits::registers_per_multiprocessor;
    prop->managedMemory = 1;
    prop->concurrentManagedAccess = 0;
    prop->sharedMemPerBlockOptin = p.shared_memory_per_block_optin;
    prop->maxBlocksPerMultiProcessor = gpulab::sim::detail::device_limits::max_blocks_per_multiprocessor;
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
      case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(gpulab::sim::detail::device_limits::constant_bytes); break;
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
  clear_errors();
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
