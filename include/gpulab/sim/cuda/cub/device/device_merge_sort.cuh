#pragma once
// The simulator's CUB (../config.cuh) has no cub::DeviceMergeSort yet.
#error "gpulab sim: cub::DeviceMergeSort (<cub/device/device_merge_sort.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
