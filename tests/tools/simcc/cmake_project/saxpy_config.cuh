#pragma once
// Included by saxpy_kernels.cu with quotes, so gpulab-simcc rewrites a copy of it; the dependency file
// must still name this file (the test touches it and expects a rebuild).
#include <saxpy_block.h>

__device__ float scaled(float a, float x);  // device_helpers.cu

constexpr int blocks_for(int n) { return (n + saxpy_block_size - 1) / saxpy_block_size; }
