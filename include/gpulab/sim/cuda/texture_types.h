#pragma once
/* gpulab-simcc's shadow of CUDA's <texture_types.h>: the texture object handle, the address, filter
   and read modes, and cudaTextureDesc, with CUDA's names, values and layout. Valid C as well as C++.
   Unlike CUDA's it does not include driver_types.h: nothing here needs it, and the simulator's device
   headers (gpulab/sim/device/texture_fetch.hpp) include this one into every kernel file, where the
   rest of the runtime's types have no business. */
#ifndef __TEXTURE_TYPES_H__
#define __TEXTURE_TYPES_H__

/* The kinds of texture, as cudaArrayGetInfo's caller and the toolkit's legacy headers name them. */
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC

enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3,
};

enum cudaTextureFilterMode {
  cudaFilterModePoint = 0,
  cudaFilterModeLinear = 1,
};

enum cudaTextureReadMode {
  cudaReadModeElementType = 0,
  cudaReadModeNormalizedFloat = 1,
};

struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

typedef unsigned long long cudaTextureObject_t;

#endif /* __TEXTURE_TYPES_H__ */
