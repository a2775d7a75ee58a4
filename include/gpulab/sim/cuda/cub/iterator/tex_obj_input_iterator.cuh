#pragma once
// The simulator's CUB (../config.cuh) has no cub::TexObjInputIterator yet.
#error "gpulab sim: cub::TexObjInputIterator (<cub/iterator/tex_obj_input_iterator.cuh>) is not in the simulator's CUB; docs/simulator.md (\"CUB\") lists what is"
