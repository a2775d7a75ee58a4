#include "backends/sim/global_race_shadow.hpp"

#include <sys/mman.h>

#include <gpulab/error.hpp>

namespace gpulab::sim::detail {

namespace {

constexpr std::size_t page = 4096;

// Whether access `a` is ordered before `b` (or is by the same thread), so that the two cannot race.
bool ordered(const GlobalAccess& a, const GlobalAccess& b, unsigned threads_per_block) noexcept {
  if (a.thread == b.thread) return true;
  const std::uint32_t ta = a.thread - 1, tb = b.thread - 1;
  if (ta / threads_per_block != tb / threads_per_block) return false;  // different blocks
  if (a.block_epoch != b.block_epoch) return true;                    // a barrier between them
  const bool same_warp = (ta % threads_per_block) / 32 == (tb % threads_per_block) / 32;
  return same_warp && a.warp_epoch != b.warp_epoch;
}

class StripeLock {
 public:
  explicit StripeLock(std::atomic<bool>& flag) noexcept : flag_(flag) {
    while (flag_.exchange(true, std::memory_order_acquire)) {
      while (flag_.load(std::memory_order_relaxed)) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      }
    }
  }
  ~StripeLock() { flag_.store(false, std::memory_order_release); }
  StripeLock(const StripeLock&) = delete;
  StripeLock& operator=(const StripeLock&) = delete;

 private:
  std::atomic<bool>& flag_;
};

}  // namespace

std::uint32_t next_race_launch() noexcept {
  static std::atomic<std::uint32_t> counter{0};
  std::uint32_t n = counter.fetch_add(1, std::memory_order_relaxed) + 1;
  if (n == 0) n = counter.fetch_add(1, std::memory_order_relaxed) + 1;  // after 2^32 launches
  return n;
}

GlobalRaceShadow::GlobalRaceShadow(std::uintptr_t base, std::size_t bytes) : base_(base), bytes_(bytes) {
  void* p = mmap(nullptr, bytes * sizeof(GlobalRaceCell), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (p == MAP_FAILED) {
    throw OutOfMemory("sim (reserving address space for racecheck's global-memory cells)", bytes * sizeof(GlobalRaceCell),
                      0, bytes * sizeof(GlobalRaceCell));
  }
  cells_ = static_cast<GlobalRaceCell*>(p);
}

GlobalRaceShadow::~GlobalRaceShadow() { munmap(cells_, bytes_ * sizeof(GlobalRaceCell)); }

void GlobalRaceShadow::forget(std::uintptr_t begin, std::size_t bytes) noexcept {
  // Whole pages of cells inside the range only: a page shared with a neighbour keeps its cells, whose
  // launch number makes them stale anyway.
  const auto first = reinterpret_cast<std::uintptr_t>(cells_ + (begin - base_));
  const auto last = reinterpret_cast<std::uintptr_t>(cells_ + (begin - base_ + bytes));
  const std::uintptr_t from = (first + page - 1) / page * page, to = last / page * page;
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

std::optional<GlobalRace> GlobalRaceShadow::access(const void* p, std::size_t bytes, bool write, std::uint32_t launch,
                                                   const GlobalAccess& me, unsigned threads_per_block) noexcept {
  const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - base_;
  if (bytes == 0 || offset + bytes > bytes_) return std::nullopt;
  // An access spans at most two stripes (accesses are at most 16 bytes); lock them in address order.
  std::atomic<bool>& first_lock = lock_for(offset);
  std::atomic<bool>& last_lock = lock_for(offset + bytes - 1);
  StripeLock first(first_lock);
  std::optional<StripeLock> second;
  if (&last_lock != &first_lock) second.emplace(last_lock);

  std::optional<GlobalRace> race;
  for (std::size_t i = 0; i < bytes; ++i) {
    GlobalRaceCell& c = cells_[offset + i];
    if (c.launch != launch) c = GlobalRaceCell{launch, {}, {}};
    const auto unordered = [&](const GlobalAccess& other) {
      return other.thread != 0 && !ordered(other, me, threads_per_block);
    };
    if (!race && unordered(c.writer)) race = GlobalRace{i, c.writer, true};
    if (write) {
      for (const GlobalAccess& r : c.readers) {
        if (!race && unordered(r)) race = GlobalRace{i, r, false};
      }
      c.writer = me;
      c.readers = {};  // each was ordered before this write, or is the race just found
    } else {
      // Keep two readers that are unordered with what comes next: a slot is free when empty, this
      // thread's, or ordered before this read.
      for (GlobalAccess& r : c.readers) {
        if (r.thread == 0 || ordered(r, me, threads_per_block)) {
          r = me;
          break;
        }
      }
    }
  }
  return race;
}

}  // namespace gpulab::sim::detail
