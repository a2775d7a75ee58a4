#pragma once
// gpulab-simcc's shadow of CUDA's <cuda_texture_types.h>: the texture reference template
// texture<T, texType, readMode>, which CUDA 12 removed and older code is full of. The simulator keeps
// it: a texture<> is a textureReference (gpulab_runtime_textures.h) that cudaBindTexture,
// cudaBindTexture2D and cudaBindTextureToArray bind, and tex1Dfetch, tex1D, tex2D, tex3D and the
// layered and cubemap fetches read it in device code: the bound resource, sampled with the reference's
// filter, address and normalized settings as they are at the fetch, and its read mode.
#ifndef __CUDA_TEXTURE_TYPES_H__
#define __CUDA_TEXTURE_TYPES_H__

#include "texture_types.h"

#ifdef __cplusplus
#include <climits>
#include <cstddef>

#include "channel_descriptor.h"

template <class T, int texType = cudaTextureType1D, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct texture : textureReference {
  texture(int norm = 0, enum cudaTextureFilterMode fMode = cudaFilterModePoint,
          enum cudaTextureAddressMode aMode = cudaAddressModeClamp)
      : texture(norm, fMode, aMode, cudaCreateChannelDesc<T>()) {}
  texture(int norm, enum cudaTextureFilterMode fMode, enum cudaTextureAddressMode aMode,
          struct cudaChannelFormatDesc desc)
      : textureReference{} {
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode;
    channelDesc = desc;
    mipmapFilterMode = cudaFilterModePoint;
    gpulabReadMode = mode;
    gpulabObject = 0;
  }
};

// The C++ forms of the binding calls, taking the reference itself (and its channel format).
template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaBindTexture(size_t* offset, const struct texture<T, dim, mode>& tex, const void* devPtr,
                                   const struct cudaChannelFormatDesc& desc, size_t size = ~size_t{0}) {
  return cudaBindTexture(offset, &tex, devPtr, &desc, size);
}
template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaBindTexture(size_t* offset, const struct texture<T, dim, mode>& tex, const void* devPtr,
                                   size_t size = ~size_t{0}) {
  return cudaBindTexture(offset, &tex, devPtr, &tex.channelDesc, size);
}
template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaBindTexture2D(size_t* offset, const struct texture<T, dim, mode>& tex, const void* devPtr,
                                     const struct cudaChannelFormatDesc& desc, size_t width, size_t height,
                                     size_t pitch) {
  return cudaBindTexture2D(offset, &tex, devPtr, &desc, width, height, pitch);
}
template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaBindTexture2D(size_t* offset, const struct texture<T, dim, mode>& tex, const void* devPtr,
                                     size_t width, size_t height, size_t pitch) {
  return cudaBindTexture2D(offset, &tex, devPtr, &tex.channelDesc, width, height, pitch);
}
template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaBindTextureToArray(const struct texture<T, dim, mode>& tex, cudaArray_const_t array,
                                          const struct cudaChannelFormatDesc& desc) {
  return cudaBindTextureToArray(&tex, array, &desc);
}
template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaBindTextureToArray(const struct texture<T, dim, mode>& tex, cudaArray_const_t array) {
  struct cudaChannelFormatDesc desc;
  const cudaError_t err = cudaGetChannelDesc(&desc, array);
  return err == cudaSuccess ? cudaBindTextureToArray(&tex, array, &desc) : err;
}
template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaUnbindTexture(const struct texture<T, dim, mode>& tex) {
  return cudaUnbindTexture(&tex);
}
template <class T, int dim, enum cudaTextureReadMode mode>
inline cudaError_t cudaGetTextureAlignmentOffset(size_t* offset, const struct texture<T, dim, mode>& tex) {
  return cudaGetTextureAlignmentOffset(offset, &tex);
}

#if defined(GPULAB_SIM_HAVE_TEXTURE_FETCH)
// ---- fetches through a reference (device code) ----
namespace gpulab::sim::textures::detail {

// What a fetch through texture<T, dim, mode> returns: T, or for cudaReadModeNormalizedFloat the float
// vector of T's width.
template <class T, enum cudaTextureReadMode mode>
struct ReferenceResult {
  using type = T;
};
template <class T>
struct ReferenceResult<T, cudaReadModeNormalizedFloat> {
  static constexpr int count = FetchType<T>::count;
  using type = std::conditional_t<count == 1, float, std::conditional_t<count == 2, float2, float4>>;
};

// The bound object's descriptor with the reference's sampling settings as they are now.
inline TextureObject reference_object(const textureReference& ref, Shape shape, const char* function,
                                      const Where& where) {
  if (ref.gpulabObject == 0) fetch_fault(function, "the texture reference is not bound (cudaBindTexture*)", where);
  TextureObject t = texture_of(ref.gpulabObject, shape, function, where);
  for (int i = 0; i < 3; ++i) t.address_mode[i] = static_cast<std::uint8_t>(ref.addressMode[i]);
  t.filter_mode = static_cast<std::uint8_t>(ref.filterMode);
  if (shape != Shape::cubemap && shape != Shape::cubemap_layered) t.normalized_coords = ref.normalized != 0;
  return t;
}

template <class T, int dim, enum cudaTextureReadMode mode>
inline typename ReferenceResult<T, mode>::type reference_fetch(const texture<T, dim, mode>& ref, Shape shape, float x,
                                                               float y, float z, int layer, const char* function,
                                                               const Where& where) {
  const TextureObject t = reference_object(ref, shape, function, where);
  return as_result<typename ReferenceResult<T, mode>::type>(fetch_object(t, shape, x, y, z, layer, 0.0f, function, where));
}

}  // namespace gpulab::sim::textures::detail

#define GPULAB_TEXREF_WHERE const std::source_location where = std::source_location::current()
#define GPULAB_TEXREF_RESULT typename ::gpulab::sim::textures::detail::ReferenceResult<T, mode>::type
#define GPULAB_TEXREF_SHAPE ::gpulab::sim::textures::Shape

template <class T, enum cudaTextureReadMode mode>
inline GPULAB_TEXREF_RESULT tex1Dfetch(const texture<T, cudaTextureType1D, mode>& ref, int x, GPULAB_TEXREF_WHERE) {
  using namespace ::gpulab::sim::textures::detail;
  if (ref.gpulabObject == 0) fetch_fault("tex1Dfetch", "the texture reference is not bound (cudaBindTexture)", where);
  return as_result<GPULAB_TEXREF_RESULT>(
      fetch_linear_object(texture_of(ref.gpulabObject, GPULAB_TEXREF_SHAPE::linear, "tex1Dfetch", where), x));
}
template <class T, enum cudaTextureReadMode mode>
inline GPULAB_TEXREF_RESULT tex1D(const texture<T, cudaTextureType1D, mode>& ref, float x, GPULAB_TEXREF_WHERE) {
  return ::gpulab::sim::textures::detail::reference_fetch(ref, GPULAB_TEXREF_SHAPE::one_d, x, 0, 0, 0, "tex1D", where);
}
template <class T, enum cudaTextureReadMode mode>
inline GPULAB_TEXREF_RESULT tex2D(const texture<T, cudaTextureType2D, mode>& ref, float x, float y, GPULAB_TEXREF_WHERE) {
  return ::gpulab::sim::textures::detail::reference_fetch(ref, GPULAB_TEXREF_SHAPE::two_d, x, y, 0, 0, "tex2D", where);
}
template <class T, enum cudaTextureReadMode mode>
inline GPULAB_TEXREF_RESULT tex3D(const texture<T, cudaTextureType3D, mode>& ref, float x, float y, float z,
                                  GPULAB_TEXREF_WHERE) {
  return ::gpulab::sim::textures::detail::reference_fetch(ref, GPULAB_TEXREF_SHAPE::three_d, x, y, z, 0, "tex3D", where);
}
template <class T, enum cudaTextureReadMode mode>
inline GPULAB_TEXREF_RESULT tex1DLayered(const texture<T, cudaTextureType1DLayered, mode>& ref, float x, int layer,
                                         GPULAB_TEXREF_WHERE) {
  return ::gpulab::sim::textures::detail::reference_fetch(ref, GPULAB_TEXREF_SHAPE::one_d_layered, x, 0, 0, layer,
                                                          "tex1DLayered", where);
}
template <class T, enum cudaTextureReadMode mode>
inline GPULAB_TEXREF_RESULT tex2DLayered(const texture<T, cudaTextureType2DLayered, mode>& ref, float x, float y,
                                         int layer, GPULAB_TEXREF_WHERE) {
  return ::gpulab::sim::textures::detail::reference_fetch(ref, GPULAB_TEXREF_SHAPE::two_d_layered, x, y, 0, layer,
                                                          "tex2DLayered", where);
}
template <class T, enum cudaTextureReadMode mode>
inline GPULAB_TEXREF_RESULT texCubemap(const texture<T, cudaTextureTypeCubemap, mode>& ref, float x, float y, float z,
                                       GPULAB_TEXREF_WHERE) {
  return ::gpulab::sim::textures::detail::reference_fetch(ref, GPULAB_TEXREF_SHAPE::cubemap, x, y, z, 0, "texCubemap",
                                                          where);
}

#undef GPULAB_TEXREF_SHAPE
#undef GPULAB_TEXREF_RESULT
#undef GPULAB_TEXREF_WHERE
#endif  // GPULAB_SIM_HAVE_TEXTURE_FETCH
#endif  // __cplusplus

#endif  // __CUDA_TEXTURE_TYPES_H__
