#pragma once
// CUDA splits the cg scans into this header; gpulab's simulator has them in <cooperative_groups.h>.
#include "../cooperative_groups.h"
