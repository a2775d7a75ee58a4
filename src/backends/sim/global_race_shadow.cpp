#include "backends/sim/global_race_shadow.hpp"

#include <sys/mman.h>

#include <type_traits>

#include <gpulab/error.hpp>

namespace gpulab::sim::detail {

namespace {

constexpr std::size_t page = 4096;

template <class W>
W load(const W& word) noexcept {
  return std::atomic_ref<W>(const_cast<W&>(word)).load(std::memory_order_relaxed);
}
template <class W>
void store(W& word, std::type_identity_t<W> value) noexcept {
  std::atomic_ref<W>(word).store(value, std::memory_order_relaxed);
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
  settled_bytes_ = (bytes_ / settled_entry_bytes + 1) * sizeof(std::uint64_t);
  void* q = mmap(nullptr, settled_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (q == MAP_FAILED) {
    munmap(cells_, bytes_ * sizeof(GlobalRaceCell));
    throw OutOfMemory("sim (reserving address space for racecheck's global-memory cells)", settled_bytes_, 0,
                      settled_bytes_);
  }
  settled_ = static_cast<std::uint64_t*>(q);
}

GlobalRaceShadow::~GlobalRaceShadow() {
  munmap(settled_, settled_bytes_);
  munmap(cells_, bytes_ * sizeof(GlobalRaceCell));
}

void GlobalRaceShadow::settle_word(std::size_t offset, std::uint32_t launch) noexcept {
  for (std::size_t i = offset; i < offset + 4; ++i) {
    const GlobalRaceCell& c = cells_[i];
    const GlobalAccess r0 = GlobalAccess::from_word(load(c.readers[0]));
    const GlobalAccess r1 = GlobalAccess::from_word(load(c.readers[1]));
    if (load(c.launch) != launch || load(c.writer) != 0 || r0.empty() || r1.empty() || r0.block() == r1.block()) {
      return;
    }
  }
  mark_word(settled_, offset, launch, true);
}

void GlobalRaceShadow::forget(std::uintptr_t begin, std::size_t bytes) noexcept {
  // Whole pages of cells inside the range only: a page shared with a neighbour keeps its cells, whose
  // launch number makes them stale anyway.
  const auto first = reinterpret_cast<std::uintptr_t>(cells_ + (begin - base_));
  const auto last = reinterpret_cast<std::uintptr_t>(cells_ + (begin - base_ + bytes));
  const std::uintptr_t from = (first + page - 1) / page * page, to = last / page * page;
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

std::optional<GlobalRace> GlobalRaceShadow::access(const void* p, std::size_t bytes, bool write, std::uint32_t launch,
                                                   GlobalAccess me) noexcept {
  const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - base_;
  if (bytes == 0 || offset + bytes > bytes_) return std::nullopt;
  GlobalRaceCell* const cells = cells_ + offset;
  const bool whole_words = offset % 4 == 0 && bytes % 4 == 0;
  if (!write && words_settled(settled_, offset, bytes, launch)) return std::nullopt;
  // Free slot for a reader: empty, this thread's, or ordered before this read.
  const auto replaceable = [me](std::uint64_t r) {
    const GlobalAccess other = GlobalAccess::from_word(r);
    return other.empty() || other.ordered_before(me);
  };
  const auto unordered = [me](std::uint64_t w) {
    const GlobalAccess other = GlobalAccess::from_word(w);
    return !other.empty() && !other.ordered_before(me);
  };
  // Two readers of one block, and this read is from another: keeping it in place of the second makes
  // the slots span two blocks, after which every write is unordered with one of them (a race is found
  // whichever earlier read it raced with) and the byte can settle.
  const auto widens = [me](std::uint64_t r0, std::uint64_t r1) {
    const GlobalAccess a = GlobalAccess::from_word(r0), b = GlobalAccess::from_word(r1);
    return !a.empty() && !b.empty() && a.block() == b.block() && a.block() != me.block();
  };

  // Most reads change nothing: the bytes were not written in this launch (or by something ordered
  // before), and both reader slots hold readers this one is unordered with, which a later write will
  // be checked against anyway. That is decided without the lock, from whole-word loads. (A write
  // racing with this check still meets the two recorded readers, so no race goes unreported.)
  if (!write) {
    bool nothing_to_do = true;
    for (std::size_t i = 0; i < bytes && nothing_to_do; ++i) {
      GlobalRaceCell& c = cells[i];
      const std::uint64_t r0 = load(c.readers[0]), r1 = load(c.readers[1]);
      nothing_to_do = load(c.launch) == launch && !unordered(load(c.writer)) && !replaceable(r0) &&
                      !replaceable(r1) && !widens(r0, r1);
    }
    if (nothing_to_do) return std::nullopt;
  }

  // An access spans at most two stripes (accesses are at most 16 bytes); lock them in address order.
  std::atomic<bool>& first_lock = lock_for(offset);
  std::atomic<bool>& last_lock = lock_for(offset + bytes - 1);
  StripeLock first(first_lock);
  std::optional<StripeLock> second;
  if (&last_lock != &first_lock) second.emplace(last_lock);

  std::optional<GlobalRace> race;
  if (write) {
    for (std::size_t w = offset / 4 * 4; w < offset + bytes; w += 4) mark_word(settled_, w, launch, false);
  }
  for (std::size_t i = 0; i < bytes; ++i) {
    GlobalRaceCell& c = cells[i];
    if (load(c.launch) != launch) {
      store(c.writer, 0);
      store(c.readers[0], 0);
      store(c.readers[1], 0);
      store(c.launch, launch);
    }
    const std::uint64_t writer = load(c.writer);
    if (!race && unordered(writer)) race = GlobalRace{i, GlobalAccess::from_word(writer), true};
    if (write) {
      for (const std::uint64_t& slot : c.readers) {
        const std::uint64_t r = load(slot);
        if (!race && unordered(r)) race = GlobalRace{i, GlobalAccess::from_word(r), false};
      }
      store(c.writer, me.word());
      store(c.readers[0], 0);  // each was ordered before this write, or is the race just found
      store(c.readers[1], 0);
    } else {
      // Keep two readers that are unordered with what comes next.
      bool kept = false;
      for (std::uint64_t& slot : c.readers) {
        if (replaceable(load(slot))) {
          store(slot, me.word());
          kept = true;
          break;
        }
      }
      if (!kept && widens(load(c.readers[0]), load(c.readers[1]))) store(c.readers[1], me.word());
    }
  }
  if (!write && whole_words && !race) {
    for (std::size_t w = offset; w < offset + bytes; w += 4) settle_word(w, launch);
  }
  return race;
}

}  // namespace gpulab::sim::detail
