#include "sim/engine/resident_blocks.hpp"

#include <algorithm>
#include <exception>

#include <fmt/format.h>

#include "sim/engine/block_run.hpp"
#include "sim/engine/device_limits.hpp"
#include "sim/engine/grid_barrier.hpp"

namespace gpulab::sim::detail {

std::uint64_t co_resident_blocks(unsigned threads, std::size_t dynamic_shared_bytes, int multiprocessors) {
  const int per_multiprocessor = device_limits::resident_blocks(static_cast<int>(threads), dynamic_shared_bytes);
  return static_cast<std::uint64_t>(std::max(per_multiprocessor, 0)) * static_cast<std::uint64_t>(std::max(multiprocessors, 0));
}

ResidentBlocks::~ResidentBlocks() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void ResidentBlocks::run(const std::shared_ptr<LaunchJob>& job, std::uint64_t resident) {
  if (job->block_count == 0) return;
  // Launches on several streams take their turns: a cooperative launch is a whole device's worth.
  std::lock_guard turn(run_mutex_);
  const std::uint64_t seats = std::min(resident, job->block_count);
  {
    std::lock_guard lock(mutex_);
    while (threads_.size() < seats) threads_.emplace_back([this] { worker_main(); });
    job_ = job;
    seats_ = seats;
    ++generation_;
  }
  wake_.notify_all();
  {
    std::unique_lock lock(job->mutex);
    job->finished.wait(lock, [&] { return job->finished_blocks.load() == job->block_count; });
  }
  std::lock_guard lock(mutex_);
  job_.reset();
  seats_ = 0;
}

void ResidentBlocks::worker_main() {
  BlockRun& run = this_thread_block_run();
  std::uint64_t seen = 0;
  for (;;) {
    std::shared_ptr<LaunchJob> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || (generation_ != seen && seats_ > 0); });
      if (stopping_) return;
      seen = generation_;
      --seats_;
      job = job_;
    }
    for (;;) {
      const std::uint64_t b = job->next_block.fetch_add(1);
      if (b >= job->block_count) break;
      if (!job->cancelled.load(std::memory_order_relaxed)) {
        try {
          run.run(*job, b);
        } catch (const std::exception& e) {
          job->report(fmt::format("the simulator could not run block {}: {}", b, e.what()));
        }
      }
      if (job->grid_barrier != nullptr) job->grid_barrier->block_finished(*job, b);
      if (job->finished_blocks.fetch_add(1) + 1 == job->block_count) {
        std::lock_guard lock(job->mutex);
        job->finished.notify_all();
      }
    }
  }
}

}  // namespace gpulab::sim::detail
