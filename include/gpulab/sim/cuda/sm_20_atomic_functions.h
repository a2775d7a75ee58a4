#pragma once
// gpulab-simcc's shadow of CUDA's <sm_20_atomic_functions.h>, which CUDA's own headers include and some programs
// name. On the simulator all of it comes with <cuda_runtime.h>, so a program naming this header gets what
// nvcc's would give it and never falls through to the toolkit's copy.
#include "cuda_runtime.h"
