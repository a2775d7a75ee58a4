#pragma once
// The host threads that run blocks (GPULAB_SIM_THREADS, by default one per core), shared by every
// stream of the sim device: a launch hands them its job and waits for its last block. Blocks start in
// grid order (x fastest), as a GPU's do in practice, so that a block may wait for an earlier one. When
// every running block of a launch polls memory, waiting for blocks not started yet, the launch's progress
// board (progress_board.hpp) asks for one more host thread (admit_one_more): a block's static shared
// memory is its host thread's TLS, so blocks in progress at once each need one.
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
  // Puts one more host thread (made when none is idle, kept for later) on `job`'s blocks.
  void admit_one_more(const std::shared_ptr<LaunchJob>& job);

 private:
  void worker_main();
  void helper_main();
  // Runs blocks of `job` on this host thread until none is left to start.
  static void run_blocks(LaunchJob& job, BlockRun& run);

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<LaunchJob>> jobs_;
  bool stopping_ = false;
  ResidentBlocks resident_;
  // The host threads admit_one_more adds, unbound, and the jobs they are asked to join.
  std::mutex helper_mutex_;
  std::condition_variable helper_wake_;
  std::vector<std::thread> helpers_;
  std::deque<std::shared_ptr<LaunchJob>> helper_jobs_;
  std::size_t idle_helpers_ = 0;
  bool helpers_stopping_ = false;
};

}  // namespace gpulab::sim::detail
