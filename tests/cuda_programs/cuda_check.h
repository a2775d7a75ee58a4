// The error check the sample programs share, as CUDA samples write it.
#pragma once
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(call)                                                                                    \
  do {                                                                                                 \
    cudaError_t err_ = (call);                                                                         \
    if (err_ != cudaSuccess) {                                                                         \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_), \
                   cudaGetErrorName(err_));                                                            \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)
