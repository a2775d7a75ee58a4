#pragma once
// libcu++'s namespace cuda::std for code compiled for the simulator: host code's own standard library,
// seen through a using-directive, so `cuda::std::array`, `cuda::std::numeric_limits` and the rest are
// the host's (the simulator runs device code on the host, where they mean the same). What the simulator
// must do itself (atomics, barriers, latches: cuda_atomic.hpp, cuda_barrier.hpp) is declared in
// cuda::std directly, which qualified lookup then finds instead of the host's.
//
// The shadow headers <cuda/std/...> (include/gpulab/sim/cuda/cuda/std/) include the host's header of the
// same name and this one.
#include <cstddef>

namespace cuda::std {
using namespace ::std;
}  // namespace cuda::std
