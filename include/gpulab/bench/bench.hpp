#pragma once
// The bench engine behind `gpulab bench`: runs matrix products through the implementations of the
// matmul registry on the chosen devices, times them honestly and verifies every result.
//
// Method (docs/benchmarking.md): the first call is timed apart (compilation, module load, handle
// creation) and excluded; then warm-up calls; then repeats, timed with device events on GPUs and the
// simulator and with a steady clock on the CPU, summarised by median, min and max. Inputs come from
// Philox (gpulab/random), never zeros, rotated over several sets when they would otherwise sit in
// cache. Every result is verified against float64 (or exactly, for int32).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gpulab/bench/roofline.hpp>
#include <gpulab/bench/verify.hpp>
#include <gpulab/device.hpp>
#include <gpulab/dtype.hpp>
#include <gpulab/matmul.hpp>

namespace gpulab::bench {

struct MatmulShape {
  int m = 0, n = 0, k = 0;
  friend bool operator==(const MatmulShape&, const MatmulShape&) = default;
};

struct BenchConfig {
  std::vector<const MatmulImpl*> impls;  // empty: every registered implementation
  bool impls_explicit = false;           // named by the user: refusals show as skipped rows
  std::vector<Device> devices;           // empty: every device the implementations run on
  std::vector<MatmulShape> shapes;       // empty: the default experiment (1024; 256 on the simulator)
  Dtype dtype = Dtype::float32;
  int repeat = 10;                       // timed runs, at most
  int warmup = 1;                        // untimed runs, the first call included
  // ... and untimed runs go on until this long after the first call began: a fresh process's worker
  // threads can share one core for tens of milliseconds before the scheduler spreads them (measured on
  // the simulator: docs/benchmarking.md).
  double warmup_ms = 50;
  double time_budget_ms = 2000;          // per row: fewer repeats for slow implementations (0: none)
  bool include_transfers = false;
  int streams = 0;                       // > 0: also run the row-panel pipeline over this many streams
  std::uint64_t seed = 42;
  int threads = 0;                       // CPU implementations; 0: all cores
  // --sim-checks: sets of the simulator's checks (CheckFlags), each timed on every simulator row,
  // interleaved repeat by repeat with the row's unchecked run, so that the checks' cost is a ratio
  // measured side by side in one process. Empty: none.
  std::vector<unsigned> sim_check_sets;
  // --profile: simulator rows also run with the profiler's hooks alone and with the profiler counting,
  // interleaved with the unchecked runs as the check sets are, and carry one call's counts and a
  // roofline estimate of it on `estimate_gpu` (roofline.hpp).
  bool profile = false;
  std::string estimate_gpu = "h200";
  VerifyOptions verify{};
  std::string command;                   // as typed, for the report
};

// The size the default experiment uses on the simulator: large enough for the rungs to differ, small
// enough that every rung finishes in seconds (measured: docs/benchmarking.md).
inline constexpr int default_size = 1024;
inline constexpr int default_sim_size = 256;

struct TransferTimes {
  double h2d_ms = 0, kernel_ms = 0, d2h_ms = 0, end_to_end_ms = 0;  // medians
};

struct StreamsResult {
  int streams = 0, panels = 0;
  double end_to_end_ms = 0;  // the pipelined run, median
  double h2d_ms = 0, compute_ms = 0, d2h_ms = 0;  // the same work run serially on one stream, medians
  double parts_ms = 0;       // h2d + compute + d2h
  double overlap = 0;        // 1 - end_to_end / parts: the share of the serial time that overlap hid
  double rel_error = 0;
  bool verified = false;
};

// A simulator row under one set of checks (--sim-checks), timed in the same repeats as the row.
struct CheckedTimes {
  std::string checks;  // "memcheck,racecheck"
  double median_ms = 0, min_ms = 0, max_ms = 0;
  std::vector<double> samples_ms;
  double over_unchecked = 0;  // this median / the row's (unchecked) median
  double rel_error = 0, tolerance = 0;
  bool verified = false;
};

// A simulator row's profile (--profile): the counts of one call (summed over its kernels), the cost of
// counting them, and what they would take on a GPU.
struct RowProfile {
  std::vector<std::string> kernels;
  std::map<std::string, double> metrics;  // Nsight Compute's names (docs/simulator.md, "The profiler")
  double hooks_ms = 0, profiled_ms = 0;    // medians: the hooks alone, and counting
  double hooks_over_unchecked = 0, profiled_over_unchecked = 0;
  RooflineEstimate estimate;
  double rel_error = 0, tolerance = 0;
  bool verified = false;  // the profiled call's product
};

struct BenchResult {
  std::string impl, impl_description;
  MatmulFamily family = MatmulFamily::gpu;
  std::string device;       // the id as typed: "cpu", "sim", "cuda:0"
  std::string device_name;
  DeviceKind device_kind = DeviceKind::host;
  Dtype dtype = Dtype::float32;
  ComputeType compute_type = ComputeType::float32;
  int m = 0, n = 0, k = 0;

  bool skipped = false;
  std::string skip_reason;
  std::string error;        // a failure while running (a kernel fault, out of memory)
  bool simulated = false;   // simulator: CPU time, not GPU performance

  int repeats = 0, warmup = 0, input_sets = 0;
  double first_call_ms = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  std::vector<double> samples_ms;
  double gflops = 0;        // 2mnk / median (GOP/s for int32)
  std::optional<double> peak_gflops, percent_of_peak;
  std::optional<double> speedup;        // over the baseline (cpu-naive) at the same shape
  std::string peer;                     // the peer it is compared to (cuBLAS, OpenBLAS)
  std::optional<double> ratio_to_peer;  // this / peer, in GFLOP/s

  double rel_error = 0, tolerance = 0;
  bool verified = false;
  std::string verify_method;

  std::optional<TransferTimes> transfers;
  std::optional<StreamsResult> streams;
  std::vector<CheckedTimes> checked;  // --sim-checks, simulator rows
  std::optional<RowProfile> profile;  // --profile, simulator rows

  bool failed() const noexcept {
    return !skipped && (!verified || (streams && !streams->verified) || (profile && !profile->verified) ||
                        std::any_of(checked.begin(), checked.end(), [](const CheckedTimes& c) { return !c.verified; }));
  }
};

struct DeviceSummary {
  std::string id, name;
  std::string detail;  // compute capability and SMs, or the CPU's ISA and clock
  std::optional<double> peak_gflops;  // for the run's dtype
};

struct BenchContext {
  std::vector<DeviceSummary> devices;
  std::string driver, runtime, compiler, flags, build_type, commit, version, date, host;
  int threads = 0;           // as asked (0: all)
  int hardware_threads = 0;
  std::vector<std::pair<std::string, std::string>> environment;  // name, value ("" when unset)
  bool sim_checks = false;   // the simulator's memcheck/racecheck (off: plain kernels were timed)
  bool sim_profile = false;  // GPULAB_SIM_PROFILE was on for every run
  bool profile = false;      // --profile
  std::string estimate_gpu;  // --estimate-gpu, its name
  std::string command;
  std::string dtype;
  std::uint64_t seed = 0;
  int repeat = 0, warmup = 0;
  double warmup_ms = 0;
  double time_budget_ms = 0;
  std::vector<std::string> sim_check_sets;  // --sim-checks, as format_checks writes them
  bool include_transfers = false;
  int streams = 0;
  std::string baseline;      // the implementation speed-ups are over
};

struct BenchReport {
  std::vector<BenchResult> results;
  BenchContext context;
  bool all_verified() const;  // every row that ran passed
};

// Called after each row with (rows done, rows in all, what just ran), e.g. for a progress bar.
using BenchProgress = std::function<void(int done, int total, const std::string& label)>;

// Runs the plan. Throws InvalidArgument for an empty plan; failures inside a row are recorded in it.
BenchReport run_bench(const BenchConfig& config, const BenchProgress& progress = {});

// The (impl, device, shape) rows run_bench would run, in order, without running them.
struct PlannedRow {
  const MatmulImpl* impl = nullptr;
  Device device;
  MatmulShape shape;
};
std::vector<PlannedRow> plan_bench(const BenchConfig& config);

// The peak rate of `device` for `type` in GFLOP/s (GOP/s for int32), where it is known; none for the
// simulator, whose speed is the host's.
std::optional<double> device_peak_gflops(const Device& device, ComputeType type, int threads = 0);

// The run's context: devices, driver, compiler, commit, environment.
BenchContext collect_context(const BenchConfig& config, const std::vector<Device>& devices);

}  // namespace gpulab::bench
