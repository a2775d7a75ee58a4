#pragma once
// The simulator's CUB (../config.cuh) has no cub::DeviceMemcpy yet.
#error "gpulab sim: cub::DeviceMemcpy (<cub/device/device_memcpy.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
