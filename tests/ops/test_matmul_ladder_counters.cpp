// The matmul ladder's claims, checked against the simulator's profiler (src/sim/profiler): each rung's
// header says what it should buy over the rung before, in memory requests, sectors and bank
// conflicts, which are what a GPU's counters count. Each rung runs once on a 256 x 256 float32 product
// (a multiple of every tile, so that the counts are those of the interior path), its result checked
// against float64.
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <gpulab/array.hpp>
#include <gpulab/device.hpp>
#include <gpulab/matmul.hpp>
#include <gpulab/sim/profile.hpp>

namespace {

using gpulab::sim::KernelProfile;

constexpr int n = 256;

// The profile of one run of `rung` (its kernel's name starts with "<rung>_matmul<float").
const KernelProfile& rung_profile(const std::string& rung) {
  static std::map<std::string, KernelProfile> cache;
  if (auto it = cache.find(rung); it != cache.end()) return it->second;
  static std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> a(std::size_t{n} * n), b(std::size_t{n} * n);
  for (float& x : a) x = d(rng);
  for (float& x : b) x = d(rng);
  const gpulab::Device sim = gpulab::sim_device();
  auto da = gpulab::to_device(sim, std::span<const float>(a));
  auto db = gpulab::to_device(sim, std::span<const float>(b));
  auto dc = gpulab::to_device(sim, std::span<const float>(std::vector<float>(std::size_t{n} * n, std::nanf(""))));
  const gpulab::MemorySpace space = sim.space();
  {
    gpulab::sim::ScopedProfile on;
    gpulab::sim::reset_profile();
    gpulab::matmul<float>(gpulab::matrix_view<const float>(da.data(), n, n, n, space),
                          gpulab::matrix_view<const float>(db.data(), n, n, n, space),
                          gpulab::matrix_view<float>(dc.data(), n, n, n, space), 1.0f, 0.0f,
                          gpulab::MatmulOptions{.impl = rung});
    sim.synchronize();
  }
  // The result, against float64 by relative Frobenius error.
  auto c = dc.copy_to_host();
  double err = 0, norm = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      double ref = 0;
      for (int k = 0; k < n; ++k) ref += double(a[std::size_t(i) * n + k]) * double(b[std::size_t(k) * n + j]);
      const double got = c[std::size_t(i) * n + j];
      err += (got - ref) * (got - ref);
      norm += ref * ref;
    }
  }
  EXPECT_LT(std::sqrt(err / norm), 1e-5) << rung;
  KernelProfile found;
  for (KernelProfile& p : gpulab::sim::profile_results()) {
    if (p.name.starts_with(rung + "_matmul<float")) found = std::move(p);
  }
  EXPECT_FALSE(found.name.empty()) << "no profile of " << rung << "'s kernel";
  return cache[rung] = std::move(found);
}

double metric(const std::string& rung, const std::string& name) {
  const KernelProfile& p = rung_profile(rung);
  const auto it = p.metrics.find(name);
  EXPECT_NE(it, p.metrics.end()) << rung << " has no " << name;
  return it == p.metrics.end() ? -1.0 : it->second;
}

const std::string ld_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
const std::string ld_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const std::string ld_sectors_per_request = "l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
const std::string st_sectors_per_request = "l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio";
const std::string shared_ld_requests = "smsp__inst_executed_op_shared_ld.sum";
const std::string shared_ld_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
const std::string shared_st_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";

// Prints every rung's counts, so that a failure shows the whole ladder.
TEST(LadderCounters, Table) {
  for (const std::string rung : {"naive", "coalesced", "shared", "reg1d", "reg2d", "vec4", "warptile", "async"}) {
    const KernelProfile& p = rung_profile(rung);
    std::printf("%-10s ld requests %9.0f sectors %9.0f (%5.2f/request) st %5.2f/request  shared ld %9.0f conflicts ld %9.0f st %9.0f\n",
                rung.c_str(), metric(rung, ld_requests), metric(rung, ld_sectors), metric(rung, ld_sectors_per_request),
                metric(rung, st_sectors_per_request), metric(rung, shared_ld_requests), metric(rung, shared_ld_conflicts),
                metric(rung, shared_st_conflicts));
    EXPECT_TRUE(p.instrumented);
  }
}

double ratio(const std::string& rung, const std::string& before, const std::string& name) {
  return metric(rung, name) / metric(before, name);
}

const std::string ld_bytes_requested = "gpulab__bytes_requested_mem_global_op_ld.sum";
const std::string ld_bytes_moved = "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum";

// Rung 2: one 128-byte transaction where rung 1 issued one per lane: sectors per request fall.
TEST(LadderCounters, CoalescedCutsSectorsPerRequest) {
  // naive: a warp is 16 rows by 2 columns, so A's loads touch 16 sectors and B's 1; C's stores 16.
  EXPECT_EQ(metric("naive", ld_sectors_per_request), 8.5);
  EXPECT_EQ(metric("naive", st_sectors_per_request), 16.0);
  // coalesced: A broadcast (1 sector), B and C 32 consecutive floats (4 sectors).
  EXPECT_EQ(metric("coalesced", ld_sectors_per_request), 2.5);
  EXPECT_EQ(metric("coalesced", st_sectors_per_request), 4.0);
  EXPECT_EQ(metric("coalesced", ld_requests), metric("naive", ld_requests));
}

// Rung 3: each element fetched once per 16-wide tile instead of once per output.
TEST(LadderCounters, SharedCutsGlobalTrafficByTheTileSize) {
  EXPECT_NEAR(ratio("coalesced", "shared", ld_bytes_requested), 16.0, 0.01);
  // In bytes moved, less: rung 2's loads of A were broadcasts, one sector for 32 lanes.
  EXPECT_GE(ratio("coalesced", "shared", ld_bytes_moved), 8.0);
  EXPECT_EQ(metric("shared", shared_ld_conflicts), 0.0);
  EXPECT_EQ(metric("shared", shared_st_conflicts), 0.0);
}

// Rung 4: shared loads per multiply-add from 2 to 1 + 1/TM (TM = 8); 64-wide tiles quarter the traffic.
TEST(LadderCounters, Reg1dCutsSharedLoadsAndGlobalTraffic) {
  EXPECT_NEAR(ratio("reg1d", "shared", shared_ld_requests), (1.0 + 1.0 / 8) / 2, 1e-9);
  EXPECT_NEAR(ratio("shared", "reg1d", ld_bytes_requested), 4.0, 0.01);
}

// Rung 5: shared loads per multiply-add from 1 + 1/TM to 1/TM + 1/TN (8 x 8); A read down a column of
// shared memory, which conflicts on banks.
TEST(LadderCounters, Reg2dCutsSharedLoadsAndConflictsOnTheATile) {
  EXPECT_NEAR(ratio("reg2d", "reg1d", shared_ld_requests), (1.0 / 8 + 1.0 / 8) / (1.0 + 1.0 / 8), 1e-9);
  EXPECT_GT(metric("reg2d", shared_ld_conflicts), 0.0);
}

// Rung 6: 16-byte vectors, a quarter of the load instructions; A transposed in shared memory, so the
// A fragment no longer goes down a column: the shared loads' conflicts fall with their instructions.
// The B fragment's float4s, 32 bytes apart, still conflict 2-way per quarter-warp, and the transposing
// store conflicts.
TEST(LadderCounters, Vec4CutsRequestsAndTheFragmentConflicts) {
  EXPECT_NEAR(ratio("reg2d", "vec4", ld_requests), 4.0, 1e-9);
  EXPECT_NEAR(ratio("reg2d", "vec4", shared_ld_requests), 4.0, 1e-9);
  EXPECT_EQ(metric("vec4", ld_sectors_per_request), 16.0);
  EXPECT_NEAR(ratio("reg2d", "vec4", shared_ld_conflicts), 4.0, 1e-9);
  EXPECT_GT(metric("vec4", shared_st_conflicts), 0.0);
}

// Rung 7: warp tiling makes the fragment loads conflict-free, and the swizzled A tile the transposing
// stores.
TEST(LadderCounters, WarptileRemovesTheFragmentAndStoreConflicts) {
  EXPECT_EQ(metric("warptile", shared_st_conflicts), 0.0);
  EXPECT_EQ(metric("warptile", shared_ld_conflicts), 0.0);
}

// Rung 8: the padded row-major A tile gives conflict-free 16-byte reads. (Its copies into the tile,
// cp.async's shared-memory writes, do conflict 2-way: rows of 48 bytes from the quarter-warp's four
// rows overlap in banks. The header claims nothing of them.)
TEST(LadderCounters, AsyncPaddingKeepsReadsConflictFree) {
  EXPECT_EQ(metric("async", shared_ld_conflicts), 0.0);
}

}  // namespace
