#pragma once
// GPULAB_HD marks functions that run on the host and inside kernels (views, index helpers). Under nvcc it
// is __host__ __device__; in host code and in the simulator, where kernels are ordinary C++, it is empty.
// GPULAB_SIM comes first, here and in gpulab's other headers: gpulab-simcc defines nvcc's __CUDACC__ for
// .cu files, as nvcc does (CMake and programs test it), but what it compiles is simulator code.
#if defined(__CUDACC__) && !defined(GPULAB_SIM)
#define GPULAB_HD __host__ __device__
#define GPULAB_DEVICE __device__
#else
#define GPULAB_HD
#define GPULAB_DEVICE
#endif
