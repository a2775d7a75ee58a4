// The profiler's parts on their own: what a request costs (request_shapes.hpp) and the L2 model
// (l2_model.hpp), against answers worked out by hand.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "sim/profiler/l2_model.hpp"
#include "sim/profiler/request_shapes.hpp"

namespace gpulab::sim::detail {
namespace {

constexpr std::uint32_t full = 0xffffffffu;

std::vector<std::uintptr_t> lanes(std::uintptr_t base, std::uintptr_t stride) {
  std::vector<std::uintptr_t> a(32);
  for (unsigned l = 0; l < 32; ++l) a[l] = base + l * stride;
  return a;
}

TEST(SimProfilerParts, SectorsOfCommonShapes) {
  EXPECT_EQ(distinct_sectors(lanes(0x1000, 4).data(), full, 4, nullptr, 0), 4u);
  EXPECT_EQ(distinct_sectors(lanes(0x1000, 128).data(), full, 4, nullptr, 0), 32u);
  EXPECT_EQ(distinct_sectors(lanes(0x1000, 16).data(), full, 16, nullptr, 0), 16u);
  EXPECT_EQ(distinct_sectors(lanes(0x1000, 0).data(), full, 4, nullptr, 0), 1u);
  // Misaligned by 4 bytes: the warp's 128 bytes straddle five sectors.
  EXPECT_EQ(distinct_sectors(lanes(0x1004, 4).data(), full, 4, nullptr, 0), 5u);
  // An 8-byte access across a sector boundary touches both.
  EXPECT_EQ(distinct_sectors(lanes(0x101c, 0).data(), 1u, 8, nullptr, 0), 2u);
  // Lanes in descending order give the same sectors as ascending.
  EXPECT_EQ(distinct_sectors(lanes(0x2000 + 31 * 4, std::uintptr_t(-4)).data(), full, 4, nullptr, 0), 4u);
  // Lanes in no order, with repeats: each sector once (the two half-warps of a 16 x 2 block read the
  // same 16 rows).
  auto rows = lanes(0x4000, 128);
  for (unsigned l = 16; l < 32; ++l) rows[l] = rows[l - 16];
  EXPECT_EQ(distinct_sectors(rows.data(), full, 4, nullptr, 0), 16u);
  // Many sectors in descending order (32-byte accesses straddling two sectors each): sorted, 64.
  EXPECT_EQ(distinct_sectors(lanes(0x8000 + 31 * 64 + 16, std::uintptr_t(-64)).data(), full, 32, nullptr, 0), 64u);
  // Lanes off: only the active lanes' sectors.
  EXPECT_EQ(distinct_sectors(lanes(0x1000, 32).data(), 0x0000000fu, 4, nullptr, 0), 4u);
  std::uint64_t listed[64];
  ASSERT_EQ(distinct_sectors(lanes(0x1000, 4).data(), full, 4, listed, 64), 4u);
  EXPECT_EQ(listed[0], 0x1000u / 32);
  EXPECT_EQ(listed[3], 0x1000u / 32 + 3);
}

std::size_t wavefronts(const std::vector<std::uintptr_t>& a, std::uint32_t mask, std::size_t bytes) {
  return shared_cost(a.data(), mask, bytes).wavefronts;
}
std::size_t ideal(const std::vector<std::uintptr_t>& a, std::uint32_t mask, std::size_t bytes) {
  return shared_cost(a.data(), mask, bytes).ideal_wavefronts;
}

TEST(SimProfilerParts, WavefrontsFollowTheBanksAndTheBroadcastRule) {
  EXPECT_EQ(wavefronts(lanes(0, 4), full, 4), 1u);     // a row
  EXPECT_EQ(wavefronts(lanes(0, 128), full, 4), 32u);  // a column: 32-way
  EXPECT_EQ(ideal(lanes(0, 128), full, 4), 1u);
  EXPECT_EQ(wavefronts(lanes(0, 132), full, 4), 1u);   // a padded column
  EXPECT_EQ(wavefronts(lanes(0, 0), full, 4), 1u);     // a broadcast
  EXPECT_EQ(wavefronts(lanes(0, 8), full, 4), 2u);     // stride 2: 2-way
  EXPECT_EQ(ideal(lanes(0, 8), full, 4), 1u);
  EXPECT_EQ(wavefronts(lanes(0, 8), full, 8), 2u);     // float2 by consecutive lanes: its ideal
  EXPECT_EQ(ideal(lanes(0, 8), full, 8), 2u);
  EXPECT_EQ(wavefronts(lanes(0, 16), full, 16), 4u);   // float4 likewise
  EXPECT_EQ(ideal(lanes(0, 16), full, 16), 4u);
  // A float4 read by every lane: four words, still a wavefront per quarter-warp (128 bytes returned
  // each), no conflict.
  EXPECT_EQ(wavefronts(lanes(0, 0), full, 16), 4u);
  EXPECT_EQ(ideal(lanes(0, 0), full, 16), 4u);
  // float4s 32 bytes apart: in each quarter-warp, lanes l and l + 4 share their four banks: 2-way.
  EXPECT_EQ(wavefronts(lanes(0, 32), full, 16), 8u);
  EXPECT_EQ(ideal(lanes(0, 32), full, 16), 4u);
  // float2s 16 bytes apart: in each half-warp, four lanes a bank: 2-way... of 32 words on 16 banks.
  EXPECT_EQ(wavefronts(lanes(0, 16), full, 8), 4u);
  EXPECT_EQ(ideal(lanes(0, 16), full, 8), 2u);
  // Only the first quarter-warp active: one phase.
  EXPECT_EQ(wavefronts(lanes(0, 16), 0xffu, 16), 1u);
  EXPECT_EQ(ideal(lanes(0, 16), 0xffu, 16), 1u);
  // Bytes of one word read by different lanes are a broadcast too.
  EXPECT_EQ(wavefronts(lanes(0, 1), 0xfu, 1), 1u);
}

TEST(SimProfilerParts, SameAddressLanes) {
  EXPECT_EQ(same_address_conflicts(lanes(64, 0).data(), full), 31u);
  EXPECT_EQ(same_address_conflicts(lanes(64, 4).data(), full), 0u);
  auto a = lanes(64, 4);
  a[5] = a[3];
  a[9] = a[3];
  EXPECT_EQ(same_address_conflicts(a.data(), full), 2u);
}

// A cache of 8 KiB: 16 sets of 16 ways of one sector.
TEST(SimProfilerParts, TheL2ModelKeepsWhatFitsAndEvictsTheLeastRecentlyUsed) {
  L2Model l2(8192);
  ASSERT_EQ(l2.bytes(), 8192u);
  // 4 KiB read twice: read from DRAM once.
  for (int pass = 0; pass < 2; ++pass) {
    for (std::uint64_t s = 0; s < 128; ++s) l2.access(s, true, false);
  }
  EXPECT_EQ(l2.dram_read_bytes(), 4096u);
  // 16 KiB streamed twice through 8 KiB: least recently used out first, so nothing is left to hit.
  l2.start_over();
  for (int pass = 0; pass < 2; ++pass) {
    for (std::uint64_t s = 0; s < 512; ++s) l2.access(s, true, false);
  }
  EXPECT_EQ(l2.dram_read_bytes(), 2u * 16384u);
  EXPECT_EQ(l2.dram_write_bytes(), 0u);
  // Stores allocate without reading; a dirty sector costs a write when it leaves, or at the end.
  l2.start_over();
  for (std::uint64_t s = 0; s < 512; ++s) l2.access(s, false, true);
  EXPECT_EQ(l2.dram_read_bytes(), 0u);
  EXPECT_EQ(l2.dram_write_bytes() + l2.dirty_sectors() * 32, 16384u);
  EXPECT_LE(l2.dirty_sectors(), 256u);
  // Starting over forgets everything: the first pass misses again.
  l2.start_over();
  for (std::uint64_t s = 0; s < 64; ++s) l2.access(s, true, false);
  EXPECT_EQ(l2.dram_read_bytes(), 64u * 32);
  EXPECT_EQ(l2.dirty_sectors(), 0u);
}

}  // namespace
}  // namespace gpulab::sim::detail
