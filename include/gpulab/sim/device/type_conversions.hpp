#pragma once
// CUDA's type-conversion intrinsics with a rounding mode (__float2int_rn, __double2ull_rd,
// __ll2float_ru, __double2float_rz, ...) and its reinterpretations (__float_as_uint, __double2hiint,
// __hiloint2double, ...) for code compiled for the simulator (part of <gpulab/sim/device_runtime.hpp>).
//
// Float-to-integer conversions behave as the GPU's cvt instruction: the result saturates to the
// destination's range (+-inf included) and NaN converts to 0. Integer-to-float and double-to-float are
// correctly rounded in the named mode.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <gpulab/sim/device/rounding_intrinsics.hpp>

namespace gpulab::sim::rounding {

template <class I, class F>
inline I float_to_integer(F x, Mode mode) {
  if (std::isnan(x)) return 0;
  F v;
  switch (mode) {
    case Mode::nearest: v = std::nearbyint(x); break;  // the host's default mode: ties to even
    case Mode::toward_zero: v = std::trunc(x); break;
    case Mode::up: v = std::ceil(x); break;
    default: v = std::floor(x); break;
  }
  // The limits as F: the lowest is a power of two (exact); max + 1 is one too.
  const F lowest = static_cast<F>(std::numeric_limits<I>::lowest());
  const F above_max = static_cast<F>(std::numeric_limits<I>::max() / 2 + 1) * F(2);
  if (v < lowest) return std::numeric_limits<I>::lowest();
  if (v >= above_max) return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}

// An integer rounded to F in `mode`: the nearest F's error is exact in 128-bit integers.
template <class F, class I>
inline F integer_to_float(I x, Mode mode) {
  const F r = static_cast<F>(x);
  const __int128 error = static_cast<__int128>(x) - static_cast<__int128>(r);
  return from_nearest(r, error > 0 ? 1 : (error < 0 ? -1 : 0), mode);
}

}  // namespace gpulab::sim::rounding

#define GPULAB_SIM_CONVERSIONS(suffix, mode)                                                                   \
  inline int __float2int_##suffix(float x) { return gpulab::sim::rounding::float_to_integer<int>(x, mode); }  \
  inline unsigned __float2uint_##suffix(float x) {                                                             \
    return gpulab::sim::rounding::float_to_integer<unsigned>(x, mode);                                         \
  }                                                                                                            \
  inline long long __float2ll_##suffix(float x) { return gpulab::sim::rounding::float_to_integer<long long>(x, mode); } \
  inline unsigned long long __float2ull_##suffix(float x) {                                                    \
    return gpulab::sim::rounding::float_to_integer<unsigned long long>(x, mode);                               \
  }                                                                                                            \
  inline int __double2int_##suffix(double x) { return gpulab::sim::rounding::float_to_integer<int>(x, mode); } \
  inline unsigned __double2uint_##suffix(double x) {                                                           \
    return gpulab::sim::rounding::float_to_integer<unsigned>(x, mode);                                         \
  }                                                                                                            \
  inline long long __double2ll_##suffix(double x) {                                                            \
    return gpulab::sim::rounding::float_to_integer<long long>(x, mode);                                        \
  }                                                                                                            \
  inline unsigned long long __double2ull_##suffix(double x) {                                                  \
    return gpulab::sim::rounding::float_to_integer<unsigned long long>(x, mode);                               \
  }                                                                                                            \
  inline float __int2float_##suffix(int x) { return gpulab::sim::rounding::integer_to_float<float>(x, mode); } \
  inline float __uint2float_##suffix(unsigned x) { return gpulab::sim::rounding::integer_to_float<float>(x, mode); } \
  inline float __ll2float_##suffix(long long x) { return gpulab::sim::rounding::integer_to_float<float>(x, mode); } \
  inline float __ull2float_##suffix(unsigned long long x) {                                                    \
    return gpulab::sim::rounding::integer_to_float<float>(x, mode);                                            \
  }                                                                                                            \
  inline double __ll2double_##suffix(long long x) { return gpulab::sim::rounding::integer_to_float<double>(x, mode); } \
  inline double __ull2double_##suffix(unsigned long long x) {                                                  \
    return gpulab::sim::rounding::integer_to_float<double>(x, mode);                                           \
  }                                                                                                            \
  inline float __double2float_##suffix(double x) { return gpulab::sim::rounding::double_to_float(x, mode); }

GPULAB_SIM_CONVERSIONS(rn, gpulab::sim::rounding::Mode::nearest)
GPULAB_SIM_CONVERSIONS(rz, gpulab::sim::rounding::Mode::toward_zero)
GPULAB_SIM_CONVERSIONS(ru, gpulab::sim::rounding::Mode::up)
GPULAB_SIM_CONVERSIONS(rd, gpulab::sim::rounding::Mode::down)
#undef GPULAB_SIM_CONVERSIONS

// 32-bit integers are exact in double: CUDA has only the _rn forms.
inline double __int2double_rn(int x) { return static_cast<double>(x); }
inline double __uint2double_rn(unsigned x) { return static_cast<double>(x); }

// ---- reinterpretations of a value's bits ----------------------------------------------------------------
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline int __double2hiint(double x) { return static_cast<int>(std::bit_cast<std::uint64_t>(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(x))); }
inline double __hiloint2double(int hi, int lo) {
  return std::bit_cast<double>((static_cast<std::uint64_t>(static_cast<std::uint32_t>(hi)) << 32) |
                               static_cast<std::uint32_t>(lo));
}
