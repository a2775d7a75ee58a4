#pragma once
// CUDA's surface-object reads and writes for code compiled for the simulator (part of
// <gpulab/sim/device_runtime.hpp>): surf1D, surf2D, surf3D, surf1DLayered, surf2DLayered, surfCubemap
// and surfCubemapLayered, each a read (`T surfXread<T>(object, ...)` and `void surfXread(T* out,
// object, ...)`) and a write (`void surfXwrite(T value, object, ...)`).
//
// As in CUDA, x is in bytes (element x / sizeof(element)), the other coordinates in elements, rows,
// slices, layers or faces. The access moves the element's bytes as they are, so T must be as large as
// the array's element (float for a float array, uchar4 or unsigned int for a uchar4 one); another size,
// and an x that is not a multiple of the element size, end the kernel with a fault naming the access
// (CUDA leaves them undefined). An access outside the surface does what its boundary mode says:
// - cudaBoundaryModeTrap (the default): the kernel ends with a fault naming the coordinate and the
//   surface's extent, which the launch reports as cudaErrorLaunchFailure, as __trap's;
// - cudaBoundaryModeClamp: each coordinate is clamped to the surface, and the access goes there;
// - cudaBoundaryModeZero: a read returns 0 and a write is dropped.
// The accesses are plain loads and stores of device memory, so memcheck, initcheck and racecheck see
// them (two threads writing one element in a launch race, as on a GPU).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <source_location>
#include <type_traits>

#include <gpulab/sim/cuda/surface_types.h>
#include <gpulab/sim/device/texture_fetch.hpp>
#include <gpulab/sim/device/texture_resources.hpp>

namespace gpulab::sim::textures::detail {

inline const SurfaceObject& surface_of(cudaSurfaceObject_t object, Shape expected, const char* function,
                                       const Where& where) {
  if (object == 0) fetch_fault(function, "surface object 0, which no cudaCreateSurfaceObject returned", where);
  const auto* s = reinterpret_cast<const SurfaceObject*>(static_cast<std::uintptr_t>(object));
  if (s->magic != surface_object_magic) {
    fetch_fault(function,
                s->magic == texture_object_magic
                    ? "the object is a texture object, not a surface object"
                    : "the object is not a live surface object (destroyed, or never returned by cudaCreateSurfaceObject)",
                where);
  }
  if (s->shape != expected) {
    char what[320];
    std::snprintf(what, sizeof what, "the surface object's array is %s, which this access cannot reach",
                  shape_name(s->shape));
    fetch_fault(function, what, where);
  }
  return *s;
}

// One coordinate of a surface access and its extent, for the boundary mode.
struct SurfaceCoordinate {
  const char* name;  // as CUDA's parameter is called
  long long value;
  long long extent;
  const char* units;
};

// The element a surface access of `bytes` bytes reaches, after the boundary mode: nullptr when it
// falls outside with cudaBoundaryModeZero. `coords` are y, then the slice coordinate (z, layer, face).
inline unsigned char* surface_element(const SurfaceObject& s, const char* function, int x_bytes,
                                      SurfaceCoordinate y, SurfaceCoordinate slice, std::size_t bytes,
                                      cudaSurfaceBoundaryMode mode, const Where& where) {
  const Image& im = s.image;
  const std::size_t element = s.format.element_bytes;
  char what[320];
  if (bytes != element) {
    std::snprintf(what, sizeof what,
                  "accesses %zu bytes of a surface whose elements are %zu bytes: the access must move one element "
                  "(a type of the element's size)",
                  bytes, element);
    fetch_fault(function, what, where);
  }
  if (x_bytes % static_cast<int>(element) != 0) {
    std::snprintf(what, sizeof what, "x = %d bytes is not a multiple of the element size, %zu bytes (x is in bytes)",
                  x_bytes, element);
    fetch_fault(function, what, where);
  }
  long long x = x_bytes / static_cast<int>(element);
  const SurfaceCoordinate all[3] = {{"x", x, im.width, "elements"}, y, slice};
  long long at[3];
  for (int d = 0; d < 3; ++d) {
    at[d] = all[d].value;
    if (at[d] >= 0 && at[d] < all[d].extent) continue;
    if (mode == cudaBoundaryModeZero) return nullptr;
    if (mode == cudaBoundaryModeClamp) {
      at[d] = at[d] < 0 ? 0 : all[d].extent - 1;
      continue;
    }
    if (d == 0) {
      std::snprintf(what, sizeof what,
                    "x = %d bytes (element %lld) is outside the surface's %lld elements of %zu bytes, with "
                    "cudaBoundaryModeTrap",
                    x_bytes, x, all[0].extent, element);
    } else {
      std::snprintf(what, sizeof what, "%s = %lld is outside the surface's %lld %s, with cudaBoundaryModeTrap",
                    all[d].name, all[d].value, all[d].extent, all[d].units);
    }
    fetch_fault(function, what, where);
  }
  return im.data + static_cast<std::uint64_t>(at[2]) * im.slice_pitch + static_cast<std::uint64_t>(at[1]) * im.row_pitch +
         static_cast<std::uint64_t>(at[0]) * element;
}

template <class T>
inline void check_surface_type() {
  static_assert(std::is_trivially_copyable_v<T> &&
                    (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16),
                "gpulab-sim: a surface access moves 1, 2, 4, 8 or 16 bytes (CUDA's surface types: char to "
                "longlong and float, their 2- and 4-vectors)");
}

template <class T>
inline T surface_read(const unsigned char* p) {
  check_surface_type<T>();
  T value;
  if (p == nullptr) {
    std::memset(&value, 0, sizeof value);
  } else {
    std::memcpy(&value, p, sizeof value);
  }
  return value;
}

template <class T>
inline void surface_write(unsigned char* p, const T& value) {
  check_surface_type<T>();
  if (p != nullptr) std::memcpy(p, &value, sizeof value);
}

inline SurfaceCoordinate no_coordinate() { return SurfaceCoordinate{"", 0, 1, ""}; }

// The element of each kind of access.
inline unsigned char* surf1d_element(cudaSurfaceObject_t o, const char* f, int x, std::size_t bytes,
                                     cudaSurfaceBoundaryMode mode, const Where& where) {
  const SurfaceObject& s = surface_of(o, Shape::one_d, f, where);
  return surface_element(s, f, x, no_coordinate(), no_coordinate(), bytes, mode, where);
}
inline unsigned char* surf2d_element(cudaSurfaceObject_t o, const char* f, int x, int y, std::size_t bytes,
                                     cudaSurfaceBoundaryMode mode, const Where& where) {
  const SurfaceObject& s = surface_of(o, Shape::two_d, f, where);
  return surface_element(s, f, x, {"y", y, s.image.height, "rows"}, no_coordinate(), bytes, mode, where);
}
inline unsigned char* surf3d_element(cudaSurfaceObject_t o, const char* f, int x, int y, int z, std::size_t bytes,
                                     cudaSurfaceBoundaryMode mode, const Where& where) {
  const SurfaceObject& s = surface_of(o, Shape::three_d, f, where);
  return surface_element(s, f, x, {"y", y, s.image.height, "rows"}, {"z", z, s.image.depth, "slices"}, bytes, mode,
                         where);
}
inline unsigned char* surf1d_layered_element(cudaSurfaceObject_t o, const char* f, int x, int layer, std::size_t bytes,
                                             cudaSurfaceBoundaryMode mode, const Where& where) {
  const SurfaceObject& s = surface_of(o, Shape::one_d_layered, f, where);
  return surface_element(s, f, x, no_coordinate(), {"layer", layer, s.image.depth, "layers"}, bytes, mode, where);
}
inline unsigned char* surf2d_layered_element(cudaSurfaceObject_t o, const char* f, int x, int y, int layer,
                                             std::size_t bytes, cudaSurfaceBoundaryMode mode, const Where& where) {
  const SurfaceObject& s = surface_of(o, Shape::two_d_layered, f, where);
  return surface_element(s, f, x, {"y", y, s.image.height, "rows"}, {"layer", layer, s.image.depth, "layers"}, bytes,
                         mode, where);
}
inline unsigned char* surf_cubemap_element(cudaSurfaceObject_t o, const char* f, int x, int y, int face,
                                           std::size_t bytes, cudaSurfaceBoundaryMode mode, const Where& where) {
  const SurfaceObject& s = surface_of(o, Shape::cubemap, f, where);
  return surface_element(s, f, x, {"y", y, s.image.height, "rows"}, {"face", face, 6, "faces"}, bytes, mode, where);
}
inline unsigned char* surf_cubemap_layered_element(cudaSurfaceObject_t o, const char* f, int x, int y,
                                                   int layerFace, std::size_t bytes, cudaSurfaceBoundaryMode mode,
                                                   const Where& where) {
  const SurfaceObject& s = surface_of(o, Shape::cubemap_layered, f, where);
  return surface_element(s, f, x, {"y", y, s.image.height, "rows"},
                         {"layerFace", layerFace, s.image.depth, "layer faces (6 a layer)"}, bytes, mode, where);
}

}  // namespace gpulab::sim::textures::detail

#define GPULAB_SURF_WHERE const std::source_location where = std::source_location::current()
#define GPULAB_SURF_MODE cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap
#define GPULAB_SURF ::gpulab::sim::textures::detail

// ---- 1-D ----
template <class T>
inline T surf1Dread(cudaSurfaceObject_t surfObject, int x, GPULAB_SURF_MODE, GPULAB_SURF_WHERE) {
  return GPULAB_SURF::surface_read<T>(GPULAB_SURF::surf1d_element(surfObject, "surf1Dread", x, sizeof(T), boundaryMode, where));
}
template <class T>
inline void surf1Dread(T* ptr, cudaSurfaceObject_t obj, int x, GPULAB_SURF_MODE, GPULAB_SURF_WHERE) {
  *ptr = surf1Dread<T>(obj, x, boundaryMode, where);
}
template <class T>
inline void surf1Dwrite(T val, cudaSurfaceObject_t obj, int x, GPULAB_SURF_MODE, GPULAB_SURF_WHERE) {
  GPULAB_SURF::surface_write(GPULAB_SURF::surf1d_element(obj, "surf1Dwrite", x, sizeof(T), boundaryMode, where), val);
}

// ---- 2-D ----
template <class T>
inline T surf2Dread(cudaSurfaceObject_t surfObject, int x, int y, GPULAB_SURF_MODE, GPULAB_SURF_WHERE) {
  return GPULAB_SURF::surface_read<T>(
      GPULAB_SURF::surf2d_element(surfObject, "surf2Dread", x, y, sizeof(T), boundaryMode, where));
}
template <class T>
inline void surf2Dread(T* ptr, cudaSurfaceObject_t obj, int x, int y, GPULAB_SURF_MODE, GPULAB_SURF_WHERE) {
  *ptr = surf2Dread<T>(obj, x, y, boundaryMode, where);
}
template <class T>
inline void surf2Dwrite(T val, cudaSurfaceObject_t obj, int x, int y, GPULAB_SURF_MODE, GPULAB_SURF_WHERE) {
  GPULAB_SURF::surface_write(GPULAB_SURF::surf2d_element(obj, "surf2Dwrite", x, y, sizeof(T), boundaryMode, where), val);
}

// ---- 3-D ----
template <class T>
inline T surf3Dread(cudaSurfaceObject_t surfObject, int x, int y, int z, GPULAB_SURF_MODE, GPULAB_SURF_WHERE) {
  return GPULAB_SURF::surface_read<T>(
      GPULAB_SURF::surf3d_element(surfObject, "surf3Dread", x, y, z, sizeof(T), boundaryMode, where));
}
template <class T>
inline void surf3Dread(T* ptr, cudaSurfaceObject_t obj, int x, int y, int z, GPULAB_SURF_MODE, GPULAB_SURF_WHERE) {
  *ptr = surf3Dread<T>(obj, x, y, z, boundaryMode, where);
}
template <class T>
inline void surf3Dwrite(T val, cudaSurfaceObject_t obj, int x, int y, int z, GPULAB_SURF_MODE, GPULAB_SURF_WHERE) {
  GPULAB_SURF::surface_write(GPULAB_SURF::surf3d_element(obj, "surf3Dwrite", x, y, z, sizeof(T), boundaryMode, where),
                             val);
}

// ---- 1-D layered ----
template <class T>
inline T surf1DLayeredread(cudaSurfaceObject_t surfObject, int x, int layer, GPULAB_SURF_MODE, GPULAB_SURF_WHERE) {
  return GPULAB_SURF::surface_read<T>(
      GPULAB_SURF::surf1d_layered_element(surfObject, "surf1DLayeredread", x, layer, sizeof(T), boundaryMode, where));
}
template <class T>
inline void surf1DLayeredread(T* ptr, cudaSurfaceObject_t obj, int x, int layer, GPULAB_SURF_MODE, GPULAB_SURF_WHERE) {
  *ptr = surf1DLayeredread<T>(obj, x, layer, boundaryMode, where);
}
template <class T>
inline void surf1DLayeredwrite(T val, cudaSurfaceObject_t obj, int x, int layer, GPULAB_SURF_MODE, GPULAB_SURF_WHERE) {
  GPULAB_SURF::surface_write(
      GPULAB_SURF::surf1d_layered_element(obj, "surf1DLayeredwrite", x, layer, sizeof(T), boundaryMode, where), val);
}

// ---- 2-D layered ----
template <class T>
inline T surf2DLayeredread(cudaSurfaceObject_t surfObject, int x, int y, int layer, GPULAB_SURF_MODE,
                           GPULAB_SURF_WHERE) {
  return GPULAB_SURF::surface_read<T>(
      GPULAB_SURF::surf2d_layered_element(surfObject, "surf2DLayeredread", x, y, layer, sizeof(T), boundaryMode, where));
}
template <class T>
inline void surf2DLayeredread(T* ptr, cudaSurfaceObject_t obj, int x, int y, int layer, GPULAB_SURF_MODE,
                              GPULAB_SURF_WHERE) {
  *ptr = surf2DLayeredread<T>(obj, x, y, layer, boundaryMode, where);
}
template <class T>
inline void surf2DLayeredwrite(T val, cudaSurfaceObject_t obj, int x, int y, int layer, GPULAB_SURF_MODE,
                               GPULAB_SURF_WHERE) {
  GPULAB_SURF::surface_write(
      GPULAB_SURF::surf2d_layered_element(obj, "surf2DLayeredwrite", x, y, layer, sizeof(T), boundaryMode, where), val);
}

// ---- cubemaps ----
template <class T>
inline T surfCubemapread(cudaSurfaceObject_t surfObject, int x, int y, int face, GPULAB_SURF_MODE, GPULAB_SURF_WHERE) {
  return GPULAB_SURF::surface_read<T>(
      GPULAB_SURF::surf_cubemap_element(surfObject, "surfCubemapread", x, y, face, sizeof(T), boundaryMode, where));
}
template <class T>
inline void surfCubemapread(T* ptr, cudaSurfaceObject_t obj, int x, int y, int face, GPULAB_SURF_MODE,
                            GPULAB_SURF_WHERE) {
  *ptr = surfCubemapread<T>(obj, x, y, face, boundaryMode, where);
}
template <class T>
inline void surfCubemapwrite(T val, cudaSurfaceObject_t obj, int x, int y, int face, GPULAB_SURF_MODE,
                             GPULAB_SURF_WHERE) {
  GPULAB_SURF::surface_write(
      GPULAB_SURF::surf_cubemap_element(obj, "surfCubemapwrite", x, y, face, sizeof(T), boundaryMode, where), val);
}
template <class T>
inline T surfCubemapLayeredread(cudaSurfaceObject_t surfObject, int x, int y, int layerFace, GPULAB_SURF_MODE,
                                GPULAB_SURF_WHERE) {
  return GPULAB_SURF::surface_read<T>(GPULAB_SURF::surf_cubemap_layered_element(
      surfObject, "surfCubemapLayeredread", x, y, layerFace, sizeof(T), boundaryMode, where));
}
template <class T>
inline void surfCubemapLayeredread(T* ptr, cudaSurfaceObject_t obj, int x, int y, int layerFace, GPULAB_SURF_MODE,
                                   GPULAB_SURF_WHERE) {
  *ptr = surfCubemapLayeredread<T>(obj, x, y, layerFace, boundaryMode, where);
}
template <class T>
inline void surfCubemapLayeredwrite(T val, cudaSurfaceObject_t obj, int x, int y, int layerFace, GPULAB_SURF_MODE,
                                    GPULAB_SURF_WHERE) {
  GPULAB_SURF::surface_write(GPULAB_SURF::surf_cubemap_layered_element(obj, "surfCubemapLayeredwrite", x, y, layerFace,
                                                                       sizeof(T), boundaryMode, where),
                             val);
}

#undef GPULAB_SURF
#undef GPULAB_SURF_MODE
#undef GPULAB_SURF_WHERE
