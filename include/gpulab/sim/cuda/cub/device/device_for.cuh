#pragma once
// The simulator's CUB (../config.cuh) has no cub::DeviceFor yet.
#error "gpulab sim: cub::DeviceFor (<cub/device/device_for.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
