#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// synccheck: barriers and warp-synchronous calls used as CUDA requires. Threads of a block waiting at
// different __syncthreads, a thread that exited while others wait at a barrier, a warp call whose mask
// leaves out the calling lane or names a lane that has exited, lanes of one mask in different warp
// calls. Needs no instrumentation: the engine tells it of every barrier and warp call. Its rules and
// reports are src/sim/checks/synccheck.cpp.
#include <cstring>
#include <source_location>

#include <gpulab/sim/checks.hpp>
#include <gpulab/sim/detail/instrumentation/client.hpp>

namespace gpulab::sim::detail {

struct Synccheck : ClientDefaults<Synccheck> {
  static constexpr std::string_view name = "synccheck";
  static constexpr unsigned flag = gpulab::sim::synccheck;
  static constexpr bool needs_instrumentation = false;

  // In the barrier's fast mode every thread must arrive where thread 0, the round's first, did. A site
  // that is not plainly the same (another line, or the same line of another copy of an inline function)
  // goes to the engine's barrier, which compares the sites in full (on_barrier_arrival).
  GPULAB_SIM_HOOK_INLINE static bool fast_barrier_allows(const EngineThreadState& e, const ThreadState&, unsigned me,
                                                         const std::source_location& where) {
    if (me == 0) return true;
    const std::source_location& first = e.fast_sites[0];
    return where.line() == first.line() && where.column() == first.column() && where.file_name() == first.file_name();
  }

  static void on_barrier_arrival(BlockRun& run, unsigned me, const std::source_location& where);
  static bool on_barrier_release(BlockRun& run);
  static void on_warp_call(BlockRun& run, WarpOp op, unsigned mask, unsigned me, const std::source_location& where);
  static void on_warp_mismatch(BlockRun& run, unsigned a, unsigned b);
};

}  // namespace gpulab::sim::detail
