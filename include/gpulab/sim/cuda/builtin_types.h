#pragma once
// gpulab-simcc's shadow of CUDA's <builtin_types.h>: the runtime's types in one include.
#ifndef __BUILTIN_TYPES_H__
#define __BUILTIN_TYPES_H__
#include "driver_types.h"
#include <gpulab/sim/vector_types.hpp>
#endif
