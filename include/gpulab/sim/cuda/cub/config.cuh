#pragma once
// The simulator's CUB: CUB's API (namespace cub) implemented by gpulab for code built for the
// simulator, in place of the toolkit's CUB. Why its own: the toolkit's CUB is device code in inline PTX
// (its warp shuffles, lane masks and bit-field instructions), picks its tuning by the PTX version of a
// probe kernel, and launches its kernels with <<<>>> inside its headers, which gpulab-simcc does not
// rewrite; none of that is C++ the host compiler can run. Here the block- and warp-wide collectives
// are device code written on the simulator's barriers and shuffles, their TempStorage in the shared
// memory the program declares, so the checks see their accesses as any kernel's; the device-wide
// algorithms are host tasks on their stream (gpulab_cub_support.h), as the simulator's cuBLAS calls.
// docs/simulator.md ("CUB") lists what is there.
#include <cuda_runtime.h>

// CUB 3.0's version number (CCCL 3.0, CUDA 13.0), whose API this follows.
#ifndef CUB_VERSION
#define CUB_VERSION 300000
#define CUB_MAJOR_VERSION (CUB_VERSION / 100000)
#define CUB_MINOR_VERSION (CUB_VERSION / 100 % 1000)
#define CUB_SUBMINOR_VERSION (CUB_VERSION % 100)
#define CUB_PATCH_NUMBER 0
#endif

#define CUB_NAMESPACE_BEGIN namespace cub {
#define CUB_NAMESPACE_END }
#define CUB_NS_QUALIFIER ::cub
#define CUB_RUNTIME_FUNCTION
#define CUB_RUNTIME_ENABLED
#define CUB_PTX_ARCH 900
#define CUB_IS_DEVICE_CODE 0
#define CUB_IS_HOST_CODE 1
#define CUB_INCLUDE_DEVICE_CODE 1
#define CUB_INCLUDE_HOST_CODE 1
#define CUB_STDERR
#define CUB_MIN(a, b) (((b) < (a)) ? (b) : (a))
#define CUB_MAX(a, b) (((b) > (a)) ? (b) : (a))
#define CUB_QUOTIENT_CEILING(a, b) (((a) + (b) - 1) / (b))
#define CUB_ROUND_UP_NEAREST(x, y) ((((x) + (y) - 1) / (y)) * (y))
#define CUB_WARP_THREADS(unused) 32
#define CUB_LOG_WARP_THREADS(unused) 5
#define CUB_PTX_WARP_THREADS 32
#define CUB_PTX_LOG_WARP_THREADS 5
#define CUB_SMEM_BANKS(unused) 32
#define CUB_PTX_SMEM_BANKS 32
