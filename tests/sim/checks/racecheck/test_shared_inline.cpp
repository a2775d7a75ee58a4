// racecheck's inline test of shared-memory accesses (Racecheck::shared_access_recorded,
// include/gpulab/sim/detail/checks/racecheck.hpp), run on its own: the reads it records without the
// rules (racecheck/shared_cell.hpp there) leave the cells as the rules would, and whatever may race goes
// to the checker (src/sim/checks/racecheck/shared_shadow.hpp).
#include <array>
#include <cstdint>

#include <gtest/gtest.h>

#include <gpulab/sim/detail/instrumentation/dispatch.hpp>

#include "sim/checks/racecheck/shared_shadow.hpp"

namespace gpulab::sim::detail {
namespace {

class SharedRaceInlineTest : public ::testing::Test {
 protected:
  SharedRaceInlineTest() {
    races.set_dynamic_bytes(sizeof(shared));
    h.warp_epochs = warp_epochs.data();
    h.barrier_epoch = 1;
  }

  // An access to word `w` by thread `t` through the inline test: true when it recorded the access,
  // false when the checker must decide it (a race, or a case the test leaves to the checker).
  bool access(unsigned t, int w, bool write) {
    h.current = t;
    return Racecheck::shared_access_recorded(h, h, Access{address(w), 4, write});
  }
  std::uintptr_t address(int w) const { return reinterpret_cast<std::uintptr_t>(shared.data()) + 4 * static_cast<std::uintptr_t>(w); }
  // Word w's cell as the hooks find it (FindsAWordsCellFromItsAddress checks it is the checker's).
  const RaceCell& cell(int w) const {
    return *reinterpret_cast<const RaceCell*>(h.shared_cells_bias + address(w) * (sizeof(RaceCell) / 4));
  }
  RaceAccessor who(unsigned t) const { return {t, t / 32, warp_epochs[t / 32], 1u << (t % 32)}; }

  alignas(4) std::array<unsigned char, 256> shared{};
  HostThreadState h;
  std::array<std::uint32_t, 32> warp_epochs{};
  RaceShadow races{shared.data(), shared.size(), h};
};

TEST_F(SharedRaceInlineTest, FindsAWordsCellFromItsAddress) {
  EXPECT_EQ(h.shared_bytes, shared.size());
  for (const int w : {0, 1, 17, 63}) {
    const RaceCells checkers = races.cells_for(reinterpret_cast<const void*>(address(w)), 4, h.barrier_epoch);
    ASSERT_EQ(checkers.unit, 4u);
    EXPECT_EQ(checkers.cells, &cell(w));
  }
  // The dynamic range the hooks see stops at the launch's bytes: what lies past them is for memcheck.
  races.set_dynamic_bytes(64);
  EXPECT_EQ(h.shared_bytes, 64u);
}

TEST_F(SharedRaceInlineTest, ReadsOfOneWarpAddTheirLanesAndAWriteOfAnotherLaneRaces) {
  EXPECT_TRUE(access(5, 0, false));
  EXPECT_EQ(cell(0).read_state, race_read_key(0, 0));
  EXPECT_TRUE(access(9, 0, false));  // decided by the read state alone
  EXPECT_TRUE(access(12, 0, false));
  EXPECT_EQ(cell(0).reader_lanes, (1u << 5) | (1u << 9) | (1u << 12));
  EXPECT_EQ(race_racing_reader(cell(0), who(5)), 9);  // lane 9's read is there for a write of lane 5
  EXPECT_FALSE(access(20, 0, true));                  // races with lane 5's read
  EXPECT_FALSE(access(12, 0, true));                  // ... and lane 12's with lane 5's
}

TEST_F(SharedRaceInlineTest, AWarpCallStartsTheWarpsReadsAfresh) {
  EXPECT_TRUE(access(5, 0, false));
  EXPECT_TRUE(access(9, 0, false));
  ++warp_epochs[0];  // a __syncwarp: lanes 5 and 9 read before it
  EXPECT_TRUE(access(12, 0, false));
  EXPECT_EQ(cell(0).reader_lanes, 1u << 12);
  EXPECT_EQ(cell(0).read_state, race_read_key(0, 1));
  EXPECT_FALSE(access(5, 0, true));  // races with lane 12, which read after the warp call
  EXPECT_TRUE(access(12, 0, true));  // its own read, and the others' are ordered before it
}

TEST_F(SharedRaceInlineTest, ReadersOfTwoWarpsLeaveNothingToRecordAndEveryWriteRaces) {
  EXPECT_TRUE(access(3, 0, false));
  EXPECT_TRUE(access(40, 0, false));
  EXPECT_EQ(cell(0).read_state, race_multi_warp_reads);
  const RaceCell before = cell(0);
  for (const unsigned t : {3u, 4u, 41u, 63u, 100u}) EXPECT_TRUE(access(t, 0, false));
  EXPECT_EQ(cell(0).reader, before.reader);
  EXPECT_EQ(cell(0).other_reader, before.other_reader);
  for (const unsigned t : {3u, 40u, 60u, 100u}) EXPECT_FALSE(access(t, 0, true)) << "thread " << t;
}

TEST_F(SharedRaceInlineTest, AWriteEndsTheInlineReads) {
  EXPECT_TRUE(access(5, 0, false));
  EXPECT_TRUE(access(5, 0, true));  // its own read: no race
  EXPECT_EQ(cell(0).read_state, 0u);
  EXPECT_FALSE(access(9, 0, false));   // same warp, no warp call between: races with the write
  EXPECT_FALSE(access(40, 0, false));  // another warp: races with the write
  EXPECT_TRUE(access(5, 0, false));    // the writer reads its own write
}

TEST_F(SharedRaceInlineTest, ABarrierStartsEveryCellAfresh) {
  EXPECT_TRUE(access(3, 1, false));
  EXPECT_TRUE(access(40, 1, false));
  h.barrier_epoch = 2;
  EXPECT_TRUE(access(3, 1, true));  // the readers were before the barrier
  h.barrier_epoch = 3;
  EXPECT_TRUE(access(9, 1, false));
  EXPECT_EQ(cell(1).reader_lanes, 1u << 9);
}

TEST_F(SharedRaceInlineTest, AWordTrackedByBytesIsLeftToTheChecker) {
  EXPECT_TRUE(access(5, 2, false));
  EXPECT_TRUE(access(9, 2, false));
  // Thread 9 then reads a byte of it: from now on in this interval its bytes are tracked apart.
  const RaceCells bytes = races.cells_for(reinterpret_cast<const void*>(address(2) + 1), 1, h.barrier_epoch);
  ASSERT_EQ(bytes.unit, 1u);
  EXPECT_FALSE(access(12, 2, false));
  EXPECT_FALSE(access(12, 2, true));
  EXPECT_TRUE(access(12, 3, false));  // its neighbour is still tracked whole
}

}  // namespace
}  // namespace gpulab::sim::detail
