#pragma once
// The simulator's CUB (../config.cuh) has no cub::BlockShuffle yet.
#error "gpulab sim: cub::BlockShuffle (<cub/block/block_shuffle.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
