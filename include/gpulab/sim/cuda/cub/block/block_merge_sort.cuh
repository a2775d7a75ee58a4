#pragma once
// The simulator's CUB (../config.cuh) has no cub::BlockMergeSort yet.
#error "gpulab sim: cub::BlockMergeSort (<cub/block/block_merge_sort.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
