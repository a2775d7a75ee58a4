#pragma once
// Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel Random Numbers: As Easy as 1, 2, 3", SC'11): a
// counter-based generator. Output block i is a pure function of (key, counter i), so any thread on any
// device can compute any element without shared state, and the same (seed, offset) gives the same
// bits on the host, in the simulator and on a GPU. Only 32x32->64 multiplies, xors and adds: exact
// integer arithmetic everywhere. Its output matches Random123's published known-answer vectors.
//
// gpulab's mapping of a seed and an element offset onto Philox's key and counter:
//   key     = {low 32 bits of seed, high 32 bits of seed}
//   counter = {low, high 32 bits of offset / 4, low, high 32 bits of the subsequence}
//   element = word (offset % 4) of the block.
#include <cstdint>

#include <gpulab/kernel_qualifiers.hpp>

namespace gpulab::random {

struct Philox4x32Counter {
  std::uint32_t v[4] = {0, 0, 0, 0};
};
struct Philox4x32Key {
  std::uint32_t v[2] = {0, 0};
};

namespace detail {
inline constexpr std::uint32_t philox_m0 = 0xD2511F53u;  // round multipliers
inline constexpr std::uint32_t philox_m1 = 0xCD9E8D57u;
inline constexpr std::uint32_t philox_w0 = 0x9E3779B9u;  // key schedule (Weyl) increments
inline constexpr std::uint32_t philox_w1 = 0xBB67AE85u;

GPULAB_HD constexpr void philox_round(Philox4x32Counter& c, const Philox4x32Key& k) {
  const std::uint64_t p0 = static_cast<std::uint64_t>(philox_m0) * c.v[0];
  const std::uint64_t p1 = static_cast<std::uint64_t>(philox_m1) * c.v[2];
  const auto hi0 = static_cast<std::uint32_t>(p0 >> 32), lo0 = static_cast<std::uint32_t>(p0);
  const auto hi1 = static_cast<std::uint32_t>(p1 >> 32), lo1 = static_cast<std::uint32_t>(p1);
  const Philox4x32Counter in = c;
  c.v[0] = hi1 ^ in.v[1] ^ k.v[0];
  c.v[1] = lo1;
  c.v[2] = hi0 ^ in.v[3] ^ k.v[1];
  c.v[3] = lo0;
}
}  // namespace detail

// Ten rounds, with the key bumped between rounds.
GPULAB_HD constexpr Philox4x32Counter philox4x32_10(Philox4x32Counter counter, Philox4x32Key key) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key.v[0] += detail::philox_w0;
      key.v[1] += detail::philox_w1;
    }
    detail::philox_round(counter, key);
  }
  return counter;
}

// A stream of 32-bit words addressed by offset: Philox(seed, subsequence).word(offset).
class Philox {
 public:
  GPULAB_HD constexpr explicit Philox(std::uint64_t seed, std::uint64_t subsequence = 0)
      : key_{{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}},
        subsequence_(subsequence) {}

  // The four words at offsets 4 * block .. 4 * block + 3.
  GPULAB_HD constexpr Philox4x32Counter block(std::uint64_t block) const {
    const Philox4x32Counter counter{{static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32),
                                     static_cast<std::uint32_t>(subsequence_),
                                     static_cast<std::uint32_t>(subsequence_ >> 32)}};
    return philox4x32_10(counter, key_);
  }
  GPULAB_HD constexpr std::uint32_t word(std::uint64_t offset) const { return block(offset / 4).v[offset % 4]; }

  GPULAB_HD constexpr const Philox4x32Key& key() const { return key_; }
  GPULAB_HD constexpr std::uint64_t subsequence() const { return subsequence_; }

 private:
  Philox4x32Key key_;
  std::uint64_t subsequence_;
};

}  // namespace gpulab::random
