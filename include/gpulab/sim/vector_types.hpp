#pragma once
// CUDA's vector types for code compiled for the simulator: dim3 and uint3 (launch extents and the
// built-in indices) and every vector type of CUDA's <vector_types.h> (char1..4 to double1..4), with
// CUDA's sizes and alignments, and their make_* functions. Kernels get them through
// <gpulab/kernel.hpp>; gpulab-simcc programs through the shadow <vector_types.h> and <cuda_runtime.h>.
// Valid C too (a C host file of a CUDA program includes it through cuda_runtime_api.h): the
// constructors of dim3 and constexpr are C++ only.
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__

#ifdef __cplusplus
#define GPULAB_VT_INLINE inline constexpr
#else
#define GPULAB_VT_INLINE static inline
#endif
#define GPULAB_VT_ALIGN(n) __attribute__((aligned(n)))

// One type of each width: T1 {x}, T2 {x, y} aligned to A2, T3 {x, y, z} unaligned, T4 aligned to A4.
#define GPULAB_VECTOR_TYPES(name, T, A2, A4)                                                          \
  struct name##1 { T x; };                                                                            \
  struct GPULAB_VT_ALIGN(A2) name##2 { T x, y; };                                                     \
  struct name##3 { T x, y, z; };                                                                      \
  struct GPULAB_VT_ALIGN(A4) name##4 { T x, y, z, w; };                                               \
  typedef struct name##1 name##1;                                                                     \
  typedef struct name##2 name##2;                                                                     \
  typedef struct name##3 name##3;                                                                     \
  typedef struct name##4 name##4;                                                                     \
  GPULAB_VT_INLINE name##1 make_##name##1(T x) { name##1 v = {x}; return v; }                         \
  GPULAB_VT_INLINE name##2 make_##name##2(T x, T y) { name##2 v = {x, y}; return v; }                 \
  GPULAB_VT_INLINE name##3 make_##name##3(T x, T y, T z) { name##3 v = {x, y, z}; return v; }         \
  GPULAB_VT_INLINE name##4 make_##name##4(T x, T y, T z, T w) { name##4 v = {x, y, z, w}; return v; }

GPULAB_VECTOR_TYPES(char, signed char, 2, 4)
GPULAB_VECTOR_TYPES(uchar, unsigned char, 2, 4)
GPULAB_VECTOR_TYPES(short, short, 4, 8)
GPULAB_VECTOR_TYPES(ushort, unsigned short, 4, 8)
GPULAB_VECTOR_TYPES(int, int, 8, 16)
GPULAB_VECTOR_TYPES(uint, unsigned int, 8, 16)
GPULAB_VECTOR_TYPES(long, long, 2 * sizeof(long), 16)
GPULAB_VECTOR_TYPES(ulong, unsigned long, 2 * sizeof(long), 16)
GPULAB_VECTOR_TYPES(longlong, long long, 16, 16)
GPULAB_VECTOR_TYPES(ulonglong, unsigned long long, 16, 16)
GPULAB_VECTOR_TYPES(float, float, 8, 16)
GPULAB_VECTOR_TYPES(double, double, 16, 16)
#undef GPULAB_VECTOR_TYPES

// CUDA 13's explicitly aligned forms of the 256-bit types.
struct GPULAB_VT_ALIGN(16) long4_16a { long x, y, z, w; };
struct GPULAB_VT_ALIGN(32) long4_32a { long x, y, z, w; };
struct GPULAB_VT_ALIGN(16) ulong4_16a { unsigned long x, y, z, w; };
struct GPULAB_VT_ALIGN(32) ulong4_32a { unsigned long x, y, z, w; };
struct GPULAB_VT_ALIGN(16) longlong4_16a { long long x, y, z, w; };
struct GPULAB_VT_ALIGN(32) longlong4_32a { long long x, y, z, w; };
struct GPULAB_VT_ALIGN(16) ulonglong4_16a { unsigned long long x, y, z, w; };
struct GPULAB_VT_ALIGN(32) ulonglong4_32a { unsigned long long x, y, z, w; };
struct GPULAB_VT_ALIGN(16) double4_16a { double x, y, z, w; };
struct GPULAB_VT_ALIGN(32) double4_32a { double x, y, z, w; };

#ifdef __cplusplus
struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
static_assert(sizeof(float4) == 16 && alignof(float4) == 16 && alignof(float2) == 8 && alignof(double2) == 16);
static_assert(sizeof(uchar4) == 4 && alignof(uchar4) == 4 && alignof(short4) == 8 && sizeof(float3) == 12);
#else
typedef struct dim3 {
  unsigned int x, y, z;
} dim3;
#endif

#undef GPULAB_VT_INLINE
#undef GPULAB_VT_ALIGN
#endif  // __VECTOR_TYPES_H__
