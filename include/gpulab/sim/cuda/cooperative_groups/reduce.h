#pragma once
// CUDA splits cg::reduce into this header; gpulab's simulator has it in <cooperative_groups.h>.
#include "../cooperative_groups.h"
