#pragma once
// gpulab-simcc's shadow of CUDA's <cuda_runtime_api.h>: the CUDA runtime API, implemented on gpulab's
// `sim` device (src/simcuda/runtime/). Error codes, their names and texts, and the sticky/non-sticky
// split are CUDA's; the types are in driver_types.h. docs/simulator.md lists what is supported.
// Names CUDA 13 removed that older code still calls (cudaThreadSynchronize, ...) are declared too and
// print a note once, at run time, when called.
#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__

#include <stddef.h>

#include "builtin_types.h"
#include "driver_functions.h"

// Default arguments exist in C++ only, as in CUDA's header.
#ifdef __cplusplus
#define GPULAB_DV(v) = v
#else
#define GPULAB_DV(v)
#endif

// C linkage, as libcudart's: a C host file compiled by gcc calls these too (libgpulab_cudart).
#ifdef __cplusplus
extern "C" {
#endif

// ---- errors --------------------------------------------------------------------------------------------
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);

// ---- devices ---------------------------------------------------------------------------------------------
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags);
cudaError_t cudaSetValidDevices(int* device_arr, int len);
cudaError_t cudaChooseDevice(int* device, const struct cudaDeviceProp* prop);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int* flags);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device);
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceGetP2PAttribute(int* value, enum cudaDeviceP2PAttr attr, int srcDevice, int dstDevice);
cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice);
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
cudaError_t cudaDeviceGetPCIBusId(char* pciBusId, int len, int device);
cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* pciBusId);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceGetLimit(size_t* pValue, enum cudaLimit limit);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache* pCacheConfig);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig* pConfig);
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* memPool, int device);
// The simulator has no persisting L2 lines (cudaDevAttrMaxPersistingL2CacheSize is 0): nothing to reset.
cudaError_t cudaCtxResetPersistingL2Cache(void);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* memPool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
cudaError_t cudaMemGetInfo(size_t* free, size_t* total);
cudaError_t cudaRuntimeGetVersion(int* runtimeVersion);
cudaError_t cudaDriverGetVersion(int* driverVersion);
// Removed by CUDA 13 (the cudaThread* names by CUDA 12 already); accepted with a note.
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaThreadExit(void);
cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaThreadGetLimit(size_t* pValue, enum cudaLimit limit);
cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);
cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache* pCacheConfig);

// ---- memory ------------------------------------------------------------------------------------------------
cudaError_t cudaMalloc(void** devPtr, size_t size);
cudaError_t cudaFree(void* devPtr);
cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags GPULAB_DV(cudaMemAttachGlobal));
cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height);
cudaError_t cudaMallocHost(void** ptr, size_t size);
cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int flags);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void* ptr);
cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags);
cudaError_t cudaHostGetFlags(unsigned int* pFlags, void* pHost);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes* attributes, const void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream GPULAB_DV(0));
cudaError_t cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice, size_t count);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src, int srcDevice, size_t count,
                                cudaStream_t stream GPULAB_DV(0));
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t stream GPULAB_DV(0));
cudaError_t cudaMemset(void* devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream GPULAB_DV(0));
cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream GPULAB_DV(0));
// 3-D memory: pitched allocations and copies between pitched pointers (and CUDA arrays, textures.cpp).
cudaError_t cudaMalloc3D(struct cudaPitchedPtr* pitchedDevPtr, struct cudaExtent extent);
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms* p);
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms* p, cudaStream_t stream GPULAB_DV(0));
cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms* p);
cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms* p, cudaStream_t stream GPULAB_DV(0));
cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                              cudaStream_t stream GPULAB_DV(0));
// Unified-memory hints: accepted and checked (the simulator's managed memory is the host's).
cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream GPULAB_DV(0));
cudaError_t cudaMemAdvise(const void* devPtr, size_t count, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation location);
cudaError_t cudaMemRangeGetAttribute(void* data, size_t dataSize, enum cudaMemRangeAttribute attribute,
                                     const void* devPtr, size_t count);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, size_t length GPULAB_DV(0),
                                     unsigned int flags GPULAB_DV(cudaMemAttachSingle));
// Stream-ordered allocation.
cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t hStream);
cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t hStream);
cudaError_t cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream);
cudaError_t cudaMemPoolCreate(cudaMemPool_t* memPool, const struct cudaMemPoolProps* poolProps);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void* value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void* value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc* descList, size_t count);

// ---- streams and events ----------------------------------------------------------------------------------------
cudaError_t cudaStreamCreate(cudaStream_t* pStream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags, int priority);
cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags);
cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int* priority);
cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int* device);
cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long* streamId);
cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, const cudaStreamAttrValue* value);
cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, cudaStreamAttrValue* value_out);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags GPULAB_DV(0));
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                  unsigned int flags);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream GPULAB_DV(0));
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream GPULAB_DV(0),
                                     unsigned int flags GPULAB_DV(0));
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

// ---- kernels (untyped forms; cuda_runtime.h adds the typed templates) ------------------------------------------------
cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                             size_t sharedMem GPULAB_DV(0), cudaStream_t stream GPULAB_DV(0));
cudaError_t cudaFuncSetAttribute(const void* func, enum cudaFuncAttribute attr, int value);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes* attr, const void* func);
cudaError_t cudaFuncSetCacheConfig(const void* func, enum cudaFuncCache cacheConfig);
cudaError_t cudaFuncSetSharedMemConfig(const void* func, enum cudaSharedMemConfig config);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          size_t dynamicSMemSize);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func,
                                                                   int blockSize, size_t dynamicSMemSize,
                                                                   unsigned int flags);
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, const void* func, int numBlocks,
                                                      int blockSize);
#define cudaOccupancyDefault 0x00
#define cudaOccupancyDisableCachingOverride 0x01

// ---- profiler (cuda_profiler_api.h) -------------------------------------------------------------------------------
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);

// ---- the default stream ---------------------------------------------------------------------------------------
// gpulab's own: makes stream 0 the per-thread default stream for the whole process, as nvcc's
// --default-stream per-thread does for the files it compiles (the simulator's choice is per process).
void gpulabSimSelectPerThreadDefaultStream(void);

#ifdef __cplusplus
}  // extern "C"
#endif

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
// A file compiled with --default-stream per-thread (gpulab-simcc defines this macro for it, as nvcc
// does) selects the per-thread default stream before main runs.
__attribute__((constructor, used)) static void gpulab_sim_select_per_thread_default_stream(void) {
  gpulabSimSelectPerThreadDefaultStream();
}
#endif

#ifdef __cplusplus
// The C++ overload of CUDA's cuda_runtime.h: cudaEventCreate with flags.
inline cudaError_t cudaEventCreate(cudaEvent_t* event, unsigned int flags) {
  return cudaEventCreateWithFlags(event, flags);
}
// CUDA 12's signatures of the unified-memory hints, which take a device ordinal (cudaCpuDeviceId for
// the host) where CUDA 13's take a cudaMemLocation.
inline cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, int dstDevice, cudaStream_t stream = 0) {
  const cudaMemLocation where = {dstDevice == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice,
                                 dstDevice};
  return cudaMemPrefetchAsync(devPtr, count, where, 0, stream);
}
inline cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice, int device) {
  const cudaMemLocation where = {device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice,
                                 device};
  return cudaMemAdvise(devPtr, count, advice, where);
}
#endif

#include "gpulab_runtime_cooperative.h"

#include "gpulab_runtime_graphs.h"

#include "gpulab_runtime_textures.h"

#endif  // __CUDA_RUNTIME_API_H__
