#pragma once
// gpulab-simcc's shadow of CUDA's <cuda_profiler_api.h>: cudaProfilerStart and cudaProfilerStop, which
// the runtime API declares (they mark nothing on the simulator; no profiler attaches to it).
#include "cuda_runtime_api.h"
