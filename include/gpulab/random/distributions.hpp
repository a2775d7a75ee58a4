#pragma once
// Uniform and normal floats from Philox words, with gpulab's own transforms: the logarithm, sine and
// cosine of Box-Muller are written here with every operation's rounding pinned (rounding.hpp), instead
// of calling logf/sincosf, whose last bits differ between glibc and CUDA's libdevice. So a (seed, offset)
// gives bit-identical floats on the host, in the simulator and on a GPU. Accuracy: a few units in the
// last place of float, which is what a benchmark input or a Monte Carlo sample needs.
#include <cstdint>

#include <gpulab/kernel_qualifiers.hpp>
#include <gpulab/random/philox.hpp>
#include <gpulab/random/rounding.hpp>

namespace gpulab::random {

struct Float2 {
  float x = 0, y = 0;
};

// [0, 1): the top 24 bits as a multiple of 2^-24. Exact: no rounding anywhere.
GPULAB_HD inline float uniform_float(std::uint32_t word) {
  return static_cast<float>(word >> 8) * 0x1p-24f;
}

// (0, 1]: never 0, so its logarithm is finite. Exact.
GPULAB_HD inline float uniform_float_open(std::uint32_t word) {
  return static_cast<float>((word >> 8) + 1u) * 0x1p-24f;
}

// (-1, 1), symmetric, never 0 (a zero input would hide a missed multiply-add in a benchmark): odd
// multiples of 2^-23. Exact.
GPULAB_HD inline float uniform_symmetric(std::uint32_t word) {
  const auto odd = static_cast<std::int32_t>((word >> 8) | 1u) - (1 << 23);  // odd, in (-2^23, 2^23)
  return static_cast<float>(odd) * 0x1p-23f;
}

// Uniform in [-limit, -1] U [1, limit], for integer products that must stay exact. limit in [1, 32768].
GPULAB_HD inline std::int32_t uniform_nonzero_int(std::uint32_t word, std::int32_t limit) {
  const auto v = static_cast<std::int32_t>((word >> 16) % static_cast<std::uint32_t>(2 * limit));
  return v < limit ? v - limit : v - limit + 1;
}

namespace detail {

// Natural logarithm of x in (0, 1] (any positive normal float works): x = m * 2^e with m in
// [sqrt(1/2), sqrt(2)), log(m) = 2 atanh(s) with s = (m - 1) / (m + 1), |s| < 0.172.
GPULAB_HD inline float log_positive(float x) {
  const std::uint32_t bits = float_bits(x);
  int e = static_cast<int>((bits >> 23) & 0xffu) - 127;
  std::uint32_t mantissa = (bits & 0x007fffffu) | 0x3f800000u;  // m in [1, 2)
  if (mantissa > 0x3fb504f3u) {  // m > sqrt(2): halve it
    mantissa -= 0x00800000u;
    e += 1;
  }
  const float f = sub_rn(bits_float(mantissa), 1.0f);  // exact (Sterbenz)
  const float s = div_rn(f, add_rn(2.0f, f));
  const float z = mul_rn(s, s);
  float p = 1.0f / 9.0f;  // atanh(s)/s - 1 = z/3 + z^2/5 + ...
  p = add_rn(1.0f / 7.0f, mul_rn(z, p));
  p = add_rn(1.0f / 5.0f, mul_rn(z, p));
  p = add_rn(1.0f / 3.0f, mul_rn(z, p));
  const float two_s = mul_rn(2.0f, s);
  const float log_m = add_rn(two_s, mul_rn(two_s, mul_rn(z, p)));
  // ln 2 split so that e * ln2_hi is exact for |e| < 256.
  constexpr float ln2_hi = 0.693145751953125f;
  constexpr float ln2_lo = 1.428606765330187e-06f;
  const auto ef = static_cast<float>(e);
  return add_rn(mul_rn(ef, ln2_hi), add_rn(mul_rn(ef, ln2_lo), log_m));
}

// sin and cos of 2*pi*u for u in [0, 1): the quadrant and the reflection are taken on u, exactly, so
// the polynomials only see [0, pi/4].
GPULAB_HD inline Float2 sincos_two_pi(float u) {
  const float t = mul_rn(u, 4.0f);  // exact
  const int quadrant = static_cast<int>(t);
  float r = sub_rn(t, static_cast<float>(quadrant));  // exact, in [0, 1)
  const bool reflect = r > 0.5f;
  if (reflect) r = sub_rn(1.0f, r);  // exact
  const float x = mul_rn(r, 1.57079632679489662f);
  const float x2 = mul_rn(x, x);
  float sp = 1.0f / 362880.0f;
  sp = add_rn(-1.0f / 5040.0f, mul_rn(x2, sp));
  sp = add_rn(1.0f / 120.0f, mul_rn(x2, sp));
  sp = add_rn(-1.0f / 6.0f, mul_rn(x2, sp));
  const float sin_x = add_rn(x, mul_rn(mul_rn(x, x2), sp));
  float cp = -1.0f / 3628800.0f;
  cp = add_rn(1.0f / 40320.0f, mul_rn(x2, cp));
  cp = add_rn(-1.0f / 720.0f, mul_rn(x2, cp));
  cp = add_rn(1.0f / 24.0f, mul_rn(x2, cp));
  cp = add_rn(-0.5f, mul_rn(x2, cp));
  const float cos_x = add_rn(1.0f, mul_rn(x2, cp));
  // sin(pi/2 r) = cos(pi/2 (1 - r)).
  const float s = reflect ? cos_x : sin_x;
  const float c = reflect ? sin_x : cos_x;
  switch (quadrant & 3) {
    case 0: return {s, c};
    case 1: return {c, -s};
    case 2: return {-s, -c};
    default: return {-c, s};
  }
}

}  // namespace detail

// Box-Muller: two independent standard normals from two words.
GPULAB_HD inline Float2 normal_pair(std::uint32_t word0, std::uint32_t word1) {
  const float radius = detail::sqrt_rn(detail::mul_rn(-2.0f, detail::log_positive(uniform_float_open(word0))));
  const Float2 sc = detail::sincos_two_pi(uniform_float(word1));
  return {detail::mul_rn(radius, sc.y), detail::mul_rn(radius, sc.x)};
}

// Element `offset` of the stream, one Philox block per four elements.
GPULAB_HD inline std::uint32_t word_at(const Philox& philox, std::uint64_t offset) { return philox.word(offset); }
GPULAB_HD inline float uniform_at(const Philox& philox, std::uint64_t offset) {
  return uniform_float(philox.word(offset));
}
GPULAB_HD inline float uniform_symmetric_at(const Philox& philox, std::uint64_t offset) {
  return uniform_symmetric(philox.word(offset));
}
// Normals pair words (0, 1) and (2, 3) of each block.
GPULAB_HD inline float normal_at(const Philox& philox, std::uint64_t offset) {
  const Philox4x32Counter b = philox.block(offset / 4);
  const unsigned pair = static_cast<unsigned>(offset % 4) / 2;
  const Float2 n = normal_pair(b.v[2 * pair], b.v[2 * pair + 1]);
  return (offset % 2) == 0 ? n.x : n.y;
}

}  // namespace gpulab::random
