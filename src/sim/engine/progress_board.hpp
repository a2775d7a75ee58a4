#pragma once
// A launch's progress board: how the running blocks of a launch whose threads poll memory
// (include/gpulab/sim/detail/polls.hpp) agree on what they wait for. A block whose runnable threads
// all poll and keep seeing what they saw is *stalled*; after many such rounds, *hopeless*.
// - Every running block stalled, and a block of the grid not started yet that a GPU would have resident
//   beside them: one more host thread is asked to start the next block (in grid order), as a GPU keeps
//   up to its co-residency of blocks in progress, so that a block may wait for a later one.
// - Every running block hopeless, no block left to start (or the co-residency reached), and no other
//   work of the device's streams that could write: nothing can change what they poll, which is a
//   deadlock, reported by the block that finds it.
// A block that starts or ends may have written what the others wait for, so each start and end begins a
// new epoch: what the blocks said before it lapses, and they poll again before they count.
#include <atomic>
#include <cstdint>
#include <mutex>

namespace gpulab::sim::detail {

struct LaunchJob;

class ProgressBoard {
 public:
  enum class Level : int { none = 0, stalled = 1, hopeless = 2 };
  enum class Verdict { poll_on, deadlock };

  void block_started() noexcept {
    running_.fetch_add(1);
    epoch_.fetch_add(1);
  }
  // Before the ending block stops counting as running, so that a reader who sees it gone sees the new
  // epoch too.
  void block_ended() noexcept {
    epoch_.fetch_add(1);
    running_.fetch_sub(1);
  }
  std::uint64_t epoch() const noexcept { return epoch_.load(); }

  // A block that said `from` in epoch `seen` now says `to`.
  Verdict report(LaunchJob& job, Level from, Level to, std::uint64_t seen);
  // A block that said `level` in epoch `seen` polls something new: it no longer counts.
  void withdraw(Level level, std::uint64_t seen);

 private:
  std::mutex mutex_;
  std::atomic<std::uint64_t> epoch_{1};
  std::atomic<std::uint64_t> running_{0};
  std::uint64_t counts_epoch_ = 0;  // the epoch stalled_ and hopeless_ count in
  std::uint64_t stalled_ = 0;       // blocks stalled or hopeless
  std::uint64_t hopeless_ = 0;
  std::uint64_t admitted_in_ = 0;  // the epoch in which one more block was last asked for
};

}  // namespace gpulab::sim::detail
