#pragma once
// CUDA's texture-object fetches for code compiled for the simulator (part of
// <gpulab/sim/device_runtime.hpp>): tex1Dfetch, tex1D, tex2D, tex3D, the layered and cubemap fetches,
// tex2Dgather, the *Lod and *Grad forms, each as `T texX<T>(object, ...)` and `void texX(T* out,
// object, ...)`, with the sparse-texture `bool* isResident` forms CUDA has (always resident here).
//
// What a fetch computes is the CUDA programming guide's texture-fetching appendix, on the descriptor
// the runtime wrote for the object (texture_resources.hpp):
// - coordinates: normalized ones are scaled by the level's size first (x * width);
// - point filtering reads texel floor(x); linear filtering reads texels i and i + 1 around
//   xB = x - 0.5 with i = floor(xB) and weight alpha = frac(xB), alpha held in 9-bit fixed point with 8
//   fraction bits as the hardware holds it: xB is rounded to the nearest 1/256 first (ties up), then
//   split, so weights are k/256 and 1.0 is exact. The weighted sum is taken in float;
// - address modes act on each texel index: clamp to [0, n - 1]; border gives the border colour;
//   wrap (index mod n) and mirror (index mod 2n, reflected) with normalized coordinates only: with
//   unnormalized ones they clamp, as CUDA's hardware does;
// - read modes: cudaReadModeNormalizedFloat maps 8- and 16-bit integers to [0, 1] (unsigned: x / 255,
//   x / 65535) or [-1, 1] (signed: max(-1, x / 127), max(-1, x / 32767)); 16-bit float channels read as
//   float; sRGB (8-bit unsigned, normalized) converts r, g, b to linear before filtering;
// - channels a format lacks read as 0, and alpha as 1;
// - layered fetches clamp the layer to the array's layers; cubemap fetches pick the face of the
//   direction's major axis (the guide's table), then sample that face at s, t in [0, 1] with clamp
//   (seamless filtering across faces is refused when the object is created);
// - mipmaps: the level is lambda + mipmapLevelBias, clamped to [minMipmapLevelClamp,
//   maxMipmapLevelClamp] and to the levels there are; point mip filtering takes the nearest level,
//   linear blends the two around it with an 8-bit fraction. *Lod gives lambda; fetches without a level
//   use lambda 0 (a kernel has no implicit derivatives); *Grad computes lambda = log2(rho) with rho
//   the longer of the two gradients in level-0 texels (isotropic: a Grad fetch of a mipmapped object
//   with maxAnisotropy > 1 ends the kernel, since anisotropic filtering is not simulated, and so does
//   a cubemap Grad fetch).
// The value a fetch returns is built as the GPU's registers would hold it: float results as floats,
// integer reads (cudaReadModeElementType of an integer format) as 32-bit integers (sign-extended for
// signed formats), then the requested type's components are taken from those (an integer type of a
// float result, or a float type of an integer one, gets the register's bits).
//
// A fetch that CUDA leaves undefined ends the kernel with a fault naming the fetch and the reason, as
// __trap does: a fetch whose kind does not match the resource (tex1D of linear memory, tex2D of a
// layered array, ...), tex2Dgather of an array made without cudaArrayTextureGather, and an object
// that is not a live texture object.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <source_location>
#include <type_traits>

#include <gpulab/sim/cuda/texture_types.h>
#include <gpulab/sim/device/texture_resources.hpp>
#include <gpulab/sim/vector_types.hpp>

#pragma push_macro("GPULAB_INSIDE_PUBLIC_HEADER")
#undef GPULAB_INSIDE_PUBLIC_HEADER
#define GPULAB_INSIDE_PUBLIC_HEADER 1
#include <gpulab/sim/detail/engine_abi.hpp>
#pragma pop_macro("GPULAB_INSIDE_PUBLIC_HEADER")

namespace gpulab::sim::textures::detail {

using Where = std::source_location;

[[noreturn]] inline void fetch_fault(const char* function, const char* what, const Where& where) {
  char message[384];
  std::snprintf(message, sizeof message, "%s: %s", function, what);
  ::gpulab::sim::detail::kernel_abort(message, where);
}

inline const char* shape_name(Shape shape) {
  switch (shape) {
    case Shape::linear: return "linear memory (cudaResourceTypeLinear, read with tex1Dfetch)";
    case Shape::one_d: return "a 1-D array (read with tex1D)";
    case Shape::two_d: return "a 2-D array or pitched 2-D memory (read with tex2D)";
    case Shape::three_d: return "a 3-D array (read with tex3D)";
    case Shape::one_d_layered: return "a 1-D layered array (read with tex1DLayered)";
    case Shape::two_d_layered: return "a 2-D layered array (read with tex2DLayered)";
    case Shape::cubemap: return "a cubemap array (read with texCubemap)";
    case Shape::cubemap_layered: return "a layered cubemap array (read with texCubemapLayered)";
  }
  return "an unknown resource";
}

// The descriptor behind a texture object, after checking that it is one and that `function` may read
// its resource.
inline const TextureObject& texture_of(cudaTextureObject_t object, Shape expected, const char* function,
                                       const Where& where) {
  if (object == 0) fetch_fault(function, "texture object 0, which no cudaCreateTextureObject returned", where);
  const auto* t = reinterpret_cast<const TextureObject*>(static_cast<std::uintptr_t>(object));
  if (t->magic != texture_object_magic) {
    fetch_fault(function,
                t->magic == surface_object_magic
                    ? "the object is a surface object, not a texture object"
                    : "the object is not a live texture object (destroyed, or never returned by cudaCreateTextureObject)",
                where);
  }
  if (t->shape != expected) {
    char what[320];
    std::snprintf(what, sizeof what, "the texture object's resource is %s, which this fetch cannot read",
                  shape_name(t->shape));
    fetch_fault(function, what, where);
  }
  return *t;
}

// A fetch's result before it becomes the caller's type: four float channels (float formats,
// normalized reads) or four 32-bit integer channels (integer formats read as they are).
struct Sample {
  float f[4];
  std::uint32_t u[4];
  bool is_float;
};

inline bool returns_float(const TextureObject& t) {
  return t.format.kind == ChannelKind::floating || t.read_mode == cudaReadModeNormalizedFloat;
}

inline float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu;
  const std::uint32_t mantissa = h & 0x3ffu;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // zero and subnormals
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
  }
  std::uint32_t bits;
  std::memcpy(&bits, &magnitude, sizeof bits);
  bits |= sign;
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

inline float srgb_to_linear(float c) {
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

// The channels a format lacks: 0, and 1 for alpha.
inline void fill_missing_channels(Sample& s, int channels) {
  for (int c = channels; c < 4; ++c) {
    s.f[c] = c == 3 ? 1.0f : 0.0f;
    s.u[c] = c == 3 ? 1u : 0u;
  }
}

// Texel (x, y) of slice z of an image, in range, as the fetch returns it.
inline Sample read_texel(const TextureObject& t, const Image& im, std::int64_t x, std::int64_t y, std::int64_t z) {
  const Format fmt = t.format;
  const unsigned char* p = im.data + static_cast<std::uint64_t>(z) * im.slice_pitch +
                           static_cast<std::uint64_t>(y) * im.row_pitch + static_cast<std::uint64_t>(x) * fmt.element_bytes;
  Sample s{};
  s.is_float = returns_float(t);
  const bool is_signed = fmt.kind == ChannelKind::signed_int;
  for (int c = 0; c < fmt.channels; ++c) {
    const unsigned char* q = p + c * (fmt.bits / 8);
    if (fmt.bits == 8) {
      std::uint8_t v;
      std::memcpy(&v, q, 1);
      const std::int32_t sv = static_cast<std::int8_t>(v);
      if (s.is_float) {
        s.f[c] = is_signed ? std::fmax(-1.0f, static_cast<float>(sv) / 127.0f) : static_cast<float>(v) / 255.0f;
      } else {
        s.u[c] = is_signed ? static_cast<std::uint32_t>(sv) : v;
      }
    } else if (fmt.bits == 16) {
      std::uint16_t v;
      std::memcpy(&v, q, 2);
      const std::int32_t sv = static_cast<std::int16_t>(v);
      if (fmt.kind == ChannelKind::floating) {
        s.f[c] = half_bits_to_float(v);
      } else if (s.is_float) {
        s.f[c] = is_signed ? std::fmax(-1.0f, static_cast<float>(sv) / 32767.0f) : static_cast<float>(v) / 65535.0f;
      } else {
        s.u[c] = is_signed ? static_cast<std::uint32_t>(sv) : v;
      }
    } else {
      // 32-bit channels: floats, or integers read as they are (the runtime refuses normalized reads).
      if (fmt.kind == ChannelKind::floating) {
        std::memcpy(&s.f[c], q, 4);
      } else {
        std::memcpy(&s.u[c], q, 4);
      }
    }
  }
  if (t.srgb != 0 && s.is_float && fmt.kind == ChannelKind::unsigned_int && fmt.bits == 8) {
    for (int c = 0; c < fmt.channels && c < 3; ++c) s.f[c] = srgb_to_linear(s.f[c]);
  }
  fill_missing_channels(s, fmt.channels);
  return s;
}

// The border colour as the fetch returns it (an integer read converts it to the integer).
inline Sample border_sample(const TextureObject& t) {
  Sample s{};
  s.is_float = returns_float(t);
  for (int c = 0; c < t.format.channels; ++c) {
    s.f[c] = t.border[c];
    s.u[c] = static_cast<std::uint32_t>(static_cast<std::int64_t>(t.border[c]));
  }
  fill_missing_channels(s, t.format.channels);
  return s;
}

// How one fetch addresses its image: the object's modes, or clamp for a cubemap face.
struct Addressing {
  std::uint8_t mode[3];
  bool normalized;
};

inline Addressing addressing_of(const TextureObject& t) {
  return Addressing{{t.address_mode[0], t.address_mode[1], t.address_mode[2]}, t.normalized_coords != 0};
}

constexpr std::int64_t border_index = -1;

// Texel index i of a dimension of n texels, after the address mode; border_index for the border.
inline std::int64_t address(std::int64_t i, std::uint32_t n, std::uint8_t mode, bool normalized) {
  const auto size = static_cast<std::int64_t>(n);
  if (!normalized && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror)) mode = cudaAddressModeClamp;
  switch (mode) {
    case cudaAddressModeBorder:
      return i < 0 || i >= size ? border_index : i;
    case cudaAddressModeWrap:
      return ((i % size) + size) % size;
    case cudaAddressModeMirror: {
      const std::int64_t m = ((i % (2 * size)) + 2 * size) % (2 * size);
      return m < size ? m : 2 * size - 1 - m;
    }
    default:
      return i < 0 ? 0 : (i >= size ? size - 1 : i);
  }
}

// A coordinate in texels (normalized ones scaled by the size), kept in a range where the index
// arithmetic cannot overflow; NaN reads texel 0.
inline float texel_coordinate(float c, std::uint32_t n, bool normalized) {
  float x = normalized ? c * static_cast<float>(n) : c;
  if (!(x == x)) return 0.0f;
  constexpr float limit = 1099511627776.0f;  // 2^40
  return x < -limit ? -limit : (x > limit ? limit : x);
}

inline std::int64_t point_index(float x) { return static_cast<std::int64_t>(std::floor(x)); }

// Linear filtering's texel pair: xB = x - 0.5 in 9-bit fixed point (8 fraction bits, rounded to the
// nearest 1/256), i its integer part and alpha its fraction.
struct Footprint {
  std::int64_t i;
  float alpha;
};

inline Footprint linear_footprint(float x) {
  const double fixed = std::floor((static_cast<double>(x) - 0.5) * 256.0 + 0.5);
  const auto q = static_cast<std::int64_t>(fixed);
  return Footprint{q >> 8, static_cast<float>(q & 255) / 256.0f};
}

// Texel (i, j, k) through the address modes (k is the depth index of a 3-D image; 1- and 2-D images
// read slice `slice`).
inline Sample texel_at(const TextureObject& t, const Image& im, const Addressing& a, int dims, std::int64_t i,
                       std::int64_t j, std::int64_t k, std::int64_t slice) {
  const std::int64_t x = address(i, im.width, a.mode[0], a.normalized);
  const std::int64_t y = dims >= 2 ? address(j, im.height, a.mode[1], a.normalized) : 0;
  const std::int64_t z = dims == 3 ? address(k, im.depth, a.mode[2], a.normalized) : slice;
  if (x == border_index || y == border_index || z == border_index) return border_sample(t);
  return read_texel(t, im, x, y, z);
}

// One image sampled at (x, y, z) with the object's filter mode.
inline Sample sample_image(const TextureObject& t, const Image& im, const Addressing& a, int dims, float x, float y,
                           float z, std::int64_t slice) {
  const float tx = texel_coordinate(x, im.width, a.normalized);
  const float ty = dims >= 2 ? texel_coordinate(y, im.height, a.normalized) : 0.0f;
  const float tz = dims == 3 ? texel_coordinate(z, im.depth, a.normalized) : 0.0f;
  if (t.filter_mode != cudaFilterModeLinear) {
    return texel_at(t, im, a, dims, point_index(tx), point_index(ty), point_index(tz), slice);
  }
  const Footprint fx = linear_footprint(tx);
  const Footprint fy = dims >= 2 ? linear_footprint(ty) : Footprint{0, 0.0f};
  const Footprint fz = dims == 3 ? linear_footprint(tz) : Footprint{0, 0.0f};
  Sample sum{};
  sum.is_float = true;
  for (int dz = 0; dz <= (dims == 3 ? 1 : 0); ++dz) {
    const float wz = dims == 3 ? (dz != 0 ? fz.alpha : 1.0f - fz.alpha) : 1.0f;
    for (int dy = 0; dy <= (dims >= 2 ? 1 : 0); ++dy) {
      const float wy = dims >= 2 ? (dy != 0 ? fy.alpha : 1.0f - fy.alpha) : 1.0f;
      for (int dx = 0; dx <= 1; ++dx) {
        const float w = (dx != 0 ? fx.alpha : 1.0f - fx.alpha) * wy * wz;
        const Sample s = texel_at(t, im, a, dims, fx.i + dx, fy.i + dy, fz.i + dz, slice);
        for (int c = 0; c < 4; ++c) sum.f[c] += w * s.f[c];
      }
    }
  }
  return sum;
}

// The object's levels sampled at mip level `lambda` (before bias and clamps).
inline Sample sample_levels(const TextureObject& t, const Addressing& a, int dims, float x, float y, float z,
                            std::int64_t slice, float lambda) {
  if (t.levels <= 1) return sample_image(t, t.level[0], a, dims, x, y, z, slice);
  float level = lambda + t.level_bias;
  if (!(level == level)) level = 0.0f;
  level = std::fmax(level, t.min_level_clamp);
  level = std::fmin(level, t.max_level_clamp);
  level = std::fmin(std::fmax(level, 0.0f), static_cast<float>(t.levels - 1));
  if (t.mipmap_filter_mode != cudaFilterModeLinear) {
    return sample_image(t, t.level[static_cast<int>(std::floor(level + 0.5f))], a, dims, x, y, z, slice);
  }
  const auto q = static_cast<std::int64_t>(std::floor(static_cast<double>(level) * 256.0 + 0.5));
  const auto lower = static_cast<int>(q >> 8);
  const float w = static_cast<float>(q & 255) / 256.0f;
  const Sample s0 = sample_image(t, t.level[lower], a, dims, x, y, z, slice);
  if (w == 0.0f || lower + 1 >= static_cast<int>(t.levels)) return s0;
  const Sample s1 = sample_image(t, t.level[lower + 1], a, dims, x, y, z, slice);
  Sample s = s0;
  for (int c = 0; c < 4; ++c) s.f[c] = (1.0f - w) * s0.f[c] + w * s1.f[c];
  return s;
}

// A layer index clamped to the layers there are (`per_layer` slices each).
inline std::int64_t layer_slice(const Image& im, int layer, int per_layer) {
  const std::int64_t layers = im.depth / per_layer;
  const std::int64_t l = layer < 0 ? 0 : (layer >= layers ? layers - 1 : layer);
  return l * per_layer;
}

// The cubemap face a direction points at and the face coordinates, both in [0, 1] (the programming
// guide's cubemap table: the major axis picks the face; ties go to x, then y).
struct FacePoint {
  int face;
  float s, t;
};

inline FacePoint cube_face(float x, float y, float z) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  float m, sc, tc;
  int face;
  if (ax >= ay && ax >= az) {
    m = ax, face = x >= 0 ? 0 : 1, sc = x >= 0 ? -z : z, tc = -y;
  } else if (ay >= az) {
    m = ay, face = y >= 0 ? 2 : 3, sc = x, tc = y >= 0 ? z : -z;
  } else {
    m = az, face = z >= 0 ? 4 : 5, sc = z >= 0 ? x : -x, tc = -y;
  }
  if (m == 0.0f) return FacePoint{0, 0.5f, 0.5f};
  return FacePoint{face, (sc / m + 1.0f) * 0.5f, (tc / m + 1.0f) * 0.5f};
}

// Every fetch but tex1Dfetch and tex2Dgather: the object checked for `shape`, then sampled.
inline Sample fetch_object(const TextureObject& t, Shape shape, float x, float y, float z, int layer, float lambda,
                           const char* function, const Where& where) {
  Addressing a = addressing_of(t);
  switch (shape) {
    case Shape::one_d: return sample_levels(t, a, 1, x, 0, 0, 0, lambda);
    case Shape::two_d: return sample_levels(t, a, 2, x, y, 0, 0, lambda);
    case Shape::three_d: return sample_levels(t, a, 3, x, y, z, 0, lambda);
    case Shape::one_d_layered: return sample_levels(t, a, 1, x, 0, 0, layer_slice(t.level[0], layer, 1), lambda);
    case Shape::two_d_layered: return sample_levels(t, a, 2, x, y, 0, layer_slice(t.level[0], layer, 1), lambda);
    case Shape::cubemap:
    case Shape::cubemap_layered: {
      const FacePoint p = cube_face(x, y, z);
      a = Addressing{{cudaAddressModeClamp, cudaAddressModeClamp, cudaAddressModeClamp}, true};
      const std::int64_t first = shape == Shape::cubemap ? 0 : layer_slice(t.level[0], layer, 6);
      return sample_levels(t, a, 2, p.s, p.t, 0, first + p.face, lambda);
    }
    case Shape::linear: break;
  }
  fetch_fault(function, "internal: a fetch of linear memory outside tex1Dfetch", where);
}

inline Sample fetch(cudaTextureObject_t object, Shape shape, float x, float y, float z, int layer, float lambda,
                    const char* function, const Where& where) {
  return fetch_object(texture_of(object, shape, function, where), shape, x, y, z, layer, lambda, function, where);
}

// tex1Dfetch: element x of linear memory, no filtering; out of range reads 0.
inline Sample fetch_linear_object(const TextureObject& t, int x) {
  if (x < 0 || static_cast<std::uint32_t>(x) >= t.level[0].width) {
    Sample s{};
    s.is_float = returns_float(t);
    return s;
  }
  return read_texel(t, t.level[0], x, 0, 0);
}
inline Sample fetch_linear(cudaTextureObject_t object, int x, const Where& where) {
  return fetch_linear_object(texture_of(object, Shape::linear, "tex1Dfetch", where), x);
}

// tex2Dgather: component `comp` of the four texels linear filtering would blend, in CUDA's order
// (i, j + 1), (i + 1, j + 1), (i + 1, j), (i, j).
inline Sample fetch_gather(cudaTextureObject_t object, float x, float y, int comp, const Where& where) {
  const TextureObject& t = texture_of(object, Shape::two_d, "tex2Dgather", where);
  if (t.gather == 0) {
    fetch_fault("tex2Dgather",
                "the texture object's resource is not an array made with cudaArrayTextureGather, which gather "
                "fetches need",
                where);
  }
  if (comp < 0 || comp > 3) comp = 0;  // as CUDA's header: any other component number reads component 0
  const Addressing a = addressing_of(t);
  const Image& im = t.level[0];
  const Footprint fx = linear_footprint(texel_coordinate(x, im.width, a.normalized));
  const Footprint fy = linear_footprint(texel_coordinate(y, im.height, a.normalized));
  const std::int64_t di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
  Sample g{};
  g.is_float = returns_float(t);
  for (int k = 0; k < 4; ++k) {
    const Sample s = texel_at(t, im, a, 2, fx.i + di[k], fy.i + dj[k], 0, 0);
    g.f[k] = s.f[comp];
    g.u[k] = s.u[comp];
  }
  return g;
}

// The mip level of a gradient fetch: log2 of the longer gradient in level-0 texels.
inline float grad_level(cudaTextureObject_t object, Shape shape, int dims, const float* ddx, const float* ddy,
                        const char* function, const Where& where) {
  const TextureObject& t = texture_of(object, shape, function, where);
  if (t.levels <= 1) return 0.0f;
  if (t.max_anisotropy > 1) {
    char what[192];
    std::snprintf(what, sizeof what,
                  "anisotropic filtering (maxAnisotropy %u) is not simulated: create the object with maxAnisotropy 1",
                  t.max_anisotropy);
    fetch_fault(function, what, where);
  }
  const Image& im = t.level[0];
  const float size[3] = {static_cast<float>(im.width), static_cast<float>(im.height), static_cast<float>(im.depth)};
  float lx = 0.0f, ly = 0.0f;
  for (int d = 0; d < dims; ++d) {
    const float scale = t.normalized_coords != 0 ? size[d] : 1.0f;
    lx += ddx[d] * scale * ddx[d] * scale;
    ly += ddy[d] * scale * ddy[d] * scale;
  }
  return 0.5f * std::log2(std::fmax(lx, ly));
}

[[noreturn]] inline void cubemap_grad_refused(const char* function, const Where& where) {
  fetch_fault(function, "gradient fetches of cubemaps are not simulated: use texCubemapLod with the level", where);
}

// What a fetch may return: CUDA's fetch types, a scalar S or a 1-, 2- or 4-vector of one.
template <class T>
struct FetchType {
  static constexpr bool supported = false;
};
#define GPULAB_FETCH_TYPE(type, scalar, n) \
  template <>                              \
  struct FetchType<type> {                 \
    using S = scalar;                      \
    static constexpr int count = n;        \
    static constexpr bool supported = true; \
  };
#define GPULAB_FETCH_TYPES(scalar, vector)   \
  GPULAB_FETCH_TYPE(scalar, scalar, 1)       \
  GPULAB_FETCH_TYPE(vector##1, scalar, 1)    \
  GPULAB_FETCH_TYPE(vector##2, scalar, 2)    \
  GPULAB_FETCH_TYPE(vector##4, scalar, 4)
GPULAB_FETCH_TYPE(char, char, 1)
GPULAB_FETCH_TYPES(signed char, char)
GPULAB_FETCH_TYPES(unsigned char, uchar)
GPULAB_FETCH_TYPES(short, short)
GPULAB_FETCH_TYPES(unsigned short, ushort)
GPULAB_FETCH_TYPES(int, int)
GPULAB_FETCH_TYPES(unsigned int, uint)
GPULAB_FETCH_TYPES(float, float)
#undef GPULAB_FETCH_TYPES
#undef GPULAB_FETCH_TYPE

template <class S>
inline S component(const Sample& s, int c) {
  if (s.is_float) {
    if constexpr (std::is_same_v<S, float>) {
      return s.f[c];
    } else {
      std::uint32_t bits;
      std::memcpy(&bits, &s.f[c], sizeof bits);
      return static_cast<S>(bits);
    }
  } else {
    if constexpr (std::is_same_v<S, float>) {
      float value;
      std::memcpy(&value, &s.u[c], sizeof value);
      return value;
    } else {
      return static_cast<S>(s.u[c]);
    }
  }
}

template <class T>
inline T as_result(const Sample& s) {
  static_assert(FetchType<T>::supported,
                "gpulab-sim: a texture fetch returns CUDA's fetch types: char, short, int, their signed and "
                "unsigned forms or float, or a 1-, 2- or 4-vector of one (char4, float2, ...)");
  using S = typename FetchType<T>::S;
  S c[4];
  for (int k = 0; k < FetchType<T>::count; ++k) c[k] = component<S>(s, k);
  T out;
  static_assert(sizeof(T) == sizeof(S) * FetchType<T>::count);
  std::memcpy(&out, c, sizeof out);
  return out;
}

}  // namespace gpulab::sim::textures::detail

// ---- the fetches ------------------------------------------------------------------------------------------
// Each takes, last, the call site (a default argument), so that a fault names the kernel's line.
#define GPULAB_TEX_WHERE const std::source_location where = std::source_location::current()
// For cuda_texture_types.h: the fetches of texture references are built on these.
#define GPULAB_SIM_HAVE_TEXTURE_FETCH 1
#define GPULAB_TEX ::gpulab::sim::textures::detail
#define GPULAB_TEX_SHAPE ::gpulab::sim::textures::Shape

template <class T>
inline T tex1Dfetch(cudaTextureObject_t texObject, int x, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(GPULAB_TEX::fetch_linear(texObject, x, where));
}
template <class T>
inline void tex1Dfetch(T* ptr, cudaTextureObject_t obj, int x, GPULAB_TEX_WHERE) {
  *ptr = tex1Dfetch<T>(obj, x, where);
}

template <class T>
inline T tex1D(cudaTextureObject_t texObject, float x, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::one_d, x, 0, 0, 0, 0.0f, "tex1D", where));
}
template <class T>
inline void tex1D(T* ptr, cudaTextureObject_t obj, float x, GPULAB_TEX_WHERE) {
  *ptr = tex1D<T>(obj, x, where);
}

template <class T>
inline T tex2D(cudaTextureObject_t texObject, float x, float y, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::two_d, x, y, 0, 0, 0.0f, "tex2D", where));
}
template <class T>
inline T tex2D(cudaTextureObject_t texObject, float x, float y, bool* isResident, GPULAB_TEX_WHERE) {
  *isResident = true;  // no sparse arrays: every texel is resident
  return tex2D<T>(texObject, x, y, where);
}
template <class T>
inline void tex2D(T* ptr, cudaTextureObject_t obj, float x, float y, GPULAB_TEX_WHERE) {
  *ptr = tex2D<T>(obj, x, y, where);
}
template <class T>
inline void tex2D(T* ptr, cudaTextureObject_t obj, float x, float y, bool* isResident, GPULAB_TEX_WHERE) {
  *ptr = tex2D<T>(obj, x, y, isResident, where);
}

template <class T>
inline T tex3D(cudaTextureObject_t texObject, float x, float y, float z, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::three_d, x, y, z, 0, 0.0f, "tex3D", where));
}
template <class T>
inline T tex3D(cudaTextureObject_t texObject, float x, float y, float z, bool* isResident, GPULAB_TEX_WHERE) {
  *isResident = true;
  return tex3D<T>(texObject, x, y, z, where);
}
template <class T>
inline void tex3D(T* ptr, cudaTextureObject_t obj, float x, float y, float z, GPULAB_TEX_WHERE) {
  *ptr = tex3D<T>(obj, x, y, z, where);
}
template <class T>
inline void tex3D(T* ptr, cudaTextureObject_t obj, float x, float y, float z, bool* isResident, GPULAB_TEX_WHERE) {
  *ptr = tex3D<T>(obj, x, y, z, isResident, where);
}

template <class T>
inline T tex1DLayered(cudaTextureObject_t texObject, float x, int layer, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(
      GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::one_d_layered, x, 0, 0, layer, 0.0f, "tex1DLayered", where));
}
template <class T>
inline void tex1DLayered(T* ptr, cudaTextureObject_t obj, float x, int layer, GPULAB_TEX_WHERE) {
  *ptr = tex1DLayered<T>(obj, x, layer, where);
}

template <class T>
inline T tex2DLayered(cudaTextureObject_t texObject, float x, float y, int layer, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(
      GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::two_d_layered, x, y, 0, layer, 0.0f, "tex2DLayered", where));
}
template <class T>
inline T tex2DLayered(cudaTextureObject_t texObject, float x, float y, int layer, bool* isResident, GPULAB_TEX_WHERE) {
  *isResident = true;
  return tex2DLayered<T>(texObject, x, y, layer, where);
}
template <class T>
inline void tex2DLayered(T* ptr, cudaTextureObject_t obj, float x, float y, int layer, GPULAB_TEX_WHERE) {
  *ptr = tex2DLayered<T>(obj, x, y, layer, where);
}
template <class T>
inline void tex2DLayered(T* ptr, cudaTextureObject_t obj, float x, float y, int layer, bool* isResident,
                         GPULAB_TEX_WHERE) {
  *ptr = tex2DLayered<T>(obj, x, y, layer, isResident, where);
}

template <class T>
inline T texCubemap(cudaTextureObject_t texObject, float x, float y, float z, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::cubemap, x, y, z, 0, 0.0f, "texCubemap", where));
}
template <class T>
inline void texCubemap(T* ptr, cudaTextureObject_t obj, float x, float y, float z, GPULAB_TEX_WHERE) {
  *ptr = texCubemap<T>(obj, x, y, z, where);
}

template <class T>
inline T texCubemapLayered(cudaTextureObject_t texObject, float x, float y, float z, int layer, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(
      GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::cubemap_layered, x, y, z, layer, 0.0f, "texCubemapLayered", where));
}
template <class T>
inline void texCubemapLayered(T* ptr, cudaTextureObject_t obj, float x, float y, float z, int layer, GPULAB_TEX_WHERE) {
  *ptr = texCubemapLayered<T>(obj, x, y, z, layer, where);
}

// Gather: comp selects the channel (0 for x, ... 3 for w).
template <class T>
inline T tex2Dgather(cudaTextureObject_t to, float x, float y, int comp = 0, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(GPULAB_TEX::fetch_gather(to, x, y, comp, where));
}
template <class T>
inline T tex2Dgather(cudaTextureObject_t to, float x, float y, bool* isResident, int comp = 0, GPULAB_TEX_WHERE) {
  *isResident = true;
  return tex2Dgather<T>(to, x, y, comp, where);
}
template <class T>
inline void tex2Dgather(T* ptr, cudaTextureObject_t obj, float x, float y, int comp = 0, GPULAB_TEX_WHERE) {
  *ptr = tex2Dgather<T>(obj, x, y, comp, where);
}
template <class T>
inline void tex2Dgather(T* ptr, cudaTextureObject_t obj, float x, float y, bool* isResident, int comp = 0,
                        GPULAB_TEX_WHERE) {
  *ptr = tex2Dgather<T>(obj, x, y, isResident, comp, where);
}

// ---- explicit mip level (*Lod) ----
template <class T>
inline T tex1DLod(cudaTextureObject_t texObject, float x, float level, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::one_d, x, 0, 0, 0, level, "tex1DLod", where));
}
template <class T>
inline void tex1DLod(T* ptr, cudaTextureObject_t obj, float x, float level, GPULAB_TEX_WHERE) {
  *ptr = tex1DLod<T>(obj, x, level, where);
}
template <class T>
inline T tex2DLod(cudaTextureObject_t texObject, float x, float y, float level, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::two_d, x, y, 0, 0, level, "tex2DLod", where));
}
template <class T>
inline T tex2DLod(cudaTextureObject_t texObject, float x, float y, float level, bool* isResident, GPULAB_TEX_WHERE) {
  *isResident = true;
  return tex2DLod<T>(texObject, x, y, level, where);
}
template <class T>
inline void tex2DLod(T* ptr, cudaTextureObject_t obj, float x, float y, float level, GPULAB_TEX_WHERE) {
  *ptr = tex2DLod<T>(obj, x, y, level, where);
}
template <class T>
inline void tex2DLod(T* ptr, cudaTextureObject_t obj, float x, float y, float level, bool* isResident, GPULAB_TEX_WHERE) {
  *ptr = tex2DLod<T>(obj, x, y, level, isResident, where);
}
template <class T>
inline T tex3DLod(cudaTextureObject_t texObject, float x, float y, float z, float level, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::three_d, x, y, z, 0, level, "tex3DLod", where));
}
template <class T>
inline T tex3DLod(cudaTextureObject_t texObject, float x, float y, float z, float level, bool* isResident,
                  GPULAB_TEX_WHERE) {
  *isResident = true;
  return tex3DLod<T>(texObject, x, y, z, level, where);
}
template <class T>
inline void tex3DLod(T* ptr, cudaTextureObject_t obj, float x, float y, float z, float level, GPULAB_TEX_WHERE) {
  *ptr = tex3DLod<T>(obj, x, y, z, level, where);
}
template <class T>
inline void tex3DLod(T* ptr, cudaTextureObject_t obj, float x, float y, float z, float level, bool* isResident,
                     GPULAB_TEX_WHERE) {
  *ptr = tex3DLod<T>(obj, x, y, z, level, isResident, where);
}
template <class T>
inline T tex1DLayeredLod(cudaTextureObject_t texObject, float x, int layer, float level, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(
      GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::one_d_layered, x, 0, 0, layer, level, "tex1DLayeredLod", where));
}
template <class T>
inline void tex1DLayeredLod(T* ptr, cudaTextureObject_t obj, float x, int layer, float level, GPULAB_TEX_WHERE) {
  *ptr = tex1DLayeredLod<T>(obj, x, layer, level, where);
}
template <class T>
inline T tex2DLayeredLod(cudaTextureObject_t texObject, float x, float y, int layer, float level, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(
      GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::two_d_layered, x, y, 0, layer, level, "tex2DLayeredLod", where));
}
template <class T>
inline T tex2DLayeredLod(cudaTextureObject_t texObject, float x, float y, int layer, float level, bool* isResident,
                         GPULAB_TEX_WHERE) {
  *isResident = true;
  return tex2DLayeredLod<T>(texObject, x, y, layer, level, where);
}
template <class T>
inline void tex2DLayeredLod(T* ptr, cudaTextureObject_t obj, float x, float y, int layer, float level, GPULAB_TEX_WHERE) {
  *ptr = tex2DLayeredLod<T>(obj, x, y, layer, level, where);
}
template <class T>
inline void tex2DLayeredLod(T* ptr, cudaTextureObject_t obj, float x, float y, int layer, float level,
                            bool* isResident, GPULAB_TEX_WHERE) {
  *ptr = tex2DLayeredLod<T>(obj, x, y, layer, level, isResident, where);
}
template <class T>
inline T texCubemapLod(cudaTextureObject_t texObject, float x, float y, float z, float level, GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(
      GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::cubemap, x, y, z, 0, level, "texCubemapLod", where));
}
template <class T>
inline void texCubemapLod(T* ptr, cudaTextureObject_t obj, float x, float y, float z, float level, GPULAB_TEX_WHERE) {
  *ptr = texCubemapLod<T>(obj, x, y, z, level, where);
}
template <class T>
inline T texCubemapLayeredLod(cudaTextureObject_t texObject, float x, float y, float z, int layer, float level,
                              GPULAB_TEX_WHERE) {
  return GPULAB_TEX::as_result<T>(GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::cubemap_layered, x, y, z, layer, level,
                                                    "texCubemapLayeredLod", where));
}
template <class T>
inline void texCubemapLayeredLod(T* ptr, cudaTextureObject_t obj, float x, float y, float z, int layer, float level,
                                 GPULAB_TEX_WHERE) {
  *ptr = texCubemapLayeredLod<T>(obj, x, y, z, layer, level, where);
}

// ---- gradients (*Grad): the level from the gradients, isotropic ----
template <class T>
inline T tex1DGrad(cudaTextureObject_t texObject, float x, float dPdx, float dPdy, GPULAB_TEX_WHERE) {
  const float level = GPULAB_TEX::grad_level(texObject, GPULAB_TEX_SHAPE::one_d, 1, &dPdx, &dPdy, "tex1DGrad", where);
  return GPULAB_TEX::as_result<T>(GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::one_d, x, 0, 0, 0, level, "tex1DGrad", where));
}
template <class T>
inline void tex1DGrad(T* ptr, cudaTextureObject_t obj, float x, float dPdx, float dPdy, GPULAB_TEX_WHERE) {
  *ptr = tex1DGrad<T>(obj, x, dPdx, dPdy, where);
}
template <class T>
inline T tex2DGrad(cudaTextureObject_t texObject, float x, float y, float2 dPdx, float2 dPdy, GPULAB_TEX_WHERE) {
  const float dx[2] = {dPdx.x, dPdx.y}, dy[2] = {dPdy.x, dPdy.y};
  const float level = GPULAB_TEX::grad_level(texObject, GPULAB_TEX_SHAPE::two_d, 2, dx, dy, "tex2DGrad", where);
  return GPULAB_TEX::as_result<T>(GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::two_d, x, y, 0, 0, level, "tex2DGrad", where));
}
template <class T>
inline T tex2DGrad(cudaTextureObject_t texObject, float x, float y, float2 dPdx, float2 dPdy, bool* isResident,
                   GPULAB_TEX_WHERE) {
  *isResident = true;
  return tex2DGrad<T>(texObject, x, y, dPdx, dPdy, where);
}
template <class T>
inline void tex2DGrad(T* ptr, cudaTextureObject_t obj, float x, float y, float2 dPdx, float2 dPdy, GPULAB_TEX_WHERE) {
  *ptr = tex2DGrad<T>(obj, x, y, dPdx, dPdy, where);
}
template <class T>
inline void tex2DGrad(T* ptr, cudaTextureObject_t obj, float x, float y, float2 dPdx, float2 dPdy, bool* isResident,
                      GPULAB_TEX_WHERE) {
  *ptr = tex2DGrad<T>(obj, x, y, dPdx, dPdy, isResident, where);
}
template <class T>
inline T tex3DGrad(cudaTextureObject_t texObject, float x, float y, float z, float4 dPdx, float4 dPdy, GPULAB_TEX_WHERE) {
  const float dx[3] = {dPdx.x, dPdx.y, dPdx.z}, dy[3] = {dPdy.x, dPdy.y, dPdy.z};
  const float level = GPULAB_TEX::grad_level(texObject, GPULAB_TEX_SHAPE::three_d, 3, dx, dy, "tex3DGrad", where);
  return GPULAB_TEX::as_result<T>(GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::three_d, x, y, z, 0, level, "tex3DGrad", where));
}
template <class T>
inline T tex3DGrad(cudaTextureObject_t texObject, float x, float y, float z, float4 dPdx, float4 dPdy, bool* isResident,
                   GPULAB_TEX_WHERE) {
  *isResident = true;
  return tex3DGrad<T>(texObject, x, y, z, dPdx, dPdy, where);
}
template <class T>
inline void tex3DGrad(T* ptr, cudaTextureObject_t obj, float x, float y, float z, float4 dPdx, float4 dPdy,
                      GPULAB_TEX_WHERE) {
  *ptr = tex3DGrad<T>(obj, x, y, z, dPdx, dPdy, where);
}
template <class T>
inline void tex3DGrad(T* ptr, cudaTextureObject_t obj, float x, float y, float z, float4 dPdx, float4 dPdy,
                      bool* isResident, GPULAB_TEX_WHERE) {
  *ptr = tex3DGrad<T>(obj, x, y, z, dPdx, dPdy, isResident, where);
}
template <class T>
inline T tex1DLayeredGrad(cudaTextureObject_t texObject, float x, int layer, float dPdx, float dPdy, GPULAB_TEX_WHERE) {
  const float level =
      GPULAB_TEX::grad_level(texObject, GPULAB_TEX_SHAPE::one_d_layered, 1, &dPdx, &dPdy, "tex1DLayeredGrad", where);
  return GPULAB_TEX::as_result<T>(
      GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::one_d_layered, x, 0, 0, layer, level, "tex1DLayeredGrad", where));
}
template <class T>
inline void tex1DLayeredGrad(T* ptr, cudaTextureObject_t obj, float x, int layer, float dPdx, float dPdy,
                             GPULAB_TEX_WHERE) {
  *ptr = tex1DLayeredGrad<T>(obj, x, layer, dPdx, dPdy, where);
}
template <class T>
inline T tex2DLayeredGrad(cudaTextureObject_t texObject, float x, float y, int layer, float2 dPdx, float2 dPdy,
                          GPULAB_TEX_WHERE) {
  const float dx[2] = {dPdx.x, dPdx.y}, dy[2] = {dPdy.x, dPdy.y};
  const float level =
      GPULAB_TEX::grad_level(texObject, GPULAB_TEX_SHAPE::two_d_layered, 2, dx, dy, "tex2DLayeredGrad", where);
  return GPULAB_TEX::as_result<T>(
      GPULAB_TEX::fetch(texObject, GPULAB_TEX_SHAPE::two_d_layered, x, y, 0, layer, level, "tex2DLayeredGrad", where));
}
template <class T>
inline T tex2DLayeredGrad(cudaTextureObject_t texObject, float x, float y, int layer, float2 dPdx, float2 dPdy,
                          bool* isResident, GPULAB_TEX_WHERE) {
  *isResident = true;
  return tex2DLayeredGrad<T>(texObject, x, y, layer, dPdx, dPdy, where);
}
template <class T>
inline void tex2DLayeredGrad(T* ptr, cudaTextureObject_t obj, float x, float y, int layer, float2 dPdx, float2 dPdy,
                             GPULAB_TEX_WHERE) {
  *ptr = tex2DLayeredGrad<T>(obj, x, y, layer, dPdx, dPdy, where);
}
template <class T>
inline void tex2DLayeredGrad(T* ptr, cudaTextureObject_t obj, float x, float y, int layer, float2 dPdx, float2 dPdy,
                             bool* isResident, GPULAB_TEX_WHERE) {
  *ptr = tex2DLayeredGrad<T>(obj, x, y, layer, dPdx, dPdy, isResident, where);
}
template <class T>
inline T texCubemapGrad(cudaTextureObject_t, float, float, float, float4, float4, GPULAB_TEX_WHERE) {
  GPULAB_TEX::cubemap_grad_refused("texCubemapGrad", where);
}
template <class T>
inline void texCubemapGrad(T*, cudaTextureObject_t, float, float, float, float4, float4, GPULAB_TEX_WHERE) {
  GPULAB_TEX::cubemap_grad_refused("texCubemapGrad", where);
}
template <class T>
inline T texCubemapLayeredGrad(cudaTextureObject_t, float, float, float, int, float4, float4, GPULAB_TEX_WHERE) {
  GPULAB_TEX::cubemap_grad_refused("texCubemapLayeredGrad", where);
}
template <class T>
inline void texCubemapLayeredGrad(T*, cudaTextureObject_t, float, float, float, int, float4, float4, GPULAB_TEX_WHERE) {
  GPULAB_TEX::cubemap_grad_refused("texCubemapLayeredGrad", where);
}

#undef GPULAB_TEX_SHAPE
#undef GPULAB_TEX
#undef GPULAB_TEX_WHERE
