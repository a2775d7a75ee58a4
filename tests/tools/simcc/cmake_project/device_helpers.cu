// A __device__ function called from another file's kernel: needs -rdc=true (CUDA_SEPARABLE_COMPILATION).
#include "saxpy_config.cuh"

// SAXPY_SCALE (1.0f) is a compile definition of the target: a -D on the command line.
__device__ float scaled(float a, float x) { return a * x * SAXPY_SCALE; }
