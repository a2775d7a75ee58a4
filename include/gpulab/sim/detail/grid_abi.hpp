#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// The engine's entry points for grid-wide synchronisation (src/sim/engine/grid_barrier.cpp), which
// cooperative_groups::grid_group calls. Only a cooperative launch has its blocks co-resident, each on a
// host thread of its own (src/sim/engine/resident_blocks.hpp), so only there can a grid barrier be met.
#include <source_location>

namespace gpulab::sim::detail {

// grid.sync(): every live thread of every block of the grid arrives before any goes on, and what each
// did before is ordered before what any does after (release/acquire at device scope, for racecheck
// too). In a launch that was not cooperative it is a fault naming the kernel; a block that ends without
// arriving while others wait is a deadlock finding, never a hang.
void grid_sync(const std::source_location& where);
// Whether the running kernel was launched cooperatively (grid_group::is_valid); false outside a kernel.
bool grid_launch_is_cooperative() noexcept;

}  // namespace gpulab::sim::detail
