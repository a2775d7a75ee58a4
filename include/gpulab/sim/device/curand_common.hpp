#pragma once
// What the simulator's cuRAND generators share (curand_philox.hpp, curand_xorwow.hpp,
// curand_mrg32k3a.hpp): the transforms from raw 32-bit words to uniform and normal numbers, with the
// arithmetic of cuRAND's device API, so that a word gives the same float or double that
// curand_uniform gives on a GPU.
//
// These headers are compiled twice: into a CUDA program by <curand_kernel.h> (gpulab-simcc's shadow,
// device code as host code), and into libgpulab_curand, whose host API generates with the same
// functions. So they include only the C++ library: no CUDA header, no vector type. A generator's
// functions are templates over the state type, which need only the fields cuRAND's state has (the
// shadow header's `curandStatePhilox4_32_10` with its uint4, or the library's own structs below).
//
// Where the GPU's result depends on its arithmetic:
//   - uniforms are exact: each is a word times a power of two plus half a step, one rounding, so a
//     fused or separate multiply-add gives the same bits;
//   - the float Box-Muller is cuRAND's host branch: the angle `y * (2pi / 2^32) + (pi / 2^32)` as a
//     multiply and an add, each rounded (kept apart: -ffp-contract must not fuse them), then the C
//     library's sinf and cosf. That is what the toolkit's host generator computes, bit for bit
//     (measured); a GPU fuses the angle into an FMA and takes __sincosf, so its last bits differ;
//   - the double Box-Muller is cuRAND's device branch, sincospi of the angle in half-turns (exact
//     reduction here), where the toolkit's host generator takes sin(v * pi): the two differ by a few
//     units of 2^-52 near the sine's zeros (docs/simulator.md states the bound measured against the
//     toolkit's generator).
#include <cmath>
#include <cstdint>

namespace gpulab::sim::curand {

struct Words2 {
  std::uint32_t x = 0, y = 0;
};
struct Words4 {
  std::uint32_t x = 0, y = 0, z = 0, w = 0;
};
template <class T>
struct Pair {
  T x, y;
};
template <class T>
struct Quad {
  T x, y, z, w;
};

// cuRAND's marks of a state's kept second normal (boxmuller_flag): which distribution it belongs to.
inline constexpr int extra_normal = 1;
inline constexpr int extra_log_normal = 2;

inline constexpr float two_pow_m32f = 0x1p-32f;
inline constexpr double two_pow_m32 = 0x1p-32;
inline constexpr double two_pow_m53 = 0x1p-53;
// 2*pi rounded to float, times 2^-32 (exact: a power of two): the step of Box-Muller's float angle.
inline constexpr float two_pi_f = 6.28318548202514648f;
inline constexpr float angle_step_f = two_pi_f * two_pow_m32f;

// (0, 1]: word / 2^32 plus half a step. The sum rounds up to 1 only for the top words.
inline float uniform_float(std::uint32_t x) { return static_cast<float>(x) * two_pow_m32f + two_pow_m32f / 2.0f; }

// (0, 1]: word / 2^32 plus a whole step (cuRAND's curand_uniform_double from one word).
inline double uniform_double_32(std::uint32_t x) { return static_cast<double>(x) * two_pow_m32 + two_pow_m32; }

// (0, 1) from 53 bits of two words: the second word's bits above the first's low 21 bits, xored, as
// cuRAND's "high quality" double takes them.
inline double uniform_double_53(std::uint32_t x, std::uint32_t y) {
  const std::uint64_t z = static_cast<std::uint64_t>(x) ^ (static_cast<std::uint64_t>(y) << 21);
  return static_cast<double>(z) * two_pow_m53 + two_pow_m53 / 2.0;
}

// sin(pi v) and cos(pi v) for the double Box-Muller, as CUDA's sincospi: v reduced exactly to
// [-1/4, 1/4] and a quadrant, then one evaluation in long double, rounded once.
inline void sincospi_double(double v, double* s, double* c) {
  const double r = std::fmod(v, 2.0);  // exact
  const int n = static_cast<int>(std::nearbyint(2.0 * r));
  const double f = r - static_cast<double>(n) / 2.0;  // exact, |f| <= 1/4
  const long double t = 3.141592653589793238462643383279502884L * static_cast<long double>(f);
  const long double sv = std::sin(t), cv = std::cos(t);
  switch (((n % 4) + 4) % 4) {
    case 0: *s = static_cast<double>(sv), *c = static_cast<double>(cv); break;
    case 1: *s = static_cast<double>(cv), *c = static_cast<double>(-sv); break;
    case 2: *s = static_cast<double>(-sv), *c = static_cast<double>(-cv); break;
    default: *s = static_cast<double>(-cv), *c = static_cast<double>(sv); break;
  }
}

// Box-Muller on two words, in float: radius from the first, angle from the second.
inline Pair<float> box_muller_float(std::uint32_t x, std::uint32_t y) {
  const float u = uniform_float(x);
  const volatile float product = static_cast<float>(y) * angle_step_f;  // rounded apart from the add
  const float v = product + angle_step_f / 2.0f;
  const float s = std::sqrt(-2.0f * std::log(u));
  return {std::sin(v) * s, std::cos(v) * s};
}

// Box-Muller on four words, in double: 53 bits for the radius, 53 for the angle (a multiple of 2^-52
// plus half a step, in half-turns, so that sincospi takes it exactly).
inline Pair<double> box_muller_double(std::uint32_t x0, std::uint32_t x1, std::uint32_t y0, std::uint32_t y1) {
  const std::uint64_t zx = static_cast<std::uint64_t>(x0) ^ (static_cast<std::uint64_t>(x1) << 21);
  const std::uint64_t zy = static_cast<std::uint64_t>(y0) ^ (static_cast<std::uint64_t>(y1) << 21);
  const double u = static_cast<double>(zx) * two_pow_m53 + two_pow_m53 / 2.0;
  const double v = static_cast<double>(zy) * (two_pow_m53 * 2.0) + two_pow_m53;
  const double s = std::sqrt(-2.0 * std::log(u));
  double sn = 0, cs = 0;
  sincospi_double(v, &sn, &cs);
  return {sn * s, cs * s};
}

// exp(mean + stddev * z), the multiply-add fused as nvcc fuses it.
inline float log_normal_of(float z, float mean, float stddev) { return std::exp(std::fma(stddev, z, mean)); }
inline double log_normal_of(double z, double mean, double stddev) { return std::exp(std::fma(stddev, z, mean)); }

// A normal rounded to the nearest count, for Poisson's large means: sqrt(lambda) * z + lambda + 1/2,
// truncated, as cuRAND writes it (its nvcc-compiled form fuses the first multiply-add).
inline unsigned int poisson_from_normal(double lambda, double z) {
  return static_cast<unsigned int>(std::fma(std::sqrt(lambda), z, lambda) + 0.5);
}

// cuRAND's Poisson rejection method for means in [64, 4000]: a proposal from an approximate inverse of
// the regularised incomplete gamma function, accepted against the Poisson probability. These are
// cuRAND's host formulas (1/sqrtf, expf, logf), which the GPU computes with its approximate
// instructions instead: a count may differ from a GPU's where a comparison falls within their error.
namespace poisson_detail {
inline float rsqrt(float a) { return 1.0f / std::sqrt(a); }

// Parameters of the approximation, which depend on the mean only (fitted constants of cuRAND's method).
struct GammaFit {
  float alpha, beta;
  explicit GammaFit(float a)
      : alpha(1.43248035075540910f * rsqrt(a - 0.12400979329415655f) + 0.00025361074907033f),
        beta(0.21096734870196546f * rsqrt(a - 1.97381164089999420f) + 0.94201734077887530f) {}
};

// P(a, x), regularised, approximately.
inline float pgammainc(const GammaFit& fit, float a, float x) {
  float t = fit.alpha * (a - x) - fit.beta;
  t = 1.0f + std::exp(t);
  t = t * t;
  return 1.0f / t;
}

// Its inverse in x.
inline float pgammaincinv(const GammaFit& fit, float a, float y) {
  float t = rsqrt(y) - 1.0f;
  t = std::log(t);
  t = fit.beta + t;
  return -t * (1.0f / fit.alpha) + a;
}

// log((a - 1)!) for a >= 1: exact table values up to 8!, Stirling's series beyond (the coefficients
// of cuRAND's method).
inline double lgamma_integer(int a) {
  static constexpr double small[] = {0.0, 0.0, 0.6931471805599453094, 1.791759469228055001, 3.178053830347945620,
                                     4.787491742782045994, 6.579251212010100995, 8.525161361065414300,
                                     10.60460290274525023};
  const double fa = std::fabs(static_cast<float>(a));
  if (a <= 8) return small[a >= 1 ? a - 1 : 8];
  double s = 1.0 / fa;
  const double t2 = s * s;
  double sum = -0.1633436431e-2;
  sum = sum * t2 + 0.83645878922e-3;
  sum = sum * t2 - 0.5951896861197e-3;
  sum = sum * t2 + 0.793650576493454e-3;
  sum = sum * t2 - 0.277777777735865004e-2;
  sum = sum * t2 + 0.833333333333331018375e-1;
  sum = sum * s + 0.918938533204672;
  s = 0.5 * std::log(fa);
  double t = fa - 0.5;
  s = s * t;
  t = s - fa;
  s = s + sum;
  return t + s;
}
}  // namespace poisson_detail

// Knuth's multiplication method for small means: the count of uniforms whose running product, started
// at e^lambda, stays above 1. `uniform` draws curand_uniform of the state.
template <class Uniform>
inline unsigned int poisson_knuth(float lambda, Uniform&& uniform) {
  unsigned int k = 0;
  float p = std::exp(lambda);
  do {
    ++k;
    p *= uniform();
  } while (p > 1.0);
  return k - 1;
}

template <class Uniform>
inline unsigned int poisson_rejection(float lambda, Uniform&& uniform) {
  using namespace poisson_detail;
  const GammaFit fit(lambda);
  const float logl = std::log(lambda);
  for (;;) {
    const float y = uniform();
    const float x = std::floor(pgammaincinv(fit, lambda, y));
    float z = uniform();
    const float v = (pgammainc(fit, lambda, x + 1.0f) - pgammainc(fit, lambda, x)) * 1.3f;
    z = z * v;
    const float t = std::exp(-lambda + x * logl - static_cast<float>(lgamma_integer(static_cast<int>(1.0f + x))));
    if (z < t && v >= 1e-20f) return static_cast<unsigned int>(x);
  }
}

}  // namespace gpulab::sim::curand

namespace gpulab::sim::curand {

// curand_normal and curand_log_normal (and their double forms) hand out the two results of one
// Box-Muller draw one at a time: the second is kept in the state, marked with the distribution it
// belongs to, so that a normal after a log-normal draws afresh.
template <class S, class Draw>
inline float one_of_pair(S& s, int mark, Draw&& draw) {
  if (s.boxmuller_flag != mark) {
    const Pair<float> v = draw();
    s.boxmuller_extra = v.y;
    s.boxmuller_flag = mark;
    return v.x;
  }
  s.boxmuller_flag = 0;
  return s.boxmuller_extra;
}
template <class S, class Draw>
inline double one_of_pair_double(S& s, int mark, Draw&& draw) {
  if (s.boxmuller_flag_double != mark) {
    const Pair<double> v = draw();
    s.boxmuller_extra_double = v.y;
    s.boxmuller_flag_double = mark;
    return v.x;
  }
  s.boxmuller_flag_double = 0;
  return s.boxmuller_extra_double;
}

}  // namespace gpulab::sim::curand
