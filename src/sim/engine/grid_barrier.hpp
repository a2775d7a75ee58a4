#pragma once
// The grid barrier of a cooperative launch: blocks arrive from their own host threads (every block of
// such a launch is resident at once, resident_blocks.hpp) and the barrier releases when all of them
// have. A block that ends without arriving can never let the others go: the barrier then breaks,
// reports the deadlock naming the kernel and the blocks, and wakes the waiters, which unwind.
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <source_location>
#include <string>

namespace gpulab::sim::detail {

struct LaunchJob;

class GridBarrier {
 public:
  explicit GridBarrier(std::uint64_t blocks) : blocks_(blocks) {}

  // Block `block` has arrived (all its live threads wait at grid.sync() at `where`); blocks this host
  // thread until every block has. Returns false when the barrier broke instead (a deadlock or a fault
  // elsewhere in the launch, already reported): the caller unwinds its block.
  bool arrive_and_wait(LaunchJob& job, std::uint64_t block, const std::source_location& where);
  // Block `block` has ended (run to its end, faulted or never started because the launch was cancelled).
  void block_finished(LaunchJob& job, std::uint64_t block);

 private:
  // With the lock held: whether the arrivals can never complete, and if so, breaks the barrier.
  void break_if_stuck(LaunchJob& job);

  std::mutex mutex_;
  std::condition_variable released_;
  const std::uint64_t blocks_;
  std::uint64_t arrived_ = 0;
  std::uint64_t finished_ = 0;
  std::uint64_t generation_ = 0;  // releases so far
  bool broken_ = false;
  // For the deadlock's report: the first block that ended, and the first waiter of this generation.
  std::uint64_t first_finished_ = 0;
  std::uint64_t first_waiter_ = 0;
  std::source_location first_waiter_site_{};
};

}  // namespace gpulab::sim::detail
