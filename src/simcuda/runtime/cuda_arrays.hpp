#pragma once
// The simulator's CUDA arrays (cuda_arrays.cpp): what cudaArray_t and cudaMipmappedArray_t point to,
// the channel formats they hold, and the copies that involve them (memory.cpp's cudaMemcpy3D hands its
// array cases over). textures.cpp builds texture and surface objects on them.
//
// An array's texels live in the sim device's memory, rows packed one after the other, so that the
// fetches and surface accesses kernels make are ordinary device loads and stores, seen by the checks.
// That memory is not one of the program's allocations (cudaFree and cudaMemcpy do not accept it): a
// CUDA array is opaque to the program.
#include <cstddef>
#include <vector>

#include <gpulab/sim/cuda/cuda_runtime_api.h>
#include <gpulab/sim/device/texture_resources.hpp>

struct cudaArray {
  cudaChannelFormatDesc desc;
  cudaExtent extent;  // as the program gave it: height 0 for 1-D arrays, depth 0 for 2-D ones
  unsigned flags;
  gpulab::sim::textures::Shape shape;
  gpulab::sim::textures::Format format;
  // The storage: `slices` slices (depth slices, layers, faces) of `rows` rows of `width` elements.
  std::size_t width, rows, slices;
  unsigned char* data;
  cudaMipmappedArray* mipmap;  // the mipmapped array this is a level of, or nullptr

  std::size_t row_bytes() const { return width * format.element_bytes; }
  std::size_t slice_bytes() const { return row_bytes() * rows; }
};

struct cudaMipmappedArray {
  cudaChannelFormatDesc desc;
  cudaExtent extent;
  unsigned flags;
  std::vector<cudaArray*> levels;  // level 0 first, each an array of its own
};

namespace gpulab::sim::cuda::detail {

// A channel format checked as CUDA checks it (1, 2 or 4 channels of one width, a width the kind
// allows), with the texel format the fetches use. `normalized_kind`: one of the
// cudaChannelFormatKind*Normalized* kinds, which always read as normalized floats. Throws
// ApiError(cudaErrorInvalidChannelDescriptor) naming the field, or Unsupported for the compressed,
// NV12 and 10-10-10-2 kinds.
struct ChannelFormat {
  gpulab::sim::textures::Format format;
  bool normalized_kind;
};
ChannelFormat channel_format(const cudaChannelFormatDesc& desc, const char* call);

// A live array or mipmapped array (else ApiError(cudaErrorInvalidResourceHandle)).
cudaArray* checked_array(cudaArray_const_t array, const char* call);
cudaMipmappedArray* checked_mipmapped_array(cudaMipmappedArray_const_t mipmap, const char* call);

// The image a texture or surface object reads of an array.
gpulab::sim::textures::Image image_of(const cudaArray& array);

// A device attribute, for the limits CUDA checks arrays, textures and surfaces against (the same
// values cudaGetDeviceProperties reports).
int device_attribute(cudaDeviceAttr attr);

// cudaMemcpy3D and cudaMemcpy3DAsync with srcArray or dstArray set: extent and array positions in
// the array's elements, pointer positions' x in bytes, as CUDA defines them.
void copy3d_array_case(const cudaMemcpy3DParms* p, cudaStream_t stream, bool wait, const char* call);

}  // namespace gpulab::sim::cuda::detail
