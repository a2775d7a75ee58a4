// The profiler's client (instrumentation/profiler.hpp): its engine events, the out-of-line half of
// recording an access, and the counting of each request when its warp's epoch moves on.
#include <gpulab/sim/detail/profiler/profiler.hpp>

#include <algorithm>
#include <cstring>

#include <gpulab/sim/detail/engine_abi.hpp>
#include <gpulab/sim/profile.hpp>

#include "sim/engine/block_run.hpp"
#include "sim/engine/device_limits.hpp"
#include "sim/profiler/profile_registry.hpp"
#include "sim/profiler/profile_shadow.hpp"
#include "sim/profiler/request_shapes.hpp"

namespace gpulab::sim::detail {

namespace {

struct L2Pool {
  std::mutex mutex;
  std::vector<std::unique_ptr<L2Model>> spare;
};
L2Pool& l2_pool() {
  static L2Pool pool;
  return pool;
}

AddressRange range_of(const void* p, std::size_t bytes) { return {reinterpret_cast<std::uintptr_t>(p), bytes}; }

}  // namespace

std::unique_ptr<L2Model> take_l2_model() {
  {
    L2Pool& pool = l2_pool();
    std::lock_guard lock(pool.mutex);
    if (!pool.spare.empty()) {
      auto model = std::move(pool.spare.back());
      pool.spare.pop_back();
      model->start_over();
      return model;
    }
  }
  return std::make_unique<L2Model>(device_limits::l2_cache_bytes);
}

void give_back_l2_model(std::unique_ptr<L2Model> model) {
  if (model == nullptr) return;
  L2Pool& pool = l2_pool();
  std::lock_guard lock(pool.mutex);
  pool.spare.push_back(std::move(model));
}

// ---- the launch ----

void ProfileLaunch::hand_in() {
  std::lock_guard lock(mutex);
  if (l2 != nullptr) {
    // What is still dirty is written back by the kernel's end.
    counts.dram_read = l2->dram_read_bytes();
    counts.dram_write = l2->dram_write_bytes() + l2->dirty_sectors() * sector_bytes;
    give_back_l2_model(std::move(l2));
  }
  profile_launch_counts(kernel, function, sites, counts);
}

// ---- a host thread's tables ----

ProfileShadow::ProfileShadow(Profiler::ThreadState& hooks) : hooks_(hooks) {
  tls_ = thread_tls_ranges();
  engine_tls_ = {range_of(&threadIdx, sizeof threadIdx), range_of(&blockIdx, sizeof blockIdx),
                 range_of(&blockDim, sizeof blockDim), range_of(&gridDim, sizeof gridDim),
                 range_of(&host_thread, sizeof host_thread)};
}

void ProfileShadow::start_block(const BlockRun& run) {
  const unsigned warp_count = (run.thread_count + 31) / 32;
  while (warps_.size() < warp_count) {
    WarpTable t;
    t.slots = std::make_unique<ProfileSite[]>(profile_site_slots);
    t.storage = std::make_unique<std::unique_ptr<std::uintptr_t[]>[]>(profile_site_slots);
    warps_.push_back(std::move(t));
  }
  pending_.assign(warps_.size(), false);
  last_warp_ = ~0u;
  warp_sites_.resize(warps_.size());
  for (std::size_t w = 0; w < warps_.size(); ++w) warp_sites_[w] = warps_[w].slots.get();
  hooks_.warp_sites = warp_sites_.data();
  const EngineThreadState& e = host_thread;
  barrier_epoch_at_start_ = e.barrier_epoch;
  sites_.clear();
  last_key_ = ~std::uint64_t{0};
  last_counts_ = nullptr;
  l2_accesses_.clear();
  dropped_ = 0;
}

ProfileSpace ProfileShadow::space_of(std::uintptr_t a) const noexcept {
  const EngineThreadState& e = host_thread;
  if (a - e.device_base < e.device_bytes) return ProfileSpace::global;
  if (a - reinterpret_cast<std::uintptr_t>(e.dynamic_shared) < e.block->job->shared_bytes) return ProfileSpace::shared;
  const void* p = reinterpret_cast<const void*>(a);
  for (const AddressRange& r : tls_) {
    if (!r.contains(p)) continue;
    for (const AddressRange& engine : engine_tls_) {
      if (engine.contains(p)) return ProfileSpace::local;
    }
    return ProfileSpace::shared;
  }
  return ProfileSpace::local;  // the thread's stack, or host memory memcheck would report
}

void ProfileShadow::grow(WarpTable& table, unsigned slot, std::uint32_t needed) {
  ProfileSite& site = table.slots[slot];
  std::uint32_t capacity = std::max<std::uint32_t>(site.capacity * 2, 16);
  while (capacity < needed) capacity *= 2;
  auto bigger = std::make_unique<std::uintptr_t[]>(std::size_t{capacity} * 32);
  for (unsigned lane = 0; lane < 32; ++lane) {
    std::copy_n(site.addresses + std::size_t{lane} * site.capacity, site.count[lane],
                bigger.get() + std::size_t{lane} * capacity);
  }
  table.storage[slot] = std::move(bigger);
  site.addresses = table.storage[slot].get();
  site.capacity = capacity;
}

void ProfileShadow::record_slow(const EngineThreadState& e, std::uint64_t id, std::uintptr_t address) {
  const unsigned me = e.current;
  const unsigned warp = me / 32, lane = me % 32;
  if (warp >= warps_.size()) return;
  // A warp's first access to each site in an epoch comes here: where the running warp changed, the
  // warps that are done are counted.
  if (warp != last_warp_ && e.block != nullptr) flush_finished_warps(*e.block, warp);
  last_warp_ = warp;
  pending_[warp] = true;
  WarpTable& table = warps_[warp];
  const std::uint64_t epoch = profile_epoch(e, warp);
  // Linear probing from the site's home slot. A slot of an older epoch holds complete requests (every
  // lane of the warp has passed the barrier or warp call since), so it may be counted and reused; only
  // an empty slot ends a probe (slots empty all at once, at the block's end).
  const unsigned home = profile_home_slot(id);
  int found = -1, reusable = -1;
  for (unsigned i = 0; i < profile_site_slots; ++i) {
    const unsigned s = (home + i) & (profile_site_slots - 1);
    const ProfileSite& site = table.slots[s];
    if (site.id == id) {
      found = static_cast<int>(s);
      break;
    }
    if (site.id == 0) {
      if (reusable < 0) reusable = static_cast<int>(s);
      break;
    }
    if (site.epoch != epoch && reusable < 0) reusable = static_cast<int>(s);
  }
  if (found < 0 && reusable < 0) {
    ++dropped_;
    return;
  }
  const unsigned s = static_cast<unsigned>(found >= 0 ? found : reusable);
  ProfileSite& site = table.slots[s];
  if (site.id != 0 && site.epoch != epoch) flush(site);
  if (site.id == 0) table.used.push_back(s);
  if (site.id != id || site.epoch != epoch) {
    site.id = id;
    site.epoch = epoch;
    std::fill(std::begin(site.count), std::end(site.count), 0u);
  }
  const std::uint32_t k = site.count[lane];
  if (k >= site.capacity) grow(table, s, k + 1);
  site.count[lane] = k + 1;
  site.addresses[std::size_t{lane} * site.capacity + k] = address;
}

void ProfileShadow::flush_finished_warps(const BlockRun& run, unsigned running) {
  const unsigned current = host_thread.current;
  for (unsigned v = 0; v < pending_.size(); ++v) {
    if (!pending_[v] || v == running) continue;
    const unsigned first = v * 32, end = std::min(first + 32, run.thread_count);
    bool done = true;
    if (!run.fiber_mode) {
      done = end <= current;  // threads run one after another, each to its end
    } else {
      for (unsigned t = first; t < end && done; ++t) {
        const ThreadStatus st = run.states[t];
        done = st == ThreadStatus::exited || st == ThreadStatus::at_barrier;
      }
    }
    if (!done) continue;
    for (unsigned slot : warps_[v].used) flush(warps_[v].slots[slot]);
    pending_[v] = false;
  }
}

void ProfileShadow::flush(ProfileSite& site) {
  const auto [low, high] = std::minmax_element(std::begin(site.count), std::end(site.count));
  const std::uint32_t n = *high, all = *low;
  std::uintptr_t address[32];
  // Requests every lane made (the usual case: lanes that ran the same loop): no test per lane.
  for (std::uint32_t k = 0; k < all; ++k) {
    for (unsigned lane = 0; lane < 32; ++lane) address[lane] = site.addresses[std::size_t{lane} * site.capacity + k];
    count_request(site.id, 0xffffffffu, address);
  }
  for (std::uint32_t k = all; k < n; ++k) {
    std::uint32_t mask = 0;
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (site.count[lane] > k) {
        mask |= 1u << lane;
        address[lane] = site.addresses[std::size_t{lane} * site.capacity + k];
      }
    }
    count_request(site.id, mask, address);
  }
  std::fill(std::begin(site.count), std::end(site.count), 0u);
}

void ProfileShadow::count_request(std::uint64_t id, std::uint32_t mask, const std::uintptr_t* address) {
  const std::uintptr_t first = address[__builtin_ctz(mask)];
  const ProfileSpace space = space_of(first);
  // A thread's stack stands for a GPU's local memory, which the host compiler lays out otherwise: not
  // counted.
  if (space == ProfileSpace::local) return;
  const std::uint64_t key = site_key(id, space);
  if (key != last_key_) {
    last_counts_ = &sites_[key];
    last_key_ = key;
  }
  SiteCounts& c = *last_counts_;
  const std::size_t bytes = key_bytes(key);
  const auto kind = static_cast<ProfileKind>(key_kind(key));
  const auto lanes = static_cast<std::uint64_t>(__builtin_popcount(mask));
  c.requests += 1;
  c.lanes += lanes;
  c.bytes += lanes * bytes;
  if (kind == ProfileKind::atomic) c.same_address += same_address_conflicts(address, mask);
  if (space == ProfileSpace::global) {
    std::uint64_t sectors[4 * 32];
    const std::size_t n = distinct_sectors(address, mask, bytes, sectors, std::size(sectors));
    c.sectors += n;
    const std::uint64_t flags = kind == ProfileKind::load ? 1u : kind == ProfileKind::store ? 2u : 3u;
    // An access to the sector just accessed, in the same way, changes nothing in the L2 model (it is
    // already the most recent of its set): left out, which keeps broadcasts and re-reads cheap.
    for (std::size_t i = 0; i < std::min(n, std::size(sectors)); ++i) {
      const std::uint64_t access = sectors[i] << 2 | flags;
      if (l2_accesses_.empty() || l2_accesses_.back() != access) l2_accesses_.push_back(access);
    }
  } else if (space == ProfileSpace::shared) {
    const SharedCost cost = shared_cost(address, mask, bytes);
    c.wavefronts += cost.wavefronts;
    c.ideal_wavefronts += cost.ideal_wavefronts;
  }
}

void ProfileShadow::end_block(const BlockRun& run) {
  for (WarpTable& table : warps_) {
    for (unsigned s : table.used) {
      ProfileSite& site = table.slots[s];
      flush(site);
      site.id = 0;
      site.epoch = 0;
    }
    table.used.clear();
  }
  const EngineThreadState& e = host_thread;
  const unsigned warp_count = (run.thread_count + 31) / 32;
  LaunchCounts counts;
  counts.barriers = std::uint64_t{e.barrier_epoch - barrier_epoch_at_start_} * warp_count;
  for (unsigned w = 0; w < warp_count; ++w) counts.warp_calls += e.warp_epochs[w];
  counts.dropped = dropped_;
  ProfileLaunch* launch = run.job->state<Profiler>().profile_launch.get();
  if (launch == nullptr) return;
  {
    std::lock_guard lock(launch->mutex);
    if (launch->l2 != nullptr) {
      for (std::uint64_t a : l2_accesses_) launch->l2->access(a >> 2, (a & 1) != 0, (a & 2) != 0);
    }
    add_sites(launch->sites, sites_);
    launch->counts.add(counts);
  }
}

// ---- the client's events ----

void profile_access_slow(std::uint64_t id, std::uintptr_t address) {
  HostThreadState& h = host_thread;
  ProfileShadow* shadow = client_state<Profiler>(h).profile;
  if (h.block == nullptr || shadow == nullptr) return;
  shadow->record_slow(h, id, address);
}

namespace {

LaunchShape shape_of(const LaunchJob& job) {
  LaunchShape shape;
  shape.blocks = job.block_count;
  shape.threads_per_block = job.threads_per_block;
  shape.dynamic_shared_bytes = job.shared_bytes;
  return shape;
}

}  // namespace

// Whether the profile is on is read when the launch is queued, as the checks are.
void Profiler::on_launch_queued(SimDevice&, LaunchJob& job) {
  const unsigned sections = gpulab::sim::profile_sections();
  if ((sections & gpulab::sim::profile_all) == 0) return;  // off, or the hooks alone
  if ((job.clients & flag) == 0) {
    profile_launch_started(job.kernel_name, job.function, shape_of(job), false);
    return;
  }
  auto launch = std::make_shared<ProfileLaunch>();
  launch->kernel = job.kernel_name;
  launch->function = job.function;
  job.state<Profiler>().profile_launch = std::move(launch);
}

void Profiler::on_launch_start(SimDevice&, LaunchJob& job) {
  ProfileLaunch* launch = job.state<Profiler>().profile_launch.get();
  if (launch == nullptr) return;
  launch->l2 = take_l2_model();
  profile_launch_started(job.kernel_name, job.function, shape_of(job), true);
}

void Profiler::on_launch_end(SimDevice&, LaunchJob& job) {
  if (ProfileLaunch* launch = job.state<Profiler>().profile_launch.get()) launch->hand_in();
}

void Profiler::on_block_start(BlockRun& run) {
  if ((run.job->clients & flag) == 0) return;
  ThreadState& s = client_state<Profiler>(host_thread);
  if (run.job->state<Profiler>().profile_launch == nullptr) {
    s.warp_sites = nullptr;  // the hooks alone: record() returns at once
    return;
  }
  if (s.profile == nullptr) s.profile = new ProfileShadow(s);
  s.profile->start_block(run);
}

void Profiler::on_block_end(BlockRun& run) {
  if ((run.job->clients & flag) == 0 || run.job->state<Profiler>().profile_launch == nullptr) return;
  ThreadState& s = client_state<Profiler>(host_thread);
  if (s.profile != nullptr) s.profile->end_block(run);
}

void Profiler::on_host_thread_end(BlockRun&) {
  ThreadState& s = client_state<Profiler>(host_thread);
  delete s.profile;
  s.profile = nullptr;
  s.warp_sites = nullptr;
}

}  // namespace gpulab::sim::detail
