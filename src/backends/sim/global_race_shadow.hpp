#pragma once
// racecheck's memory of device (global) memory accesses within one launch: a cell per byte of the sim
// device's address range, reserved as address space when racecheck first runs and filled only where
// kernels touch memory.
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

namespace gpulab::sim::detail {

// One access: the thread as its linear index in the launch plus one (0: none), and the epochs that
// order it against other threads of its block.
struct GlobalAccess {
  std::uint32_t thread = 0;
  std::uint16_t block_epoch = 0;  // barriers released on the block's host thread, modulo 2^16
  std::uint16_t warp_epoch = 0;   // the warp's synchronous calls, modulo 2^16
};

struct GlobalRaceCell {
  std::uint32_t launch = 0;  // the launch the rest belongs to; 0 never matches
  GlobalAccess writer;
  std::array<GlobalAccess, 2> readers;
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

  // Records an access of [p, p + bytes) by `me` in launch `launch` (blocks of `threads_per_block`
  // threads) and returns the first race it makes with an earlier access, if any.
  std::optional<GlobalRace> access(const void* p, std::size_t bytes, bool write, std::uint32_t launch,
                                   const GlobalAccess& me, unsigned threads_per_block) noexcept;
  // Drops the cells of a freed range (their pages go back to the system).
  void forget(std::uintptr_t begin, std::size_t bytes) noexcept;

 private:
  std::atomic<bool>& lock_for(std::size_t offset) noexcept { return locks_[(offset >> 6) % locks_.size()]; }

  std::uintptr_t base_;
  std::size_t bytes_;
  GlobalRaceCell* cells_ = nullptr;
  // Blocks on other host threads touch the same cells: a lock per 64-byte stripe, hashed.
  std::array<std::atomic<bool>, 1024> locks_{};
};

// A fresh launch number for the cells (never 0).
std::uint32_t next_race_launch() noexcept;

}  // namespace gpulab::sim::detail
