#pragma once
// racecheck's memory of device (global) memory accesses within one launch: a cell per byte of the sim
// device's address range, reserved as address space when racecheck first runs and filled only where
// kernels touch memory (32 bytes of cell per byte touched).
//
// compute-sanitizer's racecheck looks at shared memory only; this covers global memory too. Two
// accesses to one byte by different threads of a launch, at least one a write, race unless they are
// ordered: threads of one block by a __syncthreads between them (or, within a warp, a warp call);
// threads of different blocks are never ordered within a launch (blocks may run in any order, or at
// once). Atomics are not plain accesses and are not recorded. Each cell remembers, for its launch,
// the last writer and up to two readers, so a race is found whatever order the simulator ran the two
// accesses in, across blocks run on different host threads or one after the other.
//
// Not modelled: ordering through __threadfence and a flag (the "last block" pattern of the
// threadFenceReduction sample is reported as a race).
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>

#include <gpulab/sim/settled_map.hpp>

namespace gpulab::sim::detail {

// One access, packed in a word so that cells can be read whole without a lock and two accesses
// compared with a few masks: which thread (its block, truncated to 21 bits, and its index in the
// block), and the epochs that order it against the other threads of its block: barriers released on
// the block's host thread (modulo 2^20) and the warp's synchronous calls (modulo 2^12). 0 is no access.
class GlobalAccess {
 public:
  constexpr GlobalAccess() = default;
  constexpr GlobalAccess(std::uint64_t block, unsigned thread, std::uint32_t block_epoch, std::uint32_t warp_epoch)
      : word_(valid | (block & 0x1fffff) << block_shift | std::uint64_t{thread & 0x3ff} << thread_shift |
              std::uint64_t{block_epoch & 0xfffff} << block_epoch_shift | (warp_epoch & 0xfff)) {}
  static constexpr GlobalAccess from_word(std::uint64_t w) {
    GlobalAccess a;
    a.word_ = w;
    return a;
  }

  constexpr std::uint64_t word() const { return word_; }
  constexpr bool empty() const { return word_ == 0; }
  constexpr std::uint64_t block() const { return (word_ >> block_shift) & 0x1fffff; }
  constexpr unsigned thread() const { return static_cast<unsigned>((word_ >> thread_shift) & 0x3ff); }

  // Whether this access and `later` cannot race: the same thread, or threads of one block with a
  // barrier between them, or lanes of one warp with a warp call between them. Threads of different
  // blocks are never ordered within a launch.
  constexpr bool ordered_before(GlobalAccess later) const {
    const std::uint64_t x = word_ ^ later.word_;
    if ((x & (block_mask | thread_mask)) == 0) return true;
    if ((x & block_mask) != 0) return false;
    if ((x & block_epoch_mask) != 0) return true;
    return (x & warp_mask) == 0 && (x & warp_epoch_mask) != 0;
  }

 private:
  static constexpr int block_shift = 42, thread_shift = 32, block_epoch_shift = 12;
  static constexpr std::uint64_t valid = std::uint64_t{1} << 63;
  static constexpr std::uint64_t block_mask = std::uint64_t{0x1fffff} << block_shift;
  static constexpr std::uint64_t thread_mask = std::uint64_t{0x3ff} << thread_shift;
  static constexpr std::uint64_t warp_mask = std::uint64_t{0x3e0} << thread_shift;  // thread / 32
  static constexpr std::uint64_t block_epoch_mask = std::uint64_t{0xfffff} << block_epoch_shift;
  static constexpr std::uint64_t warp_epoch_mask = 0xfff;
  std::uint64_t word_ = 0;
};

// A cell's words are read without the lock by the fast path of a read (GlobalRaceShadow::access), so
// each is read and written whole.
struct alignas(32) GlobalRaceCell {
  std::uint64_t writer = 0;
  std::uint64_t readers[2] = {0, 0};
  std::uint32_t launch = 0;  // the launch the rest belongs to; 0 never matches
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
                                   GlobalAccess me) noexcept;
  // The settled words (settled_map.hpp, from the base), for the hooks' inline test.
  const std::uint64_t* settled_words() const noexcept { return settled_; }
  // Drops the cells of a freed range (their pages go back to the system).
  void forget(std::uintptr_t begin, std::size_t bytes) noexcept;

 private:
  std::atomic<bool>& lock_for(std::size_t offset) noexcept { return locks_[(offset >> 6) % locks_.size()]; }

  // Whether the 4-byte word at `offset` is settled for reads in `launch`: marks it when it is.
  void settle_word(std::size_t offset, std::uint32_t launch) noexcept;

  std::uintptr_t base_;
  std::size_t bytes_;
  GlobalRaceCell* cells_ = nullptr;
  // Which 4-byte words are settled for reads, and in which launch (settled_map.hpp). A byte is settled
  // when nothing wrote it in the launch and its two reader slots hold readers of two different blocks:
  // every later write is unordered with one of them, so it finds a race whatever further reads there
  // are, and a read then has nothing to record. Reads of settled words look at one bit each instead of
  // four cells of 32 bytes; a write clears the bit.
  std::uint64_t* settled_ = nullptr;
  std::size_t settled_bytes_ = 0;
  // Blocks on other host threads touch the same cells: a lock per 64-byte stripe, hashed.
  std::array<std::atomic<bool>, 1024> locks_{};
};

// A fresh launch number for the cells (never 0).
std::uint32_t next_race_launch() noexcept;

}  // namespace gpulab::sim::detail
