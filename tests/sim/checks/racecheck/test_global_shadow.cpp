// racecheck's global-memory cells on their own (src/sim/checks/racecheck/global_shadow.hpp): which
// pairs of accesses are ordered, and which races the cells report, whatever order the accesses come in.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "sim/checks/racecheck/global_shadow.hpp"

namespace gpulab::sim::detail {
namespace {

TEST(GlobalAccess, OrderedOnlyWithinABlockAcrossABarrierOrAWarpCall) {
  const GlobalAccess a(3, 40, 7, 2);
  EXPECT_TRUE(a.ordered_before(GlobalAccess(3, 40, 7, 2)));   // the same thread
  EXPECT_TRUE(a.ordered_before(GlobalAccess(3, 40, 9, 5)));   // the same thread, later
  EXPECT_FALSE(a.ordered_before(GlobalAccess(4, 40, 8, 2)));  // another block: never
  EXPECT_FALSE(a.ordered_before(GlobalAccess(3, 99, 7, 2)));  // same block, no barrier between
  EXPECT_TRUE(a.ordered_before(GlobalAccess(3, 99, 8, 0)));   // same block, a barrier between
  EXPECT_TRUE(a.ordered_before(GlobalAccess(3, 41, 7, 3)));   // same warp (lanes 8, 9), a warp call between
  EXPECT_FALSE(a.ordered_before(GlobalAccess(3, 41, 7, 2)));  // same warp, no warp call between
  EXPECT_FALSE(a.ordered_before(GlobalAccess(3, 64, 7, 3)));  // another warp: its warp calls do not order
  EXPECT_EQ(a.block(), 3u);
  EXPECT_EQ(a.thread(), 40u);
  EXPECT_FALSE(a.empty());
  EXPECT_TRUE(GlobalAccess().empty());
}

class GlobalRaceShadowTest : public ::testing::Test {
 protected:
  std::vector<std::uint32_t> memory = std::vector<std::uint32_t>(64);
  GlobalRaceShadow shadow{reinterpret_cast<std::uintptr_t>(memory.data()), memory.size() * sizeof(std::uint32_t)};
  const void* at(int word) const { return &memory[static_cast<std::size_t>(word)]; }
};

TEST_F(GlobalRaceShadowTest, AWriteThenAReadByAnotherBlockIsARace) {
  const GlobalAccess writer(0, 1, 1, 0), reader(1, 0, 1, 0);
  EXPECT_FALSE(shadow.access(at(5), 4, true, 1, writer));
  const auto race = shadow.access(at(5), 4, false, 1, reader);
  ASSERT_TRUE(race);
  EXPECT_TRUE(race->other_wrote);
  EXPECT_EQ(race->other.block(), 0u);
  EXPECT_EQ(race->other.thread(), 1u);
}

TEST_F(GlobalRaceShadowTest, ReadersFirstThenAWriteIsARaceWithTheOtherReader) {
  const GlobalAccess r1(0, 1, 1, 0), r2(2, 5, 1, 0);
  EXPECT_FALSE(shadow.access(at(9), 4, false, 1, r1));
  EXPECT_FALSE(shadow.access(at(9), 4, false, 1, r2));
  // Many more readers from other blocks change nothing (the fast path) and are no race.
  for (unsigned b = 3; b < 40; ++b) EXPECT_FALSE(shadow.access(at(9), 4, false, 1, GlobalAccess(b, 0, 1, 0)));
  const auto race = shadow.access(at(9), 4, true, 1, r1);  // r1 writes what r2 read
  ASSERT_TRUE(race);
  EXPECT_FALSE(race->other_wrote);
  EXPECT_EQ(race->other.block(), 2u);
}

TEST_F(GlobalRaceShadowTest, BarriersOrderTheThreadsOfABlock) {
  EXPECT_FALSE(shadow.access(at(2), 4, true, 1, GlobalAccess(0, 3, 1, 0)));
  EXPECT_FALSE(shadow.access(at(2), 4, false, 1, GlobalAccess(0, 70, 2, 0)));  // after a barrier
  EXPECT_FALSE(shadow.access(at(2), 4, false, 1, GlobalAccess(0, 90, 2, 0)));
  EXPECT_FALSE(shadow.access(at(2), 4, true, 1, GlobalAccess(0, 3, 3, 0)));    // after another one
  EXPECT_TRUE(shadow.access(at(2), 4, false, 1, GlobalAccess(0, 4, 3, 0)));    // same interval: a race
}

TEST_F(GlobalRaceShadowTest, BytesAreTrackedApartAndLaunchesStartAfresh) {
  // Neighbouring bytes written by different blocks: no race.
  EXPECT_FALSE(shadow.access(reinterpret_cast<const char*>(at(1)) + 0, 1, true, 1, GlobalAccess(0, 0, 1, 0)));
  EXPECT_FALSE(shadow.access(reinterpret_cast<const char*>(at(1)) + 1, 1, true, 1, GlobalAccess(1, 0, 1, 0)));
  // A word read over both: races with one of them; the byte that raced is reported.
  const auto race = shadow.access(at(1), 4, false, 1, GlobalAccess(2, 0, 1, 0));
  ASSERT_TRUE(race);
  EXPECT_EQ(race->byte, 0u);
  // The next launch is ordered after this one.
  EXPECT_FALSE(shadow.access(at(1), 4, false, 2, GlobalAccess(2, 0, 1, 0)));
  EXPECT_FALSE(shadow.access(at(1), 4, true, 2, GlobalAccess(2, 0, 1, 0)));
}

// Two readers of one block, then one of another block: the slots come to span two blocks and the word
// settles (reads of it look at one word). A write then races whatever block it comes from, even one
// ordered after its own block's readers, and a later launch starts afresh.
TEST_F(GlobalRaceShadowTest, ReadersOfTwoBlocksSettleAWordAndEveryWriteStillRaces) {
  EXPECT_FALSE(shadow.access(at(12), 4, false, 1, GlobalAccess(4, 0, 1, 0)));
  EXPECT_FALSE(shadow.access(at(12), 4, false, 1, GlobalAccess(4, 1, 1, 0)));
  EXPECT_FALSE(shadow.access(at(12), 4, false, 1, GlobalAccess(7, 3, 1, 0)));  // widens the slots
  for (unsigned b = 8; b < 20; ++b) EXPECT_FALSE(shadow.access(at(12), 8, false, 1, GlobalAccess(b, 0, 1, 0)));
  // Block 4's thread 2, after a barrier (ordered with its block's readers), races with block 7's.
  auto race = shadow.access(at(12), 4, true, 1, GlobalAccess(4, 2, 2, 0));
  ASSERT_TRUE(race);
  EXPECT_EQ(race->other.block(), 7u);
  EXPECT_FALSE(race->other_wrote);
  // Block 7's, after a barrier, races with block 4's write.
  race = shadow.access(at(12), 4, true, 1, GlobalAccess(7, 9, 2, 0));
  ASSERT_TRUE(race);
  EXPECT_EQ(race->other.block(), 4u);
  // A read after the write is checked against it again (the word is no longer settled).
  EXPECT_TRUE(shadow.access(at(12), 4, false, 1, GlobalAccess(9, 0, 1, 0)));
  // The next launch starts afresh.
  EXPECT_FALSE(shadow.access(at(12), 4, true, 2, GlobalAccess(4, 2, 1, 0)));
}

// A word is tracked whole until a launch accesses it in parts; its bytes then start from the word's
// state, and a whole access later in the launch is checked byte by byte.
TEST_F(GlobalRaceShadowTest, AWordAccessedInPartsKeepsWhatItsWholeAccessesRecorded) {
  const char* word = reinterpret_cast<const char*>(at(20));
  // Written whole by block 0; its own byte read is no race, another block's is, at that byte.
  EXPECT_FALSE(shadow.access(word, 4, true, 1, GlobalAccess(0, 5, 1, 0)));
  EXPECT_FALSE(shadow.access(word + 2, 1, false, 1, GlobalAccess(0, 5, 1, 0)));
  auto race = shadow.access(word + 3, 1, false, 1, GlobalAccess(1, 0, 1, 0));
  ASSERT_TRUE(race);
  EXPECT_EQ(race->byte, 0u);
  EXPECT_EQ(race->other.block(), 0u);
  EXPECT_EQ(race->other.thread(), 5u);
  EXPECT_TRUE(race->other_wrote);

  // Read whole by two blocks (the word settles), then a byte written: a race with a reader.
  EXPECT_FALSE(shadow.access(word, 4, false, 2, GlobalAccess(2, 0, 1, 0)));
  EXPECT_FALSE(shadow.access(word, 4, false, 2, GlobalAccess(3, 0, 1, 0)));
  race = shadow.access(word + 1, 1, true, 2, GlobalAccess(2, 0, 2, 0));
  ASSERT_TRUE(race);
  EXPECT_EQ(race->other.block(), 3u);
  EXPECT_FALSE(race->other_wrote);

  // Bytes written by different blocks do not race; a whole read after them races at the second byte
  // written by a block other than the reader's.
  EXPECT_FALSE(shadow.access(word + 0, 1, true, 3, GlobalAccess(4, 0, 1, 0)));
  EXPECT_FALSE(shadow.access(word + 2, 2, true, 3, GlobalAccess(5, 0, 1, 0)));
  race = shadow.access(word, 4, false, 3, GlobalAccess(4, 0, 1, 0));
  ASSERT_TRUE(race);
  EXPECT_EQ(race->byte, 2u);
  EXPECT_EQ(race->other.block(), 5u);
  EXPECT_TRUE(race->other_wrote);
  // The untouched neighbour is still tracked whole, from scratch in each launch.
  EXPECT_FALSE(shadow.access(at(21), 4, true, 3, GlobalAccess(6, 0, 1, 0)));
}

// The hooks pass a read of a settled word for memcheck too, so freeing a buffer unsettles its words,
// and only its words.
TEST_F(GlobalRaceShadowTest, FreeingARangeUnsettlesItsWords) {
  const auto offset = [this](int w) { return static_cast<std::size_t>(w) * 4; };
  for (const int w : {3, 40}) {
    EXPECT_FALSE(shadow.access(at(w), 4, false, 1, GlobalAccess(0, 0, 1, 0)));
    EXPECT_FALSE(shadow.access(at(w), 4, false, 1, GlobalAccess(1, 0, 1, 0)));
    ASSERT_TRUE(word_settled(shadow.settled_words(), offset(w), 1));
  }
  shadow.unsettle(reinterpret_cast<std::uintptr_t>(at(32)), 32 * 4);
  EXPECT_TRUE(word_settled(shadow.settled_words(), offset(3), 1));
  EXPECT_FALSE(word_settled(shadow.settled_words(), offset(40), 1));
  // Its cells still hold the launch's readers: a write races with one of them.
  EXPECT_TRUE(shadow.access(at(40), 4, true, 1, GlobalAccess(2, 0, 1, 0)));
}

// A block's reads of a word change nothing, all at once, only while its two readers are distinct
// threads of that block in its present barrier interval and warp epochs, and nothing wrote the word.
TEST_F(GlobalRaceShadowTest, ABlocksReadsChangeNothingOnlyWhileItsTwoReadersArePresent) {
  const GlobalRaceCell& cell = shadow.word_cells()[7];
  const std::uint32_t now[2] = {0, 0};    // warp epochs of warps 0 and 1 (threads 3 and 40)
  const std::uint32_t later[2] = {0, 1};  // warp 1 made a warp call since
  EXPECT_FALSE(shadow.access(at(7), 4, false, 1, GlobalAccess(2, 3, 5, 0)));  // block 2, barrier epoch 5
  EXPECT_FALSE(block_reads_change_nothing(cell, 1, 2, 5, now));  // one reader: the next read is recorded
  EXPECT_FALSE(shadow.access(at(7), 4, false, 1, GlobalAccess(2, 40, 5, 0)));
  EXPECT_TRUE(block_reads_change_nothing(cell, 1, 2, 5, now));
  EXPECT_FALSE(block_reads_change_nothing(cell, 1, 3, 5, now));    // another block's reads widen the slots
  EXPECT_FALSE(block_reads_change_nothing(cell, 1, 2, 6, now));    // after a barrier they replace them
  EXPECT_FALSE(block_reads_change_nothing(cell, 1, 2, 5, later));  // thread 40's warp-mates too
  EXPECT_FALSE(block_reads_change_nothing(cell, 2, 2, 5, now));    // another launch starts afresh
  EXPECT_TRUE(shadow.access(at(7), 4, true, 1, GlobalAccess(2, 9, 5, 0)));  // a write races...
  EXPECT_FALSE(block_reads_change_nothing(cell, 1, 2, 5, now));  // ... and reads must meet it
  EXPECT_NE(block_read_key(7, 12), block_read_key(7, 13));        // entries lapse with the order epoch
  EXPECT_LT(block_read_slot(0xffffffffu), block_read_slots);
}

}  // namespace
}  // namespace gpulab::sim::detail
