#pragma once
// CUDA's arithmetic with the rounding mode named in the call (__fadd_rz, __fmul_ru, __fmaf_rd, __fdiv_*,
// __frcp_*, __fsqrt_*, __frsqrt_rn, __dadd_*, __dmul_*, __fma_*, __ddiv_*, __drcp_*, __dsqrt_*) for code
// compiled for the simulator (part of <gpulab/sim/device_runtime.hpp>). Every result is correctly
// rounded in its mode, as IEEE 754 and CUDA define it, subnormals included (CUDA's non-ftz forms).
//
// The host's rounding mode is never changed: the compiler may move or fold floating-point arithmetic
// across fesetround (GCC does not honour FENV_ACCESS). Instead each operation is computed rounded to
// nearest, then the sign of its rounding error (exact - rounded) is found exactly, and the result
// moves one ulp when the mode asks for the other neighbour of the exact value. The error's sign comes
// from an error-free transformation (TwoSum) or from a wider type in which the operands' products are
// exact and no underflow can hide a nonzero error: double for float, binary128 for double.
#include <cfloat>
#include <cmath>
#include <limits>

namespace gpulab::sim::rounding {

enum class Mode { nearest, toward_zero, up, down };

#if defined(__SIZEOF_FLOAT128__)
using Binary128 = __float128;
#elif LDBL_MANT_DIG == 113
using Binary128 = long double;
#else
#error "gpulab: CUDA's directed-rounding double intrinsics need a binary128 type on the host (__float128)"
#endif

template <class T>
struct Wider;
template <>
struct Wider<float> {
  using type = double;
};
template <>
struct Wider<double> {
  using type = Binary128;
};
template <class T>
using wider_t = typename Wider<T>::type;

template <class W>
inline int sign_of(W v) {
  return v > W(0) ? 1 : (v < W(0) ? -1 : 0);  // NaN: 0 (the result is NaN or exact anyway)
}

// `nearest` is the operation rounded to nearest; `error_sign` is the sign of (exact - nearest).
// The exact value lies between `nearest` and its neighbour on that side, so a directed mode keeps
// `nearest` or takes that neighbour.
template <class T>
inline T from_nearest(T nearest, int error_sign, Mode mode) {
  if (error_sign == 0) return nearest;
  const T inf = std::numeric_limits<T>::infinity();
  switch (mode) {
    case Mode::nearest:
      return nearest;
    case Mode::up:
      return error_sign > 0 ? std::nextafter(nearest, inf) : nearest;
    case Mode::down:
      return error_sign < 0 ? std::nextafter(nearest, -inf) : nearest;
    case Mode::toward_zero: {
      const bool rounded_away = (error_sign < 0 && nearest > T(0)) || (error_sign > 0 && nearest < T(0));
      return rounded_away ? std::nextafter(nearest, T(0)) : nearest;
    }
  }
  return nearest;
}

// An exact sum that is zero: +0 unless both addends are -0, but -0 whenever either addend is negative
// when rounding down (IEEE 754's rule for x + (-x)).
template <class T>
inline T exact_zero_sum(T nearest, bool first_negative, bool second_negative, Mode mode) {
  if (mode == Mode::down) return (first_negative || second_negative) ? -T(0) : T(0);
  return nearest;
}

template <class T>
inline T add(T a, T b, Mode mode) {
  const T r = a + b;
  int error;
  if (std::isinf(r) && std::isfinite(a) && std::isfinite(b)) {
    error = r > T(0) ? -1 : 1;  // overflow: the exact sum is finite
  } else {
    // TwoSum: r + e == a + b exactly.
    const T b_virtual = r - a;
    const T a_virtual = r - b_virtual;
    error = sign_of((a - a_virtual) + (b - b_virtual));
  }
  if (error == 0 && r == T(0)) return exact_zero_sum(r, std::signbit(a), std::signbit(b), mode);
  return from_nearest(r, error, mode);
}

template <class T>
inline T mul(T a, T b, Mode mode) {
  using W = wider_t<T>;
  const T r = a * b;
  return from_nearest(r, sign_of(W(a) * W(b) - W(r)), mode);
}

template <class T>
inline T fma(T a, T b, T c, Mode mode) {
  using W = wider_t<T>;
  const T r = std::fma(a, b, c);
  const bool product_negative = std::signbit(a) != std::signbit(b);
  int error;
  if (std::isinf(r) && std::isfinite(a) && std::isfinite(b) && std::isfinite(c)) {
    error = r > T(0) ? -1 : 1;
  } else {
    // a*b is exact in W; TwoSum in W gives a*b + c == s + t exactly; s - r is exact (Sterbenz: r is
    // within a factor 2 of s, or 0), so (s - r) + t has the sign of the exact error.
    const W p = W(a) * W(b);
    const W s = p + W(c);
    const W p_virtual = s - W(c);
    const W c_virtual = s - p_virtual;
    const W t = (p - p_virtual) + (W(c) - c_virtual);
    error = sign_of((s - W(r)) + t);
  }
  if (error == 0 && r == T(0)) return exact_zero_sum(r, product_negative, std::signbit(c), mode);
  return from_nearest(r, error, mode);
}

template <class T>
inline T div(T a, T b, Mode mode) {
  using W = wider_t<T>;
  const T q = a / b;
  // a/b - q has the sign of (a - q*b) / b; q*b is exact in W.
  return from_nearest(q, sign_of(W(a) - W(q) * W(b)) * (std::signbit(b) ? -1 : 1), mode);
}

template <class T>
inline T sqrt(T a, Mode mode) {
  using W = wider_t<T>;
  const T r = std::sqrt(a);
  return from_nearest(r, sign_of(W(a) - W(r) * W(r)), mode);
}

// A double rounded to float in `mode`: the error of the nearest float is exact in double.
inline float double_to_float(double d, Mode mode) {
  const float r = static_cast<float>(d);
  return from_nearest(r, sign_of(d - static_cast<double>(r)), mode);
}

// 1/sqrt(x) rounded to nearest float. The double estimate is within 2^-52 of the exact value, so the
// nearest float is it or a neighbour: each candidate's rounding interval is checked exactly, m*m*x
// against 1 for the interval's ends m (at most 74 bits: exact in binary128).
inline float rsqrt_nearest(float x) {
  float r = static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));
  if (!(x > 0.0f) || !std::isfinite(x) || !std::isfinite(r) || r == 0.0f) return r;
  const Binary128 bx = x;
  for (int step = 0; step < 2; ++step) {
    const float below = std::nextafter(r, 0.0f);
    const float above = std::nextafter(r, std::numeric_limits<float>::infinity());
    const Binary128 low_end = (static_cast<Binary128>(r) + below) / 2;
    const Binary128 high_end = (static_cast<Binary128>(r) + above) / 2;
    if (high_end * high_end * bx < 1) {
      r = above;  // the exact value is above r's interval
    } else if (low_end * low_end * bx > 1) {
      r = below;
    } else {
      break;
    }
  }
  return r;
}

}  // namespace gpulab::sim::rounding

// ---- single precision ------------------------------------------------------------------------------------
#define GPULAB_SIM_ROUNDED_FLOAT(suffix, mode)                                                            \
  inline float __fadd_##suffix(float x, float y) { return gpulab::sim::rounding::add(x, y, mode); }         \
  inline float __fsub_##suffix(float x, float y) { return gpulab::sim::rounding::add(x, -y, mode); }        \
  inline float __fmul_##suffix(float x, float y) { return gpulab::sim::rounding::mul(x, y, mode); }         \
  inline float __fmaf_##suffix(float x, float y, float z) { return gpulab::sim::rounding::fma(x, y, z, mode); } \
  inline float __fmaf_ieee_##suffix(float x, float y, float z) { return gpulab::sim::rounding::fma(x, y, z, mode); } \
  inline float __fdiv_##suffix(float x, float y) { return gpulab::sim::rounding::div(x, y, mode); }         \
  inline float __frcp_##suffix(float x) { return gpulab::sim::rounding::div(1.0f, x, mode); }               \
  inline float __fsqrt_##suffix(float x) { return gpulab::sim::rounding::sqrt(x, mode); }
#define GPULAB_SIM_ROUNDED_DOUBLE(suffix, mode)                                                              \
  inline double __dadd_##suffix(double x, double y) { return gpulab::sim::rounding::add(x, y, mode); }       \
  inline double __dsub_##suffix(double x, double y) { return gpulab::sim::rounding::add(x, -y, mode); }      \
  inline double __dmul_##suffix(double x, double y) { return gpulab::sim::rounding::mul(x, y, mode); }       \
  inline double __fma_##suffix(double x, double y, double z) { return gpulab::sim::rounding::fma(x, y, z, mode); } \
  inline double __ddiv_##suffix(double x, double y) { return gpulab::sim::rounding::div(x, y, mode); }       \
  inline double __drcp_##suffix(double x) { return gpulab::sim::rounding::div(1.0, x, mode); }               \
  inline double __dsqrt_##suffix(double x) { return gpulab::sim::rounding::sqrt(x, mode); }

GPULAB_SIM_ROUNDED_FLOAT(rn, gpulab::sim::rounding::Mode::nearest)
GPULAB_SIM_ROUNDED_FLOAT(rz, gpulab::sim::rounding::Mode::toward_zero)
GPULAB_SIM_ROUNDED_FLOAT(ru, gpulab::sim::rounding::Mode::up)
GPULAB_SIM_ROUNDED_FLOAT(rd, gpulab::sim::rounding::Mode::down)
GPULAB_SIM_ROUNDED_DOUBLE(rn, gpulab::sim::rounding::Mode::nearest)
GPULAB_SIM_ROUNDED_DOUBLE(rz, gpulab::sim::rounding::Mode::toward_zero)
GPULAB_SIM_ROUNDED_DOUBLE(ru, gpulab::sim::rounding::Mode::up)
GPULAB_SIM_ROUNDED_DOUBLE(rd, gpulab::sim::rounding::Mode::down)
#undef GPULAB_SIM_ROUNDED_FLOAT
#undef GPULAB_SIM_ROUNDED_DOUBLE

inline float __frsqrt_rn(float x) { return gpulab::sim::rounding::rsqrt_nearest(x); }
