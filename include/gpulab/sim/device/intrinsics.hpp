#pragma once
// CUDA's bit intrinsics, reinterpretations and math functions for code compiled for the simulator
// (part of <gpulab/sim/device_runtime.hpp>), with CUDA's results.
#include <bit>
#include <cmath>

#include <math.h>

// ---- bit intrinsics ----------------------------------------------------------------------------------------
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
         __brev(static_cast<unsigned>(x >> 32));
}
// Reinterpretations of a value's bits (the CAS loops of float atomics use them).
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }

// ---- math --------------------------------------------------------------------------------------------------
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float __fdividef(float x, float y) { return x / y; }
inline float __expf(float x) { return std::exp(x); }
inline float __logf(float x) { return std::log(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __fmaf_rn(float x, float y, float z) { return std::fma(x, y, z); }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fadd_rn(float x, float y) { return x + y; }
inline double __fma_rn(double x, double y, double z) { return std::fma(x, y, z); }
// Clamps to [0, 1]; NaN becomes 0, as on the device.
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

// CUDA's global min/max overloads (integer ones compare in the type of the arguments).
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a < b ? b : a; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a < b ? b : a; }
inline unsigned min(int a, unsigned b) { return min(static_cast<unsigned>(a), b); }
inline unsigned min(unsigned a, int b) { return min(a, static_cast<unsigned>(b)); }
inline unsigned max(int a, unsigned b) { return max(static_cast<unsigned>(a), b); }
inline unsigned max(unsigned a, int b) { return max(a, static_cast<unsigned>(b)); }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a < b ? b : a; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a < b ? b : a; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }

template <class T>
inline T __ldg(const T* address) {
  return *address;
}
