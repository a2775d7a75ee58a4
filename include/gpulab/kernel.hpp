#pragma once
// Include this first in a kernel file (.cu). The same file compiles with nvcc for CUDA devices and with
// the host compiler for the simulator (gpulab_add_kernels does both); CUDA's own names (__global__,
// threadIdx, __syncthreads, atomics, warp intrinsics) mean the same thing under either.
#if defined(__CUDACC__) && !defined(GPULAB_SIM)
#include <cuda_runtime.h>
#elif defined(GPULAB_SIM)
#include <gpulab/sim/device_runtime.hpp>
#else
#error "gpulab/kernel.hpp is for kernel files, compiled by nvcc or for the simulator (see gpulab_add_kernels)"
#endif

#include <gpulab/kernel_export.hpp>
#include <gpulab/launch.hpp>
#include <gpulab/view.hpp>

namespace gpulab {

struct Index2 {
  int x, y;
};
struct Index3 {
  int x, y, z;
};

// Numba's cuda.grid(N): the absolute index of the calling thread in the grid, x first.
//   auto [col, row] = gpulab::grid<2>();
template <int N>
GPULAB_DEVICE inline auto grid() {
  static_assert(N >= 1 && N <= 3, "grid<N>: N is 1, 2 or 3");
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if constexpr (N == 1) {
    return x;
  } else if constexpr (N == 2) {
    return Index2{x, static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y)};
  } else {
    return Index3{x, static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y),
                  static_cast<int>(blockIdx.z * blockDim.z + threadIdx.z)};
  }
}

// Numba's cuda.gridsize(N): the number of threads in the grid along each axis.
template <int N>
GPULAB_DEVICE inline auto gridsize() {
  static_assert(N >= 1 && N <= 3, "gridsize<N>: N is 1, 2 or 3");
  const int x = static_cast<int>(gridDim.x * blockDim.x);
  if constexpr (N == 1) {
    return x;
  } else if constexpr (N == 2) {
    return Index2{x, static_cast<int>(gridDim.y * blockDim.y)};
  } else {
    return Index3{x, static_cast<int>(gridDim.y * blockDim.y), static_cast<int>(gridDim.z * blockDim.z)};
  }
}

// The block's dynamic shared memory (the launch's shared_bytes), 16-byte aligned: CUDA's
// `extern __shared__ T buffer[];`, written so that it also compiles for the simulator.
template <class T>
GPULAB_DEVICE inline T* dynamic_shared() {
#if defined(__CUDACC__) && !defined(GPULAB_SIM)
  extern __shared__ __align__(16) unsigned char gpulab_dynamic_shared_memory[];
  return reinterpret_cast<T*>(gpulab_dynamic_shared_memory);
#else
  return reinterpret_cast<T*>(::gpulab::sim::dynamic_shared_memory());
#endif
}

}  // namespace gpulab

// For kernel files that register operations (matmul rungs): the device kind this compilation serves,
// and whether it is the compilation that registers (the instrumented simulator compilation does not:
// the simulator picks its kernels through the exported record instead).
#if defined(__CUDACC__) && !defined(GPULAB_SIM)
#define GPULAB_KERNEL_DEVICE_KIND ::gpulab::DeviceKind::cuda
#define GPULAB_REGISTERING_COMPILATION 1
#elif defined(GPULAB_SIM_CHECKED)
#define GPULAB_KERNEL_DEVICE_KIND ::gpulab::DeviceKind::sim
#define GPULAB_REGISTERING_COMPILATION 0
#else
#define GPULAB_KERNEL_DEVICE_KIND ::gpulab::DeviceKind::sim
#define GPULAB_REGISTERING_COMPILATION 1
#endif
