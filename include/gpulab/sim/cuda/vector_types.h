#pragma once
// gpulab-simcc's shadow of the CUDA toolkit's <vector_types.h>: dim3, uint3 and the vector types, as the
// simulator defines them (with CUDA's sizes and alignments).
#if !defined(GPULAB_SIM)
#error "this <vector_types.h> is gpulab's simulator shadow of CUDA's: build with gpulab-simcc or gpulab_add_sim_executable"
#endif
#include <gpulab/sim/vector_types.hpp>
