#pragma once
// racecheck's memory of shared-memory accesses, one per host thread: a cell per byte of the host
// thread's shared memory (dynamic shared memory, and the static TLS blocks that hold static __shared__
// arrays), and the host thread's block-read table for device memory (Racecheck::ThreadState).
//
// A race is two accesses to one byte by different threads of a block, at least one a write, with no
// barrier between them. Each cell remembers, for the current barrier interval (block epoch), the last
// writer and the readers; an access checks against them whatever order the two happened in, so the
// simulator's fixed schedule cannot hide a race. Lanes of one warp are also ordered by the warp's
// synchronous calls (__syncwarp, shuffles, votes): each warp counts them (warp epoch).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/checks/racecheck/happens_before.hpp"
#include <gpulab/sim/detail/checks/racecheck.hpp>

#include "sim/engine/address_ranges.hpp"

namespace gpulab::sim::detail {

// Where a shared-memory byte is, for a report.
struct SharedLocation {
  bool found = false;  // false: not shared memory
  bool dynamic = false;
  std::size_t offset = 0;  // into dynamic shared memory, or into the module's TLS block
};

// The cells an access is checked against: one per 4-byte word (`unit` 4) while the words it covers were
// only ever accessed whole in this barrier interval, else one per byte (`unit` 1).
struct RaceCells {
  RaceCell* cells = nullptr;  // null: not shared memory
  std::size_t count = 0;
  std::size_t unit = 1;
};

class RaceShadow {
 public:
  // Covers [dynamic, dynamic + capacity) and the calling thread's TLS blocks. The inline test
  // (racecheck.hpp) reads `hooks`, the calling thread's racecheck state: where shared memory can be, and
  // the word cells of the range last accessed, kept in step here.
  RaceShadow(unsigned char* dynamic, std::size_t capacity, Racecheck::ThreadState& hooks);
  // The dynamic shared bytes of the launch now running: the hooks' range of dynamic shared memory stops
  // there, so that whatever lies in their range is valid memory for memcheck as well.
  void set_dynamic_bytes(std::size_t bytes) noexcept;
  // Where p is when all of [p, p + bytes) is in one shared range.
  SharedLocation locate(const void* p, std::size_t bytes) noexcept;
  // The cells of [p, p + bytes) in barrier interval `epoch` (no cells when the access is not within one
  // shared range). A word first accessed in parts during an interval gets its word cell copied into its
  // byte cells, and is tracked byte by byte until the interval ends.
  RaceCells cells_for(const void* p, std::size_t bytes, std::uint32_t epoch) noexcept;
  // The block-read table's storage (block_read_slot), zeroed when first asked for.
  std::uint64_t* block_reads();
  // What the threads of the block this host thread runs know by fences and atomics, for device memory
  // (happens_before.hpp): kept here, with the rest of the host thread's racecheck state.
  BlockClocks& block_clocks() noexcept { return block_clocks_; }

 private:
  struct Range {
    AddressRange where;
    std::unique_ptr<RaceCell[]> cells;       // a cell per byte
    std::uintptr_t words_begin = 0;          // where.begin rounded down to 4 bytes
    std::unique_ptr<RaceCell[]> word_cells;  // a cell per 4-byte word from words_begin
    std::unique_ptr<std::uint32_t[]> byte_mode;  // per word: the interval in which its bytes are tracked apart
    bool dynamic = false;
  };
  static Range make_range(AddressRange where, bool dynamic);
  Range* range_of(const void* p, std::size_t bytes) noexcept;
  void publish_last() noexcept;  // ranges_[last_]'s word cells to hooks_
  std::vector<Range> ranges_;
  std::size_t last_ = 0;  // the range of the last hit: a kernel's accesses mostly go to one array
  std::size_t dynamic_bytes_ = 0;  // of ranges_[0]'s capacity, what the running launch asked for
  Racecheck::ThreadState& hooks_;
  std::vector<std::uint64_t> block_reads_;
  BlockClocks block_clocks_;
};

}  // namespace gpulab::sim::detail
