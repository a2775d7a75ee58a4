// A device-side assert as CUDA reports it: the failing thread prints "Assertion ... failed", the
// launch returns cudaErrorAssert at the next synchronising call, the error is sticky (every later call
// returns it), and the program itself goes on running to report what it saw.
// Built with -DNDEBUG (CMake's release flags) the assert would vanish: this program needs it.
#undef NDEBUG
#include <cassert>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "cuda_check.h"

// Every element must be positive; the host plants one that is not.
__global__ void requirePositive(const int* values, int* doubled, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  assert(values[i] > 0);
  doubled[i] = 2 * values[i];
}

int main() {
  const int n = 1000;
  const int planted = 617;
  int* host = new int[n];
  std::srand(99);
  for (int i = 0; i < n; ++i) host[i] = 1 + std::rand() % 1000;
  int *values, *doubled;
  CHECK(cudaMalloc(&values, n * sizeof(int)));
  CHECK(cudaMalloc(&doubled, n * sizeof(int)));
  CHECK(cudaMemcpy(values, host, n * sizeof(int), cudaMemcpyHostToDevice));

  // First a launch whose asserts all hold: it must run to completion.
  requirePositive<<<(n + 127) / 128, 128>>>(values, doubled, n);
  CHECK(cudaDeviceSynchronize());
  int* back = new int[n];
  CHECK(cudaMemcpy(back, doubled, n * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += back[i] != 2 * host[i];

  // Then one element that fails the assert.
  host[planted] = -host[planted];
  CHECK(cudaMemcpy(values, host, n * sizeof(int), cudaMemcpyHostToDevice));
  requirePositive<<<(n + 127) / 128, 128>>>(values, doubled, n);
  const cudaError_t launched = cudaGetLastError();  // the launch itself was valid
  const cudaError_t synced = cudaDeviceSynchronize();
  const cudaError_t later = cudaMemcpy(back, doubled, n * sizeof(int), cudaMemcpyDeviceToHost);
  const cudaError_t last = cudaGetLastError();
  std::printf("holding asserts: %d wrong of %d; failing assert: launch %s, synchronize %s, later memcpy %s, "
              "cudaGetLastError %s\n", wrong, n, cudaGetErrorName(launched), cudaGetErrorName(synced),
              cudaGetErrorName(later), cudaGetErrorName(last));
  delete[] host;
  delete[] back;
  if (wrong != 0 || launched != cudaSuccess || synced != cudaErrorAssert || later != cudaErrorAssert ||
      last != cudaErrorAssert) {
    std::printf("FAILED\n");
    return 1;
  }
  std::printf("PASSED: a failed device-side assert is cudaErrorAssert, sticky\n");
  return 0;
}
