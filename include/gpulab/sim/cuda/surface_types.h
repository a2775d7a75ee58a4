#pragma once
/* gpulab-simcc's shadow of CUDA's <surface_types.h>: the surface object handle and the boundary and
   format modes, with CUDA's names and values. Valid C as well as C++; self-contained for the same
   reason as texture_types.h (the device headers include it into every kernel file). */
#ifndef __SURFACE_TYPES_H__
#define __SURFACE_TYPES_H__

#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#define cudaSurfaceTypeCubemap 0x0C
#define cudaSurfaceType1DLayered 0xF1
#define cudaSurfaceType2DLayered 0xF2
#define cudaSurfaceTypeCubemapLayered 0xFC

/* What a surface access outside the surface does: reads 0 and drops the write, goes to the nearest
   element, or ends the kernel with a fault (the default of every surf* function). */
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2,
};

enum cudaSurfaceFormatMode {
  cudaFormatModeForced = 0,
  cudaFormatModeAuto = 1,
};

typedef unsigned long long cudaSurfaceObject_t;

#endif /* __SURFACE_TYPES_H__ */
