// The engine's side of polls (include/gpulab/sim/detail/polls.hpp): a thread that polls memory and sees
// what it saw steps aside for the block's other runnable threads, so that a writer of the same block
// runs; a block whose runnable threads all do so is stalled, and tells the launch's progress board
// (progress_board.hpp), which starts more blocks or finds the deadlock. A stalled block keeps polling
// (a write by another block's host thread ends the stall), giving its core away between rounds.
#include <sched.h>

#include <fmt/format.h>

#include "sim/engine/block_run.hpp"
#include "sim/engine/device_memory.hpp"
#include "sim/engine/names.hpp"
#include "sim/engine/sim_device.hpp"

namespace gpulab::sim::detail {

namespace {

// Polls in a row that saw nothing new after which a thread counts as waiting (its block, once every
// runnable thread does, as stalled), and after which it counts as waiting for nothing (hopeless). A
// loop that polls a bounded number of times before giving up stays clear of the second.
constexpr std::uint32_t stall_polls = 4;
constexpr std::uint32_t hopeless_polls = 4096;

bool may_run(ThreadStatus s) { return s == ThreadStatus::runnable || s == ThreadStatus::not_started; }

}  // namespace

void BlockRun::observe_poll(const void* address, std::uint64_t value) {
  const unsigned me = current();
  SimThread& t = threads[me];
  if (t.poll_epoch != progress_epoch) {
    t.poll_epoch = progress_epoch;
    t.poll_streak = 0;
    t.polled_count = 0;
    t.polled_next = 0;
  }
  for (unsigned i = 0; i < t.polled_count; ++i) {
    SimThread::Polled& p = t.polled[i];
    if (p.address != address) continue;
    if (p.value != value) {
      // It changed: progress, which starts every thread's count again.
      poll_progress();
      t.poll_epoch = progress_epoch;
      t.polled[0] = {address, value};
      t.polled_count = 1;
      t.polled_next = 1;
      t.poll_streak = 0;
      return;
    }
    if (i != 0) std::swap(t.polled[0], t.polled[i]);  // the first is the one a report names
    ++t.poll_streak;
    poll_repeated(me);
    return;
  }
  // An address it has not polled lately: a wait that moved on (a look-back's next predecessor).
  t.polled[t.polled_next] = {address, value};
  t.polled_next = static_cast<std::uint8_t>((t.polled_next + 1) % t.polled.size());
  if (t.polled_count < t.polled.size()) ++t.polled_count;
}

void BlockRun::poll_repeated(unsigned me) {
  host_thread.block_polling = true;
  if (!fiber_mode) convert_to_fibers();
  leave_fast_mode();
  // A poll may run inside a noexcept function (cuda::atomic_ref::load, atomic waits), through which the
  // block's unwinding exception cannot pass: a poll that must end its thread abandons it instead.
  if (aborting) abandon_thread();
  // A fault elsewhere in the launch may have ended the thread this one waits for.
  if (job->cancelled.load(std::memory_order_relaxed)) abandon_thread();
  if (threads[me].poll_streak >= stall_polls) {
    // Once a round: by the first thread that may run.
    unsigned first = 0;
    while (first < thread_count && !may_run(states[first])) ++first;
    if (first == me) {
      unsigned runnable = 0, stalled = 0, hopeless = 0;
      for (unsigned i = 0; i < thread_count; ++i) {
        if (!may_run(states[i])) continue;
        ++runnable;
        const SimThread& t = threads[i];
        if (t.poll_epoch != progress_epoch) continue;
        stalled += t.poll_streak >= stall_polls ? 1u : 0u;
        hopeless += t.poll_streak >= hopeless_polls ? 1u : 0u;
      }
      if (stalled == runnable) block_stalled(hopeless == runnable);
    }
  }
  const unsigned next = next_runnable(me);
  if (next != me && next != thread_count) switch_to(next);
  if (aborting) [[unlikely]] abandon_thread();
}

void BlockRun::block_stalled(bool hopeless) {
  ProgressBoard& board = job->progress;
  const std::uint64_t now = board.epoch();
  if (board_level != 0 && board_epoch != now) {
    // A block started or ended since the block said it was stalled: it may have written what this one
    // waits for, so the threads poll again before the block counts.
    poll_progress();
    return;
  }
  if (board_level == 0) board_epoch = now;
  const auto from = static_cast<ProgressBoard::Level>(board_level);
  const auto to = hopeless ? ProgressBoard::Level::hopeless : ProgressBoard::Level::stalled;
  // The board is told when the block's level changes, and asked again every so many rounds (its
  // verdict depends on the other blocks and streams too); the core is given away as often, for the
  // threads this block waits for, which may run on helpers sharing it. A round of a stalled block is
  // tens of nanoseconds: a bounded wait of millions of polls stays a matter of seconds.
  ++stall_rounds;
  if (from == to && stall_rounds % 64 != 0) return;
  board_level = static_cast<int>(to);
  if (board.report(*job, from, to, board_epoch) == ProgressBoard::Verdict::deadlock) report_poll_deadlock();
  sched_yield();
}

void BlockRun::poll_progress() {
  ++progress_epoch;
  stall_rounds = 0;
  if (board_level != 0) {
    job->progress.withdraw(static_cast<ProgressBoard::Level>(board_level), board_epoch);
    board_level = 0;
  }
}

void BlockRun::report_poll_deadlock() {
  std::string out = fmt::format(
      "deadlock: every thread still running polls memory that nothing left to run can change (of the grid's {} "
      "blocks, {} started, at most {} blocks of {} threads resident at once)",
      job->block_count, std::min(job->next_block.load(), job->block_count), job->resident_limit, thread_count);
  int listed = 0;
  for (unsigned i = 0; i < thread_count && listed < 4; ++i) {
    const SimThread& t = threads[i];
    if (!may_run(states[i]) || t.poll_epoch != progress_epoch || t.polled_count == 0) continue;
    const void* p = t.polled[0].address;
    std::string where = fmt::format("{}", p);
    if (const auto b = job->device->memory().buffer_of(p)) {
      where = fmt::format("offset {} of device buffer #{} ({} bytes)", reinterpret_cast<std::uintptr_t>(p) - b->begin,
                          b->id, b->bytes);
    }
    out += fmt::format("; {} polls {}, which holds {:#x}, {} times in a row", thread_name(i), where, t.polled[0].value,
                       t.poll_streak);
    ++listed;
  }
  job->report(std::move(out));
  abandon_thread();
}

// ---- the entry points kernel code calls ----

void poll_observed(const void* address, std::uint64_t value) {
  BlockRun* b = host_thread.block;
  if (b != nullptr) b->observe_poll(address, value);
}

void poll_progress() {
  BlockRun* b = host_thread.block;
  if (b != nullptr) b->poll_progress();
}

}  // namespace gpulab::sim::detail
