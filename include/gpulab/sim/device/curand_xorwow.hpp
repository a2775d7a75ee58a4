#pragma once
// cuRAND's XORWOW generator for the simulator (curand_init, curand, skipahead, skipahead_sequence),
// over any state type with cuRAND's fields (d, v[5], boxmuller_*).
//
// XORWOW (Marsaglia, "Xorshift RNGs", 2003): a 160-bit xorshift state v plus a Weyl counter d; each
// step shifts v by one word and returns the new last word plus d. The xorshift part is linear over
// GF(2), so n steps are one 160x160 bit matrix A^n applied to v (and d just grows by 362437 n). cuRAND
// numbers its subsequences 2^67 steps apart.
//
// The jumps use A^(2^j), j = 0 .. 130, computed here once, the first time a jump is made, by squaring
// the one-step matrix (found by stepping each basis vector), and kept for the process: j < 64 for an
// offset, 67 <= j < 131 for a subsequence number of up to 64 bits. A^n v is then one matrix-vector
// product for each set bit of n. The table (419 KiB) is a function-local static: built under C++'s
// thread-safe initialisation, in static storage, so that a simulated thread reading it reads the
// program's image, which memcheck allows.
#include <cstdint>
#include <cstring>

#include <gpulab/sim/device/curand_common.hpp>

// The table's construction and the products over it run as library code, not instrumented for the
// simulator's checks: they touch only the table and a copy of the state on the calling thread's stack
// (the state itself is read and written by the instrumented caller).
#if defined(__GNUC__)
#define GPULAB_CURAND_UNINSTRUMENTED __attribute__((no_sanitize_address, no_sanitize_thread))
#else
#define GPULAB_CURAND_UNINSTRUMENTED
#endif

namespace gpulab::sim::curand {

struct XorwowState {
  unsigned int d = 0, v[5] = {0, 0, 0, 0, 0};
  int boxmuller_flag = 0, boxmuller_flag_double = 0;
  float boxmuller_extra = 0;
  double boxmuller_extra_double = 0;
};

namespace xorwow_detail {
inline constexpr std::uint32_t weyl_step = 362437u;
inline constexpr int words = 5;
inline constexpr int bits = 32 * words;
inline constexpr int subsequence_log2 = 67;
inline constexpr int powers = subsequence_log2 + 64;

// The xorshift step alone (the linear part).
GPULAB_CURAND_UNINSTRUMENTED inline void step_linear(std::uint32_t v[words]) {
  const std::uint32_t t = v[0] ^ (v[0] >> 2);
  v[0] = v[1];
  v[1] = v[2];
  v[2] = v[3];
  v[3] = v[4];
  v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
}

// A bit matrix as the images of the 160 basis vectors: column[i] = M e_i, where e_i is bit (i % 32) of
// word i / 32. M v is the xor of the columns of v's set bits.
struct Matrix {
  std::uint32_t column[bits][words];
};

GPULAB_CURAND_UNINSTRUMENTED inline void apply(const Matrix& m, const std::uint32_t in[words], std::uint32_t out[words]) {
  std::uint32_t r[words] = {0, 0, 0, 0, 0};
  for (int w = 0; w < words; ++w) {
    for (std::uint32_t b = in[w]; b != 0; b &= b - 1) {
      const std::uint32_t* col = m.column[32 * w + __builtin_ctz(b)];
      for (int k = 0; k < words; ++k) r[k] ^= col[k];
    }
  }
  std::memcpy(out, r, sizeof r);
}

struct JumpTable {
  Matrix power[powers];  // power[j] = A^(2^j)

  GPULAB_CURAND_UNINSTRUMENTED JumpTable() {
    for (int i = 0; i < bits; ++i) {
      std::uint32_t e[words] = {0, 0, 0, 0, 0};
      e[i / 32] = 1u << (i % 32);
      step_linear(e);
      std::memcpy(power[0].column[i], e, sizeof e);
    }
    for (int j = 1; j < powers; ++j) {
      for (int i = 0; i < bits; ++i) apply(power[j - 1], power[j - 1].column[i], power[j].column[i]);
    }
  }
};

GPULAB_CURAND_UNINSTRUMENTED inline const JumpTable& jump_table() {
  static const JumpTable table;
  return table;
}

// v = A^(n * 2^first) v.
GPULAB_CURAND_UNINSTRUMENTED inline void jump(std::uint32_t v[words], int first, std::uint64_t n) {
  const JumpTable& t = jump_table();
  for (int j = 0; n != 0; ++j, n >>= 1) {
    if (n & 1) apply(t.power[first + j], v, v);
  }
}
}  // namespace xorwow_detail

// n steps on.
template <class S>
inline void xorwow_skipahead(std::uint64_t n, S& s) {
  std::uint32_t v[5] = {s.v[0], s.v[1], s.v[2], s.v[3], s.v[4]};
  xorwow_detail::jump(v, 0, n);
  for (int k = 0; k < 5; ++k) s.v[k] = v[k];
  s.d += xorwow_detail::weyl_step * static_cast<std::uint32_t>(n);
}

// n subsequences (2^67 steps each) on; d moves by a multiple of 2^32, that is not at all.
template <class S>
inline void xorwow_skipahead_sequence(std::uint64_t n, S& s) {
  std::uint32_t v[5] = {s.v[0], s.v[1], s.v[2], s.v[3], s.v[4]};
  xorwow_detail::jump(v, xorwow_detail::subsequence_log2, n);
  for (int k = 0; k < 5; ++k) s.v[k] = v[k];
}

// The seed's two halves, salted and multiplied by odd constants, fill the state (cuRAND's seeding:
// seed 0 gives Marsaglia's published initial state); then the subsequence and the offset are skipped.
template <class S>
inline void xorwow_init(std::uint64_t seed, std::uint64_t subsequence, std::uint64_t offset, S& s) {
  const std::uint32_t s0 = static_cast<std::uint32_t>(seed) ^ 0xaad26b49u;
  const std::uint32_t s1 = static_cast<std::uint32_t>(seed >> 32) ^ 0xf7dcefddu;
  const std::uint32_t t0 = 1099087573u * s0;
  const std::uint32_t t1 = 2591861531u * s1;
  s.d = 6615241u + t1 + t0;
  s.v[0] = 123456789u + t0;
  s.v[1] = 362436069u ^ t0;
  s.v[2] = 521288629u + t1;
  s.v[3] = 88675123u ^ t1;
  s.v[4] = 5783321u + t0;
  if (subsequence != 0) xorwow_skipahead_sequence(subsequence, s);
  if (offset != 0) xorwow_skipahead(offset, s);
  s.boxmuller_flag = 0;
  s.boxmuller_flag_double = 0;
  s.boxmuller_extra = 0.f;
  s.boxmuller_extra_double = 0.;
}

template <class S>
inline std::uint32_t xorwow_next(S& s) {
  const std::uint32_t t = s.v[0] ^ (s.v[0] >> 2);
  s.v[0] = s.v[1];
  s.v[1] = s.v[2];
  s.v[2] = s.v[3];
  s.v[3] = s.v[4];
  s.v[4] = (s.v[4] ^ (s.v[4] << 4)) ^ (t ^ (t << 1));
  s.d += xorwow_detail::weyl_step;
  return s.v[4] + s.d;
}

}  // namespace gpulab::sim::curand
