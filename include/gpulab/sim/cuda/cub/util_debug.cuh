#pragma once
// The simulator's CUB (config.cuh): CubDebug and CubDebugExit, which print a CUDA error with its place.
#include <cstdio>
#include <cstdlib>

#include <cub/config.cuh>

namespace cub {

__host__ __device__ inline cudaError_t Debug(cudaError_t error, const char* filename, int line) {
  if (error != cudaSuccess) {
    std::fprintf(stderr, "CUDA error %d [%s, %d]: %s\n", static_cast<int>(error), filename, line, cudaGetErrorString(error));
  }
  return error;
}

}  // namespace cub

#ifndef CubDebug
#define CubDebug(e) ::cub::Debug(static_cast<cudaError_t>(e), __FILE__, __LINE__)
#endif
#ifndef CubDebugExit
#define CubDebugExit(e)                                            \
  if (::cub::Debug(static_cast<cudaError_t>(e), __FILE__, __LINE__)) { \
    std::exit(1);                                                  \
  }
#endif
