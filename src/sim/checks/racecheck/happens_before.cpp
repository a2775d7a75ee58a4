#include "sim/checks/racecheck/happens_before.hpp"

#include <algorithm>

namespace gpulab::sim::detail {

namespace {

// Epochs wrap (barrier epochs at 2^20, warp epochs at 2^12): `a` is before `b` when b is ahead by less
// than half the range.
constexpr bool epoch_before(std::uint32_t a, std::uint32_t b) noexcept {
  const std::uint32_t d = (b - a) & 0xfffff;
  return d != 0 && d < 0x80000;
}
constexpr bool warp_epoch_before(std::uint32_t a, std::uint32_t b) noexcept {
  const std::uint32_t d = (b - a) & 0xfff;
  return d != 0 && d < 0x800;
}

// Relaxed atomic reads a thread remembers between fences; the oldest goes first.
constexpr std::size_t observed_limit = 16;

bool releases(AtomicOrder o) noexcept {
  return o == AtomicOrder::release || o == AtomicOrder::acq_rel || o == AtomicOrder::seq_cst;
}
bool acquires(AtomicOrder o) noexcept {
  return o == AtomicOrder::acquire || o == AtomicOrder::acq_rel || o == AtomicOrder::seq_cst;
}

}  // namespace

// ---- Knowledge ----

const Knowledge::Entry* Knowledge::find(std::uint64_t k) const noexcept {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), k, [](const Entry& e, std::uint64_t v) { return e.key < v; });
  return it != entries_.end() && it->key == k ? &*it : nullptr;
}

bool Knowledge::covers(GlobalAccess a) const noexcept {
  if (entries_.empty()) return false;
  const std::uint32_t e = a.block_epoch(), w = a.warp_epoch();
  if (const Entry* b = find(key(block_kind, a.block(), 0)); b != nullptr && epoch_before(e, b->epoch)) return true;
  if (const Entry* wp = find(key(warp_kind, a.block(), a.thread() / 32));
      wp != nullptr && wp->epoch == e && warp_epoch_before(w, wp->warp_epoch)) {
    return true;
  }
  const Entry* t = find(key(thread_kind, a.block(), a.thread()));
  return t != nullptr && (epoch_before(e, t->epoch) || (e == t->epoch && !warp_epoch_before(t->warp_epoch, w)));
}

void Knowledge::merge(const Entry& n) {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), n.key, [](const Entry& e, std::uint64_t v) { return e.key < v; });
  if (it == entries_.end() || it->key != n.key) {
    entries_.insert(it, n);
    return;
  }
  if (epoch_before(it->epoch, n.epoch) ||
      (it->epoch == n.epoch && (n.key >> 62) != block_kind && warp_epoch_before(it->warp_epoch, n.warp_epoch))) {
    *it = n;
  }
}

void Knowledge::join(const Knowledge& other) {
  if (other.entries_.empty()) return;
  if (entries_.empty()) {
    entries_ = other.entries_;
    return;
  }
  for (const Entry& e : other.entries_) merge(e);
}

void Knowledge::add_point(std::uint64_t block, unsigned thread, std::uint32_t epoch, std::uint32_t warp_epoch) {
  epoch &= 0xfffff;
  warp_epoch &= 0xfff;
  merge(Entry{key(block_kind, block, 0), epoch, 0});
  merge(Entry{key(warp_kind, block, thread / 32), epoch, warp_epoch});
  merge(Entry{key(thread_kind, block, thread), epoch, warp_epoch});
}

// ---- SyncClocks ----

void SyncClocks::publish(std::uintptr_t address, std::uint32_t launch, std::uint64_t block, bool wide,
                         const Knowledge& clock) {
  std::lock_guard lock(mutex_);
  Location& loc = locations_[address];
  if (loc.launch != launch) {
    loc.launch = launch;
    loc.releases.clear();
  }
  __atomic_store_n(&released_launch_, launch, __ATOMIC_RELAXED);
  for (Release& r : loc.releases) {
    if (r.block == block && r.wide == wide) {
      r.clock.join(clock);
      return;
    }
  }
  loc.releases.push_back(Release{block, wide, clock});
}

void SyncClocks::acquire_into(std::uintptr_t address, std::uint32_t launch, std::uint64_t block, bool wide,
                              Knowledge& into) {
  if (!released_in(launch)) return;
  std::lock_guard lock(mutex_);
  const auto it = locations_.find(address);
  if (it == locations_.end() || it->second.launch != launch) return;
  for (const Release& r : it->second.releases) {
    if (r.block == block || (r.wide && wide)) into.join(r.clock);
  }
}

// ---- BlockClocks ----

void BlockClocks::start(unsigned threads, std::uint32_t epoch) {
  for (unsigned t : dirty_) {
    if (t < threads_.size()) threads_[t] = ThreadClock{};
  }
  dirty_.clear();
  if (threads_.size() < threads) threads_.resize(threads);
  shared_.clear();
  fold_epoch_ = epoch;
}

void BlockClocks::mark(unsigned thread) {
  ThreadClock& t = threads_[thread];
  if (!t.dirty) {
    t.dirty = true;
    dirty_.push_back(thread);
  }
}

BlockClocks::ThreadClock& BlockClocks::settle(const Context& c) {
  if (fold_epoch_ != c.epoch) {
    // A barrier since: what each thread acquired before it is known to all after it, and what each read
    // from atomics is acquired there (see the header).
    const bool any = c.clocks.released_in(c.launch);
    std::size_t kept = 0;  // dirty_ compacted in place: those that released stay marked
    for (unsigned i : dirty_) {
      ThreadClock& t = threads_[i];
      if (any) {
        for (const Observed& o : t.pending) c.clocks.acquire_into(o.address, c.launch, c.block, o.wide, t.own);
        for (const Observed& o : t.observed) c.clocks.acquire_into(o.address, c.launch, c.block, o.wide, t.own);
      }
      shared_.join(t.own);
      t.own.clear();
      t.pending.clear();
      t.observed.clear();
      t.dirty = t.has_released;
      if (t.dirty) dirty_[kept++] = i;
    }
    dirty_.resize(kept);
    fold_epoch_ = c.epoch;
  }
  ThreadClock& t = threads_[c.thread];
  if (!t.pending.empty()) {
    for (const Observed& o : t.pending) c.clocks.acquire_into(o.address, c.launch, c.block, o.wide, t.own);
    t.pending.clear();
  }
  return t;
}

Knowledge BlockClocks::snapshot(const Context& c, const ThreadClock& t) const {
  Knowledge k = shared_;
  k.join(t.own);
  k.add_point(c.block, c.thread, c.epoch, c.warp_epoch);
  return k;
}

void BlockClocks::fence(const Context& c, AtomicScope scope) {
  ThreadClock& t = settle(c);
  const bool wide = scope >= AtomicScope::device;
  for (const Observed& o : t.observed) c.clocks.acquire_into(o.address, c.launch, c.block, o.wide && wide, t.own);
  t.observed.clear();
  t.released = snapshot(c, t);
  t.has_released = true;
  t.released_wide = wide;
  mark(c.thread);
}

void BlockClocks::atomic(const Context& c, std::uintptr_t address, AtomicKind kind, AtomicScope scope, AtomicOrder order) {
  ThreadClock& t = settle(c);
  const bool wide = scope >= AtomicScope::device;
  if (kind != AtomicKind::load) {
    if (releases(order)) {
      c.clocks.publish(address, c.launch, c.block, wide, snapshot(c, t));
    } else if (t.has_released) {
      c.clocks.publish(address, c.launch, c.block, wide && t.released_wide, t.released);
    }
  }
  if (kind == AtomicKind::store) return;
  if (acquires(order)) {
    t.pending.push_back(Observed{address, wide});
    mark(c.thread);
    return;
  }
  for (const Observed& o : t.observed) {
    if (o.address == address && o.wide == wide) return;
  }
  if (t.observed.size() == observed_limit) t.observed.erase(t.observed.begin());
  t.observed.push_back(Observed{address, wide});
  mark(c.thread);
}

}  // namespace gpulab::sim::detail
