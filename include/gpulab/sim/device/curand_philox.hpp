#pragma once
// cuRAND's Philox4_32_10 generator for the simulator: the device API's state machine (curand_init,
// curand, curand4, skipahead, skipahead_sequence) over any state type with cuRAND's fields
// (ctr, output, key, STATE, boxmuller_*), so that <curand_kernel.h>'s curandStatePhilox4_32_10_t and
// libgpulab_curand's PhiloxState run the same code.
//
// Philox4x32-10 (Salmon et al., SC'11) maps a 128-bit counter and a 64-bit key to four words. cuRAND's
// sequence for (seed, subsequence, offset): key = seed; the counter's upper 64 bits count
// subsequences, its lower 64 bits count blocks of four words within one; `output` holds the current
// block and STATE the next word of it to hand out.
#include <cstdint>

#include <gpulab/sim/device/curand_common.hpp>

namespace gpulab::sim::curand {

struct PhiloxState {
  Words4 ctr, output;
  Words2 key;
  unsigned int STATE = 0;
  int boxmuller_flag = 0, boxmuller_flag_double = 0;
  float boxmuller_extra = 0;
  double boxmuller_extra_double = 0;
};

namespace philox_detail {
inline constexpr std::uint32_t m0 = 0xD2511F53u, m1 = 0xCD9E8D57u;  // the rounds' multipliers
inline constexpr std::uint32_t w0 = 0x9E3779B9u, w1 = 0xBB67AE85u;  // the key schedule's Weyl increments

// One block: ten rounds, each two 32x32->64 products whose halves are mixed with the other words and
// the round's key.
inline void block(const std::uint32_t in[4], std::uint32_t k0, std::uint32_t k1, std::uint32_t out[4]) {
  std::uint32_t c0 = in[0], c1 = in[1], c2 = in[2], c3 = in[3];
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t p0 = static_cast<std::uint64_t>(m0) * c0;
    const std::uint64_t p1 = static_cast<std::uint64_t>(m1) * c2;
    const std::uint32_t n0 = static_cast<std::uint32_t>(p1 >> 32) ^ c1 ^ k0;
    const std::uint32_t n2 = static_cast<std::uint32_t>(p0 >> 32) ^ c3 ^ k1;
    c1 = static_cast<std::uint32_t>(p1);
    c3 = static_cast<std::uint32_t>(p0);
    c0 = n0;
    c2 = n2;
    k0 += w0;
    k1 += w1;
  }
  out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}

template <class S>
inline void refill(S& s) {
  const std::uint32_t in[4] = {s.ctr.x, s.ctr.y, s.ctr.z, s.ctr.w};
  std::uint32_t out[4];
  block(in, s.key.x, s.key.y, out);
  s.output.x = out[0], s.output.y = out[1], s.output.z = out[2], s.output.w = out[3];
}

// The counter's next block.
template <class S>
inline void increment(S& s) {
  if (++s.ctr.x) return;
  if (++s.ctr.y) return;
  if (++s.ctr.z) return;
  ++s.ctr.w;
}

// n blocks on, in the lower 64 bits with a carry into the upper ones, as cuRAND carries it: a carry
// out of the low word into a high-word addend of 2^32 - 1 is dropped there, which only a skip of
// about 2^64 blocks can meet, and cuRAND's sequence has it too.
template <class S>
inline void increment(S& s, std::uint64_t n) {
  const auto lo = static_cast<std::uint32_t>(n);
  auto hi = static_cast<std::uint32_t>(n >> 32);
  s.ctr.x += lo;
  if (s.ctr.x < lo) ++hi;
  s.ctr.y += hi;
  if (hi <= s.ctr.y) return;
  if (++s.ctr.z) return;
  ++s.ctr.w;
}

// n subsequences on: the upper 64 bits of the counter.
template <class S>
inline void increment_high(S& s, std::uint64_t n) {
  const auto lo = static_cast<std::uint32_t>(n);
  auto hi = static_cast<std::uint32_t>(n >> 32);
  s.ctr.z += lo;
  if (s.ctr.z < lo) ++hi;
  s.ctr.w += hi;
}
}  // namespace philox_detail

// n words on.
template <class S>
inline void philox_skipahead(std::uint64_t n, S& s) {
  s.STATE += static_cast<unsigned int>(n & 3);
  n /= 4;
  if (s.STATE > 3) {
    n += 1;
    s.STATE -= 4;
  }
  philox_detail::increment(s, n);
  philox_detail::refill(s);
}

// n subsequences (2^66 words each) on.
template <class S>
inline void philox_skipahead_sequence(std::uint64_t n, S& s) {
  philox_detail::increment_high(s, n);
  philox_detail::refill(s);
}

template <class S>
inline void philox_init(std::uint64_t seed, std::uint64_t subsequence, std::uint64_t offset, S& s) {
  s.ctr.x = s.ctr.y = s.ctr.z = s.ctr.w = 0;
  s.key.x = static_cast<std::uint32_t>(seed);
  s.key.y = static_cast<std::uint32_t>(seed >> 32);
  s.STATE = 0;
  s.boxmuller_flag = 0;
  s.boxmuller_flag_double = 0;
  s.boxmuller_extra = 0.f;
  s.boxmuller_extra_double = 0.;
  philox_skipahead_sequence(subsequence, s);
  philox_skipahead(offset, s);
}

template <class S>
inline std::uint32_t philox_next(S& s) {
  std::uint32_t r;
  switch (s.STATE++) {
    case 1: r = s.output.y; break;
    case 2: r = s.output.z; break;
    case 3: r = s.output.w; break;
    default: r = s.output.x; break;
  }
  if (s.STATE == 4) {
    philox_detail::increment(s);
    philox_detail::refill(s);
    s.STATE = 0;
  }
  return r;
}

// The next four words (curand4): the rest of the current block and the start of the next; the
// position within a block is kept.
template <class S>
inline Words4 philox_next4(S& s) {
  const Words4 t{s.output.x, s.output.y, s.output.z, s.output.w};
  philox_detail::increment(s);
  philox_detail::refill(s);
  switch (s.STATE) {
    case 1: return {t.y, t.z, t.w, s.output.x};
    case 2: return {t.z, t.w, s.output.x, s.output.y};
    case 3: return {t.w, s.output.x, s.output.y, s.output.z};
    default: return t;
  }
}

}  // namespace gpulab::sim::curand
