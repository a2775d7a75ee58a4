#pragma once
// The simulator's CUB (../config.cuh) has no cub::WarpMergeSort yet.
#error "gpulab sim: cub::WarpMergeSort (<cub/warp/warp_merge_sort.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
