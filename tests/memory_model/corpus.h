// What the memory-model corpus programs share beside device_buffers.h: a failed expectation, fences
// chosen at run time, the grid barrier written by hand, and the main that runs the case named on the
// command line.
#pragma once
#include <cstdio>

#include <cuda_runtime.h>

#include "../cuda_programs/device_buffers.h"

namespace corpus {

// Prints FAIL with `what` unless `ok`.
inline bool expect(bool ok, const char* what) {
  if (!ok) std::printf("FAIL: %s\n", what);
  return ok;
}

enum Fence { no_fence = 0, block_fence = 1, device_fence = 2 };

__device__ void fence(Fence f) {
  if (f == device_fence) {
    __threadfence();
  } else if (f == block_fence) {
    __threadfence_block();
  }
}

// A grid barrier written by hand: each block publishes a value, arrives, waits for all, and reads its
// neighbour's (readNeighbours checks what they read).
__global__ void gridBarrier(unsigned* arrived, int* data, int* out, Fence f) {
  if (threadIdx.x != 0) return;
  data[blockIdx.x] = static_cast<int>(blockIdx.x) * 3;
  fence(f);
  atomicAdd(arrived, 1u);
  while (atomicAdd(arrived, 0u) < gridDim.x) {
  }
  fence(f);
  out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
}

// Whether every block of gridBarrier read its neighbour's value, which the barrier must have ordered.
inline bool readNeighbours(const int* out, int blocks) {
  const auto h = to_host(out, blocks);
  for (int b = 0; b < blocks; ++b) {
    if (h[b] != ((b + 1) % blocks) * 3) return expect(false, "a block read its neighbour's value before the barrier");
  }
  return true;
}

// Runs the case argv[1] with `run` (false: it failed, having said why): PASSED and 0, or 1.
inline int main(int argc, char** argv, bool (*run)(const char*)) {
  if (argc != 2) {
    std::printf("usage: %s <case>\n", argv[0]);
    return 2;
  }
  if (!run(argv[1])) return 1;
  std::printf("PASSED: %s\n", argv[1]);
  return 0;
}

}  // namespace corpus
