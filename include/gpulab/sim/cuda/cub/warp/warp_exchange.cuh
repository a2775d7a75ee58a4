#pragma once
// The simulator's CUB (../config.cuh) has no cub::WarpExchange yet.
#error "gpulab sim: cub::WarpExchange (<cub/warp/warp_exchange.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
