// The order the block pool's host threads take a launch's blocks in (src/sim/engine/block_order.hpp):
// every block once, grid order on one thread, and blocks taken at the same time apart in the grid.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <gtest/gtest.h>

#include "sim/engine/block_order.hpp"

namespace gpulab::sim::detail {
namespace {

TEST(BlockOrder, EveryBlockOnceForAnyGridAndThreadCount) {
  for (std::uint64_t grid_x : {1u, 2u, 3u, 7u, 16u, 33u}) {
    for (std::uint64_t grid_y : {1u, 2u, 5u, 16u, 17u}) {
      for (std::uint64_t segments : {1u, 2u, 3u, 4u, 16u, 64u}) {
        const std::uint64_t blocks = grid_x * grid_y;
        SCOPED_TRACE(testing::Message() << grid_x << "x" << grid_y << " blocks, " << segments << " segments");
        std::vector<int> seen(blocks, 0);
        for (std::uint64_t t = 0; t < blocks; ++t) {
          const std::uint64_t b = block_for_ticket(t, blocks, grid_x, segments);
          ASSERT_LT(b, blocks);
          ++seen[b];
        }
        for (std::uint64_t b = 0; b < blocks; ++b) EXPECT_EQ(seen[b], 1) << "block " << b;
      }
    }
  }
}

TEST(BlockOrder, OneThreadKeepsGridOrder) {
  for (std::uint64_t t = 0; t < 300; ++t) EXPECT_EQ(block_for_ticket(t, 300, 20, 1), t);
}

TEST(BlockOrder, TicketsTakenTogetherNameBlocksInOtherRowsAndColumns) {
  // A 16x16 grid on two host threads: tickets 2j and 2j + 1 are taken at about the same time.
  const std::uint64_t gx = 16, gy = 16;
  for (std::uint64_t j = 0; j < gx * gy / 2; ++j) {
    const std::uint64_t a = block_for_ticket(2 * j, gx * gy, gx, 2), b = block_for_ticket(2 * j + 1, gx * gy, gx, 2);
    const auto dx = std::llabs(static_cast<long long>(a % gx) - static_cast<long long>(b % gx));
    const auto dy = std::llabs(static_cast<long long>(a / gx) - static_cast<long long>(b / gx));
    // Half a row apart, never in one row or column (a matmul's blocks then share no rows of A, no columns
    // of B); most of the time half the grid apart in y too.
    EXPECT_EQ(dx, 8) << "tickets " << 2 * j << ", " << 2 * j + 1 << ": blocks " << a << ", " << b;
    EXPECT_GE(dy, j < 120 ? 8 : 1) << "tickets " << 2 * j << ", " << 2 * j + 1 << ": blocks " << a << ", " << b;
  }
}

}  // namespace
}  // namespace gpulab::sim::detail
