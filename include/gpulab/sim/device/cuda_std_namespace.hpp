#pragma once
// libcu++'s namespace cuda::std for code compiled for the simulator.
//
// Where CCCL's headers are on the include path (gpulab/sim/cuda/gpulab_cccl_config.hpp), cuda::std is
// libcu++ itself, compiled as host code: the shadow headers <cuda/std/...> include libcu++'s. Else it
// is host code's own standard library, seen through a using-directive, so `cuda::std::array`,
// `cuda::std::numeric_limits` and the rest are the host's (the simulator runs device code on the host,
// where they mean the same).
//
// Either way, what the simulator must do itself (atomics, barriers, latches: cuda_atomic.hpp,
// cuda_barrier.hpp) is declared in cuda::std directly and the shadows of <cuda/std/atomic>,
// <cuda/std/barrier> and <cuda/std/latch> are the simulator's alone: a thread that waits must let the
// simulator run the thread it waits for, and the checks must see each atomic's scope and order.
#include <cstddef>

#include <gpulab_cccl_config.hpp>

#if GPULAB_SIM_HAVE_CCCL
#define GPULAB_SIM_HAVE_LIBCUDACXX 1
#else
#define GPULAB_SIM_HAVE_LIBCUDACXX 0
namespace cuda::std {
using namespace ::std;
}  // namespace cuda::std
#endif
