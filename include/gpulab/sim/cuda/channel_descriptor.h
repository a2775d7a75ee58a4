#pragma once
// gpulab-simcc's shadow of CUDA's <channel_descriptor.h>: cudaCreateChannelDesc<T>() for every scalar and
// vector type a CUDA array or texture can hold, cudaCreateChannelDesc<kind>() for the normalized and
// compressed kinds, and the half-precision helpers. As in CUDA, a type with no channel format gives
// {0, 0, 0, 0, cudaChannelFormatKindNone}, which cudaMallocArray refuses. C++ only, as CUDA's is.
#ifndef __CHANNEL_DESCRIPTOR_H__
#define __CHANNEL_DESCRIPTOR_H__

#ifdef __cplusplus

#include "cuda_runtime_api.h"

template <class T>
inline cudaChannelFormatDesc cudaCreateChannelDesc(void) {
  return cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
}

// One channel format per type: `channels` channels of the scalar's width, of `kind`.
#define GPULAB_CHANNEL_DESC(type, scalar, channels, kind)                                                \
  template <>                                                                                            \
  inline cudaChannelFormatDesc cudaCreateChannelDesc<type>(void) {                                       \
    const int e = static_cast<int>(sizeof(scalar)) * 8;                                                  \
    return cudaCreateChannelDesc(e, (channels) > 1 ? e : 0, (channels) > 2 ? e : 0, (channels) > 3 ? e : 0, \
                                 kind);                                                                  \
  }
// A scalar type and its 1-, 2- and 4-vectors (CUDA arrays have no 3-channel formats).
#define GPULAB_CHANNEL_DESCS(scalar_type, vector, kind)   \
  GPULAB_CHANNEL_DESC(scalar_type, scalar_type, 1, kind)  \
  GPULAB_CHANNEL_DESC(vector##1, scalar_type, 1, kind)    \
  GPULAB_CHANNEL_DESC(vector##2, scalar_type, 2, kind)    \
  GPULAB_CHANNEL_DESC(vector##4, scalar_type, 4, kind)

// Plain char is signed or unsigned as the host compiler's char is, as in CUDA.
#if defined(__CHAR_UNSIGNED__)
GPULAB_CHANNEL_DESC(char, char, 1, cudaChannelFormatKindUnsigned)
#else
GPULAB_CHANNEL_DESC(char, char, 1, cudaChannelFormatKindSigned)
#endif
GPULAB_CHANNEL_DESCS(signed char, char, cudaChannelFormatKindSigned)
GPULAB_CHANNEL_DESCS(unsigned char, uchar, cudaChannelFormatKindUnsigned)
GPULAB_CHANNEL_DESCS(short, short, cudaChannelFormatKindSigned)
GPULAB_CHANNEL_DESCS(unsigned short, ushort, cudaChannelFormatKindUnsigned)
GPULAB_CHANNEL_DESCS(int, int, cudaChannelFormatKindSigned)
GPULAB_CHANNEL_DESCS(unsigned int, uint, cudaChannelFormatKindUnsigned)
GPULAB_CHANNEL_DESCS(float, float, cudaChannelFormatKindFloat)
// long only where it is 32 bits wide (CUDA has no 64-bit channels); on LP64 hosts it has no format.
#if !defined(__LP64__)
GPULAB_CHANNEL_DESCS(long, long, cudaChannelFormatKindSigned)
GPULAB_CHANNEL_DESCS(unsigned long, ulong, cudaChannelFormatKindUnsigned)
#endif
#undef GPULAB_CHANNEL_DESCS
#undef GPULAB_CHANNEL_DESC

// Half precision: 16-bit float channels (fetched as float).
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf1(void) {
  return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf2(void) {
  return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindFloat);
}
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf4(void) {
  return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindFloat);
}
static inline cudaChannelFormatDesc cudaCreateChannelDescNV12(void) {
  return cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindNV12);
}

// The kinds that say their own channel widths (CUDA's templates over cudaChannelFormatKind).
template <cudaChannelFormatKind>
inline cudaChannelFormatDesc cudaCreateChannelDesc(void) {
  return cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
}
#define GPULAB_KIND_CHANNEL_DESC(kind, x, y, z, w)                      \
  template <>                                                           \
  inline cudaChannelFormatDesc cudaCreateChannelDesc<kind>(void) {      \
    return cudaCreateChannelDesc(x, y, z, w, kind);                     \
  }
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindSignedNormalized8X1, 8, 0, 0, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindSignedNormalized8X2, 8, 8, 0, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindSignedNormalized8X4, 8, 8, 8, 8)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedNormalized8X1, 8, 0, 0, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedNormalized8X2, 8, 8, 0, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedNormalized8X4, 8, 8, 8, 8)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindSignedNormalized16X1, 16, 0, 0, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindSignedNormalized16X2, 16, 16, 0, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindSignedNormalized16X4, 16, 16, 16, 16)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedNormalized16X1, 16, 0, 0, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedNormalized16X2, 16, 16, 0, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedNormalized16X4, 16, 16, 16, 16)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindNV12, 8, 8, 8, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedNormalized1010102, 10, 10, 10, 2)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedBlockCompressed1, 8, 8, 8, 8)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedBlockCompressed1SRGB, 8, 8, 8, 8)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedBlockCompressed2, 8, 8, 8, 8)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedBlockCompressed2SRGB, 8, 8, 8, 8)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedBlockCompressed3, 8, 8, 8, 8)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedBlockCompressed3SRGB, 8, 8, 8, 8)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedBlockCompressed4, 8, 0, 0, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindSignedBlockCompressed4, 8, 0, 0, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedBlockCompressed5, 8, 8, 0, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindSignedBlockCompressed5, 8, 8, 0, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedBlockCompressed6H, 16, 16, 16, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindSignedBlockCompressed6H, 16, 16, 16, 0)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedBlockCompressed7, 8, 8, 8, 8)
GPULAB_KIND_CHANNEL_DESC(cudaChannelFormatKindUnsignedBlockCompressed7SRGB, 8, 8, 8, 8)
#undef GPULAB_KIND_CHANNEL_DESC

#endif  // __cplusplus

#endif  // __CHANNEL_DESCRIPTOR_H__
