#pragma once
// The simulated device's limits: an sm_90 GPU's (CUDA's programming guide, compute capability 9.0),
// in one place. Launch validation and device properties (sim_device.cpp), the opt-in of dynamic
// shared memory, the block runner's shared-memory buffer and the CUDA runtime's occupancy and kernel
// attributes (src/simcuda/runtime) all read them here.
#include <cstddef>

namespace gpulab::sim::detail::device_limits {

inline constexpr int compute_major = 9;
inline constexpr int compute_minor = 0;
inline constexpr int warp_size = 32;
inline constexpr int max_threads_per_block = 1024;
inline constexpr int max_block_dim[3] = {1024, 1024, 64};
inline constexpr int max_grid_dim[3] = {2147483647, 65535, 65535};
inline constexpr int max_threads_per_multiprocessor = 2048;
inline constexpr int max_blocks_per_multiprocessor = 32;
inline constexpr int registers_per_block = 65536;
inline constexpr int registers_per_multiprocessor = 65536;
// Dynamic shared memory a block may use without opting in, and with.
inline constexpr std::size_t shared_bytes_per_block = 48 * 1024;
inline constexpr std::size_t shared_bytes_per_block_optin = 227 * 1024;
// A multiprocessor's shared memory, of which each resident block reserves 1 KiB for the system.
inline constexpr std::size_t shared_bytes_per_multiprocessor = 228 * 1024;
inline constexpr std::size_t shared_bytes_reserved_per_block = 1024;
inline constexpr std::size_t constant_bytes = 64 * 1024;
inline constexpr std::size_t l2_cache_bytes = 50 * 1024 * 1024;

// Blocks of `threads` threads using `dynamic_shared_bytes` that fit on one multiprocessor at once
// (registers are not modelled); 0 when the block does not fit at all.
constexpr int resident_blocks(int threads, std::size_t dynamic_shared_bytes) {
  if (threads <= 0 || threads > max_threads_per_block) return 0;
  const int warps = (threads + warp_size - 1) / warp_size;
  int blocks = max_threads_per_multiprocessor / warp_size / warps;
  if (blocks > max_blocks_per_multiprocessor) blocks = max_blocks_per_multiprocessor;
  if (dynamic_shared_bytes > 0) {
    const auto by_shared =
        static_cast<int>(shared_bytes_per_multiprocessor / (dynamic_shared_bytes + shared_bytes_reserved_per_block));
    if (by_shared < blocks) blocks = by_shared;
  }
  return blocks;
}

}  // namespace gpulab::sim::detail::device_limits
