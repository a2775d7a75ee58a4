#pragma once
// gpulab-simcc's shadow of CUDA's <device_launch_parameters.h>: threadIdx, blockIdx, blockDim, gridDim
// and warpSize, which the simulator's engine sets for each simulated thread.
#if !defined(GPULAB_SIM)
#error "this <device_launch_parameters.h> is gpulab's simulator shadow of CUDA's: build with gpulab-simcc or gpulab_add_sim_executable"
#endif
#include <gpulab/sim/device_runtime.hpp>
