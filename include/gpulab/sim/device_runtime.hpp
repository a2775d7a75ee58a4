#pragma once
// CUDA's device-side vocabulary for kernels compiled by the host compiler for gpulab's simulator
// (GPULAB_SIM defined, __CUDA_ARCH__ not). <gpulab/kernel.hpp> includes this; kernel files never do.
//
// What needs the scheduler (barriers, warp-synchronous intrinsics) calls into libgpulab's engine;
// everything else (atomics, bit and math intrinsics, vector types) is inline, in device/.
#include <gpulab/sim/device/atomics.hpp>
#include <gpulab/sim/device/intrinsics.hpp>
#include <gpulab/sim/device/math_functions.hpp>
#include <gpulab/sim/device/rounding_intrinsics.hpp>
#include <gpulab/sim/device/simd_video.hpp>
#include <gpulab/sim/device/surface_access.hpp>
#include <gpulab/sim/device/texture_fetch.hpp>
#include <gpulab/sim/device/cache_hints.hpp>
#include <gpulab/sim/device/timers.hpp>
#include <gpulab/sim/device/type_conversions.hpp>
#include <gpulab/sim/device/qualifiers.hpp>
#include <gpulab/sim/device/synchronization.hpp>
#include <gpulab/sim/device/traps.hpp>
#include <gpulab/sim/device/inline_ptx.hpp>
#include <gpulab/sim/vector_types.hpp>

#pragma push_macro("GPULAB_INSIDE_PUBLIC_HEADER")
#undef GPULAB_INSIDE_PUBLIC_HEADER
#define GPULAB_INSIDE_PUBLIC_HEADER 1
#include <gpulab/sim/detail/host_thread.hpp>
#if defined(GPULAB_SIM_CHECKED)
// The instrumented compilation's hooks, one weak copy per library or program.
#include <gpulab/sim/detail/instrumentation/tsan_hooks.hpp>
#endif
#pragma pop_macro("GPULAB_INSIDE_PUBLIC_HEADER")

namespace gpulab::sim {
// This block's dynamic shared memory (the launch's shared_bytes), 16-byte aligned.
inline unsigned char* dynamic_shared_memory() { return detail::host_thread.dynamic_shared; }
}  // namespace gpulab::sim
