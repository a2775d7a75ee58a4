// The profiler (src/sim/profiler): its counts for memory patterns whose answers a GPU's counters give
// and are worked out here by hand (Nsight Compute's definitions, docs/simulator.md "The profiler"), on
// fresh random inputs, with the outputs checked too so that the kernels did the work counted.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <gpulab/sim/profile.hpp>
#include <gpulab/sim/vector_types.hpp>

#include "sim_test_support.hpp"

namespace gpulab {
namespace {

using namespace sim_testing;

std::vector<float> random_floats(std::size_t n) {
  static std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

double metric(const sim::KernelProfile& p, const std::string& name) {
  const auto it = p.metrics.find(name);
  EXPECT_NE(it, p.metrics.end()) << "no metric " << name << " for " << p.name;
  return it == p.metrics.end() ? -1.0 : it->second;
}

// Runs `work` with the profiler on (every section) and returns the profile of `kernel`.
template <class Work>
sim::KernelProfile profile_of(const std::string& kernel, Work&& work) {
  sim::ScopedProfile on;
  sim::reset_profile();
  work();
  auto p = sim::kernel_profile(kernel);
  EXPECT_TRUE(p.has_value()) << kernel << " was not profiled";
  return p.value_or(sim::KernelProfile{});
}

constexpr int warps = 8;
constexpr int n = warps * 32;

TEST(SimProfiler, ACoalescedFloatLoadIsFourSectorsPerRequest) {
  const auto in = random_floats(n);
  auto d_in = upload(in);
  auto d_out = filled<float>(n, std::nanf(""));
  Kernel<void(const float*, float*, int)> k("copy_coalesced");
  const auto p = profile_of("copy_coalesced", [&] {
    launch(k, LaunchConfig{2, n / 2}, d_in.data(), d_out.data(), n);
    sim_dev().synchronize();
  });
  EXPECT_EQ(download(d_out), in);
  EXPECT_EQ(p.launches, 1u);
  EXPECT_TRUE(p.instrumented);
  EXPECT_EQ(metric(p, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), warps);
  EXPECT_EQ(metric(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 4 * warps);
  EXPECT_EQ(metric(p, "l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"), 4.0);
  EXPECT_EQ(metric(p, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), warps);
  EXPECT_EQ(metric(p, "l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio"), 4.0);
  EXPECT_EQ(metric(p, "gpulab__bytes_requested_mem_global_op_ld.sum"), 4.0 * n);
  EXPECT_EQ(metric(p, "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"), 4.0 * n);
  EXPECT_EQ(metric(p, "smsp__thread_inst_executed_per_inst_executed.ratio"), 32.0);
  EXPECT_EQ(metric(p, "gpulab__blocks_launched.sum"), 2.0);
  EXPECT_EQ(metric(p, "gpulab__warps_launched.sum"), warps);
  EXPECT_EQ(metric(p, "launch__block_size"), n / 2);
  // 128 threads, no shared memory: 16 blocks of 4 warps fill the 64 warps of a multiprocessor.
  EXPECT_EQ(metric(p, "sm__maximum_warps_per_active_cycle_pct"), 100.0);
}

TEST(SimProfiler, AStride32FloatLoadIsThirtyTwoSectorsPerRequest) {
  const int stride = 32;
  const auto in = random_floats(std::size_t{n} * stride);
  auto d_in = upload(in);
  auto d_out = filled<float>(n, std::nanf(""));
  Kernel<void(const float*, float*, int, int)> k("gather_strided");
  const auto p = profile_of("gather_strided", [&] {
    launch(k, LaunchConfig{1, n}, d_in.data(), d_out.data(), n, stride);
    sim_dev().synchronize();
  });
  const auto out = download(d_out);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], in[std::size_t(i) * stride]) << i;
  EXPECT_EQ(metric(p, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), warps);
  EXPECT_EQ(metric(p, "l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"), 32.0);
  // 4 bytes asked for of each 32 moved.
  EXPECT_EQ(metric(p, "gpulab__bytes_requested_mem_global_op_ld.sum"), 4.0 * n);
  EXPECT_EQ(metric(p, "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"), 32.0 * n);
  // 256 threads: 8 blocks of 8 warps.
  EXPECT_EQ(metric(p, "sm__maximum_warps_per_active_cycle_pct"), 100.0);
}

TEST(SimProfiler, ACoalescedFloat4LoadIsSixteenSectorsPerRequestAndAQuarterOfTheRequests) {
  const auto in = random_floats(n);
  auto d_in = upload(in);
  auto d_out = filled<float>(n, std::nanf(""));
  Kernel<void(const float4*, float4*, int)> k("copy_float4");
  const auto p = profile_of("copy_float4", [&] {
    launch(k, LaunchConfig{1, n / 4}, reinterpret_cast<const float4*>(d_in.data()), reinterpret_cast<float4*>(d_out.data()),
           n / 4);
    sim_dev().synchronize();
  });
  EXPECT_EQ(download(d_out), in);
  // The same bytes as copy_coalesced's 8 requests, in 2.
  EXPECT_EQ(metric(p, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), warps / 4);
  EXPECT_EQ(metric(p, "l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"), 16.0);
  EXPECT_EQ(metric(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), n * 4 / 32);
  EXPECT_EQ(metric(p, "l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio"), 16.0);
}

TEST(SimProfiler, ABroadcastGlobalLoadIsOneSector) {
  const auto in = random_floats(1);
  auto d_in = upload(in);
  auto d_out = filled<float>(n, std::nanf(""));
  Kernel<void(const float*, float*, int)> k("broadcast_read");
  const auto p = profile_of("broadcast_read", [&] {
    launch(k, LaunchConfig{1, n}, d_in.data(), d_out.data(), n);
    sim_dev().synchronize();
  });
  const auto out = download(d_out);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], in[0] + static_cast<float>(i)) << i;
  EXPECT_EQ(metric(p, "l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"), 1.0);
}

TEST(SimProfiler, HalfTheLanesActiveIsSixteenThreadsPerInstruction) {
  const auto in = random_floats(n);
  auto d_in = upload(in);
  auto d_out = filled<float>(n, 7.0f);
  Kernel<void(const float*, float*, int)> k("copy_even_lanes");
  const auto p = profile_of("copy_even_lanes", [&] {
    launch(k, LaunchConfig{1, n}, d_in.data(), d_out.data(), n);
    sim_dev().synchronize();
  });
  const auto out = download(d_out);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], i % 2 == 0 ? in[i] : 7.0f) << i;
  EXPECT_EQ(metric(p, "smsp__thread_inst_executed_per_inst_executed.ratio"), 16.0);
  // The even lanes' floats still span the warp's four sectors.
  EXPECT_EQ(metric(p, "l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"), 4.0);
}

// 32 lanes, each summing a column of the tile: lane l's sum is the sum of in[l * 32 + r] over r.
std::vector<float> column_sums(const std::vector<float>& in) {
  std::vector<float> sums(32);
  for (int l = 0; l < 32; ++l) {
    float s = 0;
    for (int r = 0; r < 32; ++r) s += in[std::size_t(l) * 32 + r];
    sums[l] = s;
  }
  return sums;
}

TEST(SimProfiler, AColumnReadOfA32x32SharedTileIsA32WayConflictWithoutPadding) {
  const auto in = random_floats(32 * 32);
  auto d_in = upload(in);
  auto d_out = filled<float>(32, std::nanf(""));
  Kernel<void(const float*, float*)> k("shared_columns<0>");
  const auto p = profile_of("shared_columns<0>", [&] {
    launch(k, LaunchConfig{1, 32}, d_in.data(), d_out.data());
    sim_dev().synchronize();
  });
  EXPECT_EQ(download(d_out), column_sums(in));
  // 32 loads of a column: 32 wavefronts each, 31 beyond the ideal one.
  EXPECT_EQ(metric(p, "smsp__inst_executed_op_shared_ld.sum"), 32.0);
  EXPECT_EQ(metric(p, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 32.0 * 32);
  EXPECT_EQ(metric(p, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 31.0 * 32);
  // 32 stores of a row: no conflict.
  EXPECT_EQ(metric(p, "smsp__inst_executed_op_shared_st.sum"), 32.0);
  EXPECT_EQ(metric(p, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), 32.0);
  EXPECT_EQ(metric(p, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), 0.0);
  EXPECT_EQ(metric(p, "gpulab__barriers_executed.sum"), 1.0);
}

TEST(SimProfiler, OneColumnOfPaddingMakesTheColumnReadConflictFree) {
  const auto in = random_floats(32 * 32);
  auto d_in = upload(in);
  auto d_out = filled<float>(32, std::nanf(""));
  Kernel<void(const float*, float*)> k("shared_columns<1>");
  const auto p = profile_of("shared_columns<1>", [&] {
    launch(k, LaunchConfig{1, 32}, d_in.data(), d_out.data());
    sim_dev().synchronize();
  });
  EXPECT_EQ(download(d_out), column_sums(in));
  EXPECT_EQ(metric(p, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 32.0);
  EXPECT_EQ(metric(p, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 0.0);
}

TEST(SimProfiler, ABroadcastSharedReadHasNoConflict) {
  const auto in = random_floats(32);
  auto d_in = upload(in);
  auto d_out = filled<float>(32, std::nanf(""));
  Kernel<void(const float*, float*)> k("shared_broadcast");
  const auto p = profile_of("shared_broadcast", [&] {
    launch(k, LaunchConfig{1, 32}, d_in.data(), d_out.data());
    sim_dev().synchronize();
  });
  float sum = 0;
  for (float x : in) sum += x;
  for (float x : download(d_out)) EXPECT_EQ(x, sum);
  EXPECT_EQ(metric(p, "smsp__inst_executed_op_shared_ld.sum"), 32.0);
  EXPECT_EQ(metric(p, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 32.0);
  EXPECT_EQ(metric(p, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 0.0);
}

TEST(SimProfiler, AnL2ThatHoldsTheWorkingSetReadsEachByteFromDramOnce) {
  const int count = 1 << 18;  // 1 MiB, read four times, by different blocks
  const int passes = 4;
  const auto in = random_floats(count);
  auto d_in = upload(in);
  auto d_out = filled<float>(count, std::nanf(""));
  Kernel<void(const float*, float*, int, int)> k("read_passes");
  const auto p = profile_of("read_passes", [&] {
    launch(k, LaunchConfig{count / 256, 256}, d_in.data(), d_out.data(), count, passes);
    sim_dev().synchronize();
  });
  const auto out = download(d_out);
  for (int i = 0; i < count; i += 997) {
    float s = 0;
    for (int q = 0; q < passes; ++q) s += in[std::size_t((i + q * (count / passes)) % count)];
    ASSERT_EQ(out[i], s) << i;
  }
  EXPECT_EQ(metric(p, "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"), 4.0 * count * passes);
  EXPECT_EQ(metric(p, "dram__bytes_read.sum"), 4.0 * count);
  EXPECT_EQ(metric(p, "dram__bytes_write.sum"), 4.0 * count);
}

TEST(SimProfiler, AtomicsOnOneAddressCountTheLanesThatShareIt) {
  auto counter = filled<unsigned>(1, 0u);
  Kernel<void(unsigned*)> k("count_all");
  const auto p = profile_of("count_all", [&] {
    launch(k, LaunchConfig{2, n / 2}, counter.data());
    sim_dev().synchronize();
  });
  EXPECT_EQ(download(counter)[0], static_cast<unsigned>(n));
  EXPECT_EQ(metric(p, "gpulab__atomic_operations.sum"), n);
  EXPECT_EQ(metric(p, "gpulab__atomic_instructions.sum"), warps);
  EXPECT_EQ(metric(p, "gpulab__atomic_same_address_lanes.sum"), 31.0 * warps);
  EXPECT_EQ(metric(p, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"), warps);
}

TEST(SimProfiler, WarpShufflesAreCountedPerWarp) {
  const auto in = random_floats(n);
  auto d_in = upload(in);
  auto d_out = filled<float>(warps, std::nanf(""));
  Kernel<void(const float*, float*)> k("warp_reduce_sum");
  const auto p = profile_of("warp_reduce_sum", [&] {
    launch(k, LaunchConfig{1, n}, d_in.data(), d_out.data());
    sim_dev().synchronize();
  });
  const auto out = download(d_out);
  for (int w = 0; w < warps; ++w) {
    double s = 0;
    for (int l = 0; l < 32; ++l) s += in[std::size_t(w) * 32 + l];
    EXPECT_NEAR(out[w], s, 1e-5);
  }
  EXPECT_EQ(metric(p, "gpulab__warp_collectives_executed.sum"), 5.0 * warps);
  // The loads are one request per warp, whatever the shuffles between them.
  EXPECT_EQ(metric(p, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), warps);
}

TEST(SimProfiler, LaunchesAddUpAndLinesNameTheKernelsSource) {
  const auto in = random_floats(n);
  auto d_in = upload(in);
  auto d_out = filled<float>(n, std::nanf(""));
  Kernel<void(const float*, float*, int)> k("copy_coalesced");
  const auto p = profile_of("copy_coalesced", [&] {
    for (int i = 0; i < 3; ++i) launch(k, LaunchConfig{1, n}, d_in.data(), d_out.data(), n);
    sim_dev().synchronize();
  });
  EXPECT_EQ(p.launches, 3u);
  EXPECT_EQ(metric(p, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 3.0 * warps);
  // One line loads and stores; its counts are the kernel's.
  ASSERT_FALSE(p.lines.empty());
  const sim::ProfileLine& line = p.lines.front();
  EXPECT_NE(line.file.find("profiler_kernels.cu"), std::string::npos) << line.file;
  EXPECT_GT(line.line, 0u);
  EXPECT_EQ(line.metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 3.0 * 4 * warps);
}

TEST(SimProfiler, TheJsonHoldsEachKernelsMetricsAndLines) {
  const auto in = random_floats(n);
  auto d_in = upload(in);
  auto d_out = filled<float>(n, std::nanf(""));
  Kernel<void(const float*, float*, int)> k("copy_coalesced");
  sim::ScopedProfile on;
  sim::reset_profile();
  launch(k, LaunchConfig{1, n}, d_in.data(), d_out.data(), n);
  sim_dev().synchronize();
  const auto j = nlohmann::json::parse(sim::profile_json());
  ASSERT_EQ(j["kernels"].size(), 1u);
  const auto& kernel = j["kernels"][0];
  EXPECT_EQ(kernel["name"], "copy_coalesced");
  EXPECT_EQ(kernel["launches"], 1);
  EXPECT_EQ(kernel["metrics"]["l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"], 4.0);
  EXPECT_TRUE(kernel["metrics"]["launch__registers_per_thread"].is_null());
  ASSERT_FALSE(kernel["lines"].empty());
  EXPECT_TRUE(kernel["lines"][0].contains("file"));
  EXPECT_TRUE(kernel["lines"][0]["metrics"].contains("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"));
  const std::string summary = sim::profile_summary();
  EXPECT_CONTAINS(summary, "copy_coalesced");
  EXPECT_CONTAINS(summary, "4.00 sectors/request");
}

TEST(SimProfiler, SectionsAreParsedAndUnknownOnesNamed) {
  EXPECT_EQ(sim::parse_profile_sections("1"), sim::profile_all);
  EXPECT_EQ(sim::parse_profile_sections("off"), sim::profile_none);
  EXPECT_EQ(sim::parse_profile_sections("global, Shared"), sim::profile_global | sim::profile_shared);
  try {
    sim::parse_profile_sections("global,banks");
    FAIL() << "no error for an unknown section";
  } catch (const InvalidArgument& e) {
    EXPECT_CONTAINS(std::string(e.what()), "'banks'");
    EXPECT_CONTAINS(std::string(e.what()), "dram");
  }
}

TEST(SimProfiler, TheProfilerIsNotACheck) {
  EXPECT_THROW(sim::parse_checks("profile"), InvalidArgument);
  EXPECT_EQ(sim::parse_checks("all"), static_cast<unsigned>(sim::check_all));
}

}  // namespace
}  // namespace gpulab
