#pragma once
// The simulator's CUB (../config.cuh) has no cub::WarpLoad yet.
#error "gpulab sim: cub::WarpLoad (<cub/warp/warp_load.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
