#pragma once
// gpulab-simcc's shadow of CUDA's <texture_indirect_functions.h>: the texture-object fetches
// (tex1Dfetch<T>, tex2D<T>, tex2Dgather, tex2DLod, ...), which are gpulab/sim/device/texture_fetch.hpp.
// On the simulator all of it comes with <cuda_runtime.h>, so a program naming this header gets what
// nvcc's would give it and never falls through to the toolkit's copy.
#include "cuda_runtime.h"
