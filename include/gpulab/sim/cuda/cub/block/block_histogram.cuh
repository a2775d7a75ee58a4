#pragma once
// The simulator's CUB (../config.cuh) has no cub::BlockHistogram yet.
#error "gpulab sim: cub::BlockHistogram (<cub/block/block_histogram.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
