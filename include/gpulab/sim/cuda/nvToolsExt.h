#pragma once
// gpulab-simcc's shadow of NVTX's older header name <nvToolsExt.h>: the same API as <nvtx3/nvToolsExt.h>.
#include "nvtx3/nvToolsExt.h"
