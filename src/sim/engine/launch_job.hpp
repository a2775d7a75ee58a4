#pragma once
// One queued kernel launch, shared by the host threads that run its blocks: what to run, on what
// grid, under which instrumentation clients, and the first finding. Each client keeps its part of
// the launch beside the engine's (its LaunchState).
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <gpulab/launch.hpp>
#include <gpulab/sim/detail/host_thread.hpp>
#include <gpulab/sim/detail/kernel_entry.hpp>

#include "sim/engine/progress_board.hpp"

namespace gpulab::sim::detail {

class SimDevice;
class GridBarrier;
class BlockPool;
class SimStream;

struct LaunchJob : ClientLaunchStates<Clients> {
  std::string kernel_name;
  const KernelEntry* entry = nullptr;
  const void* function = nullptr;
  std::unique_ptr<ArgStorage> args;
  dim3 grid, block;
  unsigned threads_per_block = 0;
  std::size_t shared_bytes = 0;
  unsigned clients = 0;  // the instrumentation clients on (CheckFlags), as enabled when it was queued
  std::vector<gpulab::detail::ArgInfo> arg_info;
  SimDevice* device = nullptr;
  // A cooperative launch's grid barrier (grid_barrier.hpp); null for any other launch.
  std::shared_ptr<GridBarrier> grid_barrier;
  // Forward progress for polling blocks (progress_board.hpp): the board, the most blocks a GPU would
  // have in progress at once, the pool that may start more of them (null when all are resident), this
  // job itself for the pool, and the stream it runs on (set when it starts).
  ProgressBoard progress;
  std::uint64_t resident_limit = 0;
  BlockPool* pool = nullptr;
  std::weak_ptr<LaunchJob> self;
  std::atomic<const SimStream*> stream{nullptr};

  std::uint64_t block_count = 0;
  std::atomic<std::uint64_t> next_block{0};
  std::atomic<std::uint64_t> finished_blocks{0};
  std::atomic<bool> cancelled{false};

  std::mutex mutex;
  std::condition_variable finished;
  std::string fault;  // the first finding; empty when none

  // Keeps the first finding and stops the blocks not yet started.
  void report(std::string what);

  // A client's part of the launch.
  template <class C>
  typename C::LaunchState& state() noexcept {
    return *this;
  }
};

// The coordinates of block `linear` of a grid, x fastest.
inline uint3 block_coordinates(dim3 grid, std::uint64_t linear) {
  return uint3{static_cast<unsigned>(linear % grid.x), static_cast<unsigned>((linear / grid.x) % grid.y),
               static_cast<unsigned>(linear / (static_cast<std::uint64_t>(grid.x) * grid.y))};
}

}  // namespace gpulab::sim::detail
