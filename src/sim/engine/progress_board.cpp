#include "sim/engine/progress_board.hpp"

#include <algorithm>

#include "sim/engine/block_pool.hpp"
#include "sim/engine/launch_job.hpp"
#include "sim/engine/sim_device.hpp"

namespace gpulab::sim::detail {

ProgressBoard::Verdict ProgressBoard::report(LaunchJob& job, Level from, Level to, std::uint64_t seen) {
  std::lock_guard lock(mutex_);
  if (seen != epoch_.load()) return Verdict::poll_on;  // lapsed: the caller polls again from scratch
  if (counts_epoch_ != seen) {
    counts_epoch_ = seen;
    stalled_ = 0;
    hopeless_ = 0;
  }
  if (from < Level::stalled && to >= Level::stalled) ++stalled_;
  if (from < Level::hopeless && to >= Level::hopeless) ++hopeless_;
  const std::uint64_t running = running_.load();
  const std::uint64_t taken = std::min(job.next_block.load(), job.block_count);
  const std::uint64_t finished = job.finished_blocks.load();
  const bool can_admit = job.pool != nullptr && taken < job.block_count && running < job.resident_limit;
  if (stalled_ == running && can_admit) {
    if (admitted_in_ != seen) {
      admitted_in_ = seen;
      if (auto self = job.self.lock()) job.pool->admit_one_more(self);
    }
    return Verdict::poll_on;
  }
  // Every block in progress is hopeless, and none is between taking its ticket and starting, or between
  // ending and being counted finished; then nothing else of the device may write.
  if (hopeless_ == running && !can_admit && finished + running == taken && epoch_.load() == seen &&
      job.device->streams().work_besides(job.stream.load()) == 0) {
    return Verdict::deadlock;
  }
  return Verdict::poll_on;
}

void ProgressBoard::withdraw(Level level, std::uint64_t seen) {
  std::lock_guard lock(mutex_);
  if (counts_epoch_ != seen) return;
  if (level >= Level::stalled && stalled_ > 0) --stalled_;
  if (level >= Level::hopeless && hopeless_ > 0) --hopeless_;
}

}  // namespace gpulab::sim::detail
