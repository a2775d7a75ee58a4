// The engine's warp-synchronous calls: __syncwarp, shuffles, votes and __match_any_sync, which wait
// until every lane of the mask that has not exited is in the call, and __activemask, which waits until
// the warp settles.
#include <fmt/format.h>

#include "sim/engine/block_run.hpp"
#include "sim/engine/names.hpp"

namespace gpulab::sim::detail {

namespace {

bool is_shuffle(WarpOp op) {
  return op == WarpOp::shfl_idx || op == WarpOp::shfl_up || op == WarpOp::shfl_down || op == WarpOp::shfl_xor;
}

}  // namespace

std::uint64_t BlockRun::warp(WarpOp op, unsigned mask, std::uint64_t value, unsigned arg, int width,
                             const std::source_location& where) {
  if (!fiber_mode) convert_to_fibers();
  leave_fast_mode();
  const unsigned me = current();
  const unsigned lane = me % 32;
  const unsigned wi = me / 32;
  WarpRun& w = warps[wi];
  const unsigned bit = 1u << lane;
  if (is_shuffle(op) && (width < 1 || width > 32 || (width & (width - 1)) != 0)) {
    fault_and_unwind(fmt::format("{} in {} ({}): width {} is not a power of 2 from 1 to 32", warp_op_name(op),
                                 thread_name(me), format_site(where), width));
  }
  if (host_thread.clients != 0) [[unlikely]] tell_warp_call(op, mask, me, where);
  mask |= bit;  // CUDA requires the caller's lane; without synccheck it is taken as given
  SimThread& t = threads[me];
  t.op = op;
  t.mask = mask;
  t.value = value;
  t.arg = arg;
  t.width = width;
  sites[me] = where;
  states[me] = ThreadStatus::at_warp;
  w.arrived |= bit;
  try_complete_warp(wi, me);
  converge_if_settled(wi);
  if (aborting) throw BlockAbort{};
  yield();
  return t.result;
}

void BlockRun::tell_warp_call(WarpOp op, unsigned mask, unsigned me, const std::source_location& where) {
  const unsigned on = host_thread.clients;
  for_each_client(Clients{}, [&]<class C>() {
    if ((on & C::flag) != 0) C::on_warp_call(*this, op, mask, me, where);
  });
}

void BlockRun::try_complete_warp(unsigned wi, unsigned reference) {
  WarpRun& w = warps[wi];
  const SimThread& ref = threads[reference];
  const unsigned required = ref.mask & w.alive;
  if ((w.arrived & required) != required) return;
  for (unsigned lanes = required; lanes != 0; lanes &= lanes - 1) {
    const SimThread& other = threads[wi * 32 + static_cast<unsigned>(__builtin_ctz(lanes))];
    if (other.op != ref.op || other.mask != ref.mask) {
      const unsigned o = static_cast<unsigned>(&other - threads.data());
      const unsigned on = host_thread.clients;
      for_each_client(Clients{}, [&]<class C>() {
        if ((on & C::flag) != 0) C::on_warp_mismatch(*this, reference, o);
      });
      return;  // unless a client ended the block they wait; a deadlock is still reported
    }
  }
  complete_warp(wi, required);
}

void BlockRun::complete_warp(unsigned wi, unsigned required) {
  WarpRun& w = warps[wi];
  SimThread* lanes = threads.data() + wi * 32;
  std::uint64_t values[32];
  unsigned ballot = 0;
  for (unsigned m = required; m != 0; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctz(m));
    values[l] = lanes[l].value;
    if (lanes[l].value != 0) ballot |= 1u << l;
  }
  for (unsigned m = required; m != 0; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctz(m));
    SimThread& t = lanes[l];
    const unsigned width = static_cast<unsigned>(t.width);
    const unsigned in_segment = l & (width - 1);
    const unsigned segment = l - in_segment;
    unsigned src = l;
    switch (t.op) {
      case WarpOp::shfl_idx: src = segment + (t.arg & (width - 1)); break;
      case WarpOp::shfl_up: src = in_segment >= t.arg ? l - t.arg : l; break;
      case WarpOp::shfl_down: src = in_segment + t.arg < width ? l + t.arg : l; break;
      case WarpOp::shfl_xor:
        src = l ^ (t.arg & 31u);
        if (src >= segment + width) src = l;  // later segments are out of reach: own value
        break;
      default: break;
    }
    switch (t.op) {
      case WarpOp::sync: t.result = 0; break;
      case WarpOp::ballot: t.result = ballot; break;
      case WarpOp::any: t.result = ballot != 0; break;
      case WarpOp::all: t.result = ballot == required; break;
      case WarpOp::match_any: {
        unsigned same = 0;
        for (unsigned k = required; k != 0; k &= k - 1) {
          const unsigned o = static_cast<unsigned>(__builtin_ctz(k));
          if (values[o] == values[l]) same |= 1u << o;
        }
        t.result = same;
        break;
      }
      default:
        // A source lane outside the mask (or beyond the block's last thread) is undefined in CUDA; here
        // it yields 0, as a lane a partial warp never launched reads on a GPU in practice: code such as
        // CUDA's reduction sample folds a whole tile of 32 in a block of 2 threads and counts on it.
        t.result = (required >> src) & 1u ? values[src] : 0;
        break;
    }
    states[wi * 32 + l] = ThreadStatus::runnable;
  }
  w.arrived &= ~required;
  w.exited_since_sync = 0;
  ++warp_epochs[wi];
  ++host_thread.order_epoch;
}

unsigned BlockRun::active_mask(const std::source_location& where) {
  if (!fiber_mode) convert_to_fibers();
  leave_fast_mode();
  const unsigned me = current();
  const unsigned wi = me / 32;
  SimThread& t = threads[me];
  sites[me] = where;
  t.result = 0;
  states[me] = ThreadStatus::at_activemask;
  warps[wi].converging |= 1u << (me % 32);
  converge_if_settled(wi);
  if (aborting) throw BlockAbort{};
  yield();
  return static_cast<unsigned>(t.result);
}

// Called whenever a lane of the warp blocks or exits: once none of its lanes can run, the lanes waiting
// in __activemask at the lowest waiting lane's call site get their mask and run on. Lanes waiting at
// other sites wait for the warp to settle again.
void BlockRun::converge_if_settled(unsigned wi) {
  WarpRun& w = warps[wi];
  if (w.converging == 0) return;
  for (unsigned lanes = w.alive; lanes != 0; lanes &= lanes - 1) {
    const ThreadStatus s = states[wi * 32 + static_cast<unsigned>(__builtin_ctz(lanes))];
    if (s == ThreadStatus::runnable || s == ThreadStatus::not_started) return;
  }
  const std::source_location& site = sites[wi * 32 + static_cast<unsigned>(__builtin_ctz(w.converging))];
  unsigned group = 0;
  for (unsigned lanes = w.converging; lanes != 0; lanes &= lanes - 1) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctz(lanes));
    if (same_site(sites[wi * 32 + lane], site)) group |= 1u << lane;
  }
  for (unsigned lanes = group; lanes != 0; lanes &= lanes - 1) {
    const unsigned i = wi * 32 + static_cast<unsigned>(__builtin_ctz(lanes));
    threads[i].result = group;
    states[i] = ThreadStatus::runnable;
  }
  w.converging &= ~group;
}

// ---- the entry points kernel code calls ----

std::uint64_t warp_collective(WarpOp op, unsigned mask, std::uint64_t value, unsigned arg, int width,
                              const std::source_location& where) {
  BlockRun* b = host_thread.block;
  if (b == nullptr) return value;
  return b->warp(op, mask, value, arg, width, where);
}

unsigned active_mask(const std::source_location& where) {
  BlockRun* b = host_thread.block;
  return b == nullptr ? 1u : b->active_mask(where);
}

}  // namespace gpulab::sim::detail
