#include "sim/checks/racecheck/global_shadow.hpp"

#include <sys/mman.h>

#include <algorithm>
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

void* reserve_cells(std::size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    throw OutOfMemory("sim (reserving address space for racecheck's global-memory cells)", bytes, 0, bytes);
  }
  return p;
}

// Gives back the whole pages of [begin, begin + bytes); a page shared with a neighbour keeps its cells,
// whose launch numbers make them stale anyway.
void drop_pages(const void* begin, std::size_t bytes) noexcept {
  const auto first = reinterpret_cast<std::uintptr_t>(begin);
  const std::uintptr_t from = (first + page - 1) / page * page, to = (first + bytes) / page * page;
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

// Resets a cell to `launch` if it holds an older one's accesses. The launch is stored last: the lock-free
// fast path of a read trusts the rest of a cell once it sees its launch.
void enter_launch(GlobalRaceCell& c, std::uint32_t launch) noexcept {
  if (load(c.launch) == launch) return;
  store(c.writer, 0);
  store(c.readers[0], 0);
  store(c.readers[1], 0);
  store(c.launch, launch);
}

}  // namespace

std::uint32_t next_race_launch() noexcept {
  static std::atomic<std::uint32_t> counter{0};
  std::uint32_t n = counter.fetch_add(1, std::memory_order_relaxed) + 1;
  if (n == 0) n = counter.fetch_add(1, std::memory_order_relaxed) + 1;  // after 2^32 launches
  return n;
}

GlobalRaceShadow::GlobalRaceShadow(std::uintptr_t base, std::size_t bytes) : base_(base), bytes_(bytes) {
  const std::size_t words = bytes_ / 4 + 1;
  word_cells_ = static_cast<GlobalRaceCell*>(reserve_cells(words * sizeof(GlobalRaceCell)));
  try {
    byte_cells_ = static_cast<GlobalRaceCell*>(reserve_cells(words * 4 * sizeof(GlobalRaceCell)));
    settled_bytes_ = (bytes_ / settled_entry_bytes + 1) * sizeof(std::uint64_t);
    settled_ = static_cast<std::uint64_t*>(reserve_cells(settled_bytes_));
  } catch (...) {
    if (byte_cells_ != nullptr) munmap(byte_cells_, words * 4 * sizeof(GlobalRaceCell));
    munmap(word_cells_, words * sizeof(GlobalRaceCell));
    throw;
  }
}

GlobalRaceShadow::~GlobalRaceShadow() {
  const std::size_t words = bytes_ / 4 + 1;
  munmap(settled_, settled_bytes_);
  munmap(byte_cells_, words * 4 * sizeof(GlobalRaceCell));
  munmap(word_cells_, words * sizeof(GlobalRaceCell));
}

void GlobalRaceShadow::settle_word(std::size_t offset, std::uint32_t launch) noexcept {
  const GlobalRaceCell& word = word_cells_[offset / 4];
  const bool per_byte = load(word.bytes_launch) == launch;
  for (const GlobalRaceCell* c = per_byte ? byte_cells_ + offset : &word, *end = c + (per_byte ? 4 : 1); c != end; ++c) {
    const GlobalAccess r0 = GlobalAccess::from_word(load(c->readers[0]));
    const GlobalAccess r1 = GlobalAccess::from_word(load(c->readers[1]));
    if (load(c->launch) != launch || load(c->writer) != 0 || r0.empty() || r1.empty() || r0.block() == r1.block()) {
      return;
    }
  }
  mark_word(settled_, offset, launch, true);
}

void GlobalRaceShadow::forget(std::uintptr_t begin, std::size_t bytes) noexcept {
  const std::size_t offset = begin - base_;
  drop_pages(word_cells_ + offset / 4, bytes / 4 * sizeof(GlobalRaceCell));
  drop_pages(byte_cells_ + offset, bytes * sizeof(GlobalRaceCell));
}

void GlobalRaceShadow::unsettle(std::uintptr_t begin, std::size_t bytes) noexcept {
  // Buffers are 256-byte aligned with unowned bytes between them, so no entry covers two buffers.
  // The whole pages of entries go back to the system (they read as 0 again); the entries at either
  // end are cleared one by one, reading first so that pages never touched stay untouched.
  std::uint64_t* const first = settled_ + (begin - base_) / settled_entry_bytes;
  std::uint64_t* const end = settled_ + (begin - base_ + bytes + settled_entry_bytes - 1) / settled_entry_bytes;
  const auto clear = [](std::uint64_t* from, std::uint64_t* to) {
    for (std::uint64_t* e = from; e < to; ++e) {
      if (load(*e) != 0) store(*e, 0);  // 0 belongs to no launch
    }
  };
  const auto page_up = reinterpret_cast<std::uint64_t*>((reinterpret_cast<std::uintptr_t>(first) + page - 1) / page * page);
  const auto page_down = reinterpret_cast<std::uint64_t*>(reinterpret_cast<std::uintptr_t>(end) / page * page);
  if (page_up >= page_down) {
    clear(first, end);
    return;
  }
  clear(first, page_up);
  drop_pages(page_up, static_cast<std::size_t>(page_down - page_up) * sizeof(std::uint64_t));
  clear(page_down, end);
}

GlobalRaceShadow::PartCells GlobalRaceShadow::cells_for_part(std::size_t word, std::size_t first, std::size_t end,
                                                              std::uint32_t launch) noexcept {
  GlobalRaceCell& w = word_cells_[word / 4];
  enter_launch(w, launch);
  const bool per_byte = load(w.bytes_launch) == launch;
  if (!per_byte && first == word && end == word + 4) return {&w, 1};
  GlobalRaceCell* const bytes = byte_cells_ + word;
  if (!per_byte) {
    // The word is accessed in parts from now on in this launch: each byte starts from the word's state.
    for (int i = 0; i < 4; ++i) {
      store(bytes[i].writer, load(w.writer));
      store(bytes[i].readers[0], load(w.readers[0]));
      store(bytes[i].readers[1], load(w.readers[1]));
      store(bytes[i].launch, launch);
    }
    store(w.bytes_launch, launch);
  }
  return {bytes + (first - word), end - first};
}

std::optional<GlobalRace> GlobalRaceShadow::access(const void* p, std::size_t bytes, bool write, std::uint32_t launch,
                                                   GlobalAccess me, const OrderedByClocks* clocks) noexcept {
  const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - base_;
  if (bytes == 0 || offset + bytes > bytes_) return std::nullopt;
  const std::size_t first_word = offset / 4 * 4, end = offset + bytes;
  const bool whole_words = offset % 4 == 0 && bytes % 4 == 0;
  // Free slot for a reader: empty, this thread's, or ordered before this read.
  const auto ordered = [me, clocks](GlobalAccess other) {
    return other.ordered_before(me) || (clocks != nullptr && clocks->covers(other));
  };
  const auto replaceable = [ordered](std::uint64_t r) {
    const GlobalAccess other = GlobalAccess::from_word(r);
    return other.empty() || ordered(other);
  };
  // A plain read and an atomic do not race: CUDA's compare-and-swap loops start from a plain read of
  // the word that others update atomically, and the compare-and-swap makes the result right. A plain
  // write and an atomic do.
  const auto unordered_writer = [ordered, me, write](std::uint64_t w) {
    const GlobalAccess other = GlobalAccess::from_word(w);
    if (other.empty() || ordered(other)) return false;
    return !(!me.atomic() && !write && other.atomic());
  };
  const auto unordered_reader = [ordered, me](std::uint64_t r) {
    const GlobalAccess other = GlobalAccess::from_word(r);
    if (other.empty() || ordered(other)) return false;
    return !(me.atomic() && !other.atomic());
  };
  // Two readers of one block, and this read is from another: keeping it in place of the second makes
  // the slots span two blocks, after which every write is unordered with one of them (a race is found
  // whichever earlier read it raced with) and the byte can settle.
  const auto widens = [me](std::uint64_t r0, std::uint64_t r1) {
    const GlobalAccess a = GlobalAccess::from_word(r0), b = GlobalAccess::from_word(r1);
    return !a.empty() && !b.empty() && a.block() == b.block() && a.block() != me.block();
  };

  // Most reads change nothing, which is decided without the lock (a read of parts of words takes the
  // locked path).
  if (!write && words_read_unchanged(settled_, word_cells_, offset, bytes, launch, me)) return std::nullopt;

  // An access spans at most two stripes (accesses are at most 16 bytes); lock them in address order.
  std::atomic<bool>& first_lock = lock_for(offset);
  std::atomic<bool>& last_lock = lock_for(end - 1);
  StripeLock first(first_lock);
  std::optional<StripeLock> second;
  if (&last_lock != &first_lock) second.emplace(last_lock);

  std::optional<GlobalRace> race;
  for (std::size_t w = first_word; w < end; w += 4) {
    if (touch_entry(settled_, w, launch)) {
      // The launch's first access here: write the word's cell before reading it, so that a page of cells
      // never touched before is mapped in once, for writing.
      __atomic_fetch_or(&word_cells_[w / 4].bytes_launch, 0u, __ATOMIC_RELAXED);
    }
    if (write) mark_word(settled_, w, launch, false);
    const std::size_t part = std::max(w, offset);
    const PartCells cells = cells_for_part(w, part, std::min(w + 4, end), launch);
    for (std::size_t i = 0; i < cells.count; ++i) {
      GlobalRaceCell& c = cells.cells[i];
      enter_launch(c, launch);
      const std::size_t byte = part - offset + i;
      const std::uint64_t writer = load(c.writer);
      if (!race && unordered_writer(writer)) race = GlobalRace{byte, GlobalAccess::from_word(writer), true};
      if (write) {
        for (const std::uint64_t& slot : c.readers) {
          const std::uint64_t r = load(slot);
          if (!race && unordered_reader(r)) race = GlobalRace{byte, GlobalAccess::from_word(r), false};
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
  }
  if (!write && whole_words && !race) {
    for (std::size_t w = offset; w < end; w += 4) settle_word(w, launch);
  }
  return race;
}

}  // namespace gpulab::sim::detail
