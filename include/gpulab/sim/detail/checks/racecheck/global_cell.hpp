#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// racecheck's cell for a device-memory location (a 4-byte word, or a byte of a word accessed in parts;
// src/sim/checks/racecheck/global_shadow.hpp) and the read that changes nothing in it, shared by the
// checker and the inline test of racecheck.hpp.
#include <cstddef>
#include <cstdint>

#include <gpulab/sim/detail/checks/racecheck/settled_map.hpp>

namespace gpulab::sim::detail {

// One access, packed in a word so that cells can be read whole without a lock and two accesses
// compared with a few masks: which thread (its block, truncated to 19 bits, and its index in the
// block), whether it is an atomic and whether of block scope, and the epochs that order it against the
// other threads of its block: barriers released on the block's host thread (modulo 2^20) and the
// warp's synchronous calls (modulo 2^12). 0 is no access. What orders threads beyond these epochs
// (fences, atomics with memory orders) is racecheck's happens-before (src/sim/checks/racecheck/).
// Its functions are inlined and never instrumented: the hooks call them, in instrumented files.
#define GPULAB_SIM_DETAIL_INLINE __attribute__((always_inline, no_sanitize_address, no_sanitize_thread))
class GlobalAccess {
 public:
  constexpr GlobalAccess() = default;
  GPULAB_SIM_DETAIL_INLINE constexpr GlobalAccess(std::uint64_t block, unsigned thread, std::uint32_t block_epoch,
                                                  std::uint32_t warp_epoch, bool atomic = false, bool narrow = false)
      : word_(valid | (atomic ? atomic_bit : 0) | (narrow ? narrow_bit : 0) | (block & block_bits) << block_shift |
              std::uint64_t{thread & 0x3ff} << thread_shift | std::uint64_t{block_epoch & 0xfffff} << block_epoch_shift |
              (warp_epoch & 0xfff)) {}
  GPULAB_SIM_DETAIL_INLINE static constexpr GlobalAccess from_word(std::uint64_t w) {
    GlobalAccess a;
    a.word_ = w;
    return a;
  }

  GPULAB_SIM_DETAIL_INLINE constexpr std::uint64_t word() const { return word_; }
  GPULAB_SIM_DETAIL_INLINE constexpr bool empty() const { return word_ == 0; }
  GPULAB_SIM_DETAIL_INLINE constexpr std::uint64_t block() const { return (word_ >> block_shift) & block_bits; }
  GPULAB_SIM_DETAIL_INLINE constexpr unsigned thread() const { return static_cast<unsigned>((word_ >> thread_shift) & 0x3ff); }
  GPULAB_SIM_DETAIL_INLINE constexpr std::uint32_t block_epoch() const {
    return static_cast<std::uint32_t>((word_ >> block_epoch_shift) & 0xfffff);
  }
  GPULAB_SIM_DETAIL_INLINE constexpr std::uint32_t warp_epoch() const { return static_cast<std::uint32_t>(word_ & 0xfff); }
  GPULAB_SIM_DETAIL_INLINE constexpr bool atomic() const { return (word_ & atomic_bit) != 0; }
  GPULAB_SIM_DETAIL_INLINE constexpr bool narrow() const { return (word_ & narrow_bit) != 0; }

  // Whether this access and `later` cannot race by what the epochs say: the same thread, two atomics
  // whose scopes hold both threads (of one block, or neither of block scope), threads of one block
  // with a barrier between them, or lanes of one warp with a warp call between them.
  GPULAB_SIM_DETAIL_INLINE constexpr bool ordered_before(GlobalAccess later) const {
    const std::uint64_t x = word_ ^ later.word_;
    if ((x & (block_mask | thread_mask)) == 0) return true;
    if ((word_ & later.word_ & atomic_bit) != 0 && ((x & block_mask) == 0 || ((word_ | later.word_) & narrow_bit) == 0)) {
      return true;
    }
    if ((x & block_mask) != 0) return false;
    if ((x & block_epoch_mask) != 0) return true;
    return (x & warp_mask) == 0 && (x & warp_epoch_mask) != 0;
  }

  static constexpr std::uint64_t block_bits = 0x7ffff;

 private:
  static constexpr int block_shift = 42, thread_shift = 32, block_epoch_shift = 12;
  static constexpr std::uint64_t valid = std::uint64_t{1} << 63;
  static constexpr std::uint64_t atomic_bit = std::uint64_t{1} << 62;
  static constexpr std::uint64_t narrow_bit = std::uint64_t{1} << 61;
  static constexpr std::uint64_t block_mask = block_bits << block_shift;
  static constexpr std::uint64_t thread_mask = std::uint64_t{0x3ff} << thread_shift;
  static constexpr std::uint64_t warp_mask = std::uint64_t{0x3e0} << thread_shift;  // thread / 32
  static constexpr std::uint64_t block_epoch_mask = std::uint64_t{0xfffff} << block_epoch_shift;
  static constexpr std::uint64_t warp_epoch_mask = 0xfff;
  std::uint64_t word_ = 0;
};
#undef GPULAB_SIM_DETAIL_INLINE

// A cell's words are read without the lock by the fast path of a read (GlobalRaceShadow::access and
// the hooks), so each is read and written whole.
struct alignas(32) GlobalRaceCell {
  std::uint64_t writer = 0;
  std::uint64_t readers[2] = {0, 0};
  std::uint32_t launch = 0;  // the launch the rest belongs to; 0 never matches
  // A word's cell only: the launch in which the word is tracked per byte (it was accessed in parts).
  // From then on its four byte cells hold its state, starting from a copy of this cell's.
  std::uint32_t bytes_launch = 0;
};

// Whether a read by `me` in `launch` has nothing to record in cell `c`: the cell is of this launch,
// nothing unordered with the read wrote it, and both reader slots hold readers the read is unordered
// with and would not replace, which a later write will be checked against anyway (and which do not
// both belong to one other block: the read would widen them to span two blocks). Read without a lock,
// from whole-word loads: a write racing with this test still meets the two recorded readers, so no race
// goes unreported.
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline bool global_read_changes_nothing(const GlobalRaceCell& c,
                                                                                             GlobalAccess me,
                                                                                             std::uint32_t launch) {
  if (__atomic_load_n(&c.launch, __ATOMIC_RELAXED) != launch) return false;
  const GlobalAccess w = GlobalAccess::from_word(__atomic_load_n(&c.writer, __ATOMIC_RELAXED));
  const GlobalAccess r0 = GlobalAccess::from_word(__atomic_load_n(&c.readers[0], __ATOMIC_RELAXED));
  const GlobalAccess r1 = GlobalAccess::from_word(__atomic_load_n(&c.readers[1], __ATOMIC_RELAXED));
  return (w.empty() || w.ordered_before(me)) && !r0.empty() && !r0.ordered_before(me) && !r1.empty() &&
         !r1.ordered_before(me) && !(r0.block() == r1.block() && r0.block() != me.block());
}

// Whether a read of the whole words [offset, offset + bytes) by `me` in `launch` has nothing to record:
// each word settled (settled_map.hpp), or tracked whole in a cell the read changes nothing in. That is
// most reads before a word settles: all but the first two of a block's threads that read it. Cells are
// looked at only where this launch has reached them (the word's entry in the map is of this launch): a
// first read would map in a page of cells that the locked path then writes, a second page fault, with
// a TLB flush on every core.
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline bool words_read_unchanged(const std::uint64_t* settled,
                                                                                      const GlobalRaceCell* word_cells,
                                                                                      std::size_t offset,
                                                                                      std::size_t bytes,
                                                                                      std::uint32_t launch,
                                                                                      GlobalAccess me) {
  if (((offset | bytes) & 3) != 0) return false;
  for (std::size_t w = offset; w < offset + bytes; w += 4) {
    const std::uint64_t entry = __atomic_load_n(&settled[w / settled_entry_bytes], __ATOMIC_RELAXED);
    if ((entry >> 32) != launch) return false;
    if (((entry >> ((w / 4) % 32)) & 1) != 0) continue;
    const GlobalRaceCell& c = word_cells[w / 4];
    if (__atomic_load_n(&c.bytes_launch, __ATOMIC_RELAXED) == launch || !global_read_changes_nothing(c, me, launch)) {
      return false;
    }
  }
  return true;
}

// The running block's reads that change nothing, kept by the hooks on each host thread (a block runs on
// one): a direct-mapped table of words, each entry the word's index and the host thread's order epoch
// (barriers released, warp calls completed and blocks started) when it was made, so that an entry
// lapses at the block's next ordering event. Only for device memory of at most 2^32 words.
inline constexpr std::size_t block_read_slots = 8192;
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline std::size_t block_read_slot(std::uint64_t word) {
  return static_cast<std::size_t>((word * 0x9e3779b97f4a7c15ull) >> 51);  // spreads a column walk's words
}
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline std::uint64_t block_read_key(std::uint64_t word,
                                                                                          std::uint32_t order_epoch) {
  return word << 32 | order_epoch;
}

// Whether every read of the word by the running block (`block`, in barrier epoch `barrier_epoch`, its
// warps' epochs `warp_epochs`), until its next barrier or warp call, changes nothing in cell `c`
// (global_read_changes_nothing for all of them at once): nothing wrote it in `launch`, it is tracked
// whole, and its two readers are distinct threads of this block recorded in its present barrier
// interval and their warps' present epochs. Any such read is then unordered with both, or is one of
// them and would record the same access again; a read by another block still goes to the cell, and a
// write by anyone still races with the two readers.
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline bool block_reads_change_nothing(
    const GlobalRaceCell& c, std::uint32_t launch, std::uint64_t block, std::uint32_t barrier_epoch,
    const std::uint32_t* warp_epochs) {
  if (__atomic_load_n(&c.launch, __ATOMIC_RELAXED) != launch || __atomic_load_n(&c.bytes_launch, __ATOMIC_RELAXED) == launch ||
      __atomic_load_n(&c.writer, __ATOMIC_RELAXED) != 0) {
    return false;
  }
  // (No lambda here: the hooks' callees must be inlined, never instrumented functions of their own.)
  const GlobalAccess r0 = GlobalAccess::from_word(__atomic_load_n(&c.readers[0], __ATOMIC_RELAXED));
  const GlobalAccess r1 = GlobalAccess::from_word(__atomic_load_n(&c.readers[1], __ATOMIC_RELAXED));
  if (r0.empty() || r1.empty() || r0.thread() == r1.thread()) return false;
  const GlobalAccess now0(block, r0.thread(), barrier_epoch, warp_epochs[r0.thread() / 32]);
  const GlobalAccess now1(block, r1.thread(), barrier_epoch, warp_epochs[r1.thread() / 32]);
  return now0.word() == r0.word() && now1.word() == r1.word();
}

}  // namespace gpulab::sim::detail
