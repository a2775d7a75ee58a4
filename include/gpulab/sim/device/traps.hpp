#pragma once
// How a kernel ends itself, for code compiled for the simulator (part of <gpulab/sim/device_runtime.hpp>):
// __trap and __brkpt end the launch with a fault, which the runtime API reports as CUDA does
// (cudaErrorLaunchFailure, sticky). A failed assert is the shadow <assert.h>'s.
#include <source_location>

#pragma push_macro("GPULAB_INSIDE_PUBLIC_HEADER")
#undef GPULAB_INSIDE_PUBLIC_HEADER
#define GPULAB_INSIDE_PUBLIC_HEADER 1
#include <gpulab/sim/detail/engine_abi.hpp>
#pragma pop_macro("GPULAB_INSIDE_PUBLIC_HEADER")

[[noreturn]] inline void __trap(const std::source_location where = std::source_location::current()) {
  gpulab::sim::detail::kernel_abort("__trap() ended the kernel", where);
}
// A breakpoint with no debugger attached to catch it ends the kernel as a trap does on a GPU.
[[noreturn]] inline void __brkpt(const std::source_location where = std::source_location::current()) {
  gpulab::sim::detail::kernel_abort("__brkpt() with no debugger attached ended the kernel", where);
}
