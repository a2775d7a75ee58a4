#pragma once
// The descriptors behind CUDA's texture and surface objects on the simulator. The runtime
// (src/simcuda/runtime/textures.cpp) writes one into the sim device's memory for each object it
// creates, and the handle it returns is that descriptor's address; the fetches and surface accesses of
// kernels (texture_fetch.hpp, surface_access.hpp) read it there, as a GPU's texture unit reads its
// descriptor table. Being device memory, a descriptor is seen by the checks like any device data: a
// kernel that uses an object after it was destroyed reads freed memory, which memcheck reports.
//
// Both sides are compiled from this one header, so the layout cannot drift between them.
#include <cstdint>

namespace gpulab::sim::textures {

// Written first in every descriptor (and cleared when the object is destroyed), so that a fetch can
// tell a texture object from a surface object, from a destroyed one and from a stray number.
inline constexpr std::uint32_t texture_object_magic = 0x67546578u;  // "gTex"
inline constexpr std::uint32_t surface_object_magic = 0x67537266u;  // "gSrf"

// Enough for the largest mipmapped extent an sm_90 device allows (32768 texels: 16 levels).
inline constexpr int max_levels = 16;

// What the resource is, which decides the fetches that may read it (tex1Dfetch only linear memory,
// tex2D only a 2-D array or pitched memory, and so on).
enum class Shape : std::uint8_t {
  linear,           // cudaResourceTypeLinear: tex1Dfetch
  one_d,            // 1-D array
  two_d,            // 2-D array or cudaResourceTypePitch2D
  three_d,          // 3-D array
  one_d_layered,    // cudaArrayLayered, height 0
  two_d_layered,    // cudaArrayLayered
  cubemap,          // cudaArrayCubemap: 6 faces
  cubemap_layered,  // cudaArrayCubemap | cudaArrayLayered: 6 faces a layer
};

enum class ChannelKind : std::uint8_t { signed_int, unsigned_int, floating };

// A texel's format: `channels` channels (1, 2 or 4) of `bits` bits each (8, 16 or 32; 16-bit floats
// are half precision), one after the other in `element_bytes` bytes.
struct Format {
  ChannelKind kind;
  std::uint8_t channels;
  std::uint8_t bits;
  std::uint8_t element_bytes;
};

// One image (one mip level): `depth` slices of `height` rows of `width` texels. A slice is a depth
// slice of a 3-D array, a layer of a layered one, a face of a cubemap (face f of layer l is slice
// 6 l + f). Pitches are in bytes.
struct Image {
  unsigned char* data;
  std::uint32_t width, height, depth;
  std::uint64_t row_pitch, slice_pitch;
};

// A texture object: the resource's images and what cudaTextureDesc asked of the fetches. Enumerations
// are stored as CUDA's values (cudaTextureAddressMode, cudaTextureFilterMode, cudaTextureReadMode).
struct TextureObject {
  std::uint32_t magic;
  Shape shape;
  Format format;
  std::uint8_t gather;             // the array was made with cudaArrayTextureGather
  std::uint8_t address_mode[3];
  std::uint8_t filter_mode;
  std::uint8_t read_mode;          // cudaReadModeNormalizedFloat also for the normalized channel kinds
  std::uint8_t normalized_coords;  // always 1 for cubemaps, whose face coordinates are normalized
  std::uint8_t srgb;
  std::uint8_t mipmap_filter_mode;
  std::uint32_t max_anisotropy;
  float border[4];
  float level_bias, min_level_clamp, max_level_clamp;
  std::uint32_t levels;  // 1 unless the resource is a mipmapped array
  Image level[max_levels];
};

// A surface object: one image of a CUDA array made with cudaArraySurfaceLoadStore.
struct SurfaceObject {
  std::uint32_t magic;
  Shape shape;
  Format format;
  Image image;
};

}  // namespace gpulab::sim::textures
