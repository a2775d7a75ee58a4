#pragma once
// The simulator's CUB (../config.cuh) has no cub::BlockAdjacentDifference yet.
#error "gpulab sim: cub::BlockAdjacentDifference (<cub/block/block_adjacent_difference.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
