#pragma once
// gpulab-simcc's shadow of the CUDA toolkit's <vector_types.h>: dim3, uint3 and the vector types, as the
// simulator defines them (with CUDA's sizes and alignments). Plain types, usable from C and C++.
#include <gpulab/sim/vector_types.hpp>
