#pragma once
// racecheck's happens-before beyond barriers: what fences and atomics order, as PTX's memory model
// defines it, for device (global) memory. The cells (global_cell.hpp) order a block's threads by its
// barrier and warp epochs; what else orders two accesses is knowledge a thread gains by acquiring what
// another released:
// - a release: an atomic with a release order (release, acq_rel, seq_cst) at its scope, or a relaxed
//   store or read-modify-write after a fence (__threadfence_block, __threadfence, __threadfence_system,
//   cuda::atomic_thread_fence), at the narrower of the two scopes, publishes what the thread knows at
//   that point (the fence's point, for the fence) in the location's clock;
// - an acquire: an atomic with an acquire order takes the clocks of its location; a relaxed atomic read
//   takes them at the thread's next fence, or at the block's next barrier (which is how CUDA's
//   threadFenceReduction sample, whose last block reads the partials after a __syncthreads, is
//   ordered);
// - a clock released at block scope is taken only by threads of the releasing block; one at device or
//   system scope by any thread whose acquire is of device scope or wider (morally strong: both scopes
//   hold both threads).
// What a thread knows is a vector clock over the packed accesses of the cells: for a block, the barrier
// intervals before a bound (everything its threads did before a barrier the releaser had passed); for a
// warp, the warp epochs before a bound within one interval; for a thread, its accesses up to a point.
// A barrier of the block folds what each of its threads acquired into the block's shared knowledge.
// Not modelled: a warp call passing what a lane acquired to the other lanes; shared memory (its cells
// know barriers and warp calls only).
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <gpulab/sim/detail/checks/racecheck/global_cell.hpp>
#include <gpulab/sim/detail/engine_abi.hpp>

namespace gpulab::sim::detail {

class Knowledge {
 public:
  bool empty() const noexcept { return entries_.empty(); }
  // Whether `a` happened before the point this knowledge describes.
  bool covers(GlobalAccess a) const noexcept;
  void join(const Knowledge& other);
  // Thread `thread` of `block`, in barrier epoch `epoch` and warp epoch `warp_epoch`: its own accesses so
  // far, its warp's before the warp epoch in this interval, and its block's before the interval.
  void add_point(std::uint64_t block, unsigned thread, std::uint32_t epoch, std::uint32_t warp_epoch);
  void clear() noexcept { entries_.clear(); }
  std::size_t size() const noexcept { return entries_.size(); }

 private:
  enum Kind : std::uint64_t { block_kind = 0, warp_kind = 1, thread_kind = 2 };
  struct Entry {
    std::uint64_t key;
    std::uint32_t epoch;
    std::uint32_t warp_epoch;
  };
  static std::uint64_t key(Kind kind, std::uint64_t block, unsigned index) noexcept {
    return std::uint64_t{kind} << 62 | (block & GlobalAccess::block_bits) << 16 | index;
  }
  const Entry* find(std::uint64_t k) const noexcept;
  void merge(const Entry& e);
  std::vector<Entry> entries_;  // sorted by key
};

// The release clocks of a device's atomic locations, for one launch at a time.
class SyncClocks {
 public:
  void publish(std::uintptr_t address, std::uint32_t launch, std::uint64_t block, bool wide, const Knowledge& clock);
  // Joins into `into` what an acquire by a thread of `block` (of device scope or wider when `wide`) takes.
  void acquire_into(std::uintptr_t address, std::uint32_t launch, std::uint64_t block, bool wide, Knowledge& into);
  // Whether anything was released in `launch`: if not, relaxed reads need not be remembered.
  bool released_in(std::uint32_t launch) const noexcept { return __atomic_load_n(&released_launch_, __ATOMIC_RELAXED) == launch; }

 private:
  struct Release {
    std::uint64_t block;
    bool wide;
    Knowledge clock;
  };
  struct Location {
    std::uint32_t launch = 0;
    std::vector<Release> releases;
  };
  std::mutex mutex_;
  std::unordered_map<std::uintptr_t, Location> locations_;
  std::uint32_t released_launch_ = 0;
};

// What the threads of the block running on this host thread know, and what they will acquire.
class BlockClocks {
 public:
  struct Context {
    SyncClocks& clocks;
    std::uint32_t launch;
    std::uint64_t block;
    unsigned thread;
    std::uint32_t epoch;       // the host thread's barrier epoch now
    std::uint32_t warp_epoch;  // the thread's warp's
  };

  void start(unsigned threads, std::uint32_t epoch);
  // Brings the running thread's knowledge up to date (the block's barriers, its acquires made); then
  // covers says whether access `a` happened before its present point by what fences and atomics ordered
  // (the epochs' own rules are the cells').
  void settle_for(const Context& c) { settle(c); }
  bool covers(unsigned thread, GlobalAccess a) const noexcept {
    return shared_.covers(a) || (thread < threads_.size() && threads_[thread].own.covers(a));
  }
  void fence(const Context& c, AtomicScope scope);
  // An atomic, before it is made.
  void atomic(const Context& c, std::uintptr_t address, AtomicKind kind, AtomicScope scope, AtomicOrder order);

 private:
  struct Observed {
    std::uintptr_t address;
    bool wide;
  };
  struct ThreadClock {
    Knowledge own;        // acquired since the block's last barrier
    Knowledge released;   // at its last fence, for relaxed atomics after it
    bool has_released = false;
    bool released_wide = false;
    std::vector<Observed> observed;  // relaxed atomic reads since its last fence
    std::vector<Observed> pending;   // acquires made, to take at its next event (the atomic has happened by then)
    bool dirty = false;
  };
  // The block's barriers since the last look fold every thread's acquisitions into `shared_`; then the
  // running thread's pending acquires are taken.
  ThreadClock& settle(const Context& c);
  Knowledge snapshot(const Context& c, const ThreadClock& t) const;
  void mark(unsigned thread);

  Knowledge shared_;
  std::uint32_t fold_epoch_ = 0;
  std::vector<ThreadClock> threads_;
  std::vector<unsigned> dirty_;
};

}  // namespace gpulab::sim::detail
