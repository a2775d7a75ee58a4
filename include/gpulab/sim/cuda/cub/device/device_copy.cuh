#pragma once
// The simulator's CUB (../config.cuh) has no cub::DeviceCopy yet.
#error "gpulab sim: cub::DeviceCopy (<cub/device/device_copy.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
