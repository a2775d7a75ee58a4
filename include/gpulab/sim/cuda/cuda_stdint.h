#pragma once
// gpulab-simcc's shadow of CUDA's <cuda_stdint.h>: the fixed-width integers of <stdint.h>.
#include <stdint.h>
