#pragma once
// What the simulator's <cuda_fp16.h> and <cuda_bf16.h> share: the two 16-bit formats, correctly
// rounded conversions, and the scalar and pair operations written once for both. Each scalar type is
// a struct holding its bits in `__x` and naming its format as `gpulab_format`; each pair type holds two
// scalars `x` and `y` and names its scalar as `gpulab_scalar`.
//
// Results are bit-identical to CUDA's for conversions, +, -, *, /, fma, comparisons, min/max and sqrt:
//  - a value is rounded once, to nearest with ties to even, handling subnormals, overflow to infinity
//    and NaN as IEEE 754 does (round() below);
//  - * of two 16-bit values is exact in double; +, - and fma add in double with TwoSum, which gives
//    the addition's exact rounding error, carried along so that it can break a tie (for binary16 the
//    sum is exact anyway; bfloat16's exponent range is wider than double's precision);
//  - / and sqrt are rounded to double first, which is harmless: double carries more than twice the
//    format's precision plus two bits, so rounding twice gives the once-rounded result.
// Transcendental functions (hexp, hlog, hsin, ...) are the float function rounded to 16 bits, which
// may differ from CUDA's hardware approximations in the last place.
//
// One concept, 16-bit floating point, in one file of over 500 lines: the formats share every
// operation, so splitting by operation would split each operation's two halves.
#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace gpulab::sim::small_float {

struct binary16 {  // IEEE 754 half: 1 sign, 5 exponent, 10 fraction bits
  static constexpr int exponent_bits = 5, fraction_bits = 10;
};
struct bfloat16 {  // brain float: float's exponent, 7 fraction bits
  static constexpr int exponent_bits = 8, fraction_bits = 7;
};

template <class F>
struct layout {
  static constexpr int bias = (1 << (F::exponent_bits - 1)) - 1;
  static constexpr int min_exponent = 1 - bias;  // of the smallest normal number
  static constexpr std::uint16_t sign_bit = 0x8000;
  static constexpr std::uint16_t exponent_mask = static_cast<std::uint16_t>(((1u << F::exponent_bits) - 1u) << F::fraction_bits);
  static constexpr std::uint16_t fraction_mask = static_cast<std::uint16_t>((1u << F::fraction_bits) - 1u);
  static constexpr std::uint16_t infinity = exponent_mask;
  static constexpr std::uint16_t quiet_nan = 0x7fff;  // the canonical NaN CUDA's conversions and arithmetic give
};

// The exact value of `bits`.
template <class F>
inline double widen(std::uint16_t bits) {
  using L = layout<F>;
  const bool negative = (bits & L::sign_bit) != 0;
  const int exponent_field = (bits & L::exponent_mask) >> F::fraction_bits;
  const unsigned fraction = bits & L::fraction_mask;
  double magnitude;
  if (exponent_field == (1 << F::exponent_bits) - 1) {
    magnitude = fraction != 0 ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else if (exponent_field == 0) {
    magnitude = std::ldexp(static_cast<double>(fraction), L::min_exponent - F::fraction_bits);
  } else {
    magnitude = std::ldexp(static_cast<double>(fraction | (1u << F::fraction_bits)),
                           exponent_field - L::bias - F::fraction_bits);
  }
  return negative ? -magnitude : magnitude;
}

// `value + residual` rounded to F, to nearest with ties to even. `residual` is what an earlier double
// operation lost (|residual| at most half an ulp of `value`, same sign conventions as TwoSum): it only
// decides a value that lands exactly halfway between two numbers of F, or on one of them.
template <class F>
inline std::uint16_t round(double value, double residual = 0.0) {
  using L = layout<F>;
  if (std::isnan(value)) return L::quiet_nan;
  const std::uint16_t sign = std::signbit(value) ? L::sign_bit : 0;
  double magnitude = std::fabs(value);
  if (sign != 0) residual = -residual;
  if (std::isinf(magnitude)) return static_cast<std::uint16_t>(sign | L::infinity);
  if (magnitude == 0.0 && residual == 0.0) return sign;
  // The spacing of F's numbers at this magnitude (subnormal spacing below the normal range).
  int exponent = 0;
  std::frexp(magnitude, &exponent);  // magnitude in [2^(exponent-1), 2^exponent)
  const int quantum_exponent = std::max(exponent - 1, L::min_exponent) - F::fraction_bits;
  const double scaled = std::ldexp(magnitude, -quantum_exponent);  // exact: a power-of-two scaling
  double units = std::floor(scaled);
  const double fraction = scaled - units;  // exact: scaled has at most 53 significant bits
  // Up when past halfway, or exactly halfway and the residual says above, or a tie between two
  // numbers that goes to the even one. A residual never moves a result that lands on a number of F:
  // it is smaller than half the spacing.
  bool up = fraction > 0.5;
  if (fraction == 0.5) up = residual > 0.0 || (residual == 0.0 && std::fmod(units, 2.0) != 0.0);
  if (up) units += 1.0;
  // units * 2^quantum_exponent is the result; it may have carried into the next binade, or from the
  // subnormals into the normal range.
  const auto integer = static_cast<std::uint32_t>(units);
  if (integer == 0) return sign;
  const int top = 31 - __builtin_clz(integer);  // the leading bit's position
  int biased = 0;
  std::uint32_t fraction_field = integer;  // subnormal: no implicit bit, exponent field 0
  if (top >= F::fraction_bits) {
    biased = quantum_exponent + top + L::bias;
    fraction_field = (top > F::fraction_bits ? integer >> (top - F::fraction_bits) : integer) & L::fraction_mask;
    if (biased >= (1 << F::exponent_bits) - 1) return static_cast<std::uint16_t>(sign | L::infinity);
  }
  return static_cast<std::uint16_t>(sign | (biased << F::fraction_bits) | fraction_field);
}

// The results of the shared operations, rounded once.
template <class F>
inline std::uint16_t rounded_sum(double x, double y) {
  const double sum = x + y;
  if (!std::isfinite(sum)) return round<F>(sum);
  const double virtual_y = sum - x;  // TwoSum: sum + error == x + y exactly
  const double error = (x - (sum - virtual_y)) + (y - virtual_y);
  return round<F>(sum, error);
}
template <class F>
inline std::uint16_t add(std::uint16_t a, std::uint16_t b) {
  return rounded_sum<F>(widen<F>(a), widen<F>(b));
}
template <class F>
inline std::uint16_t sub(std::uint16_t a, std::uint16_t b) {
  return rounded_sum<F>(widen<F>(a), -widen<F>(b));
}
template <class F>
inline std::uint16_t mul(std::uint16_t a, std::uint16_t b) {
  return round<F>(widen<F>(a) * widen<F>(b));  // exact: at most 2 x 11 significant bits
}
template <class F>
inline std::uint16_t div(std::uint16_t a, std::uint16_t b) {
  return round<F>(widen<F>(a) / widen<F>(b));
}
template <class F>
inline std::uint16_t fma(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
  return rounded_sum<F>(widen<F>(a) * widen<F>(b), widen<F>(c));  // the product is exact
}
template <class F>
inline bool is_nan(std::uint16_t bits) {
  using L = layout<F>;
  return (bits & L::exponent_mask) == L::exponent_mask && (bits & L::fraction_mask) != 0;
}

}  // namespace gpulab::sim::small_float

// ---- operators, written once for __half and __nv_bfloat16 (found by argument-dependent lookup) ----
template <class T>
concept gpulab_small_float_scalar = requires { typename T::gpulab_format; };
template <class T>
concept gpulab_small_float_pair = requires { typename T::gpulab_scalar; };

namespace gpulab::sim::small_float {
template <class T>
inline T from_bits(std::uint16_t bits) {
  T r;
  r.__x = bits;
  return r;
}
template <class T>
inline T make(double v) {
  return from_bits<T>(round<typename T::gpulab_format>(v));
}
template <class T>
inline double value(T v) {
  return widen<typename T::gpulab_format>(v.__x);
}
// Float to integer: toward zero or to nearest even; NaN gives 0 and values out of range saturate, as on
// the GPU.
template <class I>
inline I to_integer(double v, bool nearest) {
  if (std::isnan(v)) return 0;
  v = nearest ? std::nearbyint(v) : std::trunc(v);
  if (v <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (v >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}

// The storage of a scalar type (`__half`, `__nv_bfloat16`): its bits, conversions from the arithmetic
// types (rounded to nearest even) and to float, and to and from its `_raw` struct. The CUDA type derives
// from it and inherits the constructors, so that both types are written once.
template <class F, class Raw>
struct scalar_storage {
  using gpulab_format = F;
  unsigned short __x;

  scalar_storage() = default;
  constexpr scalar_storage(const Raw& r) : __x(r.x) {}
  scalar_storage(float v) : __x(round<F>(v)) {}
  scalar_storage(double v) : __x(round<F>(v)) {}
  template <std::integral I>
  scalar_storage(I v) : __x(round<F>(static_cast<double>(v))) {}
  operator float() const { return static_cast<float>(widen<F>(__x)); }
  operator Raw() const { return Raw{__x}; }
};

// The storage of a pair type (`__half2`, `__nv_bfloat162`): two scalars, x the low half.
template <class S, class Raw2>
struct pair_storage {
  using gpulab_scalar = S;
  S x, y;

  pair_storage() = default;
  constexpr pair_storage(const S& a, const S& b) : x(a), y(b) {}
  pair_storage(const Raw2& r) : x(from_bits<S>(r.x)), y(from_bits<S>(r.y)) {}
  operator Raw2() const { return Raw2{x.__x, y.__x}; }
};
}  // namespace gpulab::sim::small_float

template <gpulab_small_float_scalar T>
inline T operator+(const T& a, const T& b) {
  return gpulab::sim::small_float::from_bits<T>(gpulab::sim::small_float::add<typename T::gpulab_format>(a.__x, b.__x));
}
template <gpulab_small_float_scalar T>
inline T operator-(const T& a, const T& b) {
  return gpulab::sim::small_float::from_bits<T>(gpulab::sim::small_float::sub<typename T::gpulab_format>(a.__x, b.__x));
}
template <gpulab_small_float_scalar T>
inline T operator*(const T& a, const T& b) {
  return gpulab::sim::small_float::from_bits<T>(gpulab::sim::small_float::mul<typename T::gpulab_format>(a.__x, b.__x));
}
template <gpulab_small_float_scalar T>
inline T operator/(const T& a, const T& b) {
  return gpulab::sim::small_float::from_bits<T>(gpulab::sim::small_float::div<typename T::gpulab_format>(a.__x, b.__x));
}
template <gpulab_small_float_scalar T>
inline T operator-(const T& a) {
  return gpulab::sim::small_float::from_bits<T>(static_cast<std::uint16_t>(a.__x ^ 0x8000u));
}
template <gpulab_small_float_scalar T>
inline T operator+(const T& a) {
  return a;
}
// Ordered comparisons: false when either is NaN (!= is true then), as IEEE 754 says.
template <gpulab_small_float_scalar T>
inline bool operator==(const T& a, const T& b) {
  return gpulab::sim::small_float::value(a) == gpulab::sim::small_float::value(b);
}
template <gpulab_small_float_scalar T>
inline bool operator!=(const T& a, const T& b) {
  return !(a == b);
}
template <gpulab_small_float_scalar T>
inline bool operator<(const T& a, const T& b) {
  return gpulab::sim::small_float::value(a) < gpulab::sim::small_float::value(b);
}
template <gpulab_small_float_scalar T>
inline bool operator<=(const T& a, const T& b) {
  return gpulab::sim::small_float::value(a) <= gpulab::sim::small_float::value(b);
}
template <gpulab_small_float_scalar T>
inline bool operator>(const T& a, const T& b) {
  return gpulab::sim::small_float::value(a) > gpulab::sim::small_float::value(b);
}
template <gpulab_small_float_scalar T>
inline bool operator>=(const T& a, const T& b) {
  return gpulab::sim::small_float::value(a) >= gpulab::sim::small_float::value(b);
}

// Pairs: elementwise; comparisons are true when both halves compare true (CUDA's __hbeq2 and friends).
template <gpulab_small_float_pair P>
inline P operator+(const P& a, const P& b) {
  return P{a.x + b.x, a.y + b.y};
}
template <gpulab_small_float_pair P>
inline P operator-(const P& a, const P& b) {
  return P{a.x - b.x, a.y - b.y};
}
template <gpulab_small_float_pair P>
inline P operator*(const P& a, const P& b) {
  return P{a.x * b.x, a.y * b.y};
}
template <gpulab_small_float_pair P>
inline P operator/(const P& a, const P& b) {
  return P{a.x / b.x, a.y / b.y};
}
template <gpulab_small_float_pair P>
inline P operator-(const P& a) {
  return P{-a.x, -a.y};
}
template <gpulab_small_float_pair P>
inline bool operator==(const P& a, const P& b) {
  return a.x == b.x && a.y == b.y;
}
template <gpulab_small_float_pair P>
inline bool operator!=(const P& a, const P& b) {
  return a.x != b.x && a.y != b.y;
}
template <gpulab_small_float_pair P>
inline bool operator<(const P& a, const P& b) {
  return a.x < b.x && a.y < b.y;
}
template <gpulab_small_float_pair P>
inline bool operator<=(const P& a, const P& b) {
  return a.x <= b.x && a.y <= b.y;
}
template <gpulab_small_float_pair P>
inline bool operator>(const P& a, const P& b) {
  return a.x > b.x && a.y > b.y;
}
template <gpulab_small_float_pair P>
inline bool operator>=(const P& a, const P& b) {
  return a.x >= b.x && a.y >= b.y;
}

// Compound assignments, for scalars and pairs alike.
template <class T>
  requires gpulab_small_float_scalar<T> || gpulab_small_float_pair<T>
inline T& operator+=(T& a, const T& b) {
  return a = a + b;
}
template <class T>
  requires gpulab_small_float_scalar<T> || gpulab_small_float_pair<T>
inline T& operator-=(T& a, const T& b) {
  return a = a - b;
}
template <class T>
  requires gpulab_small_float_scalar<T> || gpulab_small_float_pair<T>
inline T& operator*=(T& a, const T& b) {
  return a = a * b;
}
template <class T>
  requires gpulab_small_float_scalar<T> || gpulab_small_float_pair<T>
inline T& operator/=(T& a, const T& b) {
  return a = a / b;
}

// ---- CUDA's conversion functions, named by one pattern for both formats ----
// cuda_fp16.h and cuda_bf16.h spell the same conversions with the format's name in them: __float2half_rn
// and __float2bfloat16_rn, __half22float2 and __bfloat1622float2, and so on. Each header instantiates
// this once with its scalar S, pair P and their names s and p (half, half2 or bfloat16, bfloat162).
// Integer conversions are toward zero (_rz) or to nearest even (_rn); NaN gives 0 and values out of
// range saturate, as on the GPU.
#define GPULAB_SMALL_FLOAT_CONVERSIONS(S, P, s, p)                                                              \
  inline S __float2##s(float a) { return S(a); }                                                               \
  inline S __float2##s##_rn(float a) { return S(a); }                                                          \
  inline S __double2##s(double a) { return S(a); }                                                             \
  inline float __##s##2float(S a) { return static_cast<float>(a); }                                            \
  inline P __float2##p##_rn(float a) { return P(S(a), S(a)); }                                                 \
  inline P __floats2##p##_rn(float a, float b) { return P(S(a), S(b)); }                                       \
  inline P __float22##p##_rn(float2 a) { return P(S(a.x), S(a.y)); }                                           \
  inline float2 __##p##2float2(P a) { return make_float2(static_cast<float>(a.x), static_cast<float>(a.y)); } \
  inline P __halves2##p(S a, S b) { return P(a, b); }                                                          \
  inline P __##s##2##p(S a) { return P(a, a); }                                                                \
  inline S __low2##s(P a) { return a.x; }                                                                      \
  inline S __high2##s(P a) { return a.y; }                                                                     \
  inline float __low2float(P a) { return static_cast<float>(a.x); }                                            \
  inline float __high2float(P a) { return static_cast<float>(a.y); }                                           \
  inline P __lows2##p(P a, P b) { return P(a.x, b.x); }                                                        \
  inline P __highs2##p(P a, P b) { return P(a.y, b.y); }                                                       \
  inline P __lowhigh2highlow(P a) { return P(a.y, a.x); }                                                      \
  inline S __int2##s##_rn(int i) { return S(i); }                                                              \
  inline S __uint2##s##_rn(unsigned i) { return S(i); }                                                        \
  inline S __short2##s##_rn(short i) { return S(i); }                                                          \
  inline S __ll2##s##_rn(long long i) { return S(i); }                                                         \
  inline int __##s##2int_rz(S a) { return gpulab::sim::small_float::to_integer<int>(gpulab::sim::small_float::value(a), false); } \
  inline int __##s##2int_rn(S a) { return gpulab::sim::small_float::to_integer<int>(gpulab::sim::small_float::value(a), true); } \
  inline unsigned __##s##2uint_rz(S a) {                                                                       \
    return gpulab::sim::small_float::to_integer<unsigned>(gpulab::sim::small_float::value(a), false);          \
  }                                                                                                            \
  inline short __##s##2short_rz(S a) {                                                                         \
    return gpulab::sim::small_float::to_integer<short>(gpulab::sim::small_float::value(a), false);             \
  }                                                                                                            \
  inline long long __##s##2ll_rz(S a) {                                                                        \
    return gpulab::sim::small_float::to_integer<long long>(gpulab::sim::small_float::value(a), false);         \
  }                                                                                                            \
  inline unsigned short __##s##_as_ushort(S a) { return a.__x; }                                               \
  inline short __##s##_as_short(S a) { return static_cast<short>(a.__x); }                                     \
  inline S __ushort_as_##s(unsigned short b) { return gpulab::sim::small_float::from_bits<S>(b); }             \
  inline S __short_as_##s(short b) { return gpulab::sim::small_float::from_bits<S>(static_cast<std::uint16_t>(b)); } \
  inline S __ldg(const S* a) { return *a; }                                                                    \
  inline P __ldg(const P* a) { return *a; }                                                                    \
  GPULAB_SIM_UNCHECKED inline S atomicAdd(S* address, S val) {                                                \
    return gpulab::sim::detail::atomic_update(address, [val](S old) { return old + val; });                    \
  }                                                                                                            \
  GPULAB_SIM_UNCHECKED inline P atomicAdd(P* address, P val) {                                                \
    return gpulab::sim::detail::atomic_update(address, [val](P old) { return old + val; });                    \
  }

// ---- CUDA's functions on both formats (cuda_fp16.h and cuda_bf16.h overload the same names) ----
template <gpulab_small_float_scalar T>
inline T __hadd(T a, T b) {
  return a + b;
}
template <gpulab_small_float_scalar T>
inline T __hsub(T a, T b) {
  return a - b;
}
template <gpulab_small_float_scalar T>
inline T __hmul(T a, T b) {
  return a * b;
}
template <gpulab_small_float_scalar T>
inline T __hdiv(T a, T b) {
  return a / b;
}
template <gpulab_small_float_scalar T>
inline T __hneg(T a) {
  return -a;
}
template <gpulab_small_float_scalar T>
inline T __habs(T a) {
  return gpulab::sim::small_float::from_bits<T>(static_cast<std::uint16_t>(a.__x & 0x7fffu));
}
template <gpulab_small_float_scalar T>
inline T __hfma(T a, T b, T c) {
  return gpulab::sim::small_float::from_bits<T>(gpulab::sim::small_float::fma<typename T::gpulab_format>(a.__x, b.__x, c.__x));
}
// _sat: clamped to [0, 1], NaN to 0 (exact: 0 and 1 are numbers of both formats).
template <gpulab_small_float_scalar T>
inline T gpulab_saturate(T a) {
  const double v = gpulab::sim::small_float::value(a);
  return gpulab::sim::small_float::make<T>(v > 0.0 ? (v < 1.0 ? v : 1.0) : 0.0);
}
template <gpulab_small_float_scalar T>
inline T __hadd_sat(T a, T b) {
  return gpulab_saturate(a + b);
}
template <gpulab_small_float_scalar T>
inline T __hsub_sat(T a, T b) {
  return gpulab_saturate(a - b);
}
template <gpulab_small_float_scalar T>
inline T __hmul_sat(T a, T b) {
  return gpulab_saturate(a * b);
}
template <gpulab_small_float_scalar T>
inline T __hfma_sat(T a, T b, T c) {
  return gpulab_saturate(__hfma(a, b, c));
}
template <gpulab_small_float_scalar T>
inline bool __hisnan(T a) {
  return gpulab::sim::small_float::is_nan<typename T::gpulab_format>(a.__x);
}
template <gpulab_small_float_scalar T>
inline int __hisinf(T a) {
  constexpr std::uint16_t inf = gpulab::sim::small_float::layout<typename T::gpulab_format>::infinity;
  return a.__x == inf ? 1 : a.__x == (inf | 0x8000u) ? -1 : 0;
}
template <gpulab_small_float_scalar T>
inline bool __heq(T a, T b) {
  return a == b;
}
template <gpulab_small_float_scalar T>
inline bool __hne(T a, T b) {
  return !__hisnan(a) && !__hisnan(b) && a != b;
}
template <gpulab_small_float_scalar T>
inline bool __hlt(T a, T b) {
  return a < b;
}
template <gpulab_small_float_scalar T>
inline bool __hle(T a, T b) {
  return a <= b;
}
template <gpulab_small_float_scalar T>
inline bool __hgt(T a, T b) {
  return a > b;
}
template <gpulab_small_float_scalar T>
inline bool __hge(T a, T b) {
  return a >= b;
}
template <gpulab_small_float_scalar T>
inline bool __hequ(T a, T b) {
  return !(a < b) && !(a > b);
}
template <gpulab_small_float_scalar T>
inline bool __hneu(T a, T b) {
  return !(a == b);
}
template <gpulab_small_float_scalar T>
inline bool __hltu(T a, T b) {
  return !(a >= b);
}
template <gpulab_small_float_scalar T>
inline bool __hleu(T a, T b) {
  return !(a > b);
}
template <gpulab_small_float_scalar T>
inline bool __hgtu(T a, T b) {
  return !(a <= b);
}
template <gpulab_small_float_scalar T>
inline bool __hgeu(T a, T b) {
  return !(a < b);
}
// max/min: a NaN operand yields the other, two NaNs the canonical NaN; +0 is above -0.
template <gpulab_small_float_scalar T>
inline T __hmax(T a, T b) {
  const T canonical_nan = gpulab::sim::small_float::from_bits<T>(0x7fffu);
  if (__hisnan(a)) return __hisnan(b) ? canonical_nan : b;
  if (__hisnan(b)) return a;
  return a > b || (a == b && (b.__x & 0x8000u) != 0) ? a : b;
}
template <gpulab_small_float_scalar T>
inline T __hmin(T a, T b) {
  const T canonical_nan = gpulab::sim::small_float::from_bits<T>(0x7fffu);
  if (__hisnan(a)) return __hisnan(b) ? canonical_nan : b;
  if (__hisnan(b)) return a;
  return a < b || (a == b && (a.__x & 0x8000u) != 0) ? a : b;
}
// Math: sqrt, reciprocal and rounding are correctly rounded; the rest are float's functions rounded.
template <gpulab_small_float_scalar T>
inline T hsqrt(T a) {
  return gpulab::sim::small_float::make<T>(std::sqrt(gpulab::sim::small_float::value(a)));
}
template <gpulab_small_float_scalar T>
inline T hrsqrt(T a) {
  return gpulab::sim::small_float::make<T>(1.0 / std::sqrt(gpulab::sim::small_float::value(a)));
}
template <gpulab_small_float_scalar T>
inline T hrcp(T a) {
  return gpulab::sim::small_float::make<T>(1.0 / gpulab::sim::small_float::value(a));
}
template <gpulab_small_float_scalar T>
inline T hfloor(T a) {
  return gpulab::sim::small_float::make<T>(std::floor(gpulab::sim::small_float::value(a)));
}
template <gpulab_small_float_scalar T>
inline T hceil(T a) {
  return gpulab::sim::small_float::make<T>(std::ceil(gpulab::sim::small_float::value(a)));
}
template <gpulab_small_float_scalar T>
inline T htrunc(T a) {
  return gpulab::sim::small_float::make<T>(std::trunc(gpulab::sim::small_float::value(a)));
}
template <gpulab_small_float_scalar T>
inline T hrint(T a) {
  return gpulab::sim::small_float::make<T>(std::nearbyint(gpulab::sim::small_float::value(a)));
}
template <gpulab_small_float_scalar T>
inline T hexp(T a) {
  return gpulab::sim::small_float::make<T>(std::exp(static_cast<float>(gpulab::sim::small_float::value(a))));
}
template <gpulab_small_float_scalar T>
inline T hexp2(T a) {
  return gpulab::sim::small_float::make<T>(std::exp2(static_cast<float>(gpulab::sim::small_float::value(a))));
}
template <gpulab_small_float_scalar T>
inline T hlog(T a) {
  return gpulab::sim::small_float::make<T>(std::log(static_cast<float>(gpulab::sim::small_float::value(a))));
}
template <gpulab_small_float_scalar T>
inline T hlog2(T a) {
  return gpulab::sim::small_float::make<T>(std::log2(static_cast<float>(gpulab::sim::small_float::value(a))));
}
template <gpulab_small_float_scalar T>
inline T hsin(T a) {
  return gpulab::sim::small_float::make<T>(std::sin(static_cast<float>(gpulab::sim::small_float::value(a))));
}
template <gpulab_small_float_scalar T>
inline T hcos(T a) {
  return gpulab::sim::small_float::make<T>(std::cos(static_cast<float>(gpulab::sim::small_float::value(a))));
}

// Pairs: each operation on both halves. The comparisons __heq2 and friends give 1 or 0 per half;
// __hbeq2 and friends are true when both halves compare true.
template <gpulab_small_float_pair P>
inline P gpulab_pair_map(P a, auto f) {
  return P{f(a.x), f(a.y)};
}
template <gpulab_small_float_pair P>
inline P gpulab_pair_map(P a, P b, auto f) {
  return P{f(a.x, b.x), f(a.y, b.y)};
}
template <gpulab_small_float_pair P>
inline P __hadd2(P a, P b) { return a + b; }
template <gpulab_small_float_pair P>
inline P __hsub2(P a, P b) { return a - b; }
template <gpulab_small_float_pair P>
inline P __hmul2(P a, P b) { return a * b; }
template <gpulab_small_float_pair P>
inline P __h2div(P a, P b) { return a / b; }
template <gpulab_small_float_pair P>
inline P __hneg2(P a) { return -a; }
template <gpulab_small_float_pair P>
inline P __habs2(P a) { return gpulab_pair_map(a, [](auto h) { return __habs(h); }); }
template <gpulab_small_float_pair P>
inline P __hadd2_sat(P a, P b) { return gpulab_pair_map(a, b, [](auto x, auto y) { return __hadd_sat(x, y); }); }
template <gpulab_small_float_pair P>
inline P __hmul2_sat(P a, P b) { return gpulab_pair_map(a, b, [](auto x, auto y) { return __hmul_sat(x, y); }); }
template <gpulab_small_float_pair P>
inline P __hfma2(P a, P b, P c) {
  return P{__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};
}
template <gpulab_small_float_pair P>
inline P __hmax2(P a, P b) { return gpulab_pair_map(a, b, [](auto x, auto y) { return __hmax(x, y); }); }
template <gpulab_small_float_pair P>
inline P __hmin2(P a, P b) { return gpulab_pair_map(a, b, [](auto x, auto y) { return __hmin(x, y); }); }
template <gpulab_small_float_pair P>
inline P h2sqrt(P a) { return gpulab_pair_map(a, [](auto h) { return hsqrt(h); }); }
template <gpulab_small_float_pair P>
inline P h2rcp(P a) { return gpulab_pair_map(a, [](auto h) { return hrcp(h); }); }
template <gpulab_small_float_pair P>
inline P h2exp(P a) { return gpulab_pair_map(a, [](auto h) { return hexp(h); }); }
template <gpulab_small_float_pair P>
inline P h2log(P a) { return gpulab_pair_map(a, [](auto h) { return hlog(h); }); }
template <gpulab_small_float_pair P>
inline P __hisnan2(P a) {
  return gpulab_pair_map(a, [](auto h) { return gpulab::sim::small_float::make<decltype(h)>(__hisnan(h) ? 1.0 : 0.0); });
}
#define GPULAB_SMALL_FLOAT_PAIR_COMPARISON(op)                                                               \
  template <gpulab_small_float_pair P>                                                                     \
  inline P op##2(P a, P b) {                                                                               \
    return gpulab_pair_map(a, b, [](auto x, auto y) {                                                     \
      return gpulab::sim::small_float::make<decltype(x)>(op(x, y) ? 1.0 : 0.0);                           \
    });                                                                                                    \
  }
GPULAB_SMALL_FLOAT_PAIR_COMPARISON(__heq)
GPULAB_SMALL_FLOAT_PAIR_COMPARISON(__hne)
GPULAB_SMALL_FLOAT_PAIR_COMPARISON(__hlt)
GPULAB_SMALL_FLOAT_PAIR_COMPARISON(__hle)
GPULAB_SMALL_FLOAT_PAIR_COMPARISON(__hgt)
GPULAB_SMALL_FLOAT_PAIR_COMPARISON(__hge)
#undef GPULAB_SMALL_FLOAT_PAIR_COMPARISON
template <gpulab_small_float_pair P>
inline bool __hbeq2(P a, P b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }
template <gpulab_small_float_pair P>
inline bool __hbne2(P a, P b) { return __hne(a.x, b.x) && __hne(a.y, b.y); }
template <gpulab_small_float_pair P>
inline bool __hblt2(P a, P b) { return __hlt(a.x, b.x) && __hlt(a.y, b.y); }
template <gpulab_small_float_pair P>
inline bool __hble2(P a, P b) { return __hle(a.x, b.x) && __hle(a.y, b.y); }
template <gpulab_small_float_pair P>
inline bool __hbgt2(P a, P b) { return __hgt(a.x, b.x) && __hgt(a.y, b.y); }
template <gpulab_small_float_pair P>
inline bool __hbge2(P a, P b) { return __hge(a.x, b.x) && __hge(a.y, b.y); }
