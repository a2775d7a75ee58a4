#pragma once
// The simulator's CUB (config.cuh): a thread's lane and warp, and the lane masks, as CUB's device
// functions give them (CUB reads them from PTX registers; here from the thread's index).
#include <cub/config.cuh>

namespace cub {

// The calling thread's linear index in its block (x fastest), as CUB's RowMajorTid.
__device__ inline unsigned RowMajorTid(int block_dim_x, int block_dim_y, int block_dim_z) {
  return threadIdx.x + (block_dim_y > 1 || block_dim_z > 1
                            ? (threadIdx.y + (block_dim_z > 1 ? threadIdx.z * block_dim_y : 0)) * block_dim_x
                            : 0);
}
__device__ inline unsigned LaneId() {
  return (threadIdx.x + (threadIdx.y + threadIdx.z * blockDim.y) * blockDim.x) % 32;
}
__device__ inline unsigned WarpId() {
  return (threadIdx.x + (threadIdx.y + threadIdx.z * blockDim.y) * blockDim.x) / 32;
}
__device__ inline unsigned LaneMaskLt() { return (1u << LaneId()) - 1; }
__device__ inline unsigned LaneMaskLe() { return LaneId() == 31 ? 0xffffffffu : (2u << LaneId()) - 1; }
__device__ inline unsigned LaneMaskGt() { return ~LaneMaskLe(); }
__device__ inline unsigned LaneMaskGe() { return ~LaneMaskLt(); }
__device__ inline void CTA_SYNC() { __syncthreads(); }
__device__ inline void WARP_SYNC(unsigned member_mask) { __syncwarp(member_mask); }

}  // namespace cub
