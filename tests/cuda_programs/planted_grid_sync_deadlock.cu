// A planted bug: the last block returns before the kernel's grid.sync(), which every thread of the grid
// must reach; on a GPU the other blocks wait for ever. The simulator reports the deadlock, naming the
// kernel and the blocks.
#include <cstdio>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void lastBlockLeavesEarly(int* values) {
  cg::grid_group grid = cg::this_grid();
  if (grid.block_rank() == grid.num_blocks() - 1) return;
  values[grid.thread_rank()] = static_cast<int>(grid.thread_rank()) + 1;
  grid.sync();
  values[grid.thread_rank()] *= 2;
}

int main() {
  constexpr int kBlocks = 5, kBlock = 96;
  int* d = nullptr;
  if (cudaMalloc(&d, kBlocks * kBlock * sizeof(int)) != cudaSuccess) return 1;
  void* args[] = {&d};
  cudaError_t e = cudaLaunchCooperativeKernel(lastBlockLeavesEarly, dim3(kBlocks), dim3(kBlock), args, 0, 0);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  std::printf("the launch returned %s\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
