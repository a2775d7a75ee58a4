#pragma once
// The simulator's CUB (../config.cuh): the block a block-wide collective is declared for. CUB's
// collectives take the block's dimensions as template arguments and assume the launch has them; a
// launch that does not is a kernel fault here (on a GPU it gives wrong results or hangs), naming the
// collective and both shapes.
#include <source_location>
#include <string>

#include <cub/detail/warp_shuffle.cuh>

namespace cub::detail {

template <int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
struct block_shape {
  static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int kWarps = (kThreads + 31) / 32;

  // The calling thread's index in the block, after checking the launch's block is this one.
  __device__ static int checked_tid(const char* collective, const std::source_location& where) {
    if (blockDim.x != static_cast<unsigned>(BLOCK_DIM_X) || blockDim.y != static_cast<unsigned>(BLOCK_DIM_Y) ||
        blockDim.z != static_cast<unsigned>(BLOCK_DIM_Z)) {
      const std::string what = std::string(collective) + " is declared for blocks of " + std::to_string(BLOCK_DIM_X) +
                               " x " + std::to_string(BLOCK_DIM_Y) + " x " + std::to_string(BLOCK_DIM_Z) +
                               " threads, but the kernel runs in blocks of " + std::to_string(blockDim.x) + " x " +
                               std::to_string(blockDim.y) + " x " + std::to_string(blockDim.z);
      ::gpulab::sim::detail::kernel_abort(what.c_str(), where);
    }
    return static_cast<int>(threadIdx.x + (threadIdx.y + threadIdx.z * BLOCK_DIM_Y) * BLOCK_DIM_X);
  }
  // Lanes in warp `w` (the last may be short).
  static constexpr int lanes_in(int w) { return kThreads - 32 * w >= 32 ? 32 : kThreads - 32 * w; }
};

}  // namespace cub::detail
