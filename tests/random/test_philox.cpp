// Philox4x32-10 against Random123's published known-answer vectors, the transforms' ranges and
// moments, and bit-identical output on the host and in kernels (the simulator here; a CUDA device in
// the gpu-labelled test).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <gpulab/array.hpp>
#include <gpulab/device.hpp>
#include <gpulab/launch.hpp>
#include <gpulab/random/distributions.hpp>

#include "philox_draw.hpp"
#include "test_support.hpp"

namespace {

using gpulab::random::Philox;
using gpulab::random::Philox4x32Counter;
using gpulab::random::Philox4x32Key;
using gpulab::random::philox4x32_10;
using gpulab::testing::DeviceDraw;
using gpulab::testing::draw_on;
using gpulab::testing::expect_same_as_host;

struct Kat {
  Philox4x32Counter counter;
  Philox4x32Key key;
  Philox4x32Counter expected;
};

// Random123's kat_vectors for philox4x32 with 10 rounds (as reproduced in D. E. Shaw Research's
// core123 unit tests, ut_philox.cpp).
const Kat kats[] = {
    {{{0x00000000, 0x00000000, 0x00000000, 0x00000000}}, {{0x00000000, 0x00000000}},
     {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}}},
    {{{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}}, {{0xffffffff, 0xffffffff}},
     {{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}}},
    {{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}}, {{0xa4093822, 0x299f31d0}},
     {{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}}},
};

TEST(Philox, MatchesRandom123KnownAnswers) {
  for (const Kat& kat : kats) {
    const Philox4x32Counter got = philox4x32_10(kat.counter, kat.key);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got.v[i], kat.expected.v[i]) << "word " << i;
  }
}

TEST(Philox, KnownAnswersAtCompileTime) {
  constexpr Philox4x32Counter got = philox4x32_10({{0, 0, 0, 0}}, {{0, 0}});
  static_assert(got.v[0] == 0x6627e8d5u && got.v[3] == 0x9b00dbd8u);
  SUCCEED();
}

TEST(Philox, SeedAndOffsetMapOntoKeyAndCounter) {
  const std::uint64_t seed = 0x299f31d0a4093822ULL;
  const Philox philox(seed, 0x0370734413198a2eULL);
  // Block 0x85a308d3243f6a88 is the third known-answer counter.
  const std::uint64_t block = 0x85a308d3243f6a88ULL;
  const Philox4x32Counter b = philox.block(block);
  EXPECT_EQ(b.v[0], 0xd16cfe09u);
  EXPECT_EQ(b.v[3], 0x24126ea1u);
  EXPECT_EQ(b.v[2], 0x5001e420u);
  // word(offset) is word offset % 4 of block offset / 4.
  const std::uint64_t offset = 4 * 0x1234567ULL + 2;
  EXPECT_EQ(philox.word(offset), philox.block(0x1234567ULL).v[2]);
}

TEST(PhiloxDistributions, RangesAndEdges) {
  using namespace gpulab::random;
  EXPECT_EQ(uniform_float(0), 0.0f);
  EXPECT_LT(uniform_float(0xffffffffu), 1.0f);
  EXPECT_GT(uniform_float_open(0), 0.0f);
  EXPECT_EQ(uniform_float_open(0xffffffffu), 1.0f);
  EXPECT_GT(std::abs(uniform_symmetric(0)), 0.0f);
  EXPECT_GT(uniform_symmetric(0), -1.0f);
  EXPECT_LT(uniform_symmetric(0xffffffffu), 1.0f);
  EXPECT_NE(uniform_symmetric(0x80000000u), 0.0f);
  for (std::uint32_t w : {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x12345678u}) {
    const std::int32_t v = uniform_nonzero_int(w, 4);
    EXPECT_NE(v, 0);
    EXPECT_GE(v, -4);
    EXPECT_LE(v, 4);
  }
}

TEST(PhiloxDistributions, MomentsOfUniformsAndNormals) {
  const std::uint64_t seed = gpulab::testing::fresh_seed();
  SCOPED_TRACE(seed);
  const Philox philox(seed);
  constexpr int n = 400000;
  double su = 0, su2 = 0, sn = 0, sn2 = 0, sn4 = 0;
  int zeros = 0;
  for (int i = 0; i < n; ++i) {
    const double u = gpulab::random::uniform_symmetric_at(philox, static_cast<std::uint64_t>(i));
    const double z = gpulab::random::normal_at(philox, static_cast<std::uint64_t>(i));
    zeros += u == 0;
    ASSERT_TRUE(std::isfinite(z));
    su += u;
    su2 += u * u;
    sn += z;
    sn2 += z * z;
    sn4 += z * z * z * z;
  }
  EXPECT_EQ(zeros, 0);
  // Five standard errors: a sound generator fails this about once in a million runs.
  EXPECT_NEAR(su / n, 0.0, 5 * std::sqrt(1.0 / 3 / n));
  EXPECT_NEAR(su2 / n, 1.0 / 3, 5 * std::sqrt(4.0 / 45 / n));
  EXPECT_NEAR(sn / n, 0.0, 5 * std::sqrt(1.0 / n));
  EXPECT_NEAR(sn2 / n, 1.0, 5 * std::sqrt(2.0 / n));
  EXPECT_NEAR(sn4 / n, 3.0, 5 * std::sqrt(96.0 / n));
}

TEST(PhiloxDistributions, TransformsAreAccurate) {
  // gpulab's own log and sin/cos must stay within a few float ulps of the true values.
  double worst_log = 0, worst_trig = 0;
  for (std::uint32_t i = 1; i <= (1u << 24); i += 97) {
    const float u = static_cast<float>(i) * 0x1p-24f;
    const double want = std::log(static_cast<double>(u));
    if (u < 0.999f) worst_log = std::max(worst_log, std::abs(gpulab::random::detail::log_positive(u) - want) / std::abs(want));
    const auto sc = gpulab::random::detail::sincos_two_pi(static_cast<float>(i - 1) * 0x1p-24f);
    const double a = 2 * M_PI * static_cast<double>(static_cast<float>(i - 1) * 0x1p-24f);
    worst_trig = std::max({worst_trig, std::abs(sc.x - std::sin(a)), std::abs(sc.y - std::cos(a))});
  }
  EXPECT_LT(worst_log, 4e-7);
  EXPECT_LT(worst_trig, 4e-7);
}

}  // namespace

namespace gpulab::testing {
float strict_normal_at(std::uint64_t seed, std::uint64_t offset);
}

namespace {

TEST(PhiloxDistributions, ContractionCannotChangeTheBits) {
  // This file is compiled with -O3 -ffp-contract=fast (FMA contraction allowed), philox_strict.cpp with
  // -O0 -ffp-contract=off: the pinned roundings must make them agree.
  const std::uint64_t seed = gpulab::testing::fresh_seed();
  SCOPED_TRACE(seed);
  const Philox philox(seed);
  int mismatches = 0;
  for (std::uint64_t i = 0; i < 100000; ++i) {
    mismatches += gpulab::testing::bits(gpulab::random::normal_at(philox, i)) !=
                  gpulab::testing::bits(gpulab::testing::strict_normal_at(seed, i));
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(PhiloxAcrossDevices, SimulatorKernelGivesTheHostsBits) {
  const std::uint64_t seed = gpulab::testing::fresh_seed();
  SCOPED_TRACE(seed);
  const std::uint64_t offset = 12345;  // not a multiple of 4: a block split across threads
  const DeviceDraw d = draw_on(gpulab::sim_device(), seed, offset, 4099);
  expect_same_as_host(d, seed, offset);
}

}  // namespace
