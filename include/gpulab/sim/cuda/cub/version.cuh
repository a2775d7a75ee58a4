#pragma once
// The simulator's CUB (config.cuh says what it is): CUB_VERSION.
#include <cub/config.cuh>
