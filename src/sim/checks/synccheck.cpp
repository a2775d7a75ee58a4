// synccheck (include/gpulab/sim/detail/checks/synccheck.hpp): CUDA's rules for barriers and
// warp-synchronous calls, checked as the engine runs them, and the reports.
#include <fmt/format.h>

#include <gpulab/sim/detail/checks/synccheck.hpp>

#include "sim/engine/block_run.hpp"
#include "sim/engine/names.hpp"

namespace gpulab::sim::detail {

void Synccheck::on_barrier_arrival(BlockRun& run, unsigned me, const std::source_location& where) {
  const unsigned first = run.barrier_first;
  if (same_site(where, run.sites[first])) return;
  run.fault_and_unwind(fmt::format("synccheck: divergent __syncthreads in {}: {} waits at {} while {} waits at {}",
                                   run.block_name(), run.thread_name(me), format_site(where),
                                   run.thread_name(first), format_site(run.sites[first])));
}

bool Synccheck::on_barrier_release(BlockRun& run) {
  // Called only when threads have exited: every thread of a block must reach a barrier.
  unsigned gone = 0;
  while (gone < run.thread_count && run.states[gone] != ThreadStatus::exited) ++gone;
  unsigned waiting = 0;
  while (waiting < run.thread_count && run.states[waiting] != ThreadStatus::at_barrier) ++waiting;
  run.report_finding(fmt::format("synccheck: {} exited while {} waits at __syncthreads ({}): a barrier must be "
                                 "reached by every thread of the block",
                                 run.thread_name(gone), run.thread_name(waiting), format_site(run.sites[waiting])));
  return false;
}

void Synccheck::on_warp_call(BlockRun& run, WarpOp op, unsigned mask, unsigned me, const std::source_location& where) {
  const unsigned lane = me % 32;
  if ((mask & (1u << lane)) == 0) {
    run.fault_and_unwind(fmt::format("synccheck: {} in {} ({}): mask {:#010x} does not include the calling lane {}",
                                     warp_op_name(op), run.thread_name(me), format_site(where), mask, lane));
  }
  const WarpRun& w = run.warps[me / 32];
  if ((mask & ~w.alive) != 0) {
    const unsigned missing = static_cast<unsigned>(__builtin_ctz(mask & ~w.alive));
    run.fault_and_unwind(fmt::format("synccheck: {} in {} ({}): mask {:#010x} names lane {}, which {}",
                                     warp_op_name(op), run.thread_name(me), format_site(where), mask, missing,
                                     (w.exists & (1u << missing)) ? "has exited" : "is not a thread of the block"));
  }
}

void Synccheck::on_warp_mismatch(BlockRun& run, unsigned a, unsigned b) {
  const SimThread& ta = run.threads[a];
  const SimThread& tb = run.threads[b];
  run.report_finding(fmt::format("synccheck: warp calls do not match: {} is in {} with mask {:#010x} ({}) while "
                                 "{} is in {} with mask {:#010x} ({})",
                                 run.thread_name(a), warp_op_name(ta.op), ta.mask, format_site(run.sites[a]),
                                 run.thread_name(b), warp_op_name(tb.op), tb.mask, format_site(run.sites[b])));
}

}  // namespace gpulab::sim::detail
