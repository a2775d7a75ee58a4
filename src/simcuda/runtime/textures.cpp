// Texture and surface objects for gpulab-simcc programs. An object is a descriptor
// (gpulab/sim/device/texture_resources.hpp) that the runtime writes into the sim device's memory; its
// handle is the descriptor's address, which kernels pass to the fetches of texture_fetch.hpp and the
// accesses of surface_access.hpp. The runtime keeps, beside it, what the program passed, for the
// cudaGet*Object*Desc calls.
//
// Objects are checked as CUDA checks them when they are made (a resource the device can texture from,
// the alignments and size limits cudaGetDeviceProperties reports, filter and read modes the format
// allows), with messages naming the value and the limit. What CUDA allows and the simulator does not
// do is refused with cudaErrorNotSupported: seamless cubemap filtering, mipmapped textures with
// unnormalized coordinates, resource views that reinterpret an element as a format of another size or
// take a part of an array.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include <fmt/format.h>

#include <gpulab/array.hpp>
#include <gpulab/stream.hpp>

#include "runtime/backend.hpp"
#include "simcuda/runtime/cuda_arrays.hpp"
#include "simcuda/runtime/runtime_state.hpp"

namespace gpulab::sim::cuda::detail {

namespace textures = gpulab::sim::textures;
using textures::Shape;

namespace {

struct TextureRecord {
  cudaResourceDesc resource;
  cudaTextureDesc texture;
  cudaResourceViewDesc view;
  bool has_view;
};

struct ObjectRegistry {
  std::mutex mutex;
  std::map<unsigned long long, TextureRecord> textures;
  std::map<unsigned long long, cudaResourceDesc> surfaces;
};

ObjectRegistry& objects() {
  static auto* r = new ObjectRegistry;  // never destroyed: exit handlers may destroy objects
  return *r;
}

// Descriptors are written through a stream of their own, ordered with no work of the program's: an
// object is made and destroyed at once, as CUDA's are, and the copy lets initcheck see the bytes.
const Stream& descriptor_stream() {
  static auto* s = new Stream(state().device(), StreamMode::non_blocking);
  return *s;
}

template <class Descriptor>
unsigned long long upload(const Descriptor& d) {
  void* p = gpulab::detail::backend_for(gpulab::DeviceKind::sim).allocate(0, sizeof(Descriptor));
  gpulab::detail::copy_bytes(p, state().device().space(), &d, host_space, sizeof(Descriptor), descriptor_stream());
  return reinterpret_cast<std::uintptr_t>(p);
}

// Clears the descriptor's magic (a kernel that still uses the object then faults naming it, where the
// memory has not been reused) and frees it, once the device is idle: a kernel still running may read it.
void retire(unsigned long long handle) {
  std::exception_ptr fault;
  try {
    gpulab::detail::backend_for(gpulab::DeviceKind::sim).synchronize_device(0);
  } catch (...) {
    fault = std::current_exception();
  }
  void* p = reinterpret_cast<void*>(static_cast<std::uintptr_t>(handle));
  const std::uint32_t cleared = 0;
  gpulab::detail::copy_bytes(p, state().device().space(), &cleared, host_space, sizeof cleared, descriptor_stream());
  gpulab::detail::backend_for(gpulab::DeviceKind::sim).deallocate(0, p);
  if (fault) std::rethrow_exception(fault);
}

[[noreturn]] void invalid(const std::string& what) { throw ApiError(cudaErrorInvalidValue, what); }

// The texture a resource gives before the texture description: shape, format and images.
struct Resource {
  Shape shape = Shape::linear;
  ChannelFormat format{};
  bool gather = false;
  bool mipmapped = false;
  std::uint32_t levels = 1;
  textures::Image level[textures::max_levels]{};
};

// CUDA requires linear and pitched texture memory to be aligned to textureAlignment. The start of an
// allocation passes too: a GPU's cudaMalloc returns addresses aligned to it, while the simulator's
// allocations are only 256-byte aligned, and a program may rely on cudaMalloc's alignment.
void check_device_alignment(const void* p, const char* field, const char* call) {
  const auto alignment = static_cast<std::uintptr_t>(device_attribute(cudaDevAttrTextureAlignment));
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (p == nullptr) invalid(fmt::format("{}: {} is null", call, field));
  std::uintptr_t begin = 0;
  const bool allocation_start = state().allocation_of(p, &begin) != nullptr && begin == a;
  if (a % alignment != 0 && !allocation_start) {
    invalid(fmt::format("{}: {} {} is not aligned to the device's textureAlignment, {} bytes ({} bytes past a multiple)",
                        call, field, p, alignment, a % alignment));
  }
}

void check_device_memory(const void* p, std::size_t bytes, const char* field, const char* call) {
  if (state().device_range(p, bytes, call) == nullptr) {
    invalid(fmt::format("{}: {} {} is not device memory (cudaMalloc, cudaMallocPitch or cudaMallocManaged)", call, field, p));
  }
}

Resource resource_of(const cudaResourceDesc& r, const char* call) {
  if (r.flags != 0) invalid(fmt::format("{}: cudaResourceDesc::flags is {:#x}; it must be 0", call, r.flags));
  Resource out;
  switch (r.resType) {
    case cudaResourceTypeArray: {
      const cudaArray* a = checked_array(r.res.array.array, call);
      out.shape = a->shape;
      out.format = channel_format(a->desc, call);
      out.gather = (a->flags & cudaArrayTextureGather) != 0;
      out.level[0] = image_of(*a);
      break;
    }
    case cudaResourceTypeMipmappedArray: {
      const cudaMipmappedArray* m = checked_mipmapped_array(r.res.mipmap.mipmap, call);
      out.shape = m->levels[0]->shape;
      out.format = channel_format(m->desc, call);
      out.mipmapped = true;
      out.levels = static_cast<std::uint32_t>(m->levels.size());
      for (std::size_t l = 0; l < m->levels.size(); ++l) out.level[l] = image_of(*m->levels[l]);
      break;
    }
    case cudaResourceTypeLinear: {
      const auto& lin = r.res.linear;
      out.shape = Shape::linear;
      out.format = channel_format(lin.desc, call);
      check_device_alignment(lin.devPtr, "res.linear.devPtr", call);
      const std::size_t element = out.format.format.element_bytes;
      const std::size_t elements = lin.sizeInBytes / element;
      if (elements == 0) invalid(fmt::format("{}: res.linear.sizeInBytes {} holds no {}-byte element", call, lin.sizeInBytes, element));
      const auto limit = static_cast<std::size_t>(device_attribute(cudaDevAttrMaxTexture1DLinearWidth));
      if (elements > limit) {
        invalid(fmt::format("{}: res.linear.sizeInBytes {} holds {} elements of {} bytes, more than the device's "
                            "maxTexture1DLinear, {} elements",
                            call, lin.sizeInBytes, elements, element, limit));
      }
      check_device_memory(lin.devPtr, lin.sizeInBytes, "res.linear.devPtr", call);
      out.level[0] = textures::Image{static_cast<unsigned char*>(lin.devPtr), static_cast<std::uint32_t>(elements), 1, 1,
                                     lin.sizeInBytes, lin.sizeInBytes};
      break;
    }
    case cudaResourceTypePitch2D: {
      const auto& p2 = r.res.pitch2D;
      out.shape = Shape::two_d;
      out.format = channel_format(p2.desc, call);
      check_device_alignment(p2.devPtr, "res.pitch2D.devPtr", call);
      const auto pitch_alignment = static_cast<std::size_t>(device_attribute(cudaDevAttrTexturePitchAlignment));
      if (p2.pitchInBytes % pitch_alignment != 0) {
        invalid(fmt::format("{}: res.pitch2D.pitchInBytes {} is not a multiple of the device's texturePitchAlignment, {} "
                            "bytes (cudaMallocPitch's pitches are)",
                            call, p2.pitchInBytes, pitch_alignment));
      }
      const std::size_t element = out.format.format.element_bytes;
      if (p2.width == 0 || p2.height == 0) invalid(fmt::format("{}: res.pitch2D is {} x {} texels: both must be at least 1", call, p2.width, p2.height));
      if (p2.width * element > p2.pitchInBytes) {
        invalid(fmt::format("{}: res.pitch2D rows of {} texels of {} bytes do not fit in pitchInBytes {}", call, p2.width,
                            element, p2.pitchInBytes));
      }
      const auto over = [&](const char* field, std::size_t value, cudaDeviceAttr attr, const char* limit_name) {
        const auto limit = static_cast<std::size_t>(device_attribute(attr));
        if (value > limit) {
          invalid(fmt::format("{}: res.pitch2D.{} {} is more than the device's {}, {}", call, field, value, limit_name, limit));
        }
      };
      over("width", p2.width, cudaDevAttrMaxTexture2DLinearWidth, "maxTexture2DLinear[0]");
      over("height", p2.height, cudaDevAttrMaxTexture2DLinearHeight, "maxTexture2DLinear[1]");
      over("pitchInBytes", p2.pitchInBytes, cudaDevAttrMaxTexture2DLinearPitch, "maxTexture2DLinear[2]");
      check_device_memory(p2.devPtr, p2.pitchInBytes * (p2.height - 1) + p2.width * element, "res.pitch2D.devPtr", call);
      out.level[0] = textures::Image{static_cast<unsigned char*>(p2.devPtr), static_cast<std::uint32_t>(p2.width),
                                     static_cast<std::uint32_t>(p2.height), 1, p2.pitchInBytes,
                                     p2.pitchInBytes * p2.height};
      break;
    }
    default:
      invalid(fmt::format("{}: resType {} is not a cudaResourceType", call, static_cast<int>(r.resType)));
  }
  return out;
}

// A view format's channels, as a channel format (block-compressed views are refused).
cudaChannelFormatDesc view_channels(cudaResourceViewFormat f, const char* call) {
  const int v = static_cast<int>(f);
  if (v >= cudaResViewFormatUnsignedChar1 && v <= cudaResViewFormatSignedInt4) {
    const int group = (v - 1) / 3;  // uchar, char, ushort, short, uint, int
    const int per = (v - 1) % 3;    // 1, 2 or 4 channels
    const int bits = 8 << (group / 2);
    const cudaChannelFormatKind kind = group % 2 == 0 ? cudaChannelFormatKindUnsigned : cudaChannelFormatKindSigned;
    return cudaChannelFormatDesc{bits, per >= 1 ? bits : 0, per == 2 ? bits : 0, per == 2 ? bits : 0, kind};
  }
  if (v >= cudaResViewFormatHalf1 && v <= cudaResViewFormatFloat4) {
    const int per = (v - cudaResViewFormatHalf1) % 3;
    const int bits = v >= cudaResViewFormatFloat1 ? 32 : 16;
    return cudaChannelFormatDesc{bits, per >= 1 ? bits : 0, per == 2 ? bits : 0, per == 2 ? bits : 0,
                                 cudaChannelFormatKindFloat};
  }
  if (v >= cudaResViewFormatUnsignedBlockCompressed1 && v <= cudaResViewFormatUnsignedBlockCompressed7) {
    throw Unsupported(fmt::format("{}: resource view format {:#x}: block-compressed views are not simulated", call, v));
  }
  invalid(fmt::format("{}: resource view format {:#x} is not a cudaResourceViewFormat", call, v));
}

// A resource view: another format of the same element size, a range of mip levels, a range of layers.
void apply_view(Resource& res, const cudaResourceDesc& r, const cudaResourceViewDesc& v, const char* call) {
  if (r.resType != cudaResourceTypeArray && r.resType != cudaResourceTypeMipmappedArray) {
    invalid(fmt::format("{}: a resource view needs an array or mipmapped array resource, not resType {}", call,
                        static_cast<int>(r.resType)));
  }
  if (v.format != cudaResViewFormatNone) {
    const ChannelFormat f = channel_format(view_channels(v.format, call), call);
    if (f.format.element_bytes != res.format.format.element_bytes) {
      throw Unsupported(fmt::format("{}: a view of format {:#x} ({}-byte elements) of an array of {}-byte elements", call,
                                    static_cast<int>(v.format), f.format.element_bytes, res.format.format.element_bytes));
    }
    res.format = f;
  }
  const textures::Image& base = res.level[0];
  const bool one_d = res.shape == Shape::one_d || res.shape == Shape::one_d_layered;
  const bool layered = res.shape == Shape::one_d_layered || res.shape == Shape::two_d_layered || res.shape == Shape::cubemap_layered;
  const std::size_t height = one_d ? 0 : base.height;
  const std::size_t depth = res.shape == Shape::three_d || layered || res.shape == Shape::cubemap ? base.depth : 0;
  if (v.width != base.width || v.height != height || v.depth != depth) {
    throw Unsupported(fmt::format("{}: a resource view of {} x {} x {} of an array of {} x {} x {}: views of part of an "
                                  "array are not simulated",
                                  call, v.width, v.height, v.depth, base.width, height, depth));
  }
  if (v.firstMipmapLevel > v.lastMipmapLevel || v.lastMipmapLevel >= res.levels) {
    invalid(fmt::format("{}: view levels [{}, {}] of a resource of {} level(s)", call, v.firstMipmapLevel,
                        v.lastMipmapLevel, res.levels));
  }
  const std::uint32_t slices_per_layer = res.shape == Shape::cubemap_layered ? 6 : 1;
  const std::uint32_t layers = layered ? base.depth / slices_per_layer : 1;
  if (v.firstLayer > v.lastLayer || v.lastLayer >= layers) {
    invalid(fmt::format("{}: view layers [{}, {}] of a resource of {} layer(s)", call, v.firstLayer, v.lastLayer, layers));
  }
  const std::uint32_t first = v.firstMipmapLevel, count = v.lastMipmapLevel - v.firstMipmapLevel + 1;
  for (std::uint32_t l = 0; l < count; ++l) {
    textures::Image im = res.level[first + l];
    if (layered) {
      im.data += static_cast<std::size_t>(v.firstLayer) * slices_per_layer * im.slice_pitch;
      im.depth = (v.lastLayer - v.firstLayer + 1) * slices_per_layer;
    }
    res.level[l] = im;
  }
  res.levels = count;
}

bool reads_float(const Resource& res, const cudaTextureDesc& t) {
  return res.format.format.kind == textures::ChannelKind::floating || res.format.normalized_kind ||
         t.readMode == cudaReadModeNormalizedFloat;
}

textures::TextureObject texture_object(const Resource& res, const cudaTextureDesc& t, const char* call) {
  for (int d = 0; d < 3; ++d) {
    if (t.addressMode[d] < cudaAddressModeWrap || t.addressMode[d] > cudaAddressModeBorder) {
      invalid(fmt::format("{}: addressMode[{}] {} is not a cudaTextureAddressMode", call, d, static_cast<int>(t.addressMode[d])));
    }
  }
  if (t.filterMode != cudaFilterModePoint && t.filterMode != cudaFilterModeLinear) {
    invalid(fmt::format("{}: filterMode {} is not a cudaTextureFilterMode", call, static_cast<int>(t.filterMode)));
  }
  if (t.mipmapFilterMode != cudaFilterModePoint && t.mipmapFilterMode != cudaFilterModeLinear) {
    invalid(fmt::format("{}: mipmapFilterMode {} is not a cudaTextureFilterMode", call, static_cast<int>(t.mipmapFilterMode)));
  }
  if (t.readMode != cudaReadModeElementType && t.readMode != cudaReadModeNormalizedFloat) {
    invalid(fmt::format("{}: readMode {} is not a cudaTextureReadMode", call, static_cast<int>(t.readMode)));
  }
  const textures::Format& f = res.format.format;
  if (t.readMode == cudaReadModeNormalizedFloat && f.kind != textures::ChannelKind::floating && f.bits == 32) {
    throw ApiError(cudaErrorInvalidNormSetting,
                   fmt::format("{}: cudaReadModeNormalizedFloat of 32-bit integer channels: only 8- and 16-bit "
                               "integers read as normalized floats",
                               call));
  }
  // Linear filtering blends floats: a float format, or integers read as normalized floats. tex1Dfetch
  // never filters, so linear memory takes any mode (and ignores it).
  const bool floats = reads_float(res, t);
  if (res.shape != Shape::linear && !floats && t.filterMode == cudaFilterModeLinear) {
    throw ApiError(cudaErrorInvalidFilterSetting,
                   fmt::format("{}: cudaFilterModeLinear of {}-bit integer channels read with cudaReadModeElementType: "
                               "linear filtering needs float channels or cudaReadModeNormalizedFloat",
                               call, static_cast<int>(f.bits)));
  }
  if (res.mipmapped && !floats && t.mipmapFilterMode == cudaFilterModeLinear) {
    throw ApiError(cudaErrorInvalidFilterSetting,
                   fmt::format("{}: mipmapFilterMode cudaFilterModeLinear of integer channels read with "
                               "cudaReadModeElementType: blending levels needs float results",
                               call));
  }
  const bool cubemap = res.shape == Shape::cubemap || res.shape == Shape::cubemap_layered;
  if (cubemap && t.seamlessCubemap != 0 && t.filterMode == cudaFilterModeLinear) {
    throw Unsupported(fmt::format("{}: seamlessCubemap with linear filtering (filtering across cubemap faces) is not "
                                  "simulated; faces are filtered with clamp to their edges when seamlessCubemap is 0",
                                  call));
  }
  if (res.mipmapped && t.normalizedCoords == 0 && !cubemap) {
    throw Unsupported(fmt::format("{}: a mipmapped texture with unnormalized coordinates (normalizedCoords 0) is not "
                                  "simulated: set normalizedCoords to 1",
                                  call));
  }
  textures::TextureObject o{};
  o.magic = textures::texture_object_magic;
  o.shape = res.shape;
  o.format = f;
  o.gather = res.gather ? 1 : 0;
  for (int d = 0; d < 3; ++d) o.address_mode[d] = static_cast<std::uint8_t>(t.addressMode[d]);
  o.filter_mode = static_cast<std::uint8_t>(t.filterMode);
  o.read_mode = static_cast<std::uint8_t>(res.format.normalized_kind ? cudaReadModeNormalizedFloat : t.readMode);
  o.normalized_coords = cubemap || t.normalizedCoords != 0 ? 1 : 0;
  o.srgb = t.sRGB != 0 ? 1 : 0;
  o.mipmap_filter_mode = static_cast<std::uint8_t>(t.mipmapFilterMode);
  o.max_anisotropy = std::clamp(t.maxAnisotropy, 1u, 16u);  // as CUDA clamps it
  for (int c = 0; c < 4; ++c) o.border[c] = t.borderColor[c];
  o.level_bias = t.mipmapLevelBias;
  o.min_level_clamp = t.minMipmapLevelClamp;
  o.max_level_clamp = t.maxMipmapLevelClamp;
  o.levels = res.levels;
  for (std::uint32_t l = 0; l < res.levels; ++l) o.level[l] = res.level[l];
  return o;
}

unsigned long long checked_handle(std::map<unsigned long long, TextureRecord>& all, unsigned long long h, const char* call) {
  if (all.count(h) == 0) {
    invalid(fmt::format("{}: {:#x} is not a texture object cudaCreateTextureObject returned (or it was destroyed)", call, h));
  }
  return h;
}

}  // namespace

}  // namespace gpulab::sim::cuda::detail

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* pTexObject, const cudaResourceDesc* pResDesc,
                                    const cudaTextureDesc* pTexDesc, const cudaResourceViewDesc* pResViewDesc) {
  constexpr const char* call = "cudaCreateTextureObject";
  return api_call(call, [&] {
    require(pTexObject != nullptr && pResDesc != nullptr && pTexDesc != nullptr, "pTexObject, pResDesc or pTexDesc is null");
    Resource res = resource_of(*pResDesc, call);
    if (pResViewDesc != nullptr) apply_view(res, *pResDesc, *pResViewDesc, call);
    const auto handle = upload(texture_object(res, *pTexDesc, call));
    ObjectRegistry& r = objects();
    std::lock_guard lock(r.mutex);
    r.textures[handle] = TextureRecord{*pResDesc, *pTexDesc, pResViewDesc != nullptr ? *pResViewDesc : cudaResourceViewDesc{},
                                       pResViewDesc != nullptr};
    *pTexObject = handle;
  });
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  constexpr const char* call = "cudaDestroyTextureObject";
  return api_call(call, [&] {
    if (texObject == 0) return;
    {
      ObjectRegistry& r = objects();
      std::lock_guard lock(r.mutex);
      r.textures.erase(checked_handle(r.textures, texObject, call));
    }
    retire(texObject);
  });
}

cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* pResDesc, cudaTextureObject_t texObject) {
  constexpr const char* call = "cudaGetTextureObjectResourceDesc";
  return api_call(call, [&] {
    require(pResDesc != nullptr, "pResDesc is null");
    ObjectRegistry& r = objects();
    std::lock_guard lock(r.mutex);
    *pResDesc = r.textures[checked_handle(r.textures, texObject, call)].resource;
  });
}

cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* pTexDesc, cudaTextureObject_t texObject) {
  constexpr const char* call = "cudaGetTextureObjectTextureDesc";
  return api_call(call, [&] {
    require(pTexDesc != nullptr, "pTexDesc is null");
    ObjectRegistry& r = objects();
    std::lock_guard lock(r.mutex);
    *pTexDesc = r.textures[checked_handle(r.textures, texObject, call)].texture;
  });
}

cudaError_t cudaGetTextureObjectResourceViewDesc(cudaResourceViewDesc* pResViewDesc, cudaTextureObject_t texObject) {
  constexpr const char* call = "cudaGetTextureObjectResourceViewDesc";
  return api_call(call, [&] {
    require(pResViewDesc != nullptr, "pResViewDesc is null");
    ObjectRegistry& r = objects();
    std::lock_guard lock(r.mutex);
    const TextureRecord& t = r.textures[checked_handle(r.textures, texObject, call)];
    if (!t.has_view) {
      invalid(fmt::format("{}: texture object {:#x} was created without a resource view", call, texObject));
    }
    *pResViewDesc = t.view;
  });
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject, const cudaResourceDesc* pResDesc) {
  constexpr const char* call = "cudaCreateSurfaceObject";
  return api_call(call, [&] {
    require(pSurfObject != nullptr && pResDesc != nullptr, "pSurfObject or pResDesc is null");
    if (pResDesc->resType != cudaResourceTypeArray) {
      invalid(fmt::format("{}: resType {} is not cudaResourceTypeArray: a surface is a CUDA array (a level of a "
                          "mipmapped array is one: cudaGetMipmappedArrayLevel)",
                          call, static_cast<int>(pResDesc->resType)));
    }
    if (pResDesc->flags != 0) invalid(fmt::format("{}: cudaResourceDesc::flags is {:#x}; it must be 0", call, pResDesc->flags));
    const cudaArray* a = checked_array(pResDesc->res.array.array, call);
    if ((a->flags & cudaArraySurfaceLoadStore) == 0) {
      invalid(fmt::format("{}: array {} was made without cudaArraySurfaceLoadStore (its flags are {:#x}): only such "
                          "arrays can be surfaces",
                          call, static_cast<const void*>(a), a->flags));
    }
    gpulab::sim::textures::SurfaceObject s{};
    s.magic = gpulab::sim::textures::surface_object_magic;
    s.shape = a->shape;
    s.format = a->format;
    s.image = image_of(*a);
    const auto handle = upload(s);
    ObjectRegistry& r = objects();
    std::lock_guard lock(r.mutex);
    r.surfaces[handle] = *pResDesc;
    *pSurfObject = handle;
  });
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  constexpr const char* call = "cudaDestroySurfaceObject";
  return api_call(call, [&] {
    if (surfObject == 0) return;
    {
      ObjectRegistry& r = objects();
      std::lock_guard lock(r.mutex);
      if (r.surfaces.erase(surfObject) == 0) {
        invalid(fmt::format("{}: {:#x} is not a surface object cudaCreateSurfaceObject returned (or it was destroyed)",
                            call, surfObject));
      }
    }
    retire(surfObject);
  });
}

cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* pResDesc, cudaSurfaceObject_t surfObject) {
  constexpr const char* call = "cudaGetSurfaceObjectResourceDesc";
  return api_call(call, [&] {
    require(pResDesc != nullptr, "pResDesc is null");
    ObjectRegistry& r = objects();
    std::lock_guard lock(r.mutex);
    const auto it = r.surfaces.find(surfObject);
    if (it == r.surfaces.end()) {
      invalid(fmt::format("{}: {:#x} is not a surface object cudaCreateSurfaceObject returned (or it was destroyed)", call,
                          surfObject));
    }
    *pResDesc = it->second;
  });
}

// ---- texture references (cuda_texture_types.h) -----------------------------------------------------------------
// Binding makes a texture object of the reference's settings and resource, kept in the reference;
// rebinding or unbinding destroys the previous one. Offsets are 0: a texture object reads from any
// address the runtime accepts, so nothing is rounded down to an alignment.

namespace {

cudaTextureDesc texture_desc_of(const textureReference& ref) {
  cudaTextureDesc d{};
  for (int i = 0; i < 3; ++i) d.addressMode[i] = ref.addressMode[i];
  d.filterMode = ref.filterMode;
  d.readMode = ref.gpulabReadMode;
  d.sRGB = ref.sRGB;
  d.normalizedCoords = ref.normalized;
  d.maxAnisotropy = ref.maxAnisotropy;
  d.mipmapFilterMode = ref.mipmapFilterMode;
  d.mipmapLevelBias = ref.mipmapLevelBias;
  d.minMipmapLevelClamp = ref.minMipmapLevelClamp;
  d.maxMipmapLevelClamp = ref.maxMipmapLevelClamp;
  d.disableTrilinearOptimization = ref.disableTrilinearOptimization;
  return d;
}

// Binds `texref` to `resource` (its previous binding released); the reference is the program's
// variable, which CUDA's API passes as const although binding changes it.
cudaError_t bind_reference(const char* call, std::size_t* offset, const textureReference* texref,
                           const cudaResourceDesc& resource) {
  note_once(call, "belongs to the texture reference API, which CUDA 12 removed; the simulator keeps it");
  if (texref == nullptr) {
    return api_call(call, [] { throw ApiError(cudaErrorInvalidTexture, "texref is null"); });
  }
  auto* ref = const_cast<textureReference*>(texref);
  if (ref->gpulabObject != 0) {
    const cudaError_t err = cudaDestroyTextureObject(ref->gpulabObject);
    ref->gpulabObject = 0;
    if (err != cudaSuccess) return err;
  }
  const cudaTextureDesc desc = texture_desc_of(*ref);
  cudaTextureObject_t object = 0;
  const cudaError_t err = cudaCreateTextureObject(&object, &resource, &desc, nullptr);
  if (err != cudaSuccess) return err;
  ref->gpulabObject = object;
  if (offset != nullptr) *offset = 0;
  return cudaSuccess;
}

}  // namespace

cudaError_t cudaBindTexture(std::size_t* offset, const textureReference* texref, const void* devPtr,
                            const cudaChannelFormatDesc* desc, std::size_t size) {
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = const_cast<void*>(devPtr);
  r.res.linear.desc = desc != nullptr ? *desc : (texref != nullptr ? texref->channelDesc : cudaChannelFormatDesc{});
  if (size == ~std::size_t{0}) {
    // CUDA's default size, "all of it": the rest of the allocation devPtr points into.
    std::uintptr_t begin = 0;
    const DeviceAllocation* a = state().allocation_of(devPtr, &begin);
    size = a == nullptr ? 0 : a->bytes - (reinterpret_cast<std::uintptr_t>(devPtr) - begin);
  }
  r.res.linear.sizeInBytes = size;
  return bind_reference("cudaBindTexture", offset, texref, r);
}

cudaError_t cudaBindTexture2D(std::size_t* offset, const textureReference* texref, const void* devPtr,
                              const cudaChannelFormatDesc* desc, std::size_t width, std::size_t height,
                              std::size_t pitch) {
  cudaResourceDesc r{};
  r.resType = cudaResourceTypePitch2D;
  r.res.pitch2D.devPtr = const_cast<void*>(devPtr);
  r.res.pitch2D.desc = desc != nullptr ? *desc : (texref != nullptr ? texref->channelDesc : cudaChannelFormatDesc{});
  r.res.pitch2D.width = width;
  r.res.pitch2D.height = height;
  r.res.pitch2D.pitchInBytes = pitch;
  return bind_reference("cudaBindTexture2D", offset, texref, r);
}

cudaError_t cudaBindTextureToArray(const textureReference* texref, cudaArray_const_t array,
                                   const cudaChannelFormatDesc*) {
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = const_cast<cudaArray_t>(array);
  return bind_reference("cudaBindTextureToArray", nullptr, texref, r);
}

cudaError_t cudaUnbindTexture(const textureReference* texref) {
  note_once("cudaUnbindTexture", "belongs to the texture reference API, which CUDA 12 removed; the simulator keeps it");
  if (texref == nullptr) return api_call("cudaUnbindTexture", [] { throw ApiError(cudaErrorInvalidTexture, "texref is null"); });
  auto* ref = const_cast<textureReference*>(texref);
  const cudaTextureObject_t object = std::exchange(ref->gpulabObject, 0);
  return object == 0 ? cudaSuccess : cudaDestroyTextureObject(object);
}

cudaError_t cudaGetTextureAlignmentOffset(std::size_t* offset, const textureReference* texref) {
  return api_call("cudaGetTextureAlignmentOffset", [&] {
    require(offset != nullptr, "offset is null");
    if (texref == nullptr || texref->gpulabObject == 0) {
      throw ApiError(cudaErrorInvalidTextureBinding, "the texture reference is not bound");
    }
    *offset = 0;
  });
}
