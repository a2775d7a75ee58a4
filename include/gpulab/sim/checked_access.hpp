#pragma once
// The checks' inline tests: what the instrumentation hooks (checked_hooks.hpp) decide for an access
// without calling the checker, from the running host thread's state (thread_state.hpp). Apart from
// the hooks so that tests can call the tests themselves.
#include <cstddef>
#include <cstdint>

#include <gpulab/sim/checks.hpp>
#include <gpulab/sim/engine_abi.hpp>
#include <gpulab/sim/global_race_cell.hpp>
#include <gpulab/sim/race_cell.hpp>
#include <gpulab/sim/settled_map.hpp>
#include <gpulab/sim/thread_state.hpp>

namespace gpulab::sim::detail {

// initcheck: whether four marks, loaded as one word, are all set (no zero byte among them).
__attribute__((always_inline, no_sanitize_address)) inline bool four_marks_set(std::uint32_t marks) {
  return ((marks - 0x01010101u) & ~marks & 0x80808080u) == 0;
}

// initcheck: a read whose bytes were all written, or a write, which marks them (relaxed stores of the
// access's own bytes, as the checker's; its launch has told DeviceMemory that bytes get marked).
__attribute__((always_inline, no_sanitize_address)) inline bool initcheck_passes(const HostThreadState& h,
                                                                                  std::size_t offset,
                                                                                  std::size_t bytes, bool write) {
  std::uint8_t* const at = h.device_initialized + offset;
  if (bytes == 4 && (offset & 3) == 0) {
    auto* word = reinterpret_cast<std::uint32_t*>(at);
    if (write) {
      __atomic_store_n(word, 0x01010101u, __ATOMIC_RELAXED);
      return true;
    }
    return four_marks_set(__atomic_load_n(word, __ATOMIC_RELAXED));
  }
  if (write) return false;
  for (std::size_t i = 0; i < bytes; ++i) {
    if (__atomic_load_n(at + i, __ATOMIC_RELAXED) == 0) return false;
  }
  return true;
}

// racecheck: after a read of the device word at `offset` that passed every check, when no read of the
// word by the running block changes anything until its next barrier or warp call, say so to the hooks
// (block_read_recorded): the block's other threads then skip the cell.
__attribute__((always_inline, no_sanitize_address)) inline void note_block_read(const HostThreadState& h,
                                                                                 std::size_t offset,
                                                                                 std::size_t bytes) {
  if (bytes == 4 && (offset & 3) == 0 && h.block_reads != nullptr && h.race_word_cells != nullptr &&
      block_reads_change_nothing(h.race_word_cells[offset / 4], h.race_launch, h.race_block, h.barrier_epoch,
                                 h.warp_epochs)) {
    h.block_reads[block_read_slot(offset / 4)] = block_read_key(offset / 4, h.order_epoch);
  }
}

// A device-memory access that memcheck's test passed and racecheck's inline test of settled words did
// not: the rest of the tests, out of line, so that the hooks' common path calls nothing but tail calls
// and saves no registers.
__attribute__((noinline, no_sanitize_address, visibility("hidden"))) inline void device_access_past_settled(const void* p, std::size_t bytes,
                                                                                       bool write) {
  const HostThreadState& h = host_thread;
  const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - h.device_base;
  // racecheck past the settled test: most reads before a word settles change nothing in its cell.
  if (!write && h.race_settled != nullptr &&
      words_read_unchanged(h.race_settled, h.race_word_cells, offset, bytes, h.race_launch,
                           GlobalAccess(h.race_block, h.current, h.barrier_epoch, h.warp_epochs[h.current / 32])) &&
      ((h.checks & initcheck) == 0 || (h.device_initialized != nullptr && initcheck_passes(h, offset, bytes, write)))) {
    note_block_read(h, offset, bytes);
    return;
  }
  check_access(p, bytes, write);
  // The checker recorded the read (a finding would not have returned): the block's second reader of a
  // word fills its cell, and the block's third need not look at it.
  if (!write) note_block_read(h, offset, bytes);
}

// racecheck: a read of a whole device word that, as the running block's reads of it have nothing to
// record until its next barrier or warp call, was noted in the block-read table (global_race_cell.hpp).
__attribute__((always_inline, no_sanitize_address)) inline bool block_read_recorded(const HostThreadState& h,
                                                                                     std::size_t offset,
                                                                                     std::size_t bytes) {
  return bytes == 4 && (offset & 3) == 0 && h.block_reads != nullptr &&
         h.block_reads[block_read_slot(offset / 4)] == block_read_key(offset / 4, h.order_epoch);
}

// racecheck: an access to whole words of the shared range the checker last saw (the caller found `a`
// in it), none of them tracked by bytes in this interval and none racing, is recorded here by the
// checker's own rules (race_cell.hpp). Anything else, a race included, goes to the checker (which, for
// the words already recorded here, records the same access again: no change).
__attribute__((always_inline, no_sanitize_address)) inline bool shared_access_recorded(const HostThreadState& h,
                                                                                        std::uintptr_t a,
                                                                                        std::size_t bytes, bool write) {
  if (((a | bytes) & 3) != 0 || bytes > 16 || bytes > h.shared_bytes - (a - h.shared_begin)) return false;
  const std::uint32_t epoch = h.barrier_epoch;
  auto* const cells = reinterpret_cast<RaceCell*>(h.shared_cells_bias + a * (sizeof(RaceCell) / 4));
  const unsigned me = h.current;
  for (std::size_t w = 0; w < bytes / 4; ++w) {
    RaceCell& c = cells[w];
    if (!write && c.epoch == epoch) {
      // Most reads: the cell's read state alone decides (a word tracked by bytes has none).
      const std::uint32_t state = c.read_state;
      if (state == race_multi_warp_reads) continue;
      if (state == race_read_key(me / 32, h.warp_epochs[me / 32])) {
        c.reader_lanes |= 1u << (me % 32);
        continue;
      }
    }
    if (h.shared_byte_mode[(a - h.shared_words_begin) / 4 + w] == epoch) [[unlikely]] return false;
    const RaceAccessor who{me, me / 32, h.warp_epochs[me / 32], 1u << (me % 32)};
    race_cell_enter(c, epoch);
    if (race_unordered(c.writer, c.writer_wepoch, who)) return false;
    if (write) {
      if (race_racing_reader(c, who) >= 0) return false;
      race_cell_write(c, who);
    } else {
      race_cell_read(c, who);
    }
  }
  return true;
}

// The common cases, decided here in a few instructions with no call into the checker: for memcheck
// those of memcheck_passes (thread_state.hpp); for initcheck those of initcheck_passes; for racecheck a
// whole-word read of device memory that is settled in this launch (settled_map.hpp), which passes the
// other checks too, or that the running block's reads have nothing to record for (block_read_recorded),
// or that records nothing in its cell (device_access_past_settled), or a whole-word access to shared
// memory (shared_access_recorded). Anything else (an access that straddles 8-byte granules,
// a write of device memory under racecheck, a fault) goes to check_access, which decides and reports.
__attribute__((always_inline, no_sanitize_address)) inline void checked_access(const void* p, std::size_t bytes,
                                                                                 bool write) {
  const HostThreadState& h = host_thread;
  const unsigned checks = h.checks;
  if (checks == 0) return;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const std::size_t offset = a - h.device_base;
  if (offset < h.device_bytes) {
    // Device memory. A read of words settled in this launch passes every check at once: a word settles
    // only in an access the checker passed through memcheck and initcheck first (check_access), and
    // neither can fail later in the launch (marks are never taken back; a freed buffer's words are
    // unsettled). That is most reads under racecheck, decided with one load.
    bool race_recorded = false;  // racecheck has nothing to record for this access
    if ((checks & racecheck) != 0 && !write && h.race_settled != nullptr) {
      if (words_settled(h.race_settled, offset, bytes, h.race_launch)) return;
      race_recorded = block_read_recorded(h, offset, bytes);
    }
    // Otherwise every check's test must pass. The shadow's first when memcheck or initcheck is on
    // (initcheck marks only bytes of live buffers); racecheck alone does not need it.
    if ((checks & (memcheck | initcheck)) != 0 && !device_bytes_live(h, offset, bytes)) {
      check_access(p, bytes, write);
      return;
    }
    if ((checks & racecheck) != 0 && !race_recorded) {
      device_access_past_settled(p, bytes, write);
      return;
    }
    if ((checks & initcheck) == 0 || (h.device_initialized != nullptr && initcheck_passes(h, offset, bytes, write))) {
      return;
    }
  } else if ((checks & racecheck) != 0 && a - h.shared_begin < h.shared_bytes) {
    // The shared range racecheck last saw, all of it valid memory for memcheck too (for dynamic shared
    // memory, the launch's bytes of it): racecheck's test decides.
    if (shared_access_recorded(h, a, bytes, write)) return;
  } else if (((checks & memcheck) == 0 || memcheck_passes(h, a, bytes)) &&
             ((checks & racecheck) == 0 || (a - h.race_dynamic_begin >= h.race_dynamic_bytes &&
                                            a - h.race_tls_begin >= h.race_tls_bytes))) {
    // initcheck looks at device memory only; racecheck has nothing to do outside shared memory (stacks,
    // kernel arguments), and the checker decides shared memory outside the last range.
    return;
  }
  check_access(p, bytes, write);
}

}  // namespace gpulab::sim::detail
