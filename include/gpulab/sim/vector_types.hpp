#pragma once
// CUDA's vector types for code compiled for the simulator: dim3 and uint3 (launch extents and the
// built-in indices), float2/float4 and the rest, with CUDA's sizes and alignments, and their make_*
// functions. Kernels get them through <gpulab/kernel.hpp>; gpulab-simcc programs through the shadow
// <vector_types.h> and <cuda_runtime.h>.

struct uint3 {
  unsigned int x, y, z;
};

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

struct alignas(8) float2 { float x, y; };
struct float3 { float x, y, z; };
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(8) int2 { int x, y; };
struct int3 { int x, y, z; };
struct alignas(16) int4 { int x, y, z, w; };
struct alignas(8) uint2 { unsigned int x, y; };
struct alignas(16) uint4 { unsigned int x, y, z, w; };
struct alignas(16) double2 { double x, y; };
struct alignas(16) longlong2 { long long x, y; };

inline constexpr float2 make_float2(float x, float y) { return {x, y}; }
inline constexpr float3 make_float3(float x, float y, float z) { return {x, y, z}; }
inline constexpr float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
inline constexpr int2 make_int2(int x, int y) { return {x, y}; }
inline constexpr int3 make_int3(int x, int y, int z) { return {x, y, z}; }
inline constexpr int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
inline constexpr uint2 make_uint2(unsigned x, unsigned y) { return {x, y}; }
inline constexpr uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return {x, y, z}; }
inline constexpr uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return {x, y, z, w}; }
inline constexpr double2 make_double2(double x, double y) { return {x, y}; }
inline constexpr longlong2 make_longlong2(long long x, long long y) { return {x, y}; }

static_assert(sizeof(float4) == 16 && alignof(float4) == 16 && alignof(float2) == 8 && alignof(double2) == 16);
