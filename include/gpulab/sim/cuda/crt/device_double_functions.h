#pragma once
// gpulab-simcc's shadow of CUDA's <crt/device_double_functions.h>: see the header of the same name one folder up.
#include "../cuda_runtime.h"
