#pragma once
// The simulator's CUB (config.cuh): CUB's macros (CUB_MIN, CUB_MAX, CUB_QUOTIENT_CEILING, the namespace
// macros, the warp and bank sizes of the simulated device), which CUB keeps in util_namespace.cuh.
#include <cub/config.cuh>
