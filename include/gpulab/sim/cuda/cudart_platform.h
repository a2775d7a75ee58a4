#pragma once
// gpulab-simcc's shadow of CUDA's <cudart_platform.h>: nothing platform-specific on the simulator.
