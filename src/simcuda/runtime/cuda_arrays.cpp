// CUDA arrays for gpulab-simcc programs: channel formats, 1-D, 2-D, 3-D, layered and cubemap arrays,
// mipmapped arrays (each level an array of its own), and the copies to, from and between them. Copies
// are ordered on their stream as memory.cpp's are, and are recorded as memcpy nodes when the stream
// is capturing (a graph runs them through cudaMemcpy3DAsync).
#include "simcuda/runtime/cuda_arrays.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>
#include <set>
#include <string>

#include <fmt/format.h>

#include <gpulab/array.hpp>

#include "runtime/backend.hpp"
#include "simcuda/runtime/runtime_state.hpp"
#include "simcuda/runtime/stream_capture.hpp"

namespace gpulab::sim::cuda::detail {

namespace textures = gpulab::sim::textures;
using textures::ChannelKind;
using textures::Shape;

namespace {

// The arrays and mipmapped arrays made and not freed.
struct ArrayRegistry {
  std::mutex mutex;
  std::set<const cudaArray*> arrays;
  std::set<const cudaMipmappedArray*> mipmaps;
};

ArrayRegistry& registry() {
  static auto* r = new ArrayRegistry;  // never destroyed: programs free arrays from exit handlers too
  return *r;
}

const char* kind_name(cudaChannelFormatKind kind) {
  switch (kind) {
    case cudaChannelFormatKindSigned: return "cudaChannelFormatKindSigned";
    case cudaChannelFormatKindUnsigned: return "cudaChannelFormatKindUnsigned";
    case cudaChannelFormatKindFloat: return "cudaChannelFormatKindFloat";
    case cudaChannelFormatKindNone: return "cudaChannelFormatKindNone";
    case cudaChannelFormatKindNV12: return "cudaChannelFormatKindNV12";
    default: return "this cudaChannelFormatKind";
  }
}

// The normalized kinds: their channel count and width, and signedness.
struct NormalizedKind {
  cudaChannelFormatKind kind;
  int channels, bits;
  bool is_signed;
};
constexpr NormalizedKind normalized_kinds[] = {
    {cudaChannelFormatKindUnsignedNormalized8X1, 1, 8, false}, {cudaChannelFormatKindUnsignedNormalized8X2, 2, 8, false},
    {cudaChannelFormatKindUnsignedNormalized8X4, 4, 8, false}, {cudaChannelFormatKindUnsignedNormalized16X1, 1, 16, false},
    {cudaChannelFormatKindUnsignedNormalized16X2, 2, 16, false}, {cudaChannelFormatKindUnsignedNormalized16X4, 4, 16, false},
    {cudaChannelFormatKindSignedNormalized8X1, 1, 8, true},    {cudaChannelFormatKindSignedNormalized8X2, 2, 8, true},
    {cudaChannelFormatKindSignedNormalized8X4, 4, 8, true},    {cudaChannelFormatKindSignedNormalized16X1, 1, 16, true},
    {cudaChannelFormatKindSignedNormalized16X2, 2, 16, true},  {cudaChannelFormatKindSignedNormalized16X4, 4, 16, true},
};

[[noreturn]] void bad_channels(const cudaChannelFormatDesc& d, const char* call, const std::string& why) {
  throw ApiError(cudaErrorInvalidChannelDescriptor,
                 fmt::format("{}: channel format {{{}, {}, {}, {}, {}}}: {}", call, d.x, d.y, d.z, d.w, kind_name(d.f), why));
}

}  // namespace

ChannelFormat channel_format(const cudaChannelFormatDesc& d, const char* call) {
  const int widths[4] = {d.x, d.y, d.z, d.w};
  int channels = 0;
  while (channels < 4 && widths[channels] != 0) ++channels;
  for (int c = channels; c < 4; ++c) {
    if (widths[c] != 0) bad_channels(d, call, "channels must be used in order x, y, z, w (a channel of 0 bits ends them)");
  }
  if (channels == 0 && d.f != cudaChannelFormatKindNone) bad_channels(d, call, "no channel has any bits");
  for (int c = 1; c < channels; ++c) {
    if (widths[c] != widths[0]) bad_channels(d, call, "the channels of a CUDA array are all of one width");
  }
  const int bits = widths[0];
  ChannelFormat out{};
  switch (d.f) {
    case cudaChannelFormatKindSigned:
    case cudaChannelFormatKindUnsigned:
      if (bits != 8 && bits != 16 && bits != 32) bad_channels(d, call, "integer channels are 8, 16 or 32 bits wide");
      out.format.kind = d.f == cudaChannelFormatKindSigned ? ChannelKind::signed_int : ChannelKind::unsigned_int;
      break;
    case cudaChannelFormatKindFloat:
      if (bits != 16 && bits != 32) bad_channels(d, call, "float channels are 16 (half) or 32 bits wide");
      out.format.kind = ChannelKind::floating;
      break;
    case cudaChannelFormatKindNone:
      bad_channels(d, call,
                   "cudaChannelFormatKindNone is no format (cudaCreateChannelDesc<T>() gives it for a type no CUDA "
                   "array can hold)");
    default: {
      const auto* n = std::find_if(std::begin(normalized_kinds), std::end(normalized_kinds),
                                   [&](const NormalizedKind& k) { return k.kind == d.f; });
      if (n == std::end(normalized_kinds)) {
        if (d.f > cudaChannelFormatKindUnsignedNormalized1010102 || d.f < cudaChannelFormatKindSigned) {
          bad_channels(d, call, fmt::format("{} is not a cudaChannelFormatKind", static_cast<int>(d.f)));
        }
        throw Unsupported(fmt::format("{}: channel format kind {} (block-compressed, NV12 and 10-10-10-2 formats are "
                                      "not simulated; use 8-, 16- or 32-bit channels)",
                                      call, static_cast<int>(d.f)));
      }
      if (channels != n->channels || bits != n->bits) {
        bad_channels(d, call, fmt::format("this normalized kind has {} channels of {} bits", n->channels, n->bits));
      }
      out.format.kind = n->is_signed ? ChannelKind::signed_int : ChannelKind::unsigned_int;
      out.normalized_kind = true;
    }
  }
  if (channels == 3) bad_channels(d, call, "CUDA arrays have 1, 2 or 4 channels, not 3");
  out.format.channels = static_cast<std::uint8_t>(channels);
  out.format.bits = static_cast<std::uint8_t>(bits);
  out.format.element_bytes = static_cast<std::uint8_t>(channels * bits / 8);
  return out;
}

cudaArray* checked_array(cudaArray_const_t array, const char* call) {
  ArrayRegistry& r = registry();
  std::lock_guard lock(r.mutex);
  if (array == nullptr || r.arrays.count(array) == 0) {
    throw ApiError(cudaErrorInvalidResourceHandle,
                   fmt::format("{}: {} is not a CUDA array (cudaMallocArray, cudaMalloc3DArray and "
                               "cudaGetMipmappedArrayLevel make them), or it was freed",
                               call, static_cast<const void*>(array)));
  }
  return const_cast<cudaArray*>(array);
}

cudaMipmappedArray* checked_mipmapped_array(cudaMipmappedArray_const_t mipmap, const char* call) {
  ArrayRegistry& r = registry();
  std::lock_guard lock(r.mutex);
  if (mipmap == nullptr || r.mipmaps.count(mipmap) == 0) {
    throw ApiError(cudaErrorInvalidResourceHandle,
                   fmt::format("{}: {} is not a mipmapped array cudaMallocMipmappedArray made, or it was freed", call,
                               static_cast<const void*>(mipmap)));
  }
  return const_cast<cudaMipmappedArray*>(mipmap);
}

textures::Image image_of(const cudaArray& a) {
  return textures::Image{a.data,
                         static_cast<std::uint32_t>(a.width),
                         static_cast<std::uint32_t>(a.rows),
                         static_cast<std::uint32_t>(a.slices),
                         a.row_bytes(),
                         a.slice_bytes()};
}

int device_attribute(cudaDeviceAttr attr) {
  int value = 0;
  if (cudaDeviceGetAttribute(&value, attr, 0) != cudaSuccess) {
    throw ApiError(cudaErrorUnknown, fmt::format("internal: cudaDeviceGetAttribute({}) failed", static_cast<int>(attr)));
  }
  return value;
}

namespace {

// The largest extent an array of this kind may have, as the device reports its texture and surface
// limits (CUDA checks a surface-capable array against both).
struct ExtentLimit {
  const char* what;  // the array's kind, for messages
  int width, height, depth;  // 0: the dimension is not the kind's
  const char* property;  // the cudaDeviceProp field the limits are
};

ExtentLimit limit_for(Shape shape, unsigned flags, bool mipmapped) {
  const bool surface = (flags & cudaArraySurfaceLoadStore) != 0;
  const auto a = [](cudaDeviceAttr attr) { return device_attribute(attr); };
  const auto low = [&](cudaDeviceAttr tex, cudaDeviceAttr surf) { return surface ? std::min(a(tex), a(surf)) : a(tex); };
  switch (shape) {
    case Shape::one_d:
      if (mipmapped) return {"1-D mipmapped array", a(cudaDevAttrMaxTexture1DMipmappedWidth), 0, 0, "maxTexture1DMipmap"};
      return {"1-D array", low(cudaDevAttrMaxTexture1DWidth, cudaDevAttrMaxSurface1DWidth), 0, 0,
              surface ? "maxTexture1D and maxSurface1D" : "maxTexture1D"};
    case Shape::two_d:
      if (mipmapped) {
        return {"2-D mipmapped array", a(cudaDevAttrMaxTexture2DMipmappedWidth), a(cudaDevAttrMaxTexture2DMipmappedHeight),
                0, "maxTexture2DMipmap"};
      }
      if ((flags & cudaArrayTextureGather) != 0) {
        return {"2-D gather array", a(cudaDevAttrMaxTexture2DGatherWidth), a(cudaDevAttrMaxTexture2DGatherHeight), 0,
                "maxTexture2DGather"};
      }
      return {"2-D array", low(cudaDevAttrMaxTexture2DWidth, cudaDevAttrMaxSurface2DWidth),
              low(cudaDevAttrMaxTexture2DHeight, cudaDevAttrMaxSurface2DHeight), 0,
              surface ? "maxTexture2D and maxSurface2D" : "maxTexture2D"};
    case Shape::three_d:
      return {"3-D array", low(cudaDevAttrMaxTexture3DWidth, cudaDevAttrMaxSurface3DWidth),
              low(cudaDevAttrMaxTexture3DHeight, cudaDevAttrMaxSurface3DHeight),
              low(cudaDevAttrMaxTexture3DDepth, cudaDevAttrMaxSurface3DDepth),
              surface ? "maxTexture3D and maxSurface3D" : "maxTexture3D"};
    case Shape::one_d_layered:
      return {"1-D layered array", low(cudaDevAttrMaxTexture1DLayeredWidth, cudaDevAttrMaxSurface1DLayeredWidth), 0,
              low(cudaDevAttrMaxTexture1DLayeredLayers, cudaDevAttrMaxSurface1DLayeredLayers),
              surface ? "maxTexture1DLayered and maxSurface1DLayered" : "maxTexture1DLayered"};
    case Shape::two_d_layered:
      return {"2-D layered array", low(cudaDevAttrMaxTexture2DLayeredWidth, cudaDevAttrMaxSurface2DLayeredWidth),
              low(cudaDevAttrMaxTexture2DLayeredHeight, cudaDevAttrMaxSurface2DLayeredHeight),
              low(cudaDevAttrMaxTexture2DLayeredLayers, cudaDevAttrMaxSurface2DLayeredLayers),
              surface ? "maxTexture2DLayered and maxSurface2DLayered" : "maxTexture2DLayered"};
    case Shape::cubemap:
      return {"cubemap array", low(cudaDevAttrMaxTextureCubemapWidth, cudaDevAttrMaxSurfaceCubemapWidth), 0, 0,
              surface ? "maxTextureCubemap and maxSurfaceCubemap" : "maxTextureCubemap"};
    case Shape::cubemap_layered:
      return {"layered cubemap array",
              low(cudaDevAttrMaxTextureCubemapLayeredWidth, cudaDevAttrMaxSurfaceCubemapLayeredWidth), 0,
              low(cudaDevAttrMaxTextureCubemapLayeredLayers, cudaDevAttrMaxSurfaceCubemapLayeredLayers),
              surface ? "maxTextureCubemapLayered and maxSurfaceCubemapLayered" : "maxTextureCubemapLayered"};
    case Shape::linear: break;
  }
  return {"array", 0, 0, 0, ""};
}

std::string extent_text(cudaExtent e) { return fmt::format("{} x {} x {}", e.width, e.height, e.depth); }

// The kind of array an extent and flags make, checked as cudaMalloc3DArray checks them.
Shape shape_of(cudaExtent e, unsigned flags, const char* call) {
  constexpr unsigned known = cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap | cudaArrayTextureGather;
  if ((flags & (cudaArraySparse | cudaArrayDeferredMapping | cudaArrayColorAttachment)) != 0) {
    throw Unsupported(fmt::format("{}: flags {:#x}: sparse, deferred-mapping and color-attachment arrays are not simulated",
                                  call, flags));
  }
  if ((flags & ~known) != 0) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: flags {:#x} has bits no array flag has ({:#x})", call, flags,
                                                      flags & ~known));
  }
  const auto invalid = [&](const std::string& why) {
    return ApiError(cudaErrorInvalidValue, fmt::format("{}: extent {}, flags {:#x}: {}", call, extent_text(e), flags, why));
  };
  if (e.width == 0) throw invalid("the width must be at least 1");
  Shape shape;
  if ((flags & cudaArrayCubemap) != 0) {
    if (e.width != e.height) throw invalid("a cubemap's faces are square: width and height must be equal");
    if ((flags & cudaArrayLayered) != 0) {
      if (e.depth == 0 || e.depth % 6 != 0) throw invalid("a layered cubemap's depth is 6 faces a layer: a multiple of 6");
      shape = Shape::cubemap_layered;
    } else {
      if (e.depth != 6) throw invalid("a cubemap's depth is its 6 faces");
      shape = Shape::cubemap;
    }
  } else if ((flags & cudaArrayLayered) != 0) {
    if (e.depth == 0) throw invalid("a layered array's depth is its number of layers, at least 1");
    shape = e.height == 0 ? Shape::one_d_layered : Shape::two_d_layered;
  } else if (e.height == 0) {
    if (e.depth != 0) throw invalid("an array with height 0 is 1-D, and its depth must be 0 too");
    shape = Shape::one_d;
  } else {
    shape = e.depth == 0 ? Shape::two_d : Shape::three_d;
  }
  if ((flags & cudaArrayTextureGather) != 0 && shape != Shape::two_d) {
    throw invalid("cudaArrayTextureGather is for 2-D arrays only");
  }
  return shape;
}

void check_limits(Shape shape, cudaExtent e, unsigned flags, bool mipmapped, const char* call) {
  const ExtentLimit lim = limit_for(shape, flags, mipmapped);
  const auto over = [&](const char* dimension, std::size_t value, int limit) {
    if (limit > 0 && value > static_cast<std::size_t>(limit)) {
      throw ApiError(cudaErrorInvalidValue,
                     fmt::format("{}: a {} of extent {}: its {} {} is more than the device's limit {} ({})", call, lim.what,
                                 extent_text(e), dimension, value, limit, lim.property));
    }
  };
  over("width", e.width, lim.width);
  over("height", e.height, lim.height);
  const bool layers = shape == Shape::one_d_layered || shape == Shape::two_d_layered || shape == Shape::cubemap_layered;
  over(layers ? "depth (layers)" : "depth", e.depth, lim.depth);
}

// Makes (validates, allocates, registers) one array.
cudaArray* make_array(const cudaChannelFormatDesc& desc, cudaExtent e, unsigned flags, bool mipmapped,
                      cudaMipmappedArray* owner, const char* call) {
  const ChannelFormat f = channel_format(desc, call);
  const Shape shape = shape_of(e, flags, call);
  check_limits(shape, e, flags, mipmapped, call);
  auto a = std::make_unique<cudaArray>();
  a->desc = desc;
  a->extent = e;
  a->flags = flags;
  a->shape = shape;
  a->format = f.format;
  a->width = e.width;
  a->rows = shape == Shape::one_d || shape == Shape::one_d_layered ? 1 : e.height;
  a->slices = std::max<std::size_t>(e.depth, 1);
  a->mipmap = owner;
  const std::size_t bytes = a->slice_bytes() * a->slices;
  a->data = static_cast<unsigned char*>(
      gpulab::detail::backend_for(gpulab::DeviceKind::sim).allocate(0, std::max<std::size_t>(bytes, 1)));
  ArrayRegistry& r = registry();
  std::lock_guard lock(r.mutex);
  r.arrays.insert(a.get());
  return a.release();
}

// Unregisters and frees arrays, after the device is idle (a kernel still running may read them).
void free_arrays(const std::vector<cudaArray*>& arrays) {
  {
    ArrayRegistry& r = registry();
    std::lock_guard lock(r.mutex);
    for (cudaArray* a : arrays) r.arrays.erase(a);
  }
  std::exception_ptr fault;
  try {
    gpulab::detail::backend_for(gpulab::DeviceKind::sim).synchronize_device(0);
  } catch (...) {
    fault = std::current_exception();
  }
  for (cudaArray* a : arrays) {
    gpulab::detail::backend_for(gpulab::DeviceKind::sim).deallocate(0, a->data);
    delete a;
  }
  if (fault) std::rethrow_exception(fault);
}

// ---- copies -------------------------------------------------------------------------------------------------

// One end of a copy: an array, or pitched memory (the host's or the device's).
struct CopyEnd {
  cudaArray* array = nullptr;
  unsigned char* ptr = nullptr;
  std::size_t pitch = 0;           // bytes from one row of memory to the next
  std::size_t rows_per_slice = 1;  // rows of memory from one slice to the next
  std::size_t x = 0, y = 0, z = 0;  // where the copy starts: x in bytes
};

CopyEnd array_end(cudaArray_const_t array, std::size_t x_bytes, std::size_t y, std::size_t z, const char* call) {
  CopyEnd e;
  e.array = checked_array(array, call);
  e.x = x_bytes, e.y = y, e.z = z;
  return e;
}

CopyEnd memory_end(const void* ptr, std::size_t pitch, std::size_t rows_per_slice, std::size_t x, std::size_t y,
                   std::size_t z) {
  CopyEnd e;
  e.ptr = static_cast<unsigned char*>(const_cast<void*>(ptr));
  e.pitch = pitch, e.rows_per_slice = std::max<std::size_t>(rows_per_slice, 1);
  e.x = x, e.y = y, e.z = z;
  return e;
}

// The first byte of row `row` of slice `slice` of the copy at one end.
unsigned char* row_address(const CopyEnd& e, std::size_t row, std::size_t slice) {
  if (e.array != nullptr) {
    return e.array->data + (e.z + slice) * e.array->slice_bytes() + (e.y + row) * e.array->row_bytes() + e.x;
  }
  return e.ptr + ((e.z + slice) * e.rows_per_slice + e.y + row) * e.pitch + e.x;
}

void check_array_end(const CopyEnd& e, std::size_t width, std::size_t height, std::size_t depth, const char* side,
                     const char* call) {
  const cudaArray& a = *e.array;
  const std::size_t element = a.format.element_bytes;
  if (e.x % element != 0 || width % element != 0) {
    throw ApiError(cudaErrorInvalidValue,
                   fmt::format("{}: the {} array's elements are {} bytes: the copy's x offset {} and width {} (in bytes) "
                               "must be whole elements",
                               call, side, element, e.x, width));
  }
  if (e.x + width > a.row_bytes()) {
    throw ApiError(cudaErrorInvalidValue,
                   fmt::format("{}: bytes [{}, {}) of each row run past the {} array's rows of {} bytes ({} elements of {} bytes)",
                               call, e.x, e.x + width, side, a.row_bytes(), a.width, element));
  }
  if (e.y + height > a.rows) {
    throw ApiError(cudaErrorInvalidValue,
                   fmt::format("{}: rows [{}, {}) run past the {} array's {} rows", call, e.y, e.y + height, side, a.rows));
  }
  if (e.z + depth > a.slices) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: slices [{}, {}) run past the {} array's {} slices (depth, layers "
                                                      "or faces)",
                                                      call, e.z, e.z + depth, side, a.slices));
  }
}

void check_kind(const CopyEnd& dst, const CopyEnd& src, cudaMemcpyKind kind, const char* call) {
  const auto refuse = [&](const char* why) {
    throw ApiError(cudaErrorInvalidMemcpyDirection,
                   fmt::format("{}: cudaMemcpyKind {} {}", call, static_cast<int>(kind), why));
  };
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) refuse("is not a cudaMemcpyKind");
  if (kind == cudaMemcpyDefault || kind == cudaMemcpyDeviceToDevice) return;
  if (kind == cudaMemcpyHostToHost) refuse("(host to host) cannot copy to or from a CUDA array, which is device memory");
  if (dst.array != nullptr && src.array != nullptr) refuse("cannot copy between two arrays (use cudaMemcpyDeviceToDevice)");
  if (dst.array != nullptr && kind != cudaMemcpyHostToDevice) refuse("(device to host) cannot copy into an array");
  if (src.array != nullptr && kind != cudaMemcpyDeviceToHost) refuse("(host to device) cannot copy out of an array");
}

// Copies `depth` slices of `height` rows of `width` bytes between two ends, on `stream`.
void copy_region(const CopyEnd& dst, const CopyEnd& src, std::size_t width, std::size_t height, std::size_t depth,
                 cudaMemcpyKind kind, cudaStream_t stream, const char* call) {
  check_kind(dst, src, kind, call);
  if (width == 0 || height == 0 || depth == 0) return;
  for (const CopyEnd* e : {&dst, &src}) {
    const char* side = e == &dst ? "destination" : "source";
    if (e->array != nullptr) {
      check_array_end(*e, width, height, depth, side, call);
    } else {
      if (e->ptr == nullptr) throw ApiError(cudaErrorInvalidValue, fmt::format("{}: the {} pointer is null", call, side));
      if (e->x + width > e->pitch) {
        throw ApiError(cudaErrorInvalidPitchValue,
                       fmt::format("{}: x + width ({} + {} bytes) is more than the {} pitch, {} bytes", call, e->x, width,
                                   side, e->pitch));
      }
    }
  }
  const MemorySpace device = state().device().space();
  // The memory a pointer end's run is in: the device's for memory the program allocated from CUDA
  // (bounds-checked), the host's otherwise.
  const auto space_of = [&](const CopyEnd& e, const unsigned char* p, std::size_t bytes) {
    if (e.array != nullptr) return device;
    const bool on_device = state().device_range(p, bytes, call) != nullptr;
    if (!on_device && kind == cudaMemcpyDeviceToDevice) {
      throw ApiError(cudaErrorInvalidValue, fmt::format("{}: cudaMemcpyDeviceToDevice with {}, which is not device memory",
                                                        call, static_cast<const void*>(p)));
    }
    return on_device ? device : host_space;
  };
  const Stream s = state().resolve(stream);
  // Rows that lie one after the other at both ends go as one copy.
  unsigned char* run_dst = nullptr;
  const unsigned char* run_src = nullptr;
  std::size_t run = 0;
  const auto flush = [&] {
    if (run == 0) return;
    const MemorySpace ds = space_of(dst, run_dst, run), ss = space_of(src, run_src, run);
    gpulab::detail::copy_bytes(run_dst, ds, run_src, ss, run, s);
    run = 0;
  };
  for (std::size_t z = 0; z < depth; ++z) {
    for (std::size_t y = 0; y < height; ++y) {
      unsigned char* d = row_address(dst, y, z);
      const unsigned char* r = row_address(src, y, z);
      if (run != 0 && d == run_dst + run && r == run_src + run) {
        run += width;
        continue;
      }
      flush();
      run_dst = d, run_src = r, run = width;
    }
  }
  flush();
}

// The copy as cudaMemcpy3D parameters (extent and array positions in elements), for a capture.
bool as_memcpy3d(const CopyEnd& dst, const CopyEnd& src, std::size_t width, std::size_t height, std::size_t depth,
                 cudaMemcpyKind kind, cudaMemcpy3DParms& p) {
  const std::size_t element = (dst.array != nullptr ? dst.array : src.array)->format.element_bytes;
  p = cudaMemcpy3DParms{};
  for (const CopyEnd* e : {&dst, &src}) {
    if (e->array != nullptr && (e->array->format.element_bytes != element || e->x % element != 0)) return false;
    const cudaPos pos = {e->array != nullptr ? e->x / element : e->x, e->y, e->z};
    const cudaPitchedPtr ptr = {e->ptr, e->pitch, e->pitch, e->rows_per_slice};
    if (e == &dst) {
      p.dstArray = e->array, p.dstPos = pos, p.dstPtr = e->array != nullptr ? cudaPitchedPtr{} : ptr;
    } else {
      p.srcArray = e->array, p.srcPos = pos, p.srcPtr = e->array != nullptr ? cudaPitchedPtr{} : ptr;
    }
  }
  if (width % element != 0) return false;
  p.extent = cudaExtent{width / element, height, depth};
  p.kind = kind;
  return true;
}

// An array copy of an API call: run on `stream`, or recorded when an async call's stream captures.
void issue(const CopyEnd& dst, const CopyEnd& src, std::size_t width, std::size_t height, std::size_t depth,
           cudaMemcpyKind kind, cudaStream_t stream, bool async, const char* call) {
  if (async && width != 0 && height != 0 && depth != 0) {
    cudaMemcpy3DParms p;
    if (as_memcpy3d(dst, src, width, height, depth, kind, p)) {
      if (capture_memcpy_3d(stream, &p, call)) return;
    } else {
      refuse_in_capture(stream, call, "a copy between arrays of different element sizes has no cudaMemcpy3D form");
    }
  }
  copy_region(dst, src, width, height, depth, kind, stream, call);
}

// cudaMemcpyToArray's and cudaMemcpyFromArray's `count` bytes from (x, y) on, as up to three region
// copies: the rest of the first row, whole rows, the start of the last.
template <class Issue>
void linear_pieces(const cudaArray& a, std::size_t x, std::size_t y, std::size_t count, const char* call, Issue&& piece) {
  const std::size_t row = a.row_bytes();
  if (x >= row && count != 0) {
    throw ApiError(cudaErrorInvalidValue,
                   fmt::format("{}: wOffset {} bytes is past the array's rows of {} bytes", call, x, row));
  }
  std::size_t done = 0;
  const std::size_t first = std::min(count, row - x);
  if (first != 0) piece(x, y, first, 1, done);
  done += first;
  const std::size_t whole = (count - done) / row;
  if (whole != 0) piece(0, y + 1, row, whole, done);
  done += whole * row;
  if (count > done) piece(0, y + 1 + whole, count - done, 1, done);
}

}  // namespace

void copy3d_array_case(const cudaMemcpy3DParms* p, cudaStream_t stream, bool wait, const char* call) {
  if ((p->srcArray != nullptr && p->srcPtr.ptr != nullptr) || (p->dstArray != nullptr && p->dstPtr.ptr != nullptr)) {
    throw ApiError(cudaErrorInvalidValue,
                   fmt::format("{}: an end of the copy names both an array and a pointer (set one of srcArray and "
                               "srcPtr, one of dstArray and dstPtr)",
                               call));
  }
  const cudaArray* sa = p->srcArray != nullptr ? checked_array(p->srcArray, call) : nullptr;
  const cudaArray* da = p->dstArray != nullptr ? checked_array(p->dstArray, call) : nullptr;
  if (sa != nullptr && da != nullptr && sa->format.element_bytes != da->format.element_bytes) {
    throw ApiError(cudaErrorInvalidValue,
                   fmt::format("{}: the arrays' elements are {} and {} bytes: a 3-D copy between arrays needs one size",
                               call, sa->format.element_bytes, da->format.element_bytes));
  }
  const std::size_t element = (sa != nullptr ? sa : da)->format.element_bytes;
  const auto end = [&](cudaArray_t array, const cudaPos& pos, const cudaPitchedPtr& ptr) {
    return array != nullptr ? array_end(array, pos.x * element, pos.y, pos.z, call)
                            : memory_end(ptr.ptr, ptr.pitch, ptr.ysize, pos.x, pos.y, pos.z);
  };
  copy_region(end(p->dstArray, p->dstPos, p->dstPtr), end(p->srcArray, p->srcPos, p->srcPtr),
              p->extent.width * element, p->extent.height, p->extent.depth, p->kind, stream, call);
  if (wait) state().resolve(stream).synchronize();
}

}  // namespace gpulab::sim::cuda::detail

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}

// ---- arrays ---------------------------------------------------------------------------------------------------

cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent, unsigned int flags) {
  return api_call("cudaMalloc3DArray", [&] {
    refuse_unsafe_in_capture("cudaMalloc3DArray", false);
    require(array != nullptr && desc != nullptr, "array or desc is null");
    *array = make_array(*desc, extent, flags, false, nullptr, "cudaMalloc3DArray");
  });
}

cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, std::size_t width, std::size_t height,
                            unsigned int flags) {
  return api_call("cudaMallocArray", [&] {
    refuse_unsafe_in_capture("cudaMallocArray", false);
    require(array != nullptr && desc != nullptr, "array or desc is null");
    if ((flags & (cudaArrayLayered | cudaArrayCubemap)) != 0) {
      throw ApiError(cudaErrorInvalidValue,
                     fmt::format("cudaMallocArray: flags {:#x}: layered and cubemap arrays are made with cudaMalloc3DArray",
                                 flags));
    }
    *array = make_array(*desc, cudaExtent{width, height, 0}, flags, false, nullptr, "cudaMallocArray");
  });
}

cudaError_t cudaFreeArray(cudaArray_t array) {
  return api_call("cudaFreeArray", [&] {
    if (array == nullptr) return;
    refuse_unsafe_in_capture("cudaFreeArray", false);
    cudaArray* a = checked_array(array, "cudaFreeArray");
    if (a->mipmap != nullptr) {
      throw ApiError(cudaErrorInvalidValue,
                     fmt::format("cudaFreeArray: {} is a level of mipmapped array {}: free that with cudaFreeMipmappedArray",
                                 static_cast<void*>(array), static_cast<void*>(a->mipmap)));
    }
    free_arrays({a});
  });
}

cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags, cudaArray_t array) {
  return api_call("cudaArrayGetInfo", [&] {
    const cudaArray* a = checked_array(array, "cudaArrayGetInfo");
    if (desc != nullptr) *desc = a->desc;
    if (extent != nullptr) *extent = a->extent;
    if (flags != nullptr) *flags = a->flags;
  });
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  return api_call("cudaGetChannelDesc", [&] {
    require(desc != nullptr, "desc is null");
    *desc = checked_array(array, "cudaGetChannelDesc")->desc;
  });
}

// ---- mipmapped arrays ---------------------------------------------------------------------------------------------
// Level l has each spatial extent of level 0 halved l times (rounded down, at least 1); layers and
// faces are the same at every level.

cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t* mipmappedArray, const cudaChannelFormatDesc* desc,
                                     cudaExtent extent, unsigned int numLevels, unsigned int flags) {
  return api_call("cudaMallocMipmappedArray", [&] {
    constexpr const char* call = "cudaMallocMipmappedArray";
    refuse_unsafe_in_capture(call, false);
    require(mipmappedArray != nullptr && desc != nullptr, "mipmappedArray or desc is null");
    const gpulab::sim::textures::Shape shape = shape_of(extent, flags, call);
    if ((flags & cudaArrayTextureGather) != 0) {
      throw ApiError(cudaErrorInvalidValue, "cudaMallocMipmappedArray: cudaArrayTextureGather is for 2-D arrays, not mipmapped ones");
    }
    check_limits(shape, extent, flags, true, call);
    const bool depth_is_spatial = shape == gpulab::sim::textures::Shape::three_d;
    std::size_t largest = std::max(extent.width, extent.height);
    if (depth_is_spatial) largest = std::max(largest, extent.depth);
    unsigned most = 1;
    while ((largest >> most) != 0) ++most;  // 1 + floor(log2(largest))
    // As CUDA does, the number of levels is clamped to [1, 1 + floor(log2(largest extent))].
    const unsigned levels = std::clamp(numLevels, 1u, most);
    auto m = std::make_unique<cudaMipmappedArray>();
    m->desc = *desc;
    m->extent = extent;
    m->flags = flags;
    try {
      for (unsigned l = 0; l < levels; ++l) {
        const auto halve = [&](std::size_t v) { return v == 0 ? 0 : std::max<std::size_t>(v >> l, 1); };
        const cudaExtent e = {halve(extent.width), halve(extent.height), depth_is_spatial ? halve(extent.depth) : extent.depth};
        m->levels.push_back(make_array(*desc, e, flags, true, m.get(), call));
      }
    } catch (...) {
      std::vector<cudaArray*> made = m->levels;
      free_arrays(made);
      throw;
    }
    ArrayRegistry& r = registry();
    std::lock_guard lock(r.mutex);
    r.mipmaps.insert(m.get());
    *mipmappedArray = m.release();
  });
}

cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t* levelArray, cudaMipmappedArray_const_t mipmappedArray,
                                       unsigned int level) {
  return api_call("cudaGetMipmappedArrayLevel", [&] {
    require(levelArray != nullptr, "levelArray is null");
    const cudaMipmappedArray* m = checked_mipmapped_array(mipmappedArray, "cudaGetMipmappedArrayLevel");
    if (level >= m->levels.size()) {
      throw ApiError(cudaErrorInvalidValue, fmt::format("cudaGetMipmappedArrayLevel: level {} of a mipmapped array of {} levels",
                                                        level, m->levels.size()));
    }
    *levelArray = m->levels[level];
  });
}

cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray) {
  return api_call("cudaFreeMipmappedArray", [&] {
    if (mipmappedArray == nullptr) return;
    refuse_unsafe_in_capture("cudaFreeMipmappedArray", false);
    cudaMipmappedArray* m = checked_mipmapped_array(mipmappedArray, "cudaFreeMipmappedArray");
    {
      ArrayRegistry& r = registry();
      std::lock_guard lock(r.mutex);
      r.mipmaps.erase(m);
    }
    const std::vector<cudaArray*> levels = m->levels;
    delete m;
    free_arrays(levels);
  });
}

// ---- copies -------------------------------------------------------------------------------------------------------

namespace {

// A synchronous array copy: refused where a capture forbids it, run on the legacy stream, waited for.
template <class Body>
void synchronous_copy(const char* call, Body&& body) {
  refuse_unsafe_in_capture(call, true);
  body();
  state().resolve(nullptr).synchronize();
}

}  // namespace

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, std::size_t wOffset, std::size_t hOffset, const void* src,
                                std::size_t spitch, std::size_t width, std::size_t height, cudaMemcpyKind kind) {
  constexpr const char* call = "cudaMemcpy2DToArray";
  return api_call(call, [&] {
    synchronous_copy(call, [&] {
      issue(array_end(dst, wOffset, hOffset, 0, call), memory_end(src, spitch, 1, 0, 0, 0), width, height, 1, kind,
            nullptr, false, call);
    });
  });
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, std::size_t wOffset, std::size_t hOffset, const void* src,
                                     std::size_t spitch, std::size_t width, std::size_t height, cudaMemcpyKind kind,
                                     cudaStream_t stream) {
  constexpr const char* call = "cudaMemcpy2DToArrayAsync";
  return api_call(call, [&] {
    issue(array_end(dst, wOffset, hOffset, 0, call), memory_end(src, spitch, 1, 0, 0, 0), width, height, 1, kind, stream,
          true, call);
  });
}

cudaError_t cudaMemcpy2DFromArray(void* dst, std::size_t dpitch, cudaArray_const_t src, std::size_t wOffset,
                                  std::size_t hOffset, std::size_t width, std::size_t height, cudaMemcpyKind kind) {
  constexpr const char* call = "cudaMemcpy2DFromArray";
  return api_call(call, [&] {
    synchronous_copy(call, [&] {
      issue(memory_end(dst, dpitch, 1, 0, 0, 0), array_end(src, wOffset, hOffset, 0, call), width, height, 1, kind,
            nullptr, false, call);
    });
  });
}

cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, std::size_t dpitch, cudaArray_const_t src, std::size_t wOffset,
                                       std::size_t hOffset, std::size_t width, std::size_t height, cudaMemcpyKind kind,
                                       cudaStream_t stream) {
  constexpr const char* call = "cudaMemcpy2DFromArrayAsync";
  return api_call(call, [&] {
    issue(memory_end(dst, dpitch, 1, 0, 0, 0), array_end(src, wOffset, hOffset, 0, call), width, height, 1, kind, stream,
          true, call);
  });
}

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, std::size_t wOffsetDst, std::size_t hOffsetDst,
                                     cudaArray_const_t src, std::size_t wOffsetSrc, std::size_t hOffsetSrc,
                                     std::size_t width, std::size_t height, cudaMemcpyKind kind) {
  constexpr const char* call = "cudaMemcpy2DArrayToArray";
  return api_call(call, [&] {
    synchronous_copy(call, [&] {
      issue(array_end(dst, wOffsetDst, hOffsetDst, 0, call), array_end(src, wOffsetSrc, hOffsetSrc, 0, call), width,
            height, 1, kind, nullptr, false, call);
    });
  });
}

namespace {

void copy_to_array_linear(cudaArray_t dst, std::size_t wOffset, std::size_t hOffset, const void* src, std::size_t count,
                          cudaMemcpyKind kind, cudaStream_t stream, bool async, const char* call) {
  const cudaArray& a = *checked_array(dst, call);
  const auto* from = static_cast<const unsigned char*>(src);
  linear_pieces(a, wOffset, hOffset, count, call,
                [&](std::size_t x, std::size_t y, std::size_t width, std::size_t rows, std::size_t done) {
                  issue(array_end(dst, x, y, 0, call), memory_end(from + done, width, 1, 0, 0, 0), width, rows, 1,
                        kind, stream, async, call);
                });
}

void copy_from_array_linear(void* dst, cudaArray_const_t src, std::size_t wOffset, std::size_t hOffset, std::size_t count,
                            cudaMemcpyKind kind, cudaStream_t stream, bool async, const char* call) {
  const cudaArray& a = *checked_array(src, call);
  auto* to = static_cast<unsigned char*>(dst);
  linear_pieces(a, wOffset, hOffset, count, call,
                [&](std::size_t x, std::size_t y, std::size_t width, std::size_t rows, std::size_t done) {
                  issue(memory_end(to + done, width, 1, 0, 0, 0), array_end(src, x, y, 0, call), width, rows, 1, kind,
                        stream, async, call);
                });
}

}  // namespace

cudaError_t cudaMemcpyToArray(cudaArray_t dst, std::size_t wOffset, std::size_t hOffset, const void* src,
                              std::size_t count, cudaMemcpyKind kind) {
  constexpr const char* call = "cudaMemcpyToArray";
  return api_call(call, [&] {
    synchronous_copy(call, [&] { copy_to_array_linear(dst, wOffset, hOffset, src, count, kind, nullptr, false, call); });
  });
}

cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, std::size_t wOffset, std::size_t hOffset, const void* src,
                                   std::size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  constexpr const char* call = "cudaMemcpyToArrayAsync";
  return api_call(call, [&] { copy_to_array_linear(dst, wOffset, hOffset, src, count, kind, stream, true, call); });
}

cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, std::size_t wOffset, std::size_t hOffset,
                                std::size_t count, cudaMemcpyKind kind) {
  constexpr const char* call = "cudaMemcpyFromArray";
  return api_call(call, [&] {
    synchronous_copy(call, [&] { copy_from_array_linear(dst, src, wOffset, hOffset, count, kind, nullptr, false, call); });
  });
}

cudaError_t cudaMemcpyFromArrayAsync(void* dst, cudaArray_const_t src, std::size_t wOffset, std::size_t hOffset,
                                     std::size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  constexpr const char* call = "cudaMemcpyFromArrayAsync";
  return api_call(call, [&] { copy_from_array_linear(dst, src, wOffset, hOffset, count, kind, stream, true, call); });
}

// `count` bytes from one array to another, each read and written row after row from its offset.
cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, std::size_t wOffsetDst, std::size_t hOffsetDst, cudaArray_const_t src,
                                   std::size_t wOffsetSrc, std::size_t hOffsetSrc, std::size_t count, cudaMemcpyKind kind) {
  constexpr const char* call = "cudaMemcpyArrayToArray";
  return api_call(call, [&] {
    synchronous_copy(call, [&] {
      const cudaArray& d = *checked_array(dst, call);
      const cudaArray& s = *checked_array(src, call);
      // Byte by byte runs as long as both ends stay in a row.
      std::size_t done = 0;
      while (done < count) {
        const std::size_t dx = wOffsetDst + done, sx = wOffsetSrc + done;
        const std::size_t d_row = hOffsetDst + dx / d.row_bytes(), s_row = hOffsetSrc + sx / s.row_bytes();
        const std::size_t d_col = dx % d.row_bytes(), s_col = sx % s.row_bytes();
        const std::size_t n = std::min({count - done, d.row_bytes() - d_col, s.row_bytes() - s_col});
        issue(array_end(dst, d_col, d_row, 0, call), array_end(src, s_col, s_row, 0, call), n, 1, 1, kind, nullptr, false,
              call);
        done += n;
      }
    });
  });
}
