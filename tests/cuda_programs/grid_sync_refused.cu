// What a GPU refuses of grid synchronisation: a cooperative launch one block larger than can be
// resident is cudaErrorCooperativeLaunchTooLarge (not sticky: a launch within the limit runs after it),
// and grid.sync() in a kernel launched without cudaLaunchCooperativeKernel faults (CUDA traps there),
// which makes the launch cudaErrorLaunchFailure. Prints PASSED, then exits non-zero with the report.
#include <cstdio>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

constexpr int kBlock = 192;

__global__ void addAfterGridSync(int* values, int n) {
  cg::grid_group grid = cg::this_grid();
  const unsigned long long i = grid.thread_rank();
  if (i < static_cast<unsigned long long>(n)) values[i] += 1;
  grid.sync();
  if (i < static_cast<unsigned long long>(n)) values[i] *= 3;
}

__global__ void gridSyncWithoutCooperativeLaunch(int* values, int n) {
  cg::grid_group grid = cg::this_grid();
  if (!grid.is_valid() && grid.thread_rank() < static_cast<unsigned long long>(n)) values[grid.thread_rank()] = 7;
  grid.sync();
}

int main() {
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return 1;
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, addAfterGridSync, kBlock, 0) != cudaSuccess) return 1;
  const int limit = per_sm * prop.multiProcessorCount;
  const int n = limit * kBlock - 5;
  int* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) return 1;
  if (cudaMemset(d, 0, n * sizeof(int)) != cudaSuccess) return 1;
  int count = n;
  void* args[] = {&d, &count};
  const cudaError_t too_large = cudaLaunchCooperativeKernel(addAfterGridSync, dim3(limit + 1), dim3(kBlock), args, 0, 0);
  const cudaError_t last = cudaGetLastError();
  const cudaError_t within = cudaLaunchCooperativeKernel(addAfterGridSync, dim3(limit), dim3(kBlock), args, 0, 0);
  const cudaError_t ran = cudaDeviceSynchronize();
  int first = 0;
  if (cudaMemcpy(&first, d, sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  if (too_large != cudaErrorCooperativeLaunchTooLarge || last != cudaErrorCooperativeLaunchTooLarge ||
      within != cudaSuccess || ran != cudaSuccess || first != 3) {
    std::printf("FAILED: %d blocks: %s (last error %s); %d blocks: %s, %s, values[0] = %d\n", limit + 1,
                cudaGetErrorName(too_large), cudaGetErrorName(last), limit, cudaGetErrorName(within),
                cudaGetErrorName(ran), first);
    return 1;
  }
  gridSyncWithoutCooperativeLaunch<<<3, kBlock>>>(d, n);
  const cudaError_t fault = cudaDeviceSynchronize();
  if (fault != cudaErrorLaunchFailure) {
    std::printf("FAILED: grid.sync() without a cooperative launch gave %s\n", cudaGetErrorName(fault));
    return 1;
  }
  std::printf("PASSED: %d cooperative blocks are cudaErrorCooperativeLaunchTooLarge, %d run; grid.sync() without "
              "a cooperative launch is cudaErrorLaunchFailure\n",
              limit + 1, limit);
  return 0;
}
