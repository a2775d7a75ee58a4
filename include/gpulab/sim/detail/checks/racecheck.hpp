#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// racecheck: two accesses to one byte by different threads, at least one a write, that nothing orders.
// In shared memory, threads of a block are ordered by a barrier between them (lanes of a warp also by a
// warp-synchronous call); in device memory the same holds within a launch, and any two threads are
// also ordered by a release and an acquire through fences and atomics, at scopes that hold both. The cells and their rules are in racecheck/ (shared_cell.hpp, global_cell.hpp,
// settled_map.hpp); the shadows that hold them, the out-of-line check and the reports in
// src/sim/checks/racecheck/.
#include <cstddef>
#include <cstdint>

#include <gpulab/sim/checks.hpp>
#include <gpulab/sim/detail/checks/racecheck/global_cell.hpp>
#include <gpulab/sim/detail/checks/racecheck/settled_map.hpp>
#include <gpulab/sim/detail/checks/racecheck/shared_cell.hpp>
#include <gpulab/sim/detail/instrumentation/client.hpp>

namespace gpulab::sim::detail {

class RaceShadow;        // src/sim/checks/racecheck/shared_shadow.hpp
class GlobalRaceShadow;  // src/sim/checks/racecheck/global_shadow.hpp

struct Racecheck : ClientDefaults<Racecheck> {
  static constexpr std::string_view name = "racecheck";
  static constexpr unsigned flag = gpulab::sim::racecheck;
  static constexpr bool needs_instrumentation = true;
  static constexpr bool observes_accesses = true;

  struct ThreadState {
    // Device memory: which words reads have nothing to record for, in which launch (settled_map.hpp),
    // and the words' cells (global_cell.hpp); never null while racecheck is on.
    const std::uint64_t* settled = nullptr;
    const GlobalRaceCell* word_cells = nullptr;
    std::uint32_t launch = 0;
    // ... the device words whose reads by the running block change nothing in their cells until its
    // next barrier or warp call, null when not kept (block_read_slot).
    std::uint64_t* block_reads = nullptr;
    // Shared memory: the range the checker last saw (its word cells, and per word the interval in which
    // it is tracked by bytes), all of it valid memory (of dynamic shared memory, the launch's bytes).
    std::uintptr_t shared_begin = 0;
    std::size_t shared_bytes = 0;
    std::uintptr_t shared_words_begin = 0;
    std::uintptr_t shared_cells_bias = 0;  // the cell of the word at a (4-byte aligned): bias + 8 * a
    const std::uint32_t* shared_byte_mode = nullptr;
    // Where shared memory can be at all: the dynamic shared memory, and the span of the TLS blocks that
    // hold static __shared__ arrays. Nothing to do elsewhere (stacks, arguments).
    std::uintptr_t dynamic_begin = 0;
    std::size_t dynamic_bytes = 0;
    std::uintptr_t tls_begin = 0;
    std::size_t tls_bytes = 0;
    // This host thread's engine-side state: the shared-memory cells, and the storage of block_reads.
    RaceShadow* shared_shadow = nullptr;
  };
  struct LaunchState {
    std::uint32_t race_launch = 0;  // this launch's number for the device-memory cells
  };
  struct DeviceState {
    GlobalRaceShadow* global_races = nullptr;  // made by the first launch with racecheck
  };

  // A read of whole device words settled in this launch passes every check registered up to racecheck:
  // a word settles only in an access the checker passed through them first (they run before it), and
  // neither memcheck's nor initcheck's verdict can change later in the launch (marks are never taken
  // back; a freed buffer's words are unsettled). That is most reads under racecheck, with one load.
  GPULAB_SIM_HOOK_INLINE static Vouch device_access_vouches(const EngineThreadState&, const ThreadState& s,
                                                            const Access& a, std::size_t offset) {
    return !a.write && words_settled(s.settled, offset, a.bytes, s.launch) ? Vouch::passes : Vouch::none;
  }
  // A read of device words that the running block's reads have nothing to record for (noted in the
  // block-read table); writes always go to the checker.
  GPULAB_SIM_HOOK_INLINE static bool device_access_passes(const EngineThreadState& e, const ThreadState& s,
                                                          const Access& a, std::size_t offset) {
    return !a.write && block_read_recorded(e, s, offset, a.bytes);
  }
  // ... or that records nothing in its cells: most reads before a word settles (words_read_unchanged).
  static constexpr bool has_second_device_test = true;
  GPULAB_SIM_HOOK_INLINE static bool device_access_passes_second(const EngineThreadState& e, const ThreadState& s,
                                                                 const Access& a, std::size_t offset) {
    if (a.write) return false;
    const GlobalAccess me(e.block_linear, e.current, e.barrier_epoch, e.warp_epochs[e.current / 32]);
    if (!words_read_unchanged(s.settled, s.word_cells, offset, a.bytes, s.launch, me)) return false;
    note_block_read(e, s, offset, a.bytes);
    return true;
  }
  // Shared memory in the range last seen: recorded by the cells' rules, it passes (all of that range
  // is valid memory, so memcheck, registered before, passes it too); else the checker decides.
  GPULAB_SIM_HOOK_INLINE static Vouch host_access_vouches(const EngineThreadState& e, const ThreadState& s,
                                                          const Access& a) {
    if (a.address - s.shared_begin >= s.shared_bytes) return Vouch::none;
    return shared_access_recorded(e, s, a) ? Vouch::passes : Vouch::ask_checker;
  }
  // Shared memory elsewhere goes to the checker; anything else is not racecheck's.
  GPULAB_SIM_HOOK_INLINE static bool host_access_passes(const EngineThreadState&, const ThreadState& s,
                                                        const Access& a) {
    return a.address - s.dynamic_begin >= s.dynamic_bytes && a.address - s.tls_begin >= s.tls_bytes;
  }

  // After a read of the device word at `offset` that passed every check, when no read of the word by
  // the running block changes anything until its next barrier or warp call, say so in the block-read
  // table: the block's other threads then skip the cell.
  GPULAB_SIM_HOOK_INLINE static void note_block_read(const EngineThreadState& e, const ThreadState& s,
                                                     std::size_t offset, std::size_t bytes) {
    if (bytes == 4 && (offset & 3) == 0 && s.block_reads != nullptr && s.word_cells != nullptr &&
        block_reads_change_nothing(s.word_cells[offset / 4], s.launch, e.block_linear, e.barrier_epoch,
                                   e.warp_epochs)) {
      s.block_reads[block_read_slot(offset / 4)] = block_read_key(offset / 4, e.order_epoch);
    }
  }

  static void check_access(BlockRun& run, const Access& a);
  // Atomics and fences: recorded in the device-memory cells with their scope, and what they release and
  // acquire (src/sim/checks/racecheck/happens_before.hpp).
  static void check_atomic(BlockRun& run, const AtomicAccess& a);
  static void check_fence(BlockRun& run, AtomicScope scope);
  static void on_launch_queued(SimDevice& device, LaunchJob& job);
  static void on_block_start(BlockRun& run);
  // A grid barrier orders everything before it before everything after it, across blocks: the launch
  // goes on under a new number for the device-memory cells, as a new launch would.
  static void on_grid_sync(LaunchJob& job);
  static void on_grid_sync_resumed(BlockRun& run);
  static void on_free(SimDevice& device, const Buffer& buffer);
  static void on_device_destroyed(SimDevice& device);
  static void on_host_thread_end(BlockRun& run);

  // The parts of the inline tests (public for the tests of the tests).
  // A read of a whole device word that was noted in the block-read table in this order epoch.
  GPULAB_SIM_HOOK_INLINE static bool block_read_recorded(const EngineThreadState& e, const ThreadState& s,
                                                         std::size_t offset, std::size_t bytes) {
    return bytes == 4 && (offset & 3) == 0 && s.block_reads != nullptr &&
           s.block_reads[block_read_slot(offset / 4)] == block_read_key(offset / 4, e.order_epoch);
  }

  // An access to whole words of the shared range last seen (the caller found it there), none of them
  // tracked by bytes in this interval and none racing, is recorded here by the checker's own rules
  // (shared_cell.hpp). Anything else, a race included, goes to the checker (which, for the words already
  // recorded here, records the same access again: no change).
  GPULAB_SIM_HOOK_INLINE static bool shared_access_recorded(const EngineThreadState& e, const ThreadState& s,
                                                            const Access& a) {
    if (((a.address | a.bytes) & 3) != 0 || a.bytes > 16 || a.bytes > s.shared_bytes - (a.address - s.shared_begin)) {
      return false;
    }
    const std::uint32_t epoch = e.barrier_epoch;
    auto* const cells = reinterpret_cast<RaceCell*>(s.shared_cells_bias + a.address * (sizeof(RaceCell) / 4));
    const unsigned me = e.current;
    for (std::size_t w = 0; w < a.bytes / 4; ++w) {
      RaceCell& c = cells[w];
      if (!a.write && c.epoch == epoch) {
        // Most reads: the cell's read state alone decides (a word tracked by bytes has none).
        const std::uint32_t state = c.read_state;
        if (state == race_multi_warp_reads) continue;
        if (state == race_read_key(me / 32, e.warp_epochs[me / 32])) {
          c.reader_lanes |= 1u << (me % 32);
          continue;
        }
      }
      if (s.shared_byte_mode[(a.address - s.shared_words_begin) / 4 + w] == epoch) [[unlikely]] return false;
      const RaceAccessor who{me, me / 32, e.warp_epochs[me / 32], 1u << (me % 32)};
      race_cell_enter(c, epoch);
      if (race_unordered(c.writer, c.writer_wepoch, who)) return false;
      if (a.write) {
        if (race_racing_reader(c, who) >= 0) return false;
        race_cell_write(c, who);
      } else {
        race_cell_read(c, who);
      }
    }
    return true;
  }
};

}  // namespace gpulab::sim::detail
