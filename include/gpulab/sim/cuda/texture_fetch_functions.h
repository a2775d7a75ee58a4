#pragma once
// gpulab-simcc's shadow of CUDA's <texture_fetch_functions.h>: the texture fetches of texture references
// (tex1Dfetch, tex2D, ... on texture<>), removed by CUDA 12; the texture-object fetches are
// gpulab/sim/device/texture_fetch.hpp.
// On the simulator all of it comes with <cuda_runtime.h>, so a program naming this header gets what
// nvcc's would give it and never falls through to the toolkit's copy.
#include "cuda_runtime.h"
