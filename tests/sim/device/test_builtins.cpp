// One test per built-in of the simulator's CUDA vocabulary (include/gpulab/sim/device), against
// expectations computed by hand.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>

#include <gtest/gtest.h>

#include "sim_test_support.hpp"
#include "test_support.hpp"

namespace gpulab {
namespace {

using namespace sim_testing;

TEST(SimBuiltins, ThreadBlockAndGridIndices) {
  const Dim3 grid(3, 2, 2), block(4, 3, 2);
  const int threads = static_cast<int>(grid.count() * block.count());
  auto out = filled<int>(4 * threads, -1);
  Kernel<void(int*)> k("write_thread_info");
  Stream s(sim_dev());
  launch(k, LaunchConfig{grid, block, 0, s}, out.data());
  s.synchronize();
  const auto got = download(out);
  for (unsigned bz = 0; bz < 2; ++bz)
    for (unsigned by = 0; by < 2; ++by)
      for (unsigned bx = 0; bx < 3; ++bx)
        for (unsigned tz = 0; tz < 2; ++tz)
          for (unsigned ty = 0; ty < 3; ++ty)
            for (unsigned tx = 0; tx < 4; ++tx) {
              const unsigned bid = bx + 3 * (by + 2 * bz), tid = tx + 4 * (ty + 3 * tz);
              const int* o = &got[4 * (bid * 24 + tid)];
              ASSERT_EQ(o[0], static_cast<int>(tx | ty << 8 | tz << 16)) << "thread " << tid << " block " << bid;
              ASSERT_EQ(o[1], static_cast<int>(bx | by << 8 | bz << 16));
              ASSERT_EQ(o[2], static_cast<int>(4 | 3 << 8 | 2 << 16));
              ASSERT_EQ(o[3], static_cast<int>(3 | 2 << 8 | 2 << 16 | 32 << 24));
            }
}

TEST(SimBuiltins, ShuffleDownReductionSumsEachWarp) {
  const auto seed = testing::fresh_seed();
  const int n = 4 * 96;  // 4 blocks of 3 warps
  auto values = testing::random_vector<float>(n, seed);
  auto in = upload(values);
  auto out = filled<float>(n / 32, std::nanf(""));
  Kernel<void(const float*, float*)> k("warp_sum");
  Stream s(sim_dev());
  launch(k, LaunchConfig{4, 96, 0, s}, in.data(), out.data());
  s.synchronize();
  const auto got = download(out);
  for (int w = 0; w < n / 32; ++w) {
    // The tree's order of additions, in float: ((v0+v16)+(v8+v24))+... computed the same way.
    float lane[32];
    for (int l = 0; l < 32; ++l) lane[l] = values[w * 32 + l];
    for (int offset = 16; offset > 0; offset /= 2)
      for (int l = 0; l < 32; ++l) lane[l] = lane[l] + (l + offset < 32 ? lane[l + offset] : lane[l]);
    EXPECT_EQ(got[w], lane[0]) << "warp " << w << " seed " << seed;
  }
}

TEST(SimBuiltins, ShufflesWithWidth) {
  auto out = filled<int>(32 * 8, -1);
  Kernel<void(int*)> k("shuffles");
  Stream s(sim_dev());
  launch(k, LaunchConfig{1, 32, 0, s}, out.data());
  s.synchronize();
  const auto got = download(out);
  for (int l = 0; l < 32; ++l) {
    const int* o = &got[8 * l];
    const int seg8 = l & ~7;
    EXPECT_EQ(o[0], 105) << "lane " << l;
    EXPECT_EQ(o[1], 100 + seg8 + ((l + 3) & 7)) << "lane " << l;
    EXPECT_EQ(o[2], 100 + (l >= 3 ? l - 3 : l)) << "lane " << l;
    EXPECT_EQ(o[3], 100 + ((l & 7) >= 3 ? l - 3 : l)) << "lane " << l;
    EXPECT_EQ(o[4], 100 + (l + 3 < 32 ? l + 3 : l)) << "lane " << l;
    EXPECT_EQ(o[5], 100 + ((l & 7) + 3 < 8 ? l + 3 : l)) << "lane " << l;
    EXPECT_EQ(o[6], 100 + (l ^ 1)) << "lane " << l;
    // xor 20 within 16-lane segments: lanes 0-11 reach 20-31 (a later segment: own value), lanes
    // 12-15 reach 24-27 (later: own), lanes 16-31 reach 0-15 (earlier: allowed).
    const int src = l ^ 20;
    EXPECT_EQ(o[7], 100 + (src >= (l / 16 + 1) * 16 ? l : src)) << "lane " << l;
  }
}

TEST(SimBuiltins, VotesUnderPartialMask) {
  auto out = filled<unsigned>(32 * 5, 0u);
  Kernel<void(unsigned*)> k("votes");
  Stream s(sim_dev());
  launch(k, LaunchConfig{1, 32, 0, s}, out.data());
  s.synchronize();
  const auto got = download(out);
  unsigned ballot = 0;
  for (unsigned l = 0; l < 20; l += 3) ballot |= 1u << l;
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned* o = &got[5 * l];
    if (l >= 20) {
      EXPECT_EQ(o[0], 0xdeadbeefu);
      continue;
    }
    EXPECT_EQ(o[0], ballot) << "lane " << l;
    EXPECT_EQ(o[1], 1u) << "lane " << l;
    EXPECT_EQ(o[2], 0u) << "lane " << l;  // lane 19 votes false
    unsigned same = 0;
    for (unsigned m = 0; m < 20; ++m)
      if (m % 4 == l % 4) same |= 1u << m;
    EXPECT_EQ(o[3], same) << "lane " << l;
    EXPECT_EQ(o[4], 0x000fffffu) << "lane " << l;
  }
}

TEST(SimBuiltins, ActiveMaskIsTheLanesOfTheBranch) {
  const unsigned threads = 45;
  auto out = filled<unsigned>(threads, 0u);
  Kernel<void(unsigned*)> k("active_in_branches");
  Stream s(sim_dev());
  launch(k, LaunchConfig{1, threads, 0, s}, out.data());
  s.synchronize();
  const auto got = download(out);
  for (unsigned t = 0; t < threads; ++t) {
    const unsigned warp_first = t / 32 * 32;
    unsigned same_arm = 0;
    for (unsigned u = warp_first; u < std::min(warp_first + 32, threads); ++u)
      if ((u % 3 == 0) == (t % 3 == 0)) same_arm |= 1u << (u - warp_first);
    EXPECT_EQ(got[t], same_arm) << "thread " << t;
  }
}

TEST(SimBuiltins, BitAndMathIntrinsics) {
  const std::vector<unsigned> in = {0u, 1u, 0x80000000u, 0xf0f00001u, 0x12345678u, 0xffffffffu, 6u, 0x00010000u};
  auto din = upload(in);
  auto bits = filled<unsigned>(4 * 8, 0u);
  auto math = filled<float>(10, std::nanf(""));
  Kernel<void(const unsigned*, unsigned*, float*)> k("bits_and_math");
  Stream s(sim_dev());
  launch(k, LaunchConfig{1, 8, 0, s}, din.data(), bits.data(), math.data());
  s.synchronize();
  const auto b = download(bits);
  for (std::size_t i = 0; i < in.size(); ++i) {
    const unsigned x = in[i];
    EXPECT_EQ(b[4 * i + 0], static_cast<unsigned>(std::popcount(x))) << x;
    EXPECT_EQ(b[4 * i + 1], static_cast<unsigned>(std::countl_zero(x))) << x;
    EXPECT_EQ(b[4 * i + 2], x == 0 ? 0u : static_cast<unsigned>(std::countr_zero(x) + 1)) << x;
    unsigned r = 0;
    for (int bit = 0; bit < 32; ++bit)
      if (x & (1u << bit)) r |= 1u << (31 - bit);
    EXPECT_EQ(b[4 * i + 3], r) << x;
  }
  const auto m = download(math);
  EXPECT_FLOAT_EQ(m[0], 5.0f);
  EXPECT_FLOAT_EQ(m[1], 0.5f);
  EXPECT_FLOAT_EQ(m[2], 1.5f);
  EXPECT_FLOAT_EQ(m[3], 1.0f);
  EXPECT_EQ(m[4], 0.0f);
  EXPECT_EQ(m[5], 0.5f);
  EXPECT_EQ(m[6], 1.0f);
  EXPECT_FLOAT_EQ(m[7], 3.5f);
  EXPECT_EQ(m[8], 1.0f);  // in[1] through __ldg
  EXPECT_EQ(m[9], 56.0f);  // 16 + 16 + 8 + 16
}

TEST(SimBuiltins, ContendedAtomicsOnEveryType) {
  const unsigned blocks = 7, threads = 96, total = blocks * threads;  // 672
  auto ints = upload(std::vector<int>{0, 0, 0, 0, 0, 5000});
  auto uns = upload(std::vector<unsigned>{0u, 0u, 0u, 0xffffffffu, 0u, 0u, 0u});
  auto ull = filled<unsigned long long>(1, 1ull << 40);
  auto f = filled<float>(1, 0.0f);
  auto d = filled<double>(1, 1.0);
  Kernel<void(int*, unsigned*, unsigned long long*, float*, double*)> k("contended_atomics");
  Stream s(sim_dev());
  launch(k, LaunchConfig{blocks, threads, 0, s}, ints.data(), uns.data(), ull.data(), f.data(), d.data());
  s.synchronize();
  const auto i = download(ints);
  const auto u = download(uns);
  EXPECT_EQ(i[0], static_cast<int>(total));
  EXPECT_EQ(u[0], 2 * total);
  EXPECT_EQ(download(ull)[0], (1ull << 40) + 3ull * total);
  EXPECT_EQ(download(f)[0], 0.5f * total);  // exact: multiples of 0.5 below 2^24
  EXPECT_EQ(download(d)[0], 1.0 + 0.25 * total);
  EXPECT_EQ(u[1], total % 10);              // 0..9, wrapping
  EXPECT_EQ(u[2], (7 - total % 7) % 7);     // 0 -> 6 -> 5 ... (period 7)
  EXPECT_EQ(i[1], -100);
  EXPECT_EQ(i[2], 3 * static_cast<int>(total - 1));
  EXPECT_EQ(u[3], 0u);
  EXPECT_EQ(u[4], 0xffffffffu);
  EXPECT_EQ(u[5], 0u);  // 672 = 84 * 8 flips of each low bit: even
  EXPECT_EQ(i[3], 7);
  EXPECT_EQ(i[4], 1);
  EXPECT_EQ(u[6], 1u);
  EXPECT_EQ(i[5], 5000 - 2 * static_cast<int>(total));
}

TEST(SimBuiltins, AtomicsReturnTheOldValue) {
  auto out = filled<int>(14, -999);
  Kernel<void(int*)> k("atomic_returns");
  Stream s(sim_dev());
  launch(k, LaunchConfig{1, 1, 0, s}, out.data());
  s.synchronize();
  const std::vector<int> want = {10, 13, 4, 9, 9, 5, 0, 0, 3, 15, 25, 75, 9, -2};
  EXPECT_EQ(download(out), want);
}

TEST(SimBuiltins, DynamicSharedMemory) {
  const int blocks = 3, n = 200;
  std::vector<int> values(blocks * n);
  std::iota(values.begin(), values.end(), 1000);
  auto in = upload(values);
  auto out = filled<int>(blocks * n, -1);
  Kernel<void(const int*, int*)> k("reverse_in_shared");
  Stream s(sim_dev());
  launch(k, LaunchConfig{blocks, n, n * sizeof(int), s}, in.data(), out.data());
  s.synchronize();
  const auto got = download(out);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < n; ++t) ASSERT_EQ(got[b * n + t], values[b * n + n - 1 - t]) << b << " " << t;
}

TEST(SimBuiltins, BarriersInLoops) {
  const int blocks = 5, n = 256, rounds = 9;
  auto out = filled<int>(blocks * n, -1);
  Kernel<void(int*, int)> k("barrier_rounds");
  Stream s(sim_dev());
  launch(k, LaunchConfig{blocks, n, 0, s}, out.data(), rounds);
  s.synchronize();
  const auto got = download(out);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < n; ++t) {
      int want = 0;
      for (int r = 0; r < rounds; ++r) want += ((t + 1) % n) * r + b;
      ASSERT_EQ(got[b * n + t], want) << "block " << b << " thread " << t;
    }
}

TEST(SimBuiltins, BarrierReductions) {
  auto out = filled<int>(5, -1);
  Kernel<void(int*)> k("barrier_votes");
  Stream s(sim_dev());
  launch(k, LaunchConfig{1, 100, 0, s}, out.data());
  s.synchronize();
  EXPECT_EQ(download(out), (std::vector<int>{34, 1, 0, 1, 0}));
}

TEST(SimBuiltins, WarpSynchronousSharedReduction) {
  const int blocks = 6, n = 128;
  const auto seed = testing::fresh_seed();
  auto values = testing::random_int_vector(blocks * n, seed, 1000);
  auto in = upload(values);
  auto out = filled<int>(blocks, 0);
  Kernel<void(const int*, int*)> k("shared_warp_reduce");
  Stream s(sim_dev());
  launch(k, LaunchConfig{blocks, n, 0, s}, in.data(), out.data());
  s.synchronize();
  const auto got = download(out);
  for (int b = 0; b < blocks; ++b) {
    EXPECT_EQ(got[b], std::accumulate(values.begin() + b * n, values.begin() + (b + 1) * n, 0)) << "seed " << seed;
  }
}

// The tiled kernel on shapes that are not multiples of the tile, against float64.
TEST(SimBuiltins, TiledMatmulMatchesFloat64) {
  for (int n : {1, 17, 33, 50}) {
    const auto seed = testing::fresh_seed();
    const auto a = testing::random_vector<float>(n * n, seed);
    const auto b = testing::random_vector<float>(n * n, seed + 1);
    std::vector<double> ref(n * n, 0.0);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j) ref[i * n + j] += static_cast<double>(a[i * n + k]) * b[k * n + j];
    auto da = upload(a), db = upload(b);
    auto dc = filled<float>(n * n, std::nanf(""));
    Kernel<void(const float*, const float*, float*, int)> k("tiled_matmul");
    Stream s(sim_dev());
    launch(k, LaunchConfig{grid_for(Dim3(n, n), Dim3(16, 16)), Dim3(16, 16), 0, s}, da.data(), db.data(),
           dc.data(), n);
    s.synchronize();
    const auto c = download(dc);
    EXPECT_LT(testing::rel_frobenius_error(ref, c), 1e-5) << "n " << n << " seed " << seed;
  }
}

}  // namespace
}  // namespace gpulab
