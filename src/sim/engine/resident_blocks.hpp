#pragma once
// Resident blocks: running a launch with many of its blocks in progress at once, as a GPU keeps up to
// occupancy x multiprocessors of them resident, so that blocks may wait on each other: a cooperative
// launch's grid.sync() (grid_barrier.hpp), and blocks that poll memory other blocks write.
//
// Each resident block gets a host thread of its own, not a slot among the fibers of a shared one: a
// block's static __shared__ arrays are the host thread's TLS (device/qualifiers.hpp), as are the
// engine's and the checks' per-block state (host_thread.hpp), so two blocks in progress on one host
// thread would share them. The host threads are kept between launches and grow to the most a launch
// asked for; they are not bound to cores (more of them than cores is the point), and a block waiting at
// a grid barrier sleeps on it.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/engine/launch_job.hpp"

namespace gpulab::sim::detail {

// How many blocks of `threads` threads, each using `dynamic_shared_bytes` of dynamic shared memory, can
// be resident at once on a device of `multiprocessors` multiprocessors: the co-residency limit a
// cooperative launch must keep within (cudaErrorCooperativeLaunchTooLarge). Static __shared__ memory
// and registers are not measured (cudaFuncGetAttributes reports them as 0, the occupancy calls agree).
std::uint64_t co_resident_blocks(unsigned threads, std::size_t dynamic_shared_bytes, int multiprocessors);

class ResidentBlocks {
 public:
  ResidentBlocks() = default;
  ~ResidentBlocks();
  ResidentBlocks(const ResidentBlocks&) = delete;
  ResidentBlocks& operator=(const ResidentBlocks&) = delete;

  // Runs every block of `job`, up to `resident` of them at once, admitted in grid order (x fastest) as
  // earlier ones end; returns when the last has ended. With a grid barrier, every block is resident
  // (the launch was refused otherwise) and each block's end is told to the barrier.
  void run(const std::shared_ptr<LaunchJob>& job, std::uint64_t resident);

 private:
  void worker_main();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::thread> threads_;
  std::shared_ptr<LaunchJob> job_;  // the launch being run; one at a time (run holds run_mutex_)
  std::uint64_t seats_ = 0;         // host threads that may still join job_
  std::uint64_t generation_ = 0;    // launches handed out
  bool stopping_ = false;
  std::mutex run_mutex_;
};

}  // namespace gpulab::sim::detail
