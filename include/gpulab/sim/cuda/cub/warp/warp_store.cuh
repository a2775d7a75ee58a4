#pragma once
// The simulator's CUB (../config.cuh) has no cub::WarpStore yet.
#error "gpulab sim: cub::WarpStore (<cub/warp/warp_store.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
