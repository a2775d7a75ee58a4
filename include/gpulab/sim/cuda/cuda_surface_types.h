#pragma once
// gpulab-simcc's shadow of CUDA's <cuda_surface_types.h>, which until CUDA 12 held the surface
// reference template surface<void, dim>. CUDA 12 removed surface references; the template is kept
// only so that a program declaring one stops there with the reason and the replacement.
#ifndef __CUDA_SURFACE_TYPES_H__
#define __CUDA_SURFACE_TYPES_H__

#include "surface_types.h"

#ifdef __cplusplus
namespace gpulab::sim::cuda::detail {
template <class...>
inline constexpr bool surface_reference_named = false;
}  // namespace gpulab::sim::cuda::detail

template <class T, int dim = 1>
struct surface {
  static_assert(gpulab::sim::cuda::detail::surface_reference_named<T>,
                "gpulab-simcc: surface<void, dim> is a surface reference, which CUDA 12 removed: create a surface "
                "object with cudaCreateSurfaceObject and pass its cudaSurfaceObject_t to the kernel "
                "(surf2Dwrite(value, object, x_in_bytes, y))");
};
#endif

#endif  // __CUDA_SURFACE_TYPES_H__
