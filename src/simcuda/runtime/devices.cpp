// CUDA's device API for gpulab-simcc programs: the one sim device, its properties and attributes,
// synchronising and resetting it, its memory and the versions.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include <gpulab/error.hpp>

#include "runtime/backend.hpp"
#include "simcuda/runtime/runtime_state.hpp"
#include "simcuda/runtime/stream_capture.hpp"
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

namespace {

void check_device(int device) {
  if (device != 0) throw ApiError(cudaErrorInvalidDevice, fmt::format("device {}: the simulator has one device, 0", device));
}

// The clock the device reports (kHz). The simulator has no clock of its own: clock() and clock64() in
// device code count nanoseconds, so it reports 1 GHz and ticks / clockRate come out in milliseconds.
constexpr int reported_clock_khz = 1000000;

// The texture and surface limits of an sm_90 part (the simulator's own are only memory).
namespace texture_limits {
constexpr int tex1d = 131072, tex1d_linear = 1 << 28, tex1d_mipmap = 32768;
constexpr int tex2d[2] = {131072, 65536}, tex2d_mipmap[2] = {32768, 32768}, tex2d_gather[2] = {32768, 32768};
constexpr int tex2d_linear[3] = {131072, 65000, 2097120};
constexpr int tex3d[3] = {16384, 16384, 16384}, tex3d_alt[3] = {8192, 8192, 32768};
constexpr int cubemap = 32768, cubemap_layered[2] = {32768, 2046};
constexpr int tex1d_layered[2] = {32768, 2048}, tex2d_layered[3] = {32768, 32768, 2048};
constexpr int surf1d = 32768, surf2d[2] = {131072, 65536}, surf3d[3] = {16384, 16384, 16384};
constexpr int surf1d_layered[2] = {32768, 2048}, surf2d_layered[3] = {32768, 32768, 2048};
constexpr int surf_cubemap = 32768, surf_cubemap_layered[2] = {32768, 2046};
}  // namespace texture_limits

// Every attribute of cudaDeviceAttr, from the sim device's properties: cudaDeviceGetAttribute and
// cudaGetDeviceProperties both read it, so the two always agree. Features the simulator lacks
// (multi-device cooperative and cluster launches, peer access, IPC) read as 0, which is how CUDA programs test them.
int attribute(cudaDeviceAttr attr) {
  namespace lim = gpulab::sim::detail::device_limits;
  namespace tl = texture_limits;
  const gpulab::DeviceProperties& p = state().device().properties();
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: return p.max_threads_per_block;
    case cudaDevAttrMaxBlockDimX: return p.max_block_dim[0];
    case cudaDevAttrMaxBlockDimY: return p.max_block_dim[1];
    case cudaDevAttrMaxBlockDimZ: return p.max_block_dim[2];
    case cudaDevAttrMaxGridDimX: return p.max_grid_dim[0];
    case cudaDevAttrMaxGridDimY: return p.max_grid_dim[1];
    case cudaDevAttrMaxGridDimZ: return p.max_grid_dim[2];
    case cudaDevAttrMaxSharedMemoryPerBlock: return static_cast<int>(p.shared_memory_per_block);
    case cudaDevAttrTotalConstantMemory: return static_cast<int>(lim::constant_bytes);
    case cudaDevAttrWarpSize: return p.warp_size;
    case cudaDevAttrMaxPitch: return 2147483647;
    case cudaDevAttrMaxRegistersPerBlock: return p.registers_per_block;
    case cudaDevAttrClockRate: return reported_clock_khz;
    case cudaDevAttrTextureAlignment: return 512;
    case cudaDevAttrGpuOverlap: return 1;
    case cudaDevAttrMultiProcessorCount: return p.multiprocessor_count;
    case cudaDevAttrKernelExecTimeout: return 0;
    case cudaDevAttrIntegrated: return 1;  // its memory is the host's
    case cudaDevAttrCanMapHostMemory: return 1;
    case cudaDevAttrComputeMode: return cudaComputeModeDefault;
    case cudaDevAttrMaxTexture1DWidth: return tl::tex1d;
    case cudaDevAttrMaxTexture2DWidth: return tl::tex2d[0];
    case cudaDevAttrMaxTexture2DHeight: return tl::tex2d[1];
    case cudaDevAttrMaxTexture3DWidth: return tl::tex3d[0];
    case cudaDevAttrMaxTexture3DHeight: return tl::tex3d[1];
    case cudaDevAttrMaxTexture3DDepth: return tl::tex3d[2];
    case cudaDevAttrMaxTexture2DLayeredWidth: return tl::tex2d_layered[0];
    case cudaDevAttrMaxTexture2DLayeredHeight: return tl::tex2d_layered[1];
    case cudaDevAttrMaxTexture2DLayeredLayers: return tl::tex2d_layered[2];
    case cudaDevAttrSurfaceAlignment: return 512;
    case cudaDevAttrConcurrentKernels: return 1;
    case cudaDevAttrEccEnabled: return 0;
    case cudaDevAttrPciBusId: return 0;
    case cudaDevAttrPciDeviceId: return 0;
    case cudaDevAttrTccDriver: return 0;
    case cudaDevAttrMemoryClockRate: return p.memory_clock_khz;
    case cudaDevAttrGlobalMemoryBusWidth: return p.memory_bus_width_bits;
    case cudaDevAttrL2CacheSize: return static_cast<int>(p.l2_cache_bytes);
    case cudaDevAttrMaxThreadsPerMultiProcessor: return p.max_threads_per_multiprocessor;
    case cudaDevAttrAsyncEngineCount: return 1;
    case cudaDevAttrUnifiedAddressing: return 1;
    case cudaDevAttrMaxTexture1DLayeredWidth: return tl::tex1d_layered[0];
    case cudaDevAttrMaxTexture1DLayeredLayers: return tl::tex1d_layered[1];
    case cudaDevAttrMaxTexture2DGatherWidth: return tl::tex2d_gather[0];
    case cudaDevAttrMaxTexture2DGatherHeight: return tl::tex2d_gather[1];
    case cudaDevAttrMaxTexture3DWidthAlt: return tl::tex3d_alt[0];
    case cudaDevAttrMaxTexture3DHeightAlt: return tl::tex3d_alt[1];
    case cudaDevAttrMaxTexture3DDepthAlt: return tl::tex3d_alt[2];
    case cudaDevAttrPciDomainId: return 0;
    case cudaDevAttrTexturePitchAlignment: return 32;
    case cudaDevAttrMaxTextureCubemapWidth: return tl::cubemap;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: return tl::cubemap_layered[0];
    case cudaDevAttrMaxTextureCubemapLayeredLayers: return tl::cubemap_layered[1];
    case cudaDevAttrMaxSurface1DWidth: return tl::surf1d;
    case cudaDevAttrMaxSurface2DWidth: return tl::surf2d[0];
    case cudaDevAttrMaxSurface2DHeight: return tl::surf2d[1];
    case cudaDevAttrMaxSurface3DWidth: return tl::surf3d[0];
    case cudaDevAttrMaxSurface3DHeight: return tl::surf3d[1];
    case cudaDevAttrMaxSurface3DDepth: return tl::surf3d[2];
    case cudaDevAttrMaxSurface1DLayeredWidth: return tl::surf1d_layered[0];
    case cudaDevAttrMaxSurface1DLayeredLayers: return tl::surf1d_layered[1];
    case cudaDevAttrMaxSurface2DLayeredWidth: return tl::surf2d_layered[0];
    case cudaDevAttrMaxSurface2DLayeredHeight: return tl::surf2d_layered[1];
    case cudaDevAttrMaxSurface2DLayeredLayers: return tl::surf2d_layered[2];
    case cudaDevAttrMaxSurfaceCubemapWidth: return tl::surf_cubemap;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: return tl::surf_cubemap_layered[0];
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: return tl::surf_cubemap_layered[1];
    case cudaDevAttrMaxTexture1DLinearWidth: return tl::tex1d_linear;
    case cudaDevAttrMaxTexture2DLinearWidth: return tl::tex2d_linear[0];
    case cudaDevAttrMaxTexture2DLinearHeight: return tl::tex2d_linear[1];
    case cudaDevAttrMaxTexture2DLinearPitch: return tl::tex2d_linear[2];
    case cudaDevAttrMaxTexture2DMipmappedWidth: return tl::tex2d_mipmap[0];
    case cudaDevAttrMaxTexture2DMipmappedHeight: return tl::tex2d_mipmap[1];
    case cudaDevAttrComputeCapabilityMajor: return p.compute_major;
    case cudaDevAttrComputeCapabilityMinor: return p.compute_minor;
    case cudaDevAttrMaxTexture1DMipmappedWidth: return tl::tex1d_mipmap;
    case cudaDevAttrStreamPrioritiesSupported: return 1;
    case cudaDevAttrGlobalL1CacheSupported: return 1;
    case cudaDevAttrLocalL1CacheSupported: return 1;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return static_cast<int>(p.shared_memory_per_multiprocessor);
    case cudaDevAttrMaxRegistersPerMultiprocessor: return lim::registers_per_multiprocessor;
    case cudaDevAttrManagedMemory: return 1;
    case cudaDevAttrIsMultiGpuBoard: return 0;
    case cudaDevAttrMultiGpuBoardGroupID: return 0;
    case cudaDevAttrHostNativeAtomicSupported: return 1;  // host and device atomics are the same instructions
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: return 2;
    case cudaDevAttrPageableMemoryAccess: return 0;
    case cudaDevAttrConcurrentManagedAccess: return 0;
    case cudaDevAttrComputePreemptionSupported: return 0;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: return 1;
    case cudaDevAttrCooperativeLaunch: return 1;  // within the co-residency limit (src/sim/engine/resident_blocks.hpp)
    case cudaDevAttrCooperativeMultiDeviceLaunch: return 0;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: return static_cast<int>(p.shared_memory_per_block_optin);
    case cudaDevAttrCanFlushRemoteWrites: return 0;
    case cudaDevAttrHostRegisterSupported: return 1;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: return 0;
    case cudaDevAttrDirectManagedMemAccessFromHost: return 1;
    case cudaDevAttrMaxBlocksPerMultiprocessor: return lim::max_blocks_per_multiprocessor;
    // The persisting-L2 controls are hints (cudaDeviceSetLimit, access-policy windows), accepted and read
    // back; the sizes are an sm_90 part's (3/4 of L2 may persist; a window of up to 128 MiB less 4 KiB).
    case cudaDevAttrMaxPersistingL2CacheSize: return static_cast<int>(p.l2_cache_bytes / 4 * 3);
    case cudaDevAttrMaxAccessPolicyWindowSize: return 134213632;
    case cudaDevAttrReservedSharedMemoryPerBlock: return static_cast<int>(lim::shared_bytes_reserved_per_block);
    case cudaDevAttrSparseCudaArraySupported: return 0;
    case cudaDevAttrHostRegisterReadOnlySupported: return 1;
    case cudaDevAttrTimelineSemaphoreInteropSupported: return 0;
    case cudaDevAttrMemoryPoolsSupported: return 1;
    case cudaDevAttrGPUDirectRDMASupported: return 0;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions: return 0;
    case cudaDevAttrGPUDirectRDMAWritesOrdering: return 0;
    case cudaDevAttrMemoryPoolSupportedHandleTypes: return 0;
    case cudaDevAttrClusterLaunch: return 0;
    case cudaDevAttrDeferredMappingCudaArraySupported: return 0;
    case cudaDevAttrIpcEventSupport: return 0;
    default: return -1;
  }
}

int known_attribute(cudaDeviceAttr attr) {
  const int v = attribute(attr);
  if (v < 0) throw ApiError(cudaErrorInvalidValue, fmt::format("cudaDeviceAttr {} is not an attribute the simulator knows", static_cast<int>(attr)));
  return v;
}

}  // namespace

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  return api_call("cudaGetDeviceProperties", [&] {
    require(prop != nullptr, "prop is null");
    check_device(device);
    namespace tl = texture_limits;
    const gpulab::DeviceProperties& p = state().device().properties();
    const auto a = [](cudaDeviceAttr attr) { return known_attribute(attr); };
    *prop = cudaDeviceProp{};
    std::snprintf(prop->name, sizeof prop->name, "%s", p.name.c_str());
    std::memcpy(prop->uuid.bytes, "gpulab-sim-dev-0", sizeof prop->uuid.bytes);
    prop->totalGlobalMem = p.total_memory;
    prop->sharedMemPerBlock = p.shared_memory_per_block;
    prop->regsPerBlock = p.registers_per_block;
    prop->warpSize = p.warp_size;
    prop->memPitch = static_cast<std::size_t>(a(cudaDevAttrMaxPitch));
    prop->maxThreadsPerBlock = p.max_threads_per_block;
    for (int i = 0; i < 3; ++i) {
      prop->maxThreadsDim[i] = p.max_block_dim[static_cast<std::size_t>(i)];
      prop->maxGridSize[i] = p.max_grid_dim[static_cast<std::size_t>(i)];
    }
    prop->clockRate = a(cudaDevAttrClockRate);
    prop->totalConstMem = gpulab::sim::detail::device_limits::constant_bytes;
    prop->major = p.compute_major;
    prop->minor = p.compute_minor;
    prop->textureAlignment = static_cast<std::size_t>(a(cudaDevAttrTextureAlignment));
    prop->texturePitchAlignment = static_cast<std::size_t>(a(cudaDevAttrTexturePitchAlignment));
    prop->deviceOverlap = a(cudaDevAttrGpuOverlap);
    prop->multiProcessorCount = p.multiprocessor_count;
    prop->kernelExecTimeoutEnabled = a(cudaDevAttrKernelExecTimeout);
    prop->integrated = a(cudaDevAttrIntegrated);
    prop->canMapHostMemory = a(cudaDevAttrCanMapHostMemory);
    prop->computeMode = a(cudaDevAttrComputeMode);
    prop->cooperativeLaunch = a(cudaDevAttrCooperativeLaunch);
    prop->maxTexture1D = tl::tex1d;
    prop->maxTexture1DMipmap = tl::tex1d_mipmap;
    prop->maxTexture1DLinear = tl::tex1d_linear;
    for (int i = 0; i < 2; ++i) {
      prop->maxTexture2D[i] = tl::tex2d[i];
      prop->maxTexture2DMipmap[i] = tl::tex2d_mipmap[i];
      prop->maxTexture2DGather[i] = tl::tex2d_gather[i];
      prop->maxTexture1DLayered[i] = tl::tex1d_layered[i];
      prop->maxTextureCubemapLayered[i] = tl::cubemap_layered[i];
      prop->maxSurface2D[i] = tl::surf2d[i];
      prop->maxSurface1DLayered[i] = tl::surf1d_layered[i];
      prop->maxSurfaceCubemapLayered[i] = tl::surf_cubemap_layered[i];
    }
    for (int i = 0; i < 3; ++i) {
      prop->maxTexture2DLinear[i] = tl::tex2d_linear[i];
      prop->maxTexture3D[i] = tl::tex3d[i];
      prop->maxTexture3DAlt[i] = tl::tex3d_alt[i];
      prop->maxTexture2DLayered[i] = tl::tex2d_layered[i];
      prop->maxSurface3D[i] = tl::surf3d[i];
      prop->maxSurface2DLayered[i] = tl::surf2d_layered[i];
    }
    prop->maxTextureCubemap = tl::cubemap;
    prop->maxSurface1D = tl::surf1d;
    prop->maxSurfaceCubemap = tl::surf_cubemap;
    prop->surfaceAlignment = static_cast<std::size_t>(a(cudaDevAttrSurfaceAlignment));
    prop->concurrentKernels = a(cudaDevAttrConcurrentKernels);
    prop->asyncEngineCount = a(cudaDevAttrAsyncEngineCount);
    prop->unifiedAddressing = a(cudaDevAttrUnifiedAddressing);
    prop->memoryClockRate = a(cudaDevAttrMemoryClockRate);
    prop->memoryBusWidth = p.memory_bus_width_bits;
    prop->l2CacheSize = static_cast<int>(p.l2_cache_bytes);
    prop->persistingL2CacheMaxSize = a(cudaDevAttrMaxPersistingL2CacheSize);
    prop->accessPolicyMaxWindowSize = a(cudaDevAttrMaxAccessPolicyWindowSize);
    prop->maxThreadsPerMultiProcessor = p.max_threads_per_multiprocessor;
    prop->streamPrioritiesSupported = a(cudaDevAttrStreamPrioritiesSupported);
    prop->globalL1CacheSupported = a(cudaDevAttrGlobalL1CacheSupported);
    prop->localL1CacheSupported = a(cudaDevAttrLocalL1CacheSupported);
    prop->sharedMemPerMultiprocessor = p.shared_memory_per_multiprocessor;
    prop->regsPerMultiprocessor = a(cudaDevAttrMaxRegistersPerMultiprocessor);
    prop->managedMemory = a(cudaDevAttrManagedMemory);
    prop->hostNativeAtomicSupported = a(cudaDevAttrHostNativeAtomicSupported);
    prop->singleToDoublePrecisionPerfRatio = a(cudaDevAttrSingleToDoublePrecisionPerfRatio);
    prop->concurrentManagedAccess = a(cudaDevAttrConcurrentManagedAccess);
    prop->canUseHostPointerForRegisteredMem = a(cudaDevAttrCanUseHostPointerForRegisteredMem);
    prop->sharedMemPerBlockOptin = p.shared_memory_per_block_optin;
    prop->directManagedMemAccessFromHost = a(cudaDevAttrDirectManagedMemAccessFromHost);
    prop->maxBlocksPerMultiProcessor = a(cudaDevAttrMaxBlocksPerMultiprocessor);
    prop->reservedSharedMemPerBlock = static_cast<std::size_t>(a(cudaDevAttrReservedSharedMemoryPerBlock));
    prop->hostRegisterSupported = a(cudaDevAttrHostRegisterSupported);
    prop->hostRegisterReadOnlySupported = a(cudaDevAttrHostRegisterReadOnlySupported);
    prop->memoryPoolsSupported = a(cudaDevAttrMemoryPoolsSupported);
    prop->deviceNumaConfig = 0;
    prop->deviceNumaId = -1;
    prop->hostNumaId = -1;
  });
}

cudaError_t cudaGetDeviceProperties_v2(cudaDeviceProp* prop, int device) { return cudaGetDeviceProperties(prop, device); }

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  return api_call("cudaDeviceGetAttribute", [&] {
    require(value != nullptr, "value is null");
    check_device(device);
    *value = known_attribute(attr);
  });
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
  return api_call("cudaInitDevice", [&] {
    check_device(device);
    require(flags == 0 || flags == 1 /* cudaInitDeviceFlagsAreValid */, "flags is not 0 or cudaInitDeviceFlagsAreValid");
    if (flags != 0) state().device_flags = deviceFlags;
  });
}

cudaError_t cudaSetValidDevices(int* device_arr, int len) {
  return api_call("cudaSetValidDevices", [&] {
    require(len >= 0 && (len == 0 || device_arr != nullptr), "device_arr is null or len is negative");
    for (int i = 0; i < len; ++i) check_device(device_arr[i]);
  });
}

cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop) {
  return api_call("cudaChooseDevice", [&] {
    require(device != nullptr && prop != nullptr, "a null pointer");
    *device = 0;  // the one device matches best whatever is asked
  });
}

cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  return api_call("cudaSetDeviceFlags", [&] {
    constexpr unsigned known = cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax;
    if ((flags & ~known) != 0) {
      throw ApiError(cudaErrorInvalidValue, fmt::format("cudaSetDeviceFlags: flags {:#x} has bits no flag has ({:#x})", flags, flags & ~known));
    }
    // Scheduling flags say how the host waits; the simulator's host waits on a condition variable
    // whatever they say. Mapped host memory needs no flag here.
    state().device_flags = flags;
  });
}

cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  return api_call("cudaGetDeviceFlags", [&] {
    require(flags != nullptr, "flags is null");
    *flags = state().device_flags | cudaDeviceMapHost;
  });
}

cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attr, int srcDevice, int dstDevice) {
  return api_call("cudaDeviceGetP2PAttribute", [&] {
    require(value != nullptr, "value is null");
    check_device(srcDevice);
    check_device(dstDevice);
    require(attr >= cudaDevP2PAttrPerformanceRank && attr <= cudaDevP2PAttrCudaArrayAccessSupported, "not a cudaDeviceP2PAttr");
    // CUDA rejects a device paired with itself; the simulator has no other.
    throw ApiError(cudaErrorInvalidDevice, "cudaDeviceGetP2PAttribute: source and destination are the same device");
  });
}

cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
  return api_call("cudaDeviceCanAccessPeer", [&] {
    require(canAccessPeer != nullptr, "canAccessPeer is null");
    check_device(device);
    check_device(peerDevice);
    *canAccessPeer = 0;  // a device is not its own peer
  });
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  return api_call("cudaDeviceEnablePeerAccess", [&] {
    check_device(peerDevice);
    require(flags == 0, "flags must be 0");
    throw ApiError(cudaErrorInvalidDevice, "cudaDeviceEnablePeerAccess: the simulator has one device, which is not its own peer");
  });
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) {
  return api_call("cudaDeviceDisablePeerAccess", [&] {
    check_device(peerDevice);
    throw ApiError(cudaErrorPeerAccessNotEnabled, "cudaDeviceDisablePeerAccess: peer access was never enabled");
  });
}

// The sim device's PCI address, as CUDA prints one: domain:bus:device.function.
constexpr const char* sim_pci_bus_id = "0000:00:00.0";

cudaError_t cudaDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  return api_call("cudaDeviceGetPCIBusId", [&] {
    require(pciBusId != nullptr && len > 0, "pciBusId is null or len is not positive");
    check_device(device);
    std::snprintf(pciBusId, static_cast<std::size_t>(len), "%s", sim_pci_bus_id);
  });
}

cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  return api_call("cudaDeviceGetByPCIBusId", [&] {
    require(device != nullptr && pciBusId != nullptr, "a null pointer");
    if (std::strcmp(pciBusId, sim_pci_bus_id) != 0 && std::strcmp(pciBusId, "00:00.0") != 0) {
      throw ApiError(cudaErrorInvalidDevice, fmt::format("PCI bus id \"{}\": the sim device is {}", pciBusId, sim_pci_bus_id));
    }
    *device = 0;
  });
}

namespace {

void check_limit(cudaLimit limit, const char* call) {
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize) {
    throw ApiError(cudaErrorUnsupportedLimit, fmt::format("{}: {} is not a cudaLimit", call, static_cast<int>(limit)));
  }
  if (limit == cudaLimitDevRuntimeSyncDepth || limit == cudaLimitDevRuntimePendingLaunchCount) {
    throw ApiError(cudaErrorUnsupportedLimit,
                   fmt::format("{}: the dynamic-parallelism limits: the simulator does not run dynamic parallelism", call));
  }
}

// What cudaDeviceGetLimit reads before a program sets a limit: CUDA's defaults on sm_90, except the
// stack, which is a simulated thread's fiber stack (GPULAB_SIM_STACK).
std::size_t default_limit(cudaLimit limit) {
  switch (limit) {
    case cudaLimitStackSize: return 1024;
    case cudaLimitPrintfFifoSize: return 1 << 20;
    case cudaLimitMallocHeapSize: return 8 << 20;
    case cudaLimitMaxL2FetchGranularity: return 32;
    default: return 0;
  }
}

}  // namespace

cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value) {
  return api_call("cudaDeviceSetLimit", [&] {
    check_limit(limit, "cudaDeviceSetLimit");
    if (limit == cudaLimitMaxL2FetchGranularity) require(value <= 128, "the L2 fetch granularity is at most 128 bytes");
    if (limit == cudaLimitPersistingL2CacheSize) {
      // As on a GPU, a request above the maximum sets the maximum.
      value = std::min(value, static_cast<std::size_t>(attribute(cudaDevAttrMaxPersistingL2CacheSize)));
      note_once("cudaLimitPersistingL2CacheSize", "is a hint: the simulator has no L2 cache to set aside, so it changes nothing");
    }
    std::lock_guard lock(state().mutex);
    state().limits[limit] = value;
  });
}

cudaError_t cudaDeviceGetLimit(std::size_t* pValue, cudaLimit limit) {
  return api_call("cudaDeviceGetLimit", [&] {
    require(pValue != nullptr, "pValue is null");
    check_limit(limit, "cudaDeviceGetLimit");
    std::lock_guard lock(state().mutex);
    const auto it = state().limits.find(limit);
    *pValue = it != state().limits.end() ? it->second : default_limit(limit);
  });
}

// The L1/shared split and the bank size are hints to a GPU's hardware; the simulator has neither, so
// it records them for the getters and notes once that they change nothing.
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache cacheConfig) {
  return api_call("cudaDeviceSetCacheConfig", [&] {
    require(cacheConfig >= cudaFuncCachePreferNone && cacheConfig <= cudaFuncCachePreferEqual, "not a cudaFuncCache");
    note_once("cudaDeviceSetCacheConfig", "is a hint: the simulator has no L1/shared split, so it changes nothing");
    state().cache_config = cacheConfig;
  });
}

cudaError_t cudaCtxResetPersistingL2Cache() { return api_call("cudaCtxResetPersistingL2Cache", [] { state(); }); }

cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* pCacheConfig) {
  return api_call("cudaDeviceGetCacheConfig", [&] {
    require(pCacheConfig != nullptr, "pCacheConfig is null");
    *pCacheConfig = state().cache_config;
  });
}

cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
  return api_call("cudaDeviceSetSharedMemConfig", [&] {
    require(config >= cudaSharedMemBankSizeDefault && config <= cudaSharedMemBankSizeEightByte, "not a cudaSharedMemConfig");
    note_once("cudaDeviceSetSharedMemConfig", "is deprecated and a hint: shared memory has no banks in the simulator");
    state().shared_mem_config = config;
  });
}

cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* pConfig) {
  return api_call("cudaDeviceGetSharedMemConfig", [&] {
    require(pConfig != nullptr, "pConfig is null");
    *pConfig = state().shared_mem_config;
  });
}

// Priorities are kept per stream and read back; the simulator's streams share one pool of host
// threads and are not scheduled by priority. The range is CUDA's on sm_90.
cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  return api_call("cudaDeviceGetStreamPriorityRange", [&] {
    if (leastPriority != nullptr) *leastPriority = 0;
    if (greatestPriority != nullptr) *greatestPriority = -5;
  });
}

// The cudaThread* names CUDA 12 removed: each runs its cudaDevice* successor, with a note.
cudaError_t cudaThreadSynchronize() {
  note_once("cudaThreadSynchronize", "was removed from CUDA; it runs as cudaDeviceSynchronize");
  return cudaDeviceSynchronize();
}

cudaError_t cudaThreadExit() {
  note_once("cudaThreadExit", "was removed from CUDA; it runs as cudaDeviceReset");
  return cudaDeviceReset();
}

cudaError_t cudaThreadSetLimit(cudaLimit limit, std::size_t value) {
  note_once("cudaThreadSetLimit", "was removed from CUDA; it runs as cudaDeviceSetLimit");
  return cudaDeviceSetLimit(limit, value);
}

cudaError_t cudaThreadGetLimit(std::size_t* pValue, cudaLimit limit) {
  note_once("cudaThreadGetLimit", "was removed from CUDA; it runs as cudaDeviceGetLimit");
  return cudaDeviceGetLimit(pValue, limit);
}

cudaError_t cudaThreadSetCacheConfig(cudaFuncCache cacheConfig) {
  note_once("cudaThreadSetCacheConfig", "was removed from CUDA; it runs as cudaDeviceSetCacheConfig");
  return cudaDeviceSetCacheConfig(cacheConfig);
}

cudaError_t cudaThreadGetCacheConfig(cudaFuncCache* pCacheConfig) {
  note_once("cudaThreadGetCacheConfig", "was removed from CUDA; it runs as cudaDeviceGetCacheConfig");
  return cudaDeviceGetCacheConfig(pCacheConfig);
}

cudaError_t cudaProfilerStart() { return api_call("cudaProfilerStart", [] { state(); }); }
cudaError_t cudaProfilerStop() { return api_call("cudaProfilerStop", [] { state(); }); }

cudaError_t cudaDeviceSynchronize() {
  return api_call("cudaDeviceSynchronize", [] {
    refuse_unsafe_in_capture("cudaDeviceSynchronize", false);
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
    std::vector<void*> device, registered;
    std::vector<CUstream_st*> streams;
    std::vector<CUevent_st*> events;
    {
      std::lock_guard lock(st.mutex);
      for (const auto& [begin, a] : st.device_allocations) device.push_back(reinterpret_cast<void*>(begin));
      streams.assign(st.streams.begin(), st.streams.end());
      events.assign(st.events.begin(), st.events.end());
      st.device_allocations.clear();
      for (const auto& [begin, r] : st.host_registrations) registered.push_back(reinterpret_cast<void*>(begin));
      st.host_registrations.clear();  // CUDA's reset unregisters them too
      st.limits.clear();
      st.device_flags = cudaDeviceScheduleAuto;
      st.cache_config = cudaFuncCachePreferNone;
      st.streams.clear();
      st.events.clear();
    }
    for (void* p : device) gpulab::detail::backend_for(gpulab::DeviceKind::sim).deallocate(0, p);
    for (void* p : registered) gpulab::detail::backend_for(gpulab::DeviceKind::sim).unregister_host_memory(0, p);
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
