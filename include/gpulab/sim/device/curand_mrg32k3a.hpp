#pragma once
// cuRAND's MRG32k3a generator for the simulator (curand_init, curand, curand_uniform's source,
// skipahead, skipahead_subsequence, skipahead_sequence), over any state type with cuRAND's fields
// (s1[3], s2[3], boxmuller_*).
//
// MRG32k3a (L'Ecuyer, "Good parameters and implementations for combined multiple recursive random
// number generators", 1999): two order-3 linear recurrences modulo the primes m1 and m2, combined by
// their difference. Each component's step is a 3x3 matrix modulo its prime, so n steps are that matrix
// to the n, applied to the three last values. cuRAND's subsequences are 2^76 steps apart and its
// sequences 2^127; the jumps use M^(2^j), j = 0 .. 190, computed at compile time by squaring.
#include <array>
#include <cstdint>

#include <gpulab/sim/device/curand_common.hpp>
#include <gpulab/sim/device/curand_xorwow.hpp>  // GPULAB_CURAND_UNINSTRUMENTED

namespace gpulab::sim::curand {

struct Mrg32k3aState {
  unsigned int s1[3] = {0, 0, 0}, s2[3] = {0, 0, 0};
  int boxmuller_flag = 0, boxmuller_flag_double = 0;
  float boxmuller_extra = 0;
  double boxmuller_extra_double = 0;
};

namespace mrg_detail {
inline constexpr std::uint64_t m1 = 4294967087u, m2 = 4294944443u;  // the components' prime moduli
inline constexpr std::uint64_t a12 = 1403580u, a13n = 810728u;       // x1[n] = a12 x1[n-2] - a13n x1[n-3]
inline constexpr std::uint64_t a21 = 527612u, a23n = 1370589u;       // x2[n] = a21 x2[n-1] - a23n x2[n-3]
inline constexpr double norm = 2.3283065498378288e-10;               // about 1 / (m1 + 1): (0, m1] -> (0, 1]
inline constexpr double bits_norm = 1.000000048662;                  // about (2^32 - 1) / m1: (0, m1] -> words
inline constexpr int subsequence_log2 = 76, sequence_log2 = 127, powers = 191;

using Mat = std::array<std::array<std::uint32_t, 3>, 3>;

constexpr Mat mul(const Mat& a, const Mat& b, std::uint64_t m) {
  Mat r{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      std::uint64_t sum = 0;
      for (int k = 0; k < 3; ++k) sum = (sum + static_cast<std::uint64_t>(a[i][k]) * b[k][j] % m) % m;
      r[i][j] = static_cast<std::uint32_t>(sum);
    }
  }
  return r;
}

struct Powers {
  Mat p1[powers], p2[powers];  // p1[j] = M1^(2^j) mod m1, p2[j] = M2^(2^j) mod m2
};

// One step of each component on (x[n-3], x[n-2], x[n-1]).
constexpr Powers make_powers() {
  Powers t{};
  t.p1[0] = Mat{{{0, 1, 0}, {0, 0, 1}, {static_cast<std::uint32_t>(m1 - a13n), static_cast<std::uint32_t>(a12), 0}}};
  t.p2[0] = Mat{{{0, 1, 0}, {0, 0, 1}, {static_cast<std::uint32_t>(m2 - a23n), 0, static_cast<std::uint32_t>(a21)}}};
  for (int j = 1; j < powers; ++j) {
    t.p1[j] = mul(t.p1[j - 1], t.p1[j - 1], m1);
    t.p2[j] = mul(t.p2[j - 1], t.p2[j - 1], m2);
  }
  return t;
}

inline constexpr Powers jump_powers = make_powers();

GPULAB_CURAND_UNINSTRUMENTED inline void apply(const Mat& a, std::uint32_t v[3], std::uint64_t m) {
  std::uint64_t r[3];
  for (int i = 0; i < 3; ++i) {
    std::uint64_t sum = 0;
    for (int k = 0; k < 3; ++k) sum = (sum + static_cast<std::uint64_t>(a[i][k]) * v[k] % m) % m;
    r[i] = sum;
  }
  for (int i = 0; i < 3; ++i) v[i] = static_cast<std::uint32_t>(r[i]);
}

// Both components n * 2^first steps on.
GPULAB_CURAND_UNINSTRUMENTED inline void jump(std::uint32_t s1[3], std::uint32_t s2[3], int first, std::uint64_t n) {
  for (int j = 0; n != 0; ++j, n >>= 1) {
    if (n & 1) {
      apply(jump_powers.p1[first + j], s1, m1);
      apply(jump_powers.p2[first + j], s2, m2);
    }
  }
}

template <class S>
inline void jump_state(S& s, int first, std::uint64_t n) {
  std::uint32_t a[3] = {s.s1[0], s.s1[1], s.s1[2]}, b[3] = {s.s2[0], s.s2[1], s.s2[2]};
  jump(a, b, first, n);
  for (int k = 0; k < 3; ++k) s.s1[k] = a[k], s.s2[k] = b[k];
}
}  // namespace mrg_detail

template <class S>
inline void mrg32k3a_skipahead(std::uint64_t n, S& s) {
  mrg_detail::jump_state(s, 0, n);
}
template <class S>
inline void mrg32k3a_skipahead_subsequence(std::uint64_t n, S& s) {
  mrg_detail::jump_state(s, mrg_detail::subsequence_log2, n);
}
template <class S>
inline void mrg32k3a_skipahead_sequence(std::uint64_t n, S& s) {
  mrg_detail::jump_state(s, mrg_detail::sequence_log2, n);
}

// Every value starts at 12345; a nonzero seed's salted halves multiply them modulo the primes (cuRAND's
// seeding); then the subsequence and the offset are skipped.
template <class S>
inline void mrg32k3a_init(std::uint64_t seed, std::uint64_t subsequence, std::uint64_t offset, S& s) {
  for (int i = 0; i < 3; ++i) s.s1[i] = s.s2[i] = 12345u;
  if (seed != 0) {
    const std::uint64_t x1 = static_cast<std::uint32_t>(seed) ^ 0x55555555u;
    const std::uint64_t x2 = static_cast<std::uint32_t>(seed >> 32) ^ 0xAAAAAAAAu;
    using mrg_detail::m1, mrg_detail::m2;
    s.s1[0] = static_cast<std::uint32_t>(x1 * s.s1[0] % m1);
    s.s1[1] = static_cast<std::uint32_t>(x2 * s.s1[1] % m1);
    s.s1[2] = static_cast<std::uint32_t>(x1 * s.s1[2] % m1);
    s.s2[0] = static_cast<std::uint32_t>(x2 * s.s2[0] % m2);
    s.s2[1] = static_cast<std::uint32_t>(x1 * s.s2[1] % m2);
    s.s2[2] = static_cast<std::uint32_t>(x2 * s.s2[2] % m2);
  }
  if (subsequence != 0) mrg32k3a_skipahead_subsequence(subsequence, s);
  if (offset != 0) mrg32k3a_skipahead(offset, s);
  s.boxmuller_flag = 0;
  s.boxmuller_flag_double = 0;
  s.boxmuller_extra = 0.f;
  s.boxmuller_extra_double = 0.;
}

// The next combined value, in (0, m1]: exact integer arithmetic (the products stay below 2^54).
template <class S>
inline double mrg32k3a_next_value(S& s) {
  using namespace mrg_detail;
  const std::uint64_t p1 = (a12 * s.s1[1] + a13n * (m1 - s.s1[0])) % m1;
  s.s1[0] = s.s1[1];
  s.s1[1] = s.s1[2];
  s.s1[2] = static_cast<std::uint32_t>(p1);
  const std::uint64_t p2 = (a21 * s.s2[2] + a23n * (m2 - s.s2[0])) % m2;
  s.s2[0] = s.s2[1];
  s.s2[1] = s.s2[2];
  s.s2[2] = static_cast<std::uint32_t>(p2);
  return p1 > p2 ? static_cast<double>(p1 - p2) : static_cast<double>(p1 + m1 - p2);
}

template <class S>
inline std::uint32_t mrg32k3a_next(S& s) {
  return static_cast<std::uint32_t>(mrg32k3a_next_value(s) * mrg_detail::bits_norm);
}
template <class S>
inline float mrg32k3a_uniform(S& s) {
  return static_cast<float>(mrg32k3a_next_value(s) * mrg_detail::norm);
}
template <class S>
inline double mrg32k3a_uniform_double(S& s) {
  return mrg32k3a_next_value(s) * mrg_detail::norm;
}

// Box-Muller on two of its uniforms (cuRAND's MRG32k3a normals take uniforms, not words).
template <class S>
inline Pair<float> mrg32k3a_box_muller(S& s) {
  const float x = mrg32k3a_uniform(s);
  const float y = mrg32k3a_uniform(s) * two_pi_f;
  const float r = std::sqrt(-2.0f * std::log(x));
  return {std::sin(y) * r, std::cos(y) * r};
}
template <class S>
inline Pair<double> mrg32k3a_box_muller_double(S& s) {
  const double x = mrg32k3a_uniform_double(s);
  const double y = mrg32k3a_uniform_double(s) * 2.0;
  const double r = std::sqrt(-2.0 * std::log(x));
  double sn = 0, cs = 0;
  sincospi_double(y, &sn, &cs);
  return {sn * r, cs * r};
}

}  // namespace gpulab::sim::curand
