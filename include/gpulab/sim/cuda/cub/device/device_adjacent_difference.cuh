#pragma once
// The simulator's CUB (../config.cuh) has no cub::DeviceAdjacentDifference yet.
#error "gpulab sim: cub::DeviceAdjacentDifference (<cub/device/device_adjacent_difference.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
