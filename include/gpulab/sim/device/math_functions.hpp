#pragma once
// CUDA's math library for code compiled for the simulator (part of <gpulab/sim/device_runtime.hpp>):
// the single- and double-precision functions of CUDA's math API that the C library lacks (sinpi,
// sincospi, rsqrt, rcbrt, erfinv, erfcinv, erfcx, normcdf, normcdfinv, cyl_bessel_i0/i1, norm3d,
// norm4d, rnorm*, norm, rhypot, fdivide), CUDA's float overloads of them and of the C library's
// extensions (exp10, sincos, j0, y1, jn, ...), and the fast intrinsics (__expf, __sinf, __fdividef, ...).
//
// The rest of the API (sinf, exp2, lgamma, tgamma, remquo, frexp, nextafter, j0f, exp10f, sincosf, ...)
// is the C library's, declared by <math.h> in the global namespace as CUDA has it, with its float
// overloads from <cmath>; glibc's are within CUDA's documented bounds.
//
// Accuracy: each function here is computed in a wider type (double for float, x87 long double for
// double) and rounded once, so it is within 1 ulp, inside the bound CUDA documents, given beside each.
#include <cmath>
#include <limits>

#include <math.h>

#if !defined(__USE_GNU)
#error "gpulab: CUDA's exp10, sincos and Bessel functions come from the C library's GNU extensions: compile with _GNU_SOURCE (g++ defines it)"
#endif

namespace gpulab::sim::math {

using Wide = long double;
inline constexpr Wide pi = 3.141592653589793238462643383279502884L;
inline constexpr Wide sqrt2 = 1.414213562373095048801688724209698079L;
inline constexpr Wide two_over_sqrt_pi = 1.128379167095512573896158903121545172L;

// sin(pi x) and cos(pi x): x reduced exactly to f in [-1/4, 1/4] and a quadrant, then one evaluation in
// long double. IEEE 754's signs: sinpi(+-n) = +-0 for an integer n, cospi(n + 1/2) = +0.
template <class F>
inline void sincospi(F x, F* s, F* c) {
  if (!std::isfinite(x)) {
    *s = *c = std::numeric_limits<F>::quiet_NaN();
    return;
  }
  const F r = std::fmod(x, F(2));  // exact, in (-2, 2)
  const int n = static_cast<int>(std::nearbyint(F(2) * r));
  const F f = r - static_cast<F>(n) / F(2);  // exact: |f| <= 1/4
  const Wide t = pi * static_cast<Wide>(f);
  const Wide sv = std::sin(t), cv = std::cos(t);
  Wide sr, cr;
  switch (((n % 4) + 4) % 4) {
    case 0: sr = sv; cr = cv; break;
    case 1: sr = cv; cr = -sv; break;
    case 2: sr = -sv; cr = -cv; break;
    default: sr = -cv; cr = sv; break;
  }
  *s = sr == 0 ? std::copysign(F(0), x) : static_cast<F>(sr);
  *c = cr == 0 ? F(0) : static_cast<F>(cr);
}
template <class F>
inline F sinpi(F x) {
  F s, c;
  sincospi(x, &s, &c);
  return s;
}
template <class F>
inline F cospi(F x) {
  F s, c;
  sincospi(x, &s, &c);
  return c;
}

// erf(x) = y for |y| <= 1/2 by Newton's method on erf itself (no cancellation for small y).
inline Wide erfinv_central(Wide y) {
  Wide x = y / two_over_sqrt_pi * (1 + pi * y * y / 12);  // (sqrt(pi)/2) y (1 + pi y^2 / 12): close enough
  for (int i = 0; i < 40; ++i) {
    const Wide step = (std::erf(x) - y) / (two_over_sqrt_pi * std::exp(-x * x));
    x -= step;
    if (std::fabs(step) <= std::fabs(x) * 1e-19L) break;
  }
  return x;
}
// erfc(x) = z for 0 < z <= 1/2 by Newton's method on log erfc (tiny z down to double's subnormals).
inline Wide erfcinv_tail(Wide z) {
  // Start from Abramowitz & Stegun 26.2.23's normal quantile (error < 4.5e-4): erfcinv(z) = q(z/2)/sqrt(2).
  const Wide t = std::sqrt(-2 * std::log(z / 2));
  const Wide q = t - (2.515517L + t * (0.802853L + t * 0.010328L)) / (1 + t * (1.432788L + t * (0.189269L + t * 0.001308L)));
  Wide x = q / sqrt2;
  const Wide log_z = std::log(z);
  for (int i = 0; i < 60; ++i) {
    const Wide e = std::erfc(x);
    const Wide step = (std::log(e) - log_z) * e / (two_over_sqrt_pi * std::exp(-x * x));
    x += step;
    if (std::fabs(step) <= std::fabs(x) * 1e-19L) break;
  }
  return x;
}
inline Wide erfinv(Wide y) {
  if (std::isnan(y) || std::fabs(y) > 1) return std::numeric_limits<Wide>::quiet_NaN();
  if (std::fabs(y) == 1) return std::copysign(std::numeric_limits<Wide>::infinity(), y);
  if (std::fabs(y) <= 0.5L) return erfinv_central(y);
  return std::copysign(erfcinv_tail(1 - std::fabs(y)), y);  // 1 - |y| exact for |y| >= 1/2
}
inline Wide erfcinv(Wide z) {
  if (std::isnan(z) || z < 0 || z > 2) return std::numeric_limits<Wide>::quiet_NaN();
  if (z == 0) return std::numeric_limits<Wide>::infinity();
  if (z == 2) return -std::numeric_limits<Wide>::infinity();
  if (z < 0.5L) return erfcinv_tail(z);
  if (z > 1.5L) return -erfcinv_tail(2 - z);  // exact
  return erfinv_central(1 - z);               // exact for z in [1/2, 3/2]
}
// exp(x^2) erfc(x). x^2 is split exactly into hi + lo (fma), so exp(x^2) keeps long double's
// relative accuracy up to x ~ 106, where erfc leaves long double's range; beyond, the asymptotic series.
inline Wide erfcx(Wide x) {
  if (std::isnan(x)) return x;
  if (x > 100) {
    const Wide inv2 = 1 / (2 * x * x);
    Wide term = 1, sum = 1;
    for (int k = 1; k < 8; ++k) {
      term *= -(2 * k - 1) * inv2;
      sum += term;
    }
    return sum / (x * std::sqrt(pi));
  }
  const Wide hi = x * x;
  const Wide lo = std::fma(x, x, -hi);
  return std::exp(hi) * std::exp(lo) * std::erfc(x);
}
inline Wide normcdf(Wide x) { return 0.5L * std::erfc(-x / sqrt2); }
inline Wide normcdfinv(Wide p) {
  if (std::isnan(p) || p < 0 || p > 1) return std::numeric_limits<Wide>::quiet_NaN();
  return -sqrt2 * erfcinv(2 * p);
}

// Modified Bessel functions of the first kind, orders 0 and 1: the power series (all terms positive) up
// to |x| = 30, the asymptotic expansion e^x / sqrt(2 pi x) sum (-1)^k a_k(nu) / x^k beyond.
inline Wide bessel_i(int nu, Wide x) {
  const Wide ax = std::fabs(x);
  Wide value;
  if (std::isnan(x)) return x;
  if (std::isinf(x)) {
    value = std::numeric_limits<Wide>::infinity();
  } else if (ax <= 30) {
    const Wide q = ax * ax / 4;
    Wide term = nu == 0 ? 1 : ax / 2;
    Wide sum = term;
    for (int k = 1; k < 500; ++k) {
      term *= q / (static_cast<Wide>(k) * (k + nu));
      sum += term;
      if (term <= sum * 1e-21L) break;
    }
    value = sum;
  } else {
    const Wide mu = 4.0L * nu * nu;
    Wide term = 1, sum = 1;
    for (int k = 1; k < 60; ++k) {
      const Wide next = term * -(mu - (2.0L * k - 1) * (2.0L * k - 1)) / (8.0L * k * ax);
      if (std::fabs(next) >= std::fabs(term)) break;  // the asymptotic series starts to diverge
      term = next;
      sum += term;
      if (std::fabs(term) <= sum * 1e-21L) break;
    }
    value = std::exp(ax) / std::sqrt(2 * pi * ax) * sum;
  }
  return (nu == 1 && x < 0) ? -value : value;
}

// sqrt of a sum of squares: long double's range holds every double's square, so no scaling is needed;
// an infinite argument gives +inf even beside a NaN, as hypot.
template <class F>
inline Wide sum_of_squares(int dim, const F* p, bool* infinite) {
  Wide sum = 0;
  *infinite = false;
  for (int i = 0; i < dim; ++i) {
    if (std::isinf(p[i])) *infinite = true;
    sum += static_cast<Wide>(p[i]) * static_cast<Wide>(p[i]);
  }
  return sum;
}
template <class F>
inline F norm(int dim, const F* p) {
  bool infinite;
  const Wide s = sum_of_squares(dim, p, &infinite);
  return infinite ? std::numeric_limits<F>::infinity() : static_cast<F>(std::sqrt(s));
}
template <class F>
inline F rnorm(int dim, const F* p) {
  bool infinite;
  const Wide s = sum_of_squares(dim, p, &infinite);
  return infinite ? F(0) : static_cast<F>(1 / std::sqrt(s));
}

// __fdividef: CUDA's fast division gives 0 (NaN for an infinite x) when 2^126 < |y| < 2^128.
inline float fast_divide(float x, float y) {
  const float ay = std::fabs(y);
  if (ay > 0x1p126f && ay <= std::numeric_limits<float>::max()) {
    return std::isinf(x) ? std::numeric_limits<float>::quiet_NaN() : (std::isnan(x) ? x : 0.0f);
  }
  return x / y;
}

}  // namespace gpulab::sim::math

// ---- reciprocal roots and divisions -----------------------------------------------------------------------
// CUDA: rsqrtf 2 ulp, rsqrt 1 ulp, rcbrtf 1 ulp, rcbrt 1 ulp, rhypotf 2 ulp, rhypot 1 ulp; fdividef
// 2 ulp for |y| in [2^-126, 2^126], fdivide IEEE division.
inline float rsqrtf(float x) { return static_cast<float>(1.0L / std::sqrt(static_cast<long double>(x))); }
inline double rsqrt(double x) { return static_cast<double>(1.0L / std::sqrt(static_cast<long double>(x))); }
inline float rsqrt(float x) { return rsqrtf(x); }
inline float rcbrtf(float x) { return static_cast<float>(1.0L / std::cbrt(static_cast<long double>(x))); }
inline double rcbrt(double x) { return static_cast<double>(1.0L / std::cbrt(static_cast<long double>(x))); }
inline float rcbrt(float x) { return rcbrtf(x); }
inline float rhypotf(float x, float y) {
  return static_cast<float>(1.0L / std::hypot(static_cast<long double>(x), static_cast<long double>(y)));
}
inline double rhypot(double x, double y) {
  return static_cast<double>(1.0L / std::hypot(static_cast<long double>(x), static_cast<long double>(y)));
}
inline float fdividef(float x, float y) { return x / y; }
inline double fdivide(double x, double y) { return x / y; }

// ---- norms: CUDA norm3df/norm4df/rnorm3df/rnorm4df 3 ulp, normf 4, rnormf 3; the double ones 2 ulp ----
inline float norm3df(float a, float b, float c) {
  const float p[3] = {a, b, c};
  return gpulab::sim::math::norm(3, p);
}
inline float norm4df(float a, float b, float c, float d) {
  const float p[4] = {a, b, c, d};
  return gpulab::sim::math::norm(4, p);
}
inline float rnorm3df(float a, float b, float c) {
  const float p[3] = {a, b, c};
  return gpulab::sim::math::rnorm(3, p);
}
inline float rnorm4df(float a, float b, float c, float d) {
  const float p[4] = {a, b, c, d};
  return gpulab::sim::math::rnorm(4, p);
}
inline float normf(int dim, const float* p) { return gpulab::sim::math::norm(dim, p); }
inline float rnormf(int dim, const float* p) { return gpulab::sim::math::rnorm(dim, p); }
inline double norm3d(double a, double b, double c) {
  const double p[3] = {a, b, c};
  return gpulab::sim::math::norm(3, p);
}
inline double norm4d(double a, double b, double c, double d) {
  const double p[4] = {a, b, c, d};
  return gpulab::sim::math::norm(4, p);
}
inline double rnorm3d(double a, double b, double c) {
  const double p[3] = {a, b, c};
  return gpulab::sim::math::rnorm(3, p);
}
inline double rnorm4d(double a, double b, double c, double d) {
  const double p[4] = {a, b, c, d};
  return gpulab::sim::math::rnorm(4, p);
}
inline double norm(int dim, const double* p) { return gpulab::sim::math::norm(dim, p); }
inline double rnorm(int dim, const double* p) { return gpulab::sim::math::rnorm(dim, p); }

// ---- trigonometry of pi x: CUDA sinpif/cospif/sincospif 1 ulp, sinpi/cospi/sincospi 2 ulp --------------
inline float sinpif(float x) { return gpulab::sim::math::sinpi(x); }
inline float cospif(float x) { return gpulab::sim::math::cospi(x); }
inline void sincospif(float x, float* s, float* c) { gpulab::sim::math::sincospi(x, s, c); }
inline double sinpi(double x) { return gpulab::sim::math::sinpi(x); }
inline double cospi(double x) { return gpulab::sim::math::cospi(x); }
inline void sincospi(double x, double* s, double* c) { gpulab::sim::math::sincospi(x, s, c); }
inline float sinpi(float x) { return sinpif(x); }
inline float cospi(float x) { return cospif(x); }
inline void sincospi(float x, float* s, float* c) { sincospif(x, s, c); }
// sincos and sincosf are the C library's; CUDA adds the float overload.
inline void sincos(float x, float* s, float* c) { sincosf(x, s, c); }

// ---- error function inverses and relatives: CUDA erfinvf 2 ulp, erfinv 5; erfcinvf 4, erfcinv 6;
// erfcxf 4, erfcx 4; normcdff 5, normcdf 5; normcdfinvf 5, normcdfinv 8 ------------------------------------
inline float erfinvf(float y) { return static_cast<float>(gpulab::sim::math::erfinv(y)); }
inline double erfinv(double y) { return static_cast<double>(gpulab::sim::math::erfinv(y)); }
inline float erfcinvf(float z) { return static_cast<float>(gpulab::sim::math::erfcinv(z)); }
inline double erfcinv(double z) { return static_cast<double>(gpulab::sim::math::erfcinv(z)); }
inline float erfcxf(float x) { return static_cast<float>(gpulab::sim::math::erfcx(x)); }
inline double erfcx(double x) { return static_cast<double>(gpulab::sim::math::erfcx(x)); }
inline float normcdff(float x) { return static_cast<float>(gpulab::sim::math::normcdf(x)); }
inline double normcdf(double x) { return static_cast<double>(gpulab::sim::math::normcdf(x)); }
inline float normcdfinvf(float p) { return static_cast<float>(gpulab::sim::math::normcdfinv(p)); }
inline double normcdfinv(double p) { return static_cast<double>(gpulab::sim::math::normcdfinv(p)); }
inline float erfinv(float y) { return erfinvf(y); }
inline float erfcinv(float z) { return erfcinvf(z); }
inline float erfcx(float x) { return erfcxf(x); }
inline float normcdf(float x) { return normcdff(x); }
inline float normcdfinv(float p) { return normcdfinvf(p); }

// ---- Bessel functions: CUDA cyl_bessel_i0f/i1f 6 ulp, cyl_bessel_i0/i1 6 ulp; j0..yn are the C library's
// (glibc 2.35 and later: within CUDA's bounds, 9 ulp or 2.2e-6 absolute for float) ---------------------------
inline float cyl_bessel_i0f(float x) { return static_cast<float>(gpulab::sim::math::bessel_i(0, x)); }
inline float cyl_bessel_i1f(float x) { return static_cast<float>(gpulab::sim::math::bessel_i(1, x)); }
inline double cyl_bessel_i0(double x) { return static_cast<double>(gpulab::sim::math::bessel_i(0, x)); }
inline double cyl_bessel_i1(double x) { return static_cast<double>(gpulab::sim::math::bessel_i(1, x)); }
inline float cyl_bessel_i0(float x) { return cyl_bessel_i0f(x); }
inline float cyl_bessel_i1(float x) { return cyl_bessel_i1f(x); }
inline float j0(float x) { return j0f(x); }
inline float j1(float x) { return j1f(x); }
inline float jn(int n, float x) { return jnf(n, x); }
inline float y0(float x) { return y0f(x); }
inline float y1(float x) { return y1f(x); }
inline float yn(int n, float x) { return ynf(n, x); }
inline float exp10(float x) { return exp10f(x); }
// glibc before 2.39 computes exp10 to about 2 ulp; CUDA documents 1. This definition replaces the C
// library's for the program (host calls included, with the same meaning): long double pow, rounded once.
extern "C" inline double exp10(double x) noexcept { return static_cast<double>(std::pow(10.0L, static_cast<long double>(x))); }

// ---- fast intrinsics ------------------------------------------------------------------------------------------
// CUDA documents these as less accurate than the library functions (e.g. __expf 2 + 1.16 |1.16 x| ulp,
// __sinf 2^-21.41 absolute on [-pi, pi]); the simulator computes them as accurately as the library
// ones, which is within those bounds. __fdividef keeps CUDA's documented special case.
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return exp10f(x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __tanhf(float x) { return std::tanh(x); }
inline void __sincosf(float x, float* s, float* c) { sincosf(x, s, c); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __fdividef(float x, float y) { return gpulab::sim::math::fast_divide(x, y); }
// Clamps to [0, 1]; NaN becomes 0, as on the device.
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
