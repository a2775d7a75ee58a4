#pragma once
// gpulab-simcc's shadow of CUDA's <surface_functions.h>: the surface accesses of surface references,
// removed by CUDA 12; the surface-object accesses are gpulab/sim/device/surface_access.hpp.
// On the simulator all of it comes with <cuda_runtime.h>, so a program naming this header gets what
// nvcc's would give it and never falls through to the toolkit's copy.
#include "cuda_runtime.h"
