#pragma once
// The host threads that run blocks (GPULAB_SIM_THREADS, by default one per core), shared by every
// stream of the sim device: a launch hands them its job and waits for its last block.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/engine/launch_job.hpp"
#include "sim/engine/resident_blocks.hpp"

namespace gpulab::sim::detail {

class BlockPool {
 public:
  // GPULAB_SIM_THREADS, or the host's cores (throws InvalidArgument for a bad value).
  static int configured_threads();

  explicit BlockPool(int threads);
  ~BlockPool();
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;

  int size() const { return static_cast<int>(threads_.size()); }

  // Runs every block of `job` and returns when the last has finished (a cooperative launch's all at
  // once, as resident blocks).
  void run(const std::shared_ptr<LaunchJob>& job);

 private:
  void worker_main();

  std::vector<std::thread> threads_;
  std::uint64_t segments_ = 1;  // parts of the grid dealt round robin (block_order.hpp): one per thread
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<LaunchJob>> jobs_;
  bool stopping_ = false;
  ResidentBlocks resident_;
};

}  // namespace gpulab::sim::detail
