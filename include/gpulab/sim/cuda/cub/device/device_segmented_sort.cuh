#pragma once
// The simulator's CUB (../config.cuh) has no cub::DeviceSegmentedSort yet.
#error "gpulab sim: cub::DeviceSegmentedSort (<cub/device/device_segmented_sort.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
