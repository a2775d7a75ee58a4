// The engine's waits on a key: how a thread of a block sleeps until another thread of the same block
// wakes it (cuda::barrier's wait, a latch, an atomic's wait), without spinning. A block's threads are
// fibers on one host thread, so a thread that polled memory in a loop would never let the thread it
// waits for run; a waiting thread instead leaves the runnable set until block_notify puts it back, and
// a block whose live threads all wait is a deadlock the scheduler reports (yield in
// block_scheduler.cpp), never a hang.
#include "sim/engine/block_run.hpp"

namespace gpulab::sim::detail {

void BlockRun::wait_on(const void* key, const char* what, const std::source_location& where) {
  // A wait needs the other threads to run first: as at a barrier, the block leaves loop mode.
  if (!fiber_mode) convert_to_fibers();
  leave_fast_mode();
  const unsigned me = current();
  threads[me].wait_key = key;
  threads[me].wait_what = what;
  sites[me] = where;
  states[me] = ThreadStatus::at_wait;
  ++waiting;
  if (warps[me / 32].converging != 0) converge_if_settled(me / 32);
  yield();
}

void BlockRun::notify(const void* key, bool orders) {
  if (orders) {
    // A barrier's phase completed: for racecheck, as a __syncthreads release does.
    leave_fast_mode();
    ++host_thread.barrier_epoch;
    ++host_thread.order_epoch;
  }
  if (waiting == 0) return;
  for (unsigned i = 0; i < thread_count; ++i) {
    if (states[i] == ThreadStatus::at_wait && threads[i].wait_key == key) {
      states[i] = ThreadStatus::runnable;
      --waiting;
    }
  }
}

// ---- the entry points kernel code calls ----

void block_wait(const void* key, const char* what, const std::source_location& where) {
  BlockRun* b = host_thread.block;
  if (b == nullptr) return;
  b->wait_on(key, what, where);
}

void block_notify(const void* key, bool orders) {
  BlockRun* b = host_thread.block;
  if (b == nullptr) return;
  b->notify(key, orders);
}

}  // namespace gpulab::sim::detail
