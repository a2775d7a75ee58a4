#pragma once
/* CUDA arrays, texture objects and surface objects on the simulator (libgpulab_cudart,
   src/simcuda/runtime/cuda_arrays.cpp and textures.cpp): the resource descriptors of CUDA's
   driver_types.h, and the runtime API's array, copy, texture and surface calls with C linkage.
   Included by cuda_runtime_api.h. The fetches and surface accesses of device code are
   gpulab/sim/device/texture_fetch.hpp and surface_access.hpp.

   A texture or surface object is the address of a descriptor the runtime keeps in the sim device's
   memory, so that kernels read it as they read any device data (and memcheck reports a kernel that
   uses one after cudaDestroyTextureObject). CUDA 12 removed texture and surface references; texture
   references (texture<T, dim, mode>, cudaBindTexture, ...) are kept, surface references stop the build. */
#ifndef GPULAB_RUNTIME_TEXTURES_H
#define GPULAB_RUNTIME_TEXTURES_H

#include <stddef.h>

#include "driver_types.h"
#include "surface_types.h"
#include "texture_types.h"

#ifndef GPULAB_DV
#ifdef __cplusplus
#define GPULAB_DV(v) = v
#else
#define GPULAB_DV(v)
#endif
#endif

/* ---- resource descriptors (CUDA's driver_types.h) --------------------------------------------------- */
enum cudaResourceType {
  cudaResourceTypeArray = 0x00,
  cudaResourceTypeMipmappedArray = 0x01,
  cudaResourceTypeLinear = 0x02,
  cudaResourceTypePitch2D = 0x03,
};

enum cudaResourceViewFormat {
  cudaResViewFormatNone = 0x00,
  cudaResViewFormatUnsignedChar1 = 0x01,
  cudaResViewFormatUnsignedChar2 = 0x02,
  cudaResViewFormatUnsignedChar4 = 0x03,
  cudaResViewFormatSignedChar1 = 0x04,
  cudaResViewFormatSignedChar2 = 0x05,
  cudaResViewFormatSignedChar4 = 0x06,
  cudaResViewFormatUnsignedShort1 = 0x07,
  cudaResViewFormatUnsignedShort2 = 0x08,
  cudaResViewFormatUnsignedShort4 = 0x09,
  cudaResViewFormatSignedShort1 = 0x0a,
  cudaResViewFormatSignedShort2 = 0x0b,
  cudaResViewFormatSignedShort4 = 0x0c,
  cudaResViewFormatUnsignedInt1 = 0x0d,
  cudaResViewFormatUnsignedInt2 = 0x0e,
  cudaResViewFormatUnsignedInt4 = 0x0f,
  cudaResViewFormatSignedInt1 = 0x10,
  cudaResViewFormatSignedInt2 = 0x11,
  cudaResViewFormatSignedInt4 = 0x12,
  cudaResViewFormatHalf1 = 0x13,
  cudaResViewFormatHalf2 = 0x14,
  cudaResViewFormatHalf4 = 0x15,
  cudaResViewFormatFloat1 = 0x16,
  cudaResViewFormatFloat2 = 0x17,
  cudaResViewFormatFloat4 = 0x18,
  cudaResViewFormatUnsignedBlockCompressed1 = 0x19,
  cudaResViewFormatUnsignedBlockCompressed2 = 0x1a,
  cudaResViewFormatUnsignedBlockCompressed3 = 0x1b,
  cudaResViewFormatUnsignedBlockCompressed4 = 0x1c,
  cudaResViewFormatSignedBlockCompressed4 = 0x1d,
  cudaResViewFormatUnsignedBlockCompressed5 = 0x1e,
  cudaResViewFormatSignedBlockCompressed5 = 0x1f,
  cudaResViewFormatUnsignedBlockCompressed6H = 0x20,
  cudaResViewFormatSignedBlockCompressed6H = 0x21,
  cudaResViewFormatUnsignedBlockCompressed7 = 0x22,
};

struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void* devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned int flags;
};

struct cudaResourceViewDesc {
  enum cudaResourceViewFormat format;
  size_t width;
  size_t height;
  size_t depth;
  unsigned int firstMipmapLevel;
  unsigned int lastMipmapLevel;
  unsigned int firstLayer;
  unsigned int lastLayer;
  unsigned int reserved[16];
};

#ifdef __cplusplus
extern "C" {
#endif

/* ---- channel formats and arrays ------------------------------------------------------------------------ */
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f);
cudaError_t cudaMallocArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc, size_t width,
                            size_t height GPULAB_DV(0), unsigned int flags GPULAB_DV(0));
cudaError_t cudaMalloc3DArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc, struct cudaExtent extent,
                              unsigned int flags GPULAB_DV(0));
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc* desc, struct cudaExtent* extent, unsigned int* flags,
                             cudaArray_t array);
cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc* desc, cudaArray_const_t array);
/* Mipmapped arrays: each level is an array of its own (cudaGetMipmappedArrayLevel returns it). */
cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t* mipmappedArray, const struct cudaChannelFormatDesc* desc,
                                     struct cudaExtent extent, unsigned int numLevels, unsigned int flags GPULAB_DV(0));
cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t* levelArray, cudaMipmappedArray_const_t mipmappedArray,
                                       unsigned int level);
cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray);

/* ---- copies to, from and between arrays (cudaMemcpy3D takes arrays too) ------------------------------------ */
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind,
                                     cudaStream_t stream GPULAB_DV(0));
cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
                                       cudaStream_t stream GPULAB_DV(0));
cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                     size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height,
                                     enum cudaMemcpyKind kind GPULAB_DV(cudaMemcpyDeviceToDevice));
/* Deprecated by CUDA (and still used): `count` bytes from (wOffset, hOffset) on, row after row. */
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                              enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                                   enum cudaMemcpyKind kind, cudaStream_t stream GPULAB_DV(0));
cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArrayAsync(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                     enum cudaMemcpyKind kind, cudaStream_t stream GPULAB_DV(0));
cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                   size_t wOffsetSrc, size_t hOffsetSrc, size_t count,
                                   enum cudaMemcpyKind kind GPULAB_DV(cudaMemcpyDeviceToDevice));

/* ---- texture and surface objects ------------------------------------------------------------------------ */
cudaError_t cudaCreateTextureObject(cudaTextureObject_t* pTexObject, const struct cudaResourceDesc* pResDesc,
                                    const struct cudaTextureDesc* pTexDesc,
                                    const struct cudaResourceViewDesc* pResViewDesc);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc* pResDesc, cudaTextureObject_t texObject);
cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc* pTexDesc, cudaTextureObject_t texObject);
cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc* pResViewDesc,
                                                 cudaTextureObject_t texObject);
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject, const struct cudaResourceDesc* pResDesc);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc* pResDesc, cudaSurfaceObject_t surfObject);

/* ---- texture references: removed by CUDA 12, kept for the code written for them ---------------------
   A reference (CUDA 11's fields) is bound to linear, pitched or array memory; binding makes a texture
   object of the reference's settings, and each fetch reads the reference's filter, address and
   normalized settings again, as a launch reads them on a GPU. Each call notes once on stderr that CUDA
   12 removed it. Surface references, cudaGetTextureReference and mipmapped bindings stop the build. */
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  /* The simulator's: the reference's read mode (texture<>'s argument) and its binding's object. */
  enum cudaTextureReadMode gpulabReadMode;
  cudaTextureObject_t gpulabObject;
};

cudaError_t cudaBindTexture(size_t* offset, const struct textureReference* texref, const void* devPtr,
                            const struct cudaChannelFormatDesc* desc, size_t size GPULAB_DV(~(size_t)0));
cudaError_t cudaBindTexture2D(size_t* offset, const struct textureReference* texref, const void* devPtr,
                              const struct cudaChannelFormatDesc* desc, size_t width, size_t height, size_t pitch);
cudaError_t cudaBindTextureToArray(const struct textureReference* texref, cudaArray_const_t array,
                                   const struct cudaChannelFormatDesc* desc);
cudaError_t cudaUnbindTexture(const struct textureReference* texref);
cudaError_t cudaGetTextureAlignmentOffset(size_t* offset, const struct textureReference* texref);

#ifdef __cplusplus
#define GPULAB_TEXTURE_REFERENCE_PARAMETERS (...)
#else
#define GPULAB_TEXTURE_REFERENCE_PARAMETERS ()
#endif
#define GPULAB_TEXTURE_REFERENCE_REFUSED(name, instead)                                                       \
  cudaError_t name GPULAB_TEXTURE_REFERENCE_PARAMETERS __attribute__((error(                                  \
      "gpulab-simcc: " #name " belongs to the texture and surface reference API, which CUDA 12 removed and "  \
      "the simulator does not keep: " instead)));
GPULAB_TEXTURE_REFERENCE_REFUSED(cudaBindTextureToMipmappedArray,
                                 "create a texture object of a cudaResourceTypeMipmappedArray resource")
GPULAB_TEXTURE_REFERENCE_REFUSED(cudaGetTextureReference, "bind the texture<> variable itself")
GPULAB_TEXTURE_REFERENCE_REFUSED(cudaBindSurfaceToArray, "create a surface object (cudaCreateSurfaceObject)")
GPULAB_TEXTURE_REFERENCE_REFUSED(cudaGetSurfaceReference, "use surface objects (cudaCreateSurfaceObject)")
#undef GPULAB_TEXTURE_REFERENCE_REFUSED
#undef GPULAB_TEXTURE_REFERENCE_PARAMETERS

#ifdef __cplusplus
} /* extern "C" */

/* cudaCreateChannelDesc<T>(), and the legacy texture<>/surface<> templates' refusal. */
#include "channel_descriptor.h"
#include "cuda_surface_types.h"
#include "cuda_texture_types.h"
#endif

#endif /* GPULAB_RUNTIME_TEXTURES_H */
