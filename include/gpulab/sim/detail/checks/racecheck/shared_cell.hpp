#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// racecheck's cell for a shared-memory location (a 4-byte word, or a byte of a word accessed in parts;
// src/sim/checks/racecheck/shared_shadow.hpp) and the rules that update it, shared by the checker and
// the inline test of racecheck.hpp.
//
// A cell remembers, for the current barrier interval (block epoch), the last writer and the readers.
// Two accesses by different threads of a block race when one is a write and no barrier came between;
// lanes of one warp are also ordered by a warp-synchronous call between them (the warp's epoch).
#include <cstdint>

namespace gpulab::sim::detail {

struct alignas(32) RaceCell {
  std::uint32_t epoch = 0;  // block epoch the rest belongs to; 0 never matches
  std::int16_t writer = -1;
  std::int16_t reader = -1;        // a reader (the last one of reader_warp's reader_wepoch)
  std::int16_t other_reader = -1;  // a reader of another warp, when readers span warps
  std::int8_t reader_warp = -1;
  std::uint8_t multi_warp = 0;
  std::uint32_t writer_wepoch = 0;
  std::uint32_t reader_wepoch = 0;
  std::uint32_t reader_lanes = 0;  // lanes of reader_warp that read in reader_wepoch
  // Which reads the hooks record without the rules, kept by the rules below: none (0); all, when nothing
  // wrote the cell in its interval and its readers span warps, so that every later write races with
  // one of them and a read records nothing (race_multi_warp_reads); or, when nothing wrote the cell and
  // its readers are one warp's in one warp epoch, that warp's reads in that epoch, which add their lane
  // (race_read_key).
  std::uint32_t read_state = 0;
};
static_assert(sizeof(RaceCell) == 32, "the hooks find a word's cell by shifting its address");

inline constexpr std::uint32_t race_multi_warp_reads = 2;

// The accessing thread, as the rules see it.
struct RaceAccessor {
  unsigned thread;      // index in the block
  unsigned warp;        // thread / 32
  std::uint32_t wepoch;  // its warp's completed warp-synchronous calls
  std::uint32_t lane_bit;
};

// RaceCell::read_state for reads by warp `warp` in warp epoch `wepoch`: odd (so never 0 nor
// race_multi_warp_reads), with the warp epoch modulo 2^26, as GlobalAccess takes epochs modulo a power
// of two.
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline std::uint32_t race_read_key(unsigned warp,
                                                                                        std::uint32_t wepoch) {
  return wepoch << 6 | warp << 1 | 1u;
}

// Starts the cell afresh in interval `epoch` if it belongs to an older one. Field by field: a whole
// RaceCell built on the stack and copied stalls on store forwarding.
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline void race_cell_enter(RaceCell& c, std::uint32_t epoch) {
  if (c.epoch == epoch) return;
  c.epoch = epoch;
  c.writer = c.reader = c.other_reader = -1;
  c.reader_warp = -1;
  c.multi_warp = 0;
  c.writer_wepoch = c.reader_wepoch = c.reader_lanes = 0;
  c.read_state = 0;
}

// Whether an earlier access by `other` (-1: none) in warp epoch `other_wepoch` is unordered with `me`.
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline bool race_unordered(int other, std::uint32_t other_wepoch,
                                                                                const RaceAccessor& me) {
  return other >= 0 && other != static_cast<int>(me.thread) &&
         (static_cast<unsigned>(other) / 32 != me.warp || other_wepoch == me.wepoch);
}

// Records a read (the writer has been checked): the readers a later write must be checked against.
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline void race_cell_read(RaceCell& c, const RaceAccessor& me) {
  const auto tid = static_cast<std::int16_t>(me.thread);
  if (c.reader < 0) {
    c.reader = tid;
    c.reader_warp = static_cast<std::int8_t>(me.warp);
    c.reader_wepoch = me.wepoch;
    c.reader_lanes = me.lane_bit;
  } else if (static_cast<unsigned>(c.reader_warp) != me.warp) {
    if (!c.multi_warp) {
      c.multi_warp = 1;
      c.other_reader = tid;
    }
  } else if (c.reader_wepoch != me.wepoch) {
    c.reader = tid;
    c.reader_wepoch = me.wepoch;
    c.reader_lanes = me.lane_bit;
  } else {
    c.reader_lanes |= me.lane_bit;
  }
  // Once readers span warps, every later write races with one of them (race_racing_reader): reads have
  // nothing more to record. Before that, a read of the same warp and warp epoch only adds its lane.
  if (c.writer < 0) c.read_state = c.multi_warp ? race_multi_warp_reads : race_read_key(me.warp, me.wepoch);
}

// The reader that a write by `me` races with (the writer has been checked), or -1.
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline int race_racing_reader(const RaceCell& c,
                                                                                   const RaceAccessor& me) {
  if (c.reader < 0) return -1;
  if (c.multi_warp) return static_cast<unsigned>(c.reader) / 32 != me.warp ? c.reader : c.other_reader;
  if (static_cast<unsigned>(c.reader_warp) != me.warp) return c.reader;
  if (c.reader_wepoch == me.wepoch && (c.reader_lanes & ~me.lane_bit) != 0) {
    return static_cast<int>(me.warp * 32 + static_cast<unsigned>(__builtin_ctz(c.reader_lanes & ~me.lane_bit)));
  }
  return -1;
}

// Records a write that raced with nothing.
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline void race_cell_write(RaceCell& c, const RaceAccessor& me) {
  c.writer = static_cast<std::int16_t>(me.thread);
  c.writer_wepoch = me.wepoch;
  c.read_state = 0;  // reads must be checked against the writer from now on
}

}  // namespace gpulab::sim::detail
