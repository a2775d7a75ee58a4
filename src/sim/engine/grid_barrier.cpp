// grid.sync() (detail/grid_abi.hpp) and the grid barrier it meets (grid_barrier.hpp).
//
// A block's part is CUDA's own shape of a grid sync: a block barrier, then one thread of the block
// arrives at the grid barrier for all of them and waits there, then a second block barrier keeps the
// others until it is back. The block's other threads are fibers of the same host thread, so while
// that thread waits they cannot run either, as they should not.
#include "sim/engine/grid_barrier.hpp"

#include <fmt/format.h>

#include <gpulab/sim/detail/engine_abi.hpp>
#include <gpulab/sim/detail/grid_abi.hpp>

#include "sim/engine/block_run.hpp"
#include "sim/engine/launch_job.hpp"
#include "sim/engine/names.hpp"

namespace gpulab::sim::detail {

bool GridBarrier::arrive_and_wait(LaunchJob& job, std::uint64_t block, const std::source_location& where) {
  std::unique_lock lock(mutex_);
  if (broken_) return false;
  if (arrived_ == 0) {
    first_waiter_ = block;
    first_waiter_site_ = where;
  }
  if (++arrived_ == blocks_) {
    // Everything every block did before its arrival is ordered before what any does after the release:
    // the clients hear of it before anyone goes on.
    const unsigned on = job.clients;
    for_each_client(Clients{}, [&]<class C>() {
      if ((on & C::flag) != 0) C::on_grid_sync(job);
    });
    arrived_ = 0;
    ++generation_;
    released_.notify_all();
    return true;
  }
  break_if_stuck(job);
  const std::uint64_t generation = generation_;
  released_.wait(lock, [&] { return broken_ || generation_ != generation; });
  return generation_ != generation;
}

void GridBarrier::block_finished(LaunchJob& job, std::uint64_t block) {
  std::lock_guard lock(mutex_);
  if (finished_++ == 0) first_finished_ = block;
  break_if_stuck(job);
}

void GridBarrier::break_if_stuck(LaunchJob& job) {
  if (broken_ || arrived_ == 0 || finished_ == 0 || arrived_ + finished_ < blocks_) return;
  broken_ = true;
  // A fault elsewhere cancelled the launch (its blocks end early): that finding is the one to keep.
  if (!job.cancelled.load(std::memory_order_relaxed)) {
    job.report(fmt::format(
        "deadlock at grid.sync() in kernel {}: block {} ended without reaching it, while block {} waits there ({}){}; "
        "every thread of the grid must call grid.sync()",
        job.kernel_name, format_index(block_coordinates(job.grid, first_finished_)),
        format_index(block_coordinates(job.grid, first_waiter_)), format_site(first_waiter_site_),
        arrived_ > 1 ? fmt::format(" with {} other blocks", arrived_ - 1) : std::string()));
  }
  released_.notify_all();
}

// ---- the entry points kernel code calls ----

void grid_sync(const std::source_location& where) {
  BlockRun* b = host_thread.block;
  if (b == nullptr) kernel_abort("grid.sync() called outside a kernel", where);
  LaunchJob& job = *b->job;
  if (job.grid_barrier == nullptr) {
    const std::string what = fmt::format(
        "grid.sync() in kernel {}, which was not launched cooperatively (on a GPU that is undefined): launch it with "
        "cudaLaunchCooperativeKernel, or cudaLaunchKernelEx with cudaLaunchAttributeCooperative",
        job.kernel_name);
    kernel_abort(what.c_str(), where);
  }
  block_barrier(BarrierKind::plain, 0, where);
  // The first thread of the block to leave that barrier is the one to arrive for the block: each
  // release makes a new barrier epoch on this host thread, which runs this block alone.
  thread_local std::uint32_t arrived_in_epoch = 0;
  if (host_thread.barrier_epoch != arrived_in_epoch) {
    arrived_in_epoch = host_thread.barrier_epoch;
    if (!job.grid_barrier->arrive_and_wait(job, b->block_linear, where)) {
      b->aborting = true;  // the deadlock or the fault that broke the barrier is reported
      throw BlockAbort{};
    }
    const unsigned on = host_thread.clients;
    for_each_client(Clients{}, [&]<class C>() {
      if ((on & C::flag) != 0) C::on_grid_sync_resumed(*b);
    });
  }
  block_barrier(BarrierKind::plain, 0, where);
}

bool grid_launch_is_cooperative() noexcept {
  const BlockRun* b = host_thread.block;
  return b != nullptr && b->job->grid_barrier != nullptr;
}

}  // namespace gpulab::sim::detail
