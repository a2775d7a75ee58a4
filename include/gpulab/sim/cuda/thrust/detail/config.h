#pragma once
// gpulab-simcc's shadow of Thrust's <thrust/detail/config.h>, which every Thrust header includes first:
// Thrust's own, configured for the simulator (../../gpulab_cccl_config.hpp: the CPP device system,
// CCCL as host code), and the program made known to the runtime as one that uses Thrust
// (../../gpulab_thrust_support.h says what that changes).
#include <gpulab_cccl_config.hpp>
#include_next <thrust/detail/config.h>

#include <gpulab_thrust_support.h>

#if THRUST_DEVICE_SYSTEM != THRUST_DEVICE_SYSTEM_CPP
#error "gpulab sim: Thrust runs on its CPP device system on the simulator"
#endif

namespace gpulab::sim::thrust_support {
inline const int program_uses_thrust = gpulabSimThrustProgram();
}  // namespace gpulab::sim::thrust_support

// What Thrust's CUDA system brings with every header and programs written for the GPU count on:
// thrust::cuda::par and par.on(stream), and thrust::system_error (which Thrust's algorithms throw).
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system_error.h>
