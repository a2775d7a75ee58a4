// The bench engine end to end on the host: cpu-naive at small, awkward shapes; a deliberately wrong
// implementation registered here must come out failed; refusals come out as skipped rows; the JSON,
// CSV, table and SVG reports carry every row.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <gpulab/bench/bench.hpp>
#include <gpulab/bench/report.hpp>
#include <gpulab/error.hpp>
#include <gpulab/matmul.hpp>
#include <gpulab/sim/checks.hpp>

#include "test_support.hpp"

namespace {

using namespace gpulab::bench;

// A product with one wrong entry: what a kernel with an off-by-one edge case returns.
const bool corrupted_registered = gpulab::register_matmul(gpulab::MatmulRegistration{
    "test-corrupted",
    "test only: the right product with C(0, 0) off by one",
    gpulab::MatmulFamily::cpu,
    10000,
    gpulab::DeviceKind::host,
    {gpulab::Dtype::float32},
    {},
    [](const gpulab::AnyMatmulArgs& any, const gpulab::MatmulContext&) {
      const auto& args = std::get<gpulab::MatmulArgs<float>>(any);
      for (int i = 0; i < args.c.rows(); ++i) {
        for (int j = 0; j < args.c.cols(); ++j) {
          float s = 0;
          for (int p = 0; p < args.a.cols(); ++p) s += args.a(i, p) * args.b(p, j);
          args.c(i, j) = s;
        }
      }
      args.c(0, 0) += 1.0f;
    }});

// The simulator's naive rung, noting the checks in force at each call: the order bench runs the check
// sets in.
std::vector<unsigned> checks_at_calls;
const bool recorder_registered = gpulab::register_matmul(gpulab::MatmulRegistration{
    "test-sim-checks-recorder",
    "test only: the naive rung on the simulator, noting the checks of each call",
    gpulab::MatmulFamily::gpu,
    10001,
    gpulab::DeviceKind::sim,
    {gpulab::Dtype::float32},
    {},
    [](const gpulab::AnyMatmulArgs& any, const gpulab::MatmulContext& context) {
      checks_at_calls.push_back(gpulab::sim::enabled_checks());
      gpulab::find_matmul("naive")->run[static_cast<int>(gpulab::DeviceKind::sim)](any, context);
    }});

const gpulab::MatmulImpl& impl(const char* name) {
  const gpulab::MatmulImpl* i = gpulab::find_matmul(name);
  if (i == nullptr) throw std::runtime_error(std::string("not registered: ") + name);
  return *i;
}

BenchConfig small_config() {
  BenchConfig c;
  c.impls = {&impl("cpu-naive")};
  c.impls_explicit = true;
  c.devices = {gpulab::host_device()};
  c.shapes = {{17, 17, 17}, {33, 31, 29}, {1, 2, 127}};
  c.repeat = 3;
  c.warmup = 2;
  c.seed = gpulab::testing::fresh_seed();
  return c;
}

TEST(BenchEngine, CpuNaiveRowsAreTimedAndVerified) {
  const BenchConfig config = small_config();
  SCOPED_TRACE(config.seed);
  int calls = 0;
  const BenchReport report = run_bench(config, [&](int done, int total, const std::string&) {
    ++calls;
    EXPECT_LE(done, total);
  });
  ASSERT_EQ(report.results.size(), 3u);
  EXPECT_EQ(calls, 3);
  EXPECT_TRUE(report.all_verified());
  for (const BenchResult& r : report.results) {
    SCOPED_TRACE(r.m);
    EXPECT_EQ(r.impl, "cpu-naive");
    EXPECT_EQ(r.device, "cpu");
    EXPECT_FALSE(r.skipped);
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(r.verified) << r.rel_error << " > " << r.tolerance;
    EXPECT_EQ(r.repeats, 3);
    EXPECT_EQ(static_cast<int>(r.samples_ms.size()), r.repeats);
    EXPECT_LE(r.min_ms, r.median_ms);
    EXPECT_LE(r.median_ms, r.max_ms);
    EXPECT_GT(r.gflops, 0);
    EXPECT_GE(r.first_call_ms, 0);
    ASSERT_TRUE(r.speedup.has_value());
    EXPECT_DOUBLE_EQ(*r.speedup, 1.0);  // it is the baseline
    EXPECT_EQ(r.verify_method, "full float64 reference");
  }
}

TEST(BenchEngine, WarmUpRunsBothTheCountAndTheTime) {
  BenchConfig config = small_config();
  config.shapes = {{17, 17, 17}};  // microseconds a call, sanitizers included
  config.warmup = 3;
  config.warmup_ms = 0;
  BenchReport report = run_bench(config);
  ASSERT_EQ(report.results.size(), 1u);
  EXPECT_EQ(report.results[0].warmup, 3);  // the count alone
  EXPECT_EQ(report.context.warmup_ms, 0);

  config.warmup = 1;
  config.warmup_ms = 30;
  report = run_bench(config);
  ASSERT_EQ(report.results.size(), 1u);
  EXPECT_GT(report.results[0].warmup, 3);  // calls until 30 ms had passed
  EXPECT_EQ(report.context.warmup_ms, 30);
  EXPECT_TRUE(report.all_verified());
}

TEST(BenchEngine, AWrongProductFailsVerification) {
  ASSERT_TRUE(corrupted_registered);
  BenchConfig config = small_config();
  config.impls = {&impl("cpu-naive"), &impl("test-corrupted")};
  config.shapes = {{20, 19, 18}};
  const BenchReport report = run_bench(config);
  ASSERT_EQ(report.results.size(), 2u);
  EXPECT_FALSE(report.all_verified());
  const auto bad = std::find_if(report.results.begin(), report.results.end(),
                                [](const BenchResult& r) { return r.impl == "test-corrupted"; });
  ASSERT_NE(bad, report.results.end());
  EXPECT_FALSE(bad->verified);
  EXPECT_TRUE(bad->failed());
  EXPECT_GT(bad->rel_error, bad->tolerance);
  EXPECT_NE(format_table(report).find("FAIL"), std::string::npos);
}

TEST(BenchEngine, ARefusedImplementationIsASkippedRowWithTheReason) {
  BenchConfig config = small_config();
  config.devices = {gpulab::sim_device()};  // cpu-naive runs on the host only
  config.shapes = {{8, 8, 8}};
  const BenchReport report = run_bench(config);
  ASSERT_EQ(report.results.size(), 1u);
  EXPECT_TRUE(report.results[0].skipped);
  EXPECT_FALSE(report.results[0].skip_reason.empty());
  EXPECT_TRUE(report.all_verified());  // a skipped row is not a failure
  EXPECT_NE(format_table(report).find("skipped"), std::string::npos);
}

TEST(BenchEngine, LargeProblemsUseFreivalds) {
  BenchConfig config = small_config();
  config.shapes = {{40, 30, 20}};
  config.verify.full_reference_limit = 1000;
  config.repeat = 1;
  const BenchReport report = run_bench(config);
  ASSERT_EQ(report.results.size(), 1u);
  EXPECT_TRUE(report.results[0].verified);
  EXPECT_NE(report.results[0].verify_method.find("freivalds"), std::string::npos);
}

TEST(BenchEngine, Int32AndFloat64Verify) {
  for (const gpulab::Dtype dtype : {gpulab::Dtype::int32, gpulab::Dtype::float64}) {
    BenchConfig config = small_config();
    config.dtype = dtype;
    config.shapes = {{31, 33, 129}};
    const BenchReport report = run_bench(config);
    ASSERT_EQ(report.results.size(), 1u);
    EXPECT_TRUE(report.results[0].verified) << gpulab::to_string(dtype) << ": " << report.results[0].rel_error;
  }
}

TEST(BenchEngine, SimulatorRowsWithTransfersAndStreams) {
  const gpulab::MatmulImpl* naive = gpulab::find_matmul("naive");
  if (naive == nullptr || !naive->runs_on(gpulab::DeviceKind::sim)) GTEST_SKIP() << "no `naive` rung on the simulator";
  BenchConfig config = small_config();
  config.impls = {naive};
  config.devices = {gpulab::sim_device()};
  config.shapes = {{33, 31, 29}};
  config.repeat = 2;
  config.include_transfers = true;
  config.streams = 2;
  const BenchReport report = run_bench(config);
  ASSERT_EQ(report.results.size(), 1u);
  const BenchResult& r = report.results[0];
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.simulated);
  EXPECT_TRUE(r.verified) << r.rel_error;
  ASSERT_TRUE(r.transfers.has_value());
  EXPECT_GT(r.transfers->end_to_end_ms, 0);
  EXPECT_GE(r.transfers->end_to_end_ms, r.transfers->kernel_ms * 0.5);
  ASSERT_TRUE(r.streams.has_value());
  EXPECT_EQ(r.streams->streams, 2);
  EXPECT_EQ(r.streams->panels, 4);
  EXPECT_TRUE(r.streams->verified) << r.streams->rel_error;
  EXPECT_GT(r.streams->parts_ms, 0);
  EXPECT_FALSE(r.percent_of_peak.has_value());  // the simulator has no peak of its own
  EXPECT_NE(format_table(report).find("simulated: CPU time, not GPU performance"), std::string::npos);
}

TEST(BenchEngine, SimChecksAreTimedRepeatByRepeatBesideTheUncheckedRun) {
  ASSERT_TRUE(recorder_registered);
  const gpulab::MatmulImpl* naive = gpulab::find_matmul("naive");
  if (naive == nullptr || !naive->runs_on(gpulab::DeviceKind::sim)) GTEST_SKIP() << "no `naive` rung on the simulator";
  using namespace gpulab::sim;
  BenchConfig config = small_config();
  config.impls = {&impl("test-sim-checks-recorder")};
  config.devices = {gpulab::sim_device()};
  config.shapes = {{33, 31, 29}};
  config.repeat = 3;
  config.warmup = 2;
  config.warmup_ms = 0;
  config.time_budget_ms = 0;
  config.sim_check_sets = {memcheck, racecheck | initcheck, check_all};
  checks_at_calls.clear();
  const BenchReport report = run_bench(config);
  ASSERT_EQ(report.results.size(), 1u);
  const BenchResult& r = report.results[0];
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.verified) << r.rel_error;
  EXPECT_EQ(r.repeats, 3);
  // Warm-up unchecked, each set's first call, then each repeat unchecked and under each set in turn.
  const std::vector<unsigned> expected = {check_none, check_none,          memcheck, racecheck | initcheck, check_all,
                                          check_none, memcheck, racecheck | initcheck, check_all,
                                          check_none, memcheck, racecheck | initcheck, check_all,
                                          check_none, memcheck, racecheck | initcheck, check_all};
  EXPECT_EQ(checks_at_calls, expected);
  EXPECT_EQ(enabled_checks(), check_none);  // restored
  ASSERT_EQ(r.checked.size(), 3u);
  EXPECT_EQ(r.checked[0].checks, "memcheck");
  EXPECT_EQ(r.checked[1].checks, format_checks(racecheck | initcheck));
  for (const CheckedTimes& c : r.checked) {
    SCOPED_TRACE(c.checks);
    EXPECT_TRUE(c.verified) << c.rel_error;  // initcheck too: the inputs went up with it on
    EXPECT_EQ(c.samples_ms.size(), 3u);
    EXPECT_GT(c.median_ms, 0);
    EXPECT_DOUBLE_EQ(c.over_unchecked, c.median_ms / r.median_ms);
  }
  EXPECT_EQ(report.context.sim_check_sets.size(), 3u);
  const std::string table = format_table(report);
  EXPECT_NE(table.find("vs unchecked"), std::string::npos) << table;
  const nlohmann::json j = nlohmann::json::parse(format_json(report));
  ASSERT_EQ(j["results"][0]["checked"].size(), 3u);
  EXPECT_EQ(j["results"][0]["checked"][0]["checks"], "memcheck");
  EXPECT_NE(format_csv(report).find("memcheck="), std::string::npos);
}

TEST(BenchEngine, SimChecksRefuseAProcessWideCheck) {
  BenchConfig config = small_config();
  config.devices = {gpulab::sim_device()};
  config.sim_check_sets = {gpulab::sim::racecheck};
  const gpulab::sim::ScopedChecks everywhere(gpulab::sim::memcheck);
  EXPECT_THROW(run_bench(config), gpulab::InvalidArgument);
}

TEST(BenchReports, JsonHasTheDocumentedFields) {
  BenchConfig config = small_config();
  config.shapes = {{9, 10, 11}};
  config.command = "gpulab bench --impls cpu-naive";
  BenchReport report = run_bench(config);
  BenchResult skipped = report.results[0];
  skipped.skipped = true;
  skipped.skip_reason = "test";
  report.results.push_back(skipped);
  const nlohmann::json j = nlohmann::json::parse(format_json(report));
  ASSERT_TRUE(j.contains("results"));
  ASSERT_TRUE(j.contains("context"));
  ASSERT_EQ(j["results"].size(), 2u);
  for (const char* field : {"impl", "device", "dtype", "m", "n", "k", "median_ms", "min_ms", "max_ms", "gflops",
                            "rel_error", "verified", "first_call_ms", "tolerance", "verify_method", "status",
                            "skip_reason", "speedup", "ratio_to_peer", "percent_of_peak", "samples_ms"}) {
    for (const auto& r : j["results"]) EXPECT_TRUE(r.contains(field)) << field;
  }
  const auto& r = j["results"][0];
  EXPECT_EQ(r["impl"], "cpu-naive");
  EXPECT_EQ(r["device"], "cpu");
  EXPECT_EQ(r["dtype"], "float32");
  EXPECT_EQ(r["m"], 9);
  EXPECT_EQ(r["k"], 11);
  EXPECT_TRUE(r["verified"].get<bool>());
  EXPECT_GT(r["median_ms"].get<double>(), 0);
  EXPECT_EQ(j["results"][1]["status"], "skipped");
  EXPECT_TRUE(j["results"][1]["median_ms"].is_null());
  const auto& c = j["context"];
  for (const char* field : {"devices", "driver", "runtime", "compiler", "flags", "commit", "date", "threads",
                            "hardware_threads", "environment", "sim_checks", "command", "seed"}) {
    EXPECT_TRUE(c.contains(field)) << field;
  }
  for (const char* env : {"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"}) {
    EXPECT_TRUE(c["environment"].contains(env)) << env;
  }
  EXPECT_FALSE(c["sim_checks"].get<bool>());
  EXPECT_EQ(c["command"], "gpulab bench --impls cpu-naive");
}

TEST(BenchReports, CsvMarkdownTableAndSvgCarryEveryRow) {
  BenchConfig config = small_config();
  const BenchReport report = run_bench(config);
  const std::string csv = format_csv(report);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + static_cast<long>(report.results.size()));
  EXPECT_EQ(csv.rfind("impl,device,", 0), 0u);
  const std::string md = format_markdown(report);
  EXPECT_NE(md.find("| cpu-naive | cpu | 33x31x29 |"), std::string::npos) << md;
  const std::string table = format_table(report);
  EXPECT_NE(table.find("cpu-naive"), std::string::npos);
  EXPECT_NE(table.find("pass"), std::string::npos);
  const std::string svg = render_svg_plot(report);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("cpu-naive @ cpu"), std::string::npos);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}

}  // namespace
