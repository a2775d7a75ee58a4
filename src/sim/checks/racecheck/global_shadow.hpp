#pragma once
// racecheck's memory of device (global) memory accesses within one launch. Address space for the cells
// is reserved when racecheck first runs and filled only where kernels touch memory: a cell per 4-byte
// word (32 bytes of cell per word), and a cell per byte for the words a launch accesses in parts.
//
// compute-sanitizer's racecheck looks at shared memory only; this covers global memory too. Two
// accesses to one byte by different threads of a launch, at least one a write, race unless they are
// ordered: threads of one block by a __syncthreads between them (or, within a warp, a warp call), and
// any two threads by what fences and atomics order (happens_before.hpp). Atomics are recorded too, with
// their scope: two atomics race only when one is of block scope and they are of different blocks, and a
// plain access races with an atomic it is not ordered with. Each cell remembers, for its launch,
// the last writer and up to two readers, so a race is found whatever order the simulator ran the two
// accesses in, across blocks run on different host threads or one after the other.
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>

#include <gpulab/sim/detail/checks/racecheck.hpp>

#include "sim/checks/racecheck/happens_before.hpp"

namespace gpulab::sim::detail {

// What orders two accesses beyond the cells' epochs (racecheck.cpp asks BlockClocks).
struct OrderedByClocks {
  virtual bool covers(GlobalAccess earlier) const = 0;

 protected:
  ~OrderedByClocks() = default;
};

struct GlobalRace {
  std::size_t byte = 0;  // offset of the raced byte from the access's address
  GlobalAccess other;
  bool other_wrote = false;
};

class GlobalRaceShadow {
 public:
  // Covers [base, base + bytes).
  GlobalRaceShadow(std::uintptr_t base, std::size_t bytes);
  ~GlobalRaceShadow();
  GlobalRaceShadow(const GlobalRaceShadow&) = delete;
  GlobalRaceShadow& operator=(const GlobalRaceShadow&) = delete;

  // Records an access of [p, p + bytes) by `me` in launch `launch` and returns the first race it
  // makes with an earlier access, if any.
  std::optional<GlobalRace> access(const void* p, std::size_t bytes, bool write, std::uint32_t launch,
                                   GlobalAccess me, const OrderedByClocks* clocks = nullptr) noexcept;
  // The release clocks of atomic locations (happens_before.hpp).
  SyncClocks& sync_clocks() noexcept { return sync_clocks_; }
  // The settled words (settled_map.hpp, from the base) and the words' cells, for the hooks' inline test.
  const std::uint64_t* settled_words() const noexcept { return settled_; }
  const GlobalRaceCell* word_cells() const noexcept { return word_cells_; }
  // Drops the cells of a freed range (their pages go back to the system).
  void forget(std::uintptr_t begin, std::size_t bytes) noexcept;
  // Unsettles every word of a freed range: the hooks pass a read of a settled word for memcheck too, and
  // a launch still running may read the range after the free.
  void unsettle(std::uintptr_t begin, std::size_t bytes) noexcept;

 private:
  std::atomic<bool>& lock_for(std::size_t offset) noexcept { return locks_[(offset >> 6) % locks_.size()].flag; }

  // Whether the 4-byte word at `offset` is settled for reads in `launch`: marks it when it is.
  void settle_word(std::size_t offset, std::uint32_t launch) noexcept;

  // The cells of the word holding `offset`'s part in an access [offset, offset + bytes), under the
  // stripe lock: the word's cell when the part is the whole word and the word is not tracked per byte in
  // `launch`, else the byte cells of the part (the word switched to per-byte tracking first).
  struct PartCells {
    GlobalRaceCell* cells;
    std::size_t count;
  };
  PartCells cells_for_part(std::size_t word, std::size_t first, std::size_t end, std::uint32_t launch) noexcept;

  std::uintptr_t base_;
  std::size_t bytes_;
  GlobalRaceCell* word_cells_ = nullptr;  // one per 4-byte word
  GlobalRaceCell* byte_cells_ = nullptr;  // one per byte, touched only for words accessed in parts
  // Which 4-byte words are settled for reads, and in which launch (settled_map.hpp). A byte is settled
  // when nothing wrote it in the launch and its two reader slots hold readers of two different blocks:
  // every later write is unordered with one of them, so it finds a race whatever further reads there
  // are, and a read then has nothing to record. Reads of settled words look at one bit each instead of
  // four cells of 32 bytes; a write clears the bit.
  std::uint64_t* settled_ = nullptr;
  std::size_t settled_bytes_ = 0;
  // Blocks on other host threads touch the same cells: a lock per 64-byte stripe, hashed, each on a
  // cache line of its own (packed, two host threads taking different locks would bounce one line).
  struct alignas(64) StripeFlag {
    std::atomic<bool> flag{false};
  };
  std::array<StripeFlag, 1024> locks_{};
  SyncClocks sync_clocks_;
};

// A fresh launch number for the cells (never 0).
std::uint32_t next_race_launch() noexcept;

}  // namespace gpulab::sim::detail
