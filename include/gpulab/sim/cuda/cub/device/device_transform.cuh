#pragma once
// The simulator's CUB (../config.cuh) has no cub::DeviceTransform yet.
#error "gpulab sim: cub::DeviceTransform (<cub/device/device_transform.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
