#pragma once
// The profiler's state beside the engine's: per host thread, the warps' site tables in which requests
// are assembled (ProfileShadow); per launch, its L2 model and the counts its blocks hand in
// (ProfileLaunch), passed to the per-kernel totals (profile_registry.hpp) when the launch ends.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <gpulab/sim/detail/host_thread.hpp>
#include <gpulab/sim/detail/profiler/profiler.hpp>

#include "sim/engine/address_ranges.hpp"
#include "sim/profiler/l2_model.hpp"
#include "sim/profiler/site_counts.hpp"

namespace gpulab::sim::detail {

struct ProfileLaunch {
  std::string kernel;
  const void* function = nullptr;
  std::mutex mutex;  // the rest, for the blocks that end on several host threads
  std::unique_ptr<L2Model> l2;
  SiteTable sites;
  LaunchCounts counts;

  // Passes the counts to the kernel's totals once every block has run (or was skipped after a fault),
  // and gives the L2 model back for the next launch: once, at the launch's end.
  void hand_in();
};

class ProfileShadow {
 public:
  explicit ProfileShadow(Profiler::ThreadState& hooks);
  ProfileShadow(const ProfileShadow&) = delete;
  ProfileShadow& operator=(const ProfileShadow&) = delete;

  void start_block(const BlockRun& run);
  // An access the inline path did not record (profiler.hpp).
  void record_slow(const EngineThreadState& e, std::uint64_t id, std::uintptr_t address);
  // Counts every request still held, and hands the block's counts to its launch.
  void end_block(const BlockRun& run);

 private:
  struct WarpTable {
    std::unique_ptr<ProfileSite[]> slots;
    std::unique_ptr<std::unique_ptr<std::uintptr_t[]>[]> storage;  // each slot's addresses
    std::vector<unsigned> used;  // the slots taken since the block started
  };
  // Counts the requests a site holds and empties it.
  void flush(ProfileSite& site);
  // The warps other than `running` whose lanes have all finished their epoch (exited, or at a barrier)
  // are counted now, so that a block's tables stay small enough for the caches.
  void flush_finished_warps(const BlockRun& run, unsigned running);
  // One request: the lanes of `mask`, lane l's address at address[l].
  void count_request(std::uint64_t id, std::uint32_t mask, const std::uintptr_t* address);
  ProfileSpace space_of(std::uintptr_t a) const noexcept;
  void grow(WarpTable& table, unsigned slot, std::uint32_t needed);

  Profiler::ThreadState& hooks_;
  std::vector<WarpTable> warps_;
  std::vector<bool> pending_;  // per warp: requests not yet counted
  unsigned last_warp_ = ~0u;   // the warp of the last access that came out of line
  std::vector<ProfileSite*> warp_sites_;
  // Where static __shared__ arrays are (the TLS blocks), less the engine's own TLS variables that kernels
  // read (threadIdx, ...); device memory and the block's dynamic shared memory are the host thread's.
  std::vector<AddressRange> tls_;
  std::vector<AddressRange> engine_tls_;

  // The running block's counts: its sites (the last one looked up cached), the sectors it sent to L2
  // (sector << 2 | read | write << 1), and its other counts.
  SiteTable sites_;
  std::uint64_t last_key_ = ~std::uint64_t{0};
  SiteCounts* last_counts_ = nullptr;
  std::vector<std::uint64_t> l2_accesses_;
  std::uint64_t dropped_ = 0;
  std::uint32_t barrier_epoch_at_start_ = 0;
};

// The spare L2 models, shared by every launch (each launch takes one and gives it back).
std::unique_ptr<L2Model> take_l2_model();
void give_back_l2_model(std::unique_ptr<L2Model> model);

}  // namespace gpulab::sim::detail
