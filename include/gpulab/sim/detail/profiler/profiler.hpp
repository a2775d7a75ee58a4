#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// The profiler (GPULAB_SIM_PROFILE, gpulab/sim/profile.hpp): an instrumentation client that counts what
// a GPU's hardware counters count, for kernels compiled with instrumentation. It is not a check: it
// finds nothing, it is on beside any set of checks, and it sees every access before them (the hooks call
// it first; instrumentation/dispatch.hpp).
//
// A GPU counts per warp-level instruction ("request"); the simulator runs the lanes of a warp one after
// another. So the profiler groups accesses as the issue defines them: the n-th execution of one access
// site (the call instruction of the hook, with its width and kind) by the lanes of a warp since their
// last barrier or warp-synchronous call is one request. Each warp keeps, per site, each lane's count
// and the requests' addresses; when the warp's epoch (the block's barrier epoch and the warp's count of
// warp calls) moves on, the site's requests are complete and are counted (sectors, wavefronts, ...;
// src/sim/profiler/). That keeps the per-access work to a table lookup and two stores, inlined into the
// hooks.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include <gpulab/sim/detail/engine_state.hpp>
#include <gpulab/sim/detail/instrumentation/client.hpp>

namespace gpulab::sim::detail {

class ProfileShadow;   // src/sim/profiler/profile_shadow.hpp
struct ProfileLaunch;  // src/sim/profiler/profile_shadow.hpp

// What an access is, for the profiler.
enum class ProfileKind : std::uint8_t { load = 0, store = 1, atomic = 2 };

// One access site of one warp, and the requests its lanes made in the warp's current epoch: lane l's
// k-th address at addresses[l * capacity + k], so that each lane writes its own addresses one after
// another (a simulated thread runs many accesses before the next lane runs). Request k is made of the
// lanes whose count is above k.
struct ProfileSite {
  std::uint64_t id = 0;     // profile_site_id(); 0 for an empty slot
  std::uint64_t epoch = 0;  // the warp's epoch of the requests held (profile_epoch)
  std::uintptr_t* addresses = nullptr;
  std::uint32_t capacity = 0;  // requests each lane has room for
  std::uint32_t count[32] = {};
};

// Slots of a warp's site table, a power of two: more sites than this in one epoch of one warp are
// counted as dropped (and said so in the report).
inline constexpr unsigned profile_site_slots = 512;

// An access site: the hook's return address, the access's width (to 4095 bytes) and kind.
GPULAB_SIM_HOOK_INLINE std::uint64_t profile_site_id(const void* pc, std::size_t bytes, ProfileKind kind) {
  const std::uint64_t width = bytes < 4095 ? bytes : 4095;
  return (reinterpret_cast<std::uint64_t>(pc) << 16) | (width << 4) | static_cast<std::uint64_t>(kind);
}
GPULAB_SIM_HOOK_INLINE unsigned profile_home_slot(std::uint64_t id) {
  return static_cast<unsigned>((id * 0x9E3779B97F4A7C15ull) >> 55) & (profile_site_slots - 1);
}
GPULAB_SIM_HOOK_INLINE std::uint64_t profile_epoch(const EngineThreadState& e, unsigned warp) {
  return (std::uint64_t{e.barrier_epoch} << 32) | e.warp_epochs[warp];
}

// Everything else, out of line (src/sim/profiler/profiler.cpp): a site not in its home slot, a new
// epoch, a full request array.
void profile_access_slow(std::uint64_t id, std::uintptr_t address);

struct Profiler : ClientDefaults<Profiler> {
  static constexpr std::string_view name = "profile";
  static constexpr unsigned flag = 1u << 8;  // beside the checks' flags (gpulab/sim/checks.hpp)
  static constexpr bool is_check = false;
  static constexpr bool needs_instrumentation = true;
  // Not through the checks' per-access path: record() is called before it.
  static constexpr bool observes_accesses = false;

  struct ThreadState {
    ProfileSite* const* warp_sites = nullptr;  // per warp of the running block, its site table
    ProfileShadow* profile = nullptr;
  };

  // One access by the running simulated thread: its lane's next request at the site.
  GPULAB_SIM_HOOK_INLINE static void record(const EngineThreadState& e, const ThreadState& s, std::uint64_t id,
                                            std::uintptr_t address) {
    ProfileSite* const* const tables = s.warp_sites;
    if (tables == nullptr) return;  // counting nothing (profile_hooks_only)
    const unsigned me = e.current;
    const unsigned warp = me / 32, lane = me % 32;
    ProfileSite& site = tables[warp][profile_home_slot(id)];
    if (site.id == id && site.epoch == profile_epoch(e, warp)) [[likely]] {
      const std::uint32_t k = site.count[lane];
      if (k < site.capacity) [[likely]] {
        site.count[lane] = k + 1;
        site.addresses[lane * site.capacity + k] = address;
        return;
      }
    }
    profile_access_slow(id, address);
  }

  // A launch queued while profiling without the instrumented compilation: only its shape is counted.
  static void on_launch_queued(SimDevice& device, LaunchJob& job);
  static void on_launch_start(SimDevice& device, LaunchJob& job);
  static void on_launch_end(SimDevice& device, LaunchJob& job);
  static void on_block_start(BlockRun& run);
  static void on_block_end(BlockRun& run);
  static void on_host_thread_end(BlockRun& run);

  // The launch's L2 model and counts (src/sim/profiler/profile_shadow.hpp).
  // Null when the launch counts nothing (profile_hooks_only).
  struct LaunchState {
    std::shared_ptr<ProfileLaunch> profile_launch;
  };
};

}  // namespace gpulab::sim::detail
