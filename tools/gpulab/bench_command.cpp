// `gpulab bench`: the guide's measured comparison of matrix-multiplication implementations, done
// honestly (src/bench, docs/benchmarking.md). Only the report goes to stdout (or --out); progress and
// diagnostics go to stderr. Exit status: 0 when every row that ran was verified, 1 when one failed,
// 2 for a bad option or value (main turns the InvalidArgument thrown here into that).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

#include <unistd.h>

#include <fmt/format.h>

#include <gpulab/bench/bench.hpp>
#include <gpulab/bench/options.hpp>
#include <gpulab/bench/report.hpp>
#include <gpulab/error.hpp>
#include <gpulab/matmul.hpp>

#include "commands.hpp"

namespace gpulab::cli {

namespace {

struct BenchOptions {
  std::string device, impls, sizes, dtype = "float32", format = "table", out, plot, sim_checks;
  bool profile = false;
  std::string estimate_gpu = "h200";
  int repeat = 10, warmup = 1, threads = 0, streams = 0;
  double time_budget_ms = 2000, warmup_ms = 50;
  std::uint64_t seed = 42;
  bool include_transfers = false, list = false, no_progress = false;
};

std::unique_ptr<std::ofstream> open_for_writing(const std::string& path, const char* option) {
  auto f = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
  if (!*f) throw InvalidArgument(fmt::format("{} '{}': cannot open for writing ({})", option, path, std::strerror(errno)));
  return f;
}

void write_or_throw(std::ofstream& f, const std::string& text, const std::string& path) {
  f << text;
  f.flush();
  if (!f) throw Error(fmt::format("writing '{}' failed", path));
}

std::string list_implementations() {
  std::string out = "implementation  family  devices        dtypes                   description\n";
  for (const MatmulImpl* impl : matmul_impls()) {
    std::string devices, dtypes;
    for (DeviceKind k : impl->device_kinds()) devices += (devices.empty() ? "" : ",") + std::string(to_string(k));
    for (Dtype d : impl->dtypes) dtypes += (dtypes.empty() ? "" : ",") + std::string(to_string(d));
    const char* family = impl->family == MatmulFamily::cpu ? "cpu" : impl->family == MatmulFamily::gpu ? "gpu" : "peer";
    out += fmt::format("{:<15} {:<7} {:<14} {:<24} {}\n", impl->name, family, devices, dtypes, impl->description);
  }
  return out;
}

std::string command_line(const CLI::App& sub) {
  std::string cmd = "gpulab bench";
  for (const CLI::Option* o : sub.get_options()) {
    if (o->count() == 0 || o->get_name() == "--help") continue;
    cmd += " " + o->get_name();
    if (o->get_type_size() != 0) {
      for (const std::string& r : o->results()) cmd += " " + r;
    }
  }
  return cmd;
}

// A one-line bar on stderr, redrawn in place; only on a terminal, so logs and pipes stay clean.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled) {}
  ~ProgressBar() { finish(); }
  void update(int done, int total, const std::string& label) {
    if (!enabled_) return;
    constexpr int width = 30;
    const int filled = total > 0 ? done * width / total : width;
    std::fprintf(stderr, "\r\033[K[%s%s] %d/%d %s", std::string(static_cast<std::size_t>(filled), '#').c_str(),
                 std::string(static_cast<std::size_t>(width - filled), '.').c_str(), done, total, label.c_str());
    std::fflush(stderr);
    drawn_ = true;
  }
  void finish() {
    if (drawn_) std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
  }

 private:
  bool enabled_;
  bool drawn_ = false;
};

void run(const BenchOptions& o, const CLI::App& sub, CommandContext& ctx) {
  if (o.list) {
    std::fputs(list_implementations().c_str(), stdout);
    return;
  }
  bench::BenchConfig config;
  if (!o.impls.empty()) {
    config.impls = bench::parse_impl_list(o.impls);
    config.impls_explicit = true;
  }
  if (!o.device.empty()) config.devices = bench::parse_device_list(o.device);
  if (!o.sizes.empty()) config.shapes = bench::parse_shapes(o.sizes);
  if (!o.sim_checks.empty()) config.sim_check_sets = bench::parse_sim_check_sets(o.sim_checks);
  config.profile = o.profile;
  config.estimate_gpu = o.estimate_gpu;
  config.dtype = parse_dtype(o.dtype);
  const bench::ReportFormat format = bench::parse_report_format(o.format);
  if (o.repeat < 1) throw InvalidArgument(fmt::format("--repeat {}: needs at least 1", o.repeat));
  if (o.warmup < 1) throw InvalidArgument(fmt::format("--warmup {}: needs at least 1 (the first call counts)", o.warmup));
  if (o.streams < 0 || o.streams > 64) throw InvalidArgument(fmt::format("--streams {}: needs 0 to 64", o.streams));
  if (o.threads < 0) throw InvalidArgument(fmt::format("--threads {}: needs 0 (all cores) or more", o.threads));
  if (o.warmup_ms < 0) throw InvalidArgument(fmt::format("--warmup-ms {}: needs 0 or more", o.warmup_ms));
  if (o.time_budget_ms < 0) throw InvalidArgument(fmt::format("--time-budget {}: needs 0 (none) or more", o.time_budget_ms));
  config.repeat = o.repeat;
  config.warmup = o.warmup;
  config.warmup_ms = o.warmup_ms;
  config.threads = o.threads;
  config.streams = o.streams;
  config.time_budget_ms = o.time_budget_ms;
  config.include_transfers = o.include_transfers;
  config.seed = o.seed;
  config.command = command_line(sub);
  if (bench::plan_bench(config).empty()) {
    throw InvalidArgument("bench: none of the chosen implementations runs on the chosen devices");
  }
  // Open the files first, so that a bad path fails before minutes of measuring.
  std::unique_ptr<std::ofstream> out_file, plot_file;
  if (!o.out.empty()) out_file = open_for_writing(o.out, "--out");
  if (!o.plot.empty()) plot_file = open_for_writing(o.plot, "--plot");

  ProgressBar bar(!o.no_progress && ::isatty(STDERR_FILENO) == 1);
  const bench::BenchReport report =
      bench::run_bench(config, [&](int done, int total, const std::string& label) { bar.update(done, total, label); });
  bar.finish();

  const std::string text = bench::format_report(report, format);
  if (out_file) {
    write_or_throw(*out_file, text, o.out);
  } else {
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
  }
  if (plot_file) write_or_throw(*plot_file, bench::render_svg_plot(report), o.plot);

  const auto failed = std::count_if(report.results.begin(), report.results.end(),
                                    [](const bench::BenchResult& r) { return r.failed(); });
  if (failed > 0) {
    std::fprintf(stderr, "gpulab bench: %zd of %zu rows failed verification or did not run\n",
                 static_cast<std::ptrdiff_t>(failed), report.results.size());
    ctx.exit_code = 1;
  }
}

}  // namespace

void add_bench_command(CLI::App& app, CommandContext& ctx) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* sub = app.add_subcommand(
      "bench", "Time and verify matrix multiplication across implementations and devices (the guide's experiment)");
  sub->add_option("--device", options->device, "Devices: cpu, sim, cuda:N, or a comma list (default: every device the implementations run on)");
  sub->add_option("--impls", options->impls, "Implementations by registry name, comma separated (see --list)");
  sub->add_option("--sizes", options->sizes, "Sizes: n or MxNxK, comma separated (default: 1024; 256 on the simulator)");
  sub->add_option("--dtype", options->dtype, "float32, float64 or int32")->capture_default_str();
  sub->add_option("--repeat", options->repeat, "Timed runs at most (fewer for slow rows, by --time-budget)")->capture_default_str();
  sub->add_option("--warmup", options->warmup, "Untimed runs, the first call included")->capture_default_str();
  sub->add_option("--warmup-ms", options->warmup_ms, "Untimed runs go on until this long after the first call began")->capture_default_str();
  sub->add_option("--sim-checks", options->sim_checks,
                  "Simulator rows: also time them under these check sets, '+' joining the checks of one set "
                  "(memcheck,racecheck,memcheck+racecheck,all), each repeat unchecked then under each set");
  sub->add_flag("--profile", options->profile,
                "Simulator rows: also count what a GPU's counters would (sectors, bank conflicts, DRAM bytes), time "
                "the profiler against the unchecked run, and estimate the row's time on --estimate-gpu");
  sub->add_option("--estimate-gpu", options->estimate_gpu, "The GPU of --profile's roofline estimate: h200, h100 or a100")
      ->capture_default_str();
  sub->add_option("--time-budget", options->time_budget_ms, "Milliseconds of timed runs per row at most (0: no limit)")->capture_default_str();
  sub->add_flag("--include-transfers", options->include_transfers, "Also time H2D, D2H and end to end (pinned memory)");
  sub->add_option("--streams", options->streams, "Also pipeline row panels of C over K streams and report the overlap")->capture_default_str();
  sub->add_option("--format", options->format, "table, csv, json or markdown")->capture_default_str();
  sub->add_option("--out", options->out, "Write the report to FILE instead of stdout");
  sub->add_option("--plot", options->plot, "Write GFLOP/s against size as an SVG to FILE");
  sub->add_option("--seed", options->seed, "Seed of the Philox inputs")->capture_default_str();
  sub->add_option("--threads", options->threads, "Threads for the CPU implementations (0: all cores)")->capture_default_str();
  sub->add_flag("--no-progress", options->no_progress, "No progress bar (it only shows on a terminal anyway)");
  sub->add_flag("--list", options->list, "List the implementations and exit");
  sub->callback([options, sub, &ctx] { run(*options, *sub, ctx); });
}

}  // namespace gpulab::cli
