#pragma once
// gpulab-simcc's shadow of CUDA's <cuda_texture_types.h>, which until CUDA 12 held the texture
// reference template texture<T, texType, readMode>. CUDA 12 removed texture references; here the
// template is kept only so that a program declaring one stops at that declaration with the reason and
// the replacement, instead of a parse error somewhere after it. Texture objects need nothing of it.
#ifndef __CUDA_TEXTURE_TYPES_H__
#define __CUDA_TEXTURE_TYPES_H__

#include "texture_types.h"

#ifdef __cplusplus
namespace gpulab::sim::cuda::detail {
template <class...>
inline constexpr bool texture_reference_named = false;
}  // namespace gpulab::sim::cuda::detail

template <class T, int texType = cudaTextureType1D, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct texture {
  static_assert(gpulab::sim::cuda::detail::texture_reference_named<T>,
                "gpulab-simcc: texture<T, dim, readMode> is a texture reference, which CUDA 12 removed: create a "
                "texture object with cudaCreateTextureObject and pass its cudaTextureObject_t to the kernel "
                "(tex2D<T>(object, x, y))");
};
#endif

#endif  // __CUDA_TEXTURE_TYPES_H__
