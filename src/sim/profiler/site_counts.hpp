#pragma once
// What the profiler adds up per access site (an id of instrumentation/profiler.hpp and the memory space
// its requests went to), per launch, per kernel.
#include <cstdint>
#include <unordered_map>

namespace gpulab::sim::detail {

enum class ProfileSpace : std::uint8_t { global = 0, shared = 1, local = 2 };

// A site's key in the counts: its id (whose bits 2-3 are free) with the space.
inline std::uint64_t site_key(std::uint64_t id, ProfileSpace space) {
  return id | (static_cast<std::uint64_t>(space) << 2);
}
inline ProfileSpace key_space(std::uint64_t key) { return static_cast<ProfileSpace>((key >> 2) & 3); }
inline unsigned key_kind(std::uint64_t key) { return static_cast<unsigned>(key & 3); }  // ProfileKind
inline unsigned key_bytes(std::uint64_t key) { return static_cast<unsigned>((key >> 4) & 4095); }
inline std::uintptr_t key_pc(std::uint64_t key) { return static_cast<std::uintptr_t>(key >> 16); }

struct SiteCounts {
  std::uint64_t requests = 0;    // warp-level instructions
  std::uint64_t lanes = 0;       // thread-level accesses: the active lanes, summed
  std::uint64_t bytes = 0;       // bytes the lanes asked for
  std::uint64_t sectors = 0;     // global: distinct 32-byte sectors
  std::uint64_t wavefronts = 0;  // shared
  std::uint64_t ideal_wavefronts = 0;
  std::uint64_t same_address = 0;  // atomics: lanes beyond the first on each address

  void add(const SiteCounts& o) {
    requests += o.requests;
    lanes += o.lanes;
    bytes += o.bytes;
    sectors += o.sectors;
    wavefronts += o.wavefronts;
    ideal_wavefronts += o.ideal_wavefronts;
    same_address += o.same_address;
  }
};

using SiteTable = std::unordered_map<std::uint64_t, SiteCounts>;

inline void add_sites(SiteTable& into, const SiteTable& from) {
  for (const auto& [key, counts] : from) into[key].add(counts);
}

// What a launch adds up beside its sites.
struct LaunchCounts {
  std::uint64_t barriers = 0;        // warp-level barrier instructions
  std::uint64_t warp_calls = 0;      // completed warp-synchronous calls, per warp
  std::uint64_t dropped = 0;         // accesses not counted: a warp had more sites in one epoch than its table
  std::uint64_t dram_read = 0;       // bytes
  std::uint64_t dram_write = 0;

  void add(const LaunchCounts& o) {
    barriers += o.barriers;
    warp_calls += o.warp_calls;
    dropped += o.dropped;
    dram_read += o.dram_read;
    dram_write += o.dram_write;
  }
};

}  // namespace gpulab::sim::detail
