// The report as text: the guide's table (aligned columns for a terminal), the same as Markdown, and CSV.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <gpulab/bench/report.hpp>
#include <gpulab/error.hpp>
#include <gpulab/sim/profile.hpp>

namespace gpulab::bench {

ReportFormat parse_report_format(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "table") return ReportFormat::table;
  if (lower == "csv") return ReportFormat::csv;
  if (lower == "json") return ReportFormat::json;
  if (lower == "markdown" || lower == "md") return ReportFormat::markdown;
  throw InvalidArgument(fmt::format("--format '{}': not a format (choose table, csv, json or markdown)", name));
}

std::string format_report(const BenchReport& report, ReportFormat format) {
  switch (format) {
    case ReportFormat::table: return format_table(report);
    case ReportFormat::csv: return format_csv(report);
    case ReportFormat::json: return format_json(report);
    case ReportFormat::markdown: return format_markdown(report);
  }
  return {};
}

namespace {

std::string fmt_ms(double ms) {
  if (ms < 1) return fmt::format("{:.4f}", ms);
  if (ms < 100) return fmt::format("{:.3f}", ms);
  return fmt::format("{:.1f}", ms);
}
std::string fmt_rate(double g) {
  if (g < 10) return fmt::format("{:.2f}", g);
  if (g < 1000) return fmt::format("{:.1f}", g);
  return fmt::format("{:.0f}", g);
}
std::string fmt_ratio(const std::optional<double>& x) {
  if (!x) return "-";
  return *x < 10 ? fmt::format("{:.2f}x", *x) : fmt::format("{:.1f}x", *x);
}
std::string fmt_percent(const std::optional<double>& x) {
  if (!x) return "-";
  return *x < 10 ? fmt::format("{:.2f}%", *x) : fmt::format("{:.1f}%", *x);
}
std::string fmt_shape(const BenchResult& r) {
  if (r.m == r.n && r.n == r.k) return fmt::format("{}", r.m);
  return fmt::format("{}x{}x{}", r.m, r.n, r.k);
}
std::string device_cell(const BenchResult& r) { return r.simulated ? r.device + "*" : r.device; }

std::string status_of(const BenchResult& r) {
  if (r.skipped) return "skipped";
  if (!r.error.empty()) return "error";
  return r.failed() ? "FAIL" : "pass";
}

using Rows = std::vector<std::vector<std::string>>;

Rows main_rows(const BenchReport& report) {
  const bool int_run = !report.results.empty() && report.results.front().dtype == Dtype::int32;
  Rows rows;
  rows.push_back({"implementation", "device", "size", "time ms", "min-max ms", "first call ms", "speed-up",
                  int_run ? "GOP/s" : "GFLOP/s", "% peak", "vs peer", "rel error", "check"});
  for (const BenchResult& r : report.results) {
    if (r.skipped || !r.error.empty()) {
      const std::string why = r.skipped ? "skipped: " + r.skip_reason : "error: " + r.error;
      rows.push_back({r.impl, device_cell(r), fmt_shape(r), why});
      continue;
    }
    rows.push_back({r.impl, device_cell(r), fmt_shape(r), fmt_ms(r.median_ms),
                    fmt::format("{}-{}", fmt_ms(r.min_ms), fmt_ms(r.max_ms)), fmt_ms(r.first_call_ms),
                    fmt_ratio(r.speedup), fmt_rate(r.gflops), fmt_percent(r.percent_of_peak),
                    r.ratio_to_peer ? fmt_ratio(r.ratio_to_peer) + " " + r.peer : "-",
                    fmt::format("{:.1e}", r.rel_error), status_of(r)});
  }
  return rows;
}

Rows transfer_rows(const BenchReport& report) {
  Rows rows;
  for (const BenchResult& r : report.results) {
    if (!r.transfers) continue;
    if (rows.empty()) rows.push_back({"implementation", "device", "size", "H2D ms", "kernel ms", "D2H ms", "end-to-end ms"});
    rows.push_back({r.impl, device_cell(r), fmt_shape(r), fmt_ms(r.transfers->h2d_ms), fmt_ms(r.transfers->kernel_ms),
                    fmt_ms(r.transfers->d2h_ms), fmt_ms(r.transfers->end_to_end_ms)});
  }
  return rows;
}

Rows stream_rows(const BenchReport& report) {
  Rows rows;
  for (const BenchResult& r : report.results) {
    if (!r.streams) continue;
    const StreamsResult& s = *r.streams;
    if (rows.empty()) {
      rows.push_back({"implementation", "device", "size", "streams", "panels", "serial H2D+compute+D2H ms",
                      "pipelined ms", "overlap", "check"});
    }
    rows.push_back({r.impl, device_cell(r), fmt_shape(r), fmt::format("{}", s.streams), fmt::format("{}", s.panels),
                    fmt::format("{} + {} + {} = {}", fmt_ms(s.h2d_ms), fmt_ms(s.compute_ms), fmt_ms(s.d2h_ms), fmt_ms(s.parts_ms)),
                    fmt_ms(s.end_to_end_ms), fmt::format("{:.0f}%", 100 * s.overlap), s.verified ? "pass" : "FAIL"});
  }
  return rows;
}

Rows checked_rows(const BenchReport& report) {
  Rows rows;
  for (const BenchResult& r : report.results) {
    if (r.checked.empty()) continue;
    if (rows.empty()) rows.push_back({"implementation", "device", "size", "checks", "time ms", "min-max ms", "vs unchecked", "check"});
    rows.push_back({r.impl, device_cell(r), fmt_shape(r), "none", fmt_ms(r.median_ms),
                    fmt::format("{}-{}", fmt_ms(r.min_ms), fmt_ms(r.max_ms)), "1.00x", r.verified ? "pass" : "FAIL"});
    for (const CheckedTimes& c : r.checked) {
      rows.push_back({r.impl, device_cell(r), fmt_shape(r), c.checks, fmt_ms(c.median_ms),
                      fmt::format("{}-{}", fmt_ms(c.min_ms), fmt_ms(c.max_ms)), fmt_ratio(c.over_unchecked),
                      c.verified ? "pass" : "FAIL"});
    }
  }
  return rows;
}

double profile_metric(const RowProfile& p, const std::string& name) { return sim::metric_or_zero(p.metrics, name); }

// --profile: one call's counts, the profiler's cost beside the unchecked run, and the estimate.
Rows profile_rows(const BenchReport& report) {
  Rows rows;
  for (const BenchResult& r : report.results) {
    if (!r.profile) continue;
    const RowProfile& p = *r.profile;
    if (rows.empty()) {
      rows.push_back({"implementation", "size", "gld sect/req", "gst sect/req", "global MB moved", "shared wavefronts",
                      "bank conflicts", "DRAM MB", "hooks", "profiled", "est. ms (" + report.context.estimate_gpu + ")",
                      "bound", "check"});
    }
    const double moved = 32.0 * (profile_metric(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") +
                                 profile_metric(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"));
    const double wavefronts = profile_metric(p, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") +
                              profile_metric(p, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
    const double conflicts = profile_metric(p, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") +
                             profile_metric(p, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
    const double dram = profile_metric(p, "dram__bytes_read.sum") + profile_metric(p, "dram__bytes_write.sum");
    rows.push_back({r.impl, fmt_shape(r),
                    fmt::format("{:.2f}", profile_metric(p, "l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio")),
                    fmt::format("{:.2f}", profile_metric(p, "l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio")),
                    fmt::format("{:.1f}", moved / 1e6), fmt::format("{:.0f}", wavefronts), fmt::format("{:.0f}", conflicts),
                    fmt::format("{:.2f}", dram / 1e6), fmt_ratio(p.hooks_over_unchecked), fmt_ratio(p.profiled_over_unchecked),
                    fmt::format("{:.4f}", p.estimate.estimate_ms), p.estimate.bound, p.verified ? "pass" : "FAIL"});
  }
  return rows;
}

// Aligned columns; a row shorter than the header (a skipped row) lets its last cell run on.
std::string render_aligned(const Rows& rows) {
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    if (row.size() < rows.front().size()) continue;
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], row[c].size());
    }
  }
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (std::size_t c = 0; c < rows[r].size(); ++c) {
      const bool last = c + 1 == rows[r].size();
      line += last ? rows[r][c] : fmt::format("{:<{}}  ", rows[r][c], width[c]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    if (r == 0) {
      std::size_t total = 0;
      for (std::size_t w : width) total += w + 2;
      out += std::string(total > 2 ? total - 2 : 0, '-') + "\n";
    }
  }
  return out;
}

std::string render_markdown(const Rows& rows) {
  std::string out;
  const std::size_t cols = rows.front().size();
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line = "|";
    for (std::size_t c = 0; c < cols; ++c) {
      std::string cell = c < rows[r].size() ? rows[r][c] : "";
      for (char& ch : cell) {
        if (ch == '|') ch = '/';
      }
      line += " " + cell + " |";
    }
    out += line + "\n";
    if (r == 0) {
      std::string sep = "|";
      for (std::size_t c = 0; c < cols; ++c) sep += c >= 3 ? " ---: |" : " --- |";
      out += sep + "\n";
    }
  }
  return out;
}

std::string heading(const BenchReport& report) {
  const BenchContext& c = report.context;
  return fmt::format("gpulab bench: C = A * B, {}, seed {}; median of up to {} repeats after warm-up, first call apart; "
                     "every result verified (gpulab {}, commit {}, {})\n",
                     c.dtype, c.seed, c.repeat, c.version, c.commit, c.date);
}

std::string footnotes(const BenchReport& report) {
  std::string out;
  if (std::any_of(report.results.begin(), report.results.end(), [](const BenchResult& r) { return r.simulated; })) {
    out += "* simulated: CPU time, not GPU performance\n";
  }
  if (report.context.sim_checks) out += "simulator checks on (GPULAB_SIM_CHECK): simulated times include them\n";
  if (report.context.sim_profile) out += "simulator profiler on (GPULAB_SIM_PROFILE): simulated times include it\n";
  if (report.context.profile) {
    out += "--profile: one call's counts under Nsight Compute's definitions (docs/simulator.md); hooks and profiled: "
           "the simulator's time with the profiler's hooks alone and counting, over the unchecked run's; est. ms: a "
           "roofline estimate on " + report.context.estimate_gpu +
           " (the longest of compute, DRAM and L1/shared traffic at peak rates), not a measurement\n";
  }
  if (!report.context.baseline.empty()) out += "speed-up: over " + report.context.baseline + " at the same size\n";
  for (const DeviceSummary& d : report.context.devices) {
    // The host's summary already starts with its name.
    const bool detail_has_name = d.detail.rfind(d.name, 0) == 0;
    if (detail_has_name) {
      out += fmt::format("{}: {}", d.id, d.detail);
    } else {
      out += fmt::format("{}: {}{}", d.id, d.name, d.detail.empty() ? "" : " (" + d.detail + ")");
    }
    out += d.peak_gflops ? fmt::format(", peak {:.0f} GFLOP/s\n", *d.peak_gflops) : "\n";
  }
  return out;
}

}  // namespace

std::string format_table(const BenchReport& report) {
  std::string out = heading(report) + "\n" + render_aligned(main_rows(report));
  if (const Rows t = transfer_rows(report); !t.empty()) out += "\ntransfers (pinned host memory):\n" + render_aligned(t);
  if (const Rows s = stream_rows(report); !s.empty()) out += "\nstreams (row panels of C, pinned memory):\n" + render_aligned(s);
  if (const Rows c = checked_rows(report); !c.empty()) {
    out += "\nsimulator checks (--sim-checks; each repeat runs unchecked, then under each set):\n" + render_aligned(c);
  }
  if (const Rows p = profile_rows(report); !p.empty()) {
    out += "\nsimulator profile (--profile; each repeat runs unchecked, then hooks alone, then counting):\n" + render_aligned(p);
  }
  return out + "\n" + footnotes(report);
}

std::string format_markdown(const BenchReport& report) {
  std::string out = render_markdown(main_rows(report));
  if (const Rows t = transfer_rows(report); !t.empty()) out.append("\n").append(render_markdown(t));
  if (const Rows s = stream_rows(report); !s.empty()) out.append("\n").append(render_markdown(s));
  if (const Rows c = checked_rows(report); !c.empty()) out.append("\n").append(render_markdown(c));
  if (const Rows p = profile_rows(report); !p.empty()) out.append("\n").append(render_markdown(p));
  std::string notes = footnotes(report);
  std::string md_notes;
  std::size_t start = 0;
  while (start < notes.size()) {
    const std::size_t nl = notes.find('\n', start);
    md_notes += "- " + notes.substr(start, nl - start) + "\n";
    start = nl + 1;
  }
  return out + "\n" + md_notes;
}

namespace {
std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
std::string opt(const std::optional<double>& x) { return x ? fmt::format("{:.6g}", *x) : ""; }
// --sim-checks in one cell: "memcheck=40.5ms/5.71x/pass;racecheck=57.8ms/8.15x/pass".
std::string checked_cell(const BenchResult& r) {
  std::string out;
  for (const CheckedTimes& c : r.checked) {
    out += fmt::format("{}{}={:.6g}ms/{:.4g}x/{}", out.empty() ? "" : ";", c.checks, c.median_ms, c.over_unchecked,
                       c.verified ? "pass" : "FAIL");
  }
  return out;
}
}  // namespace

std::string format_csv(const BenchReport& report) {
  std::string out =
      "impl,device,device_name,dtype,compute_type,m,n,k,status,first_call_ms,median_ms,min_ms,max_ms,repeats,"
      "gflops,peak_gflops,percent_of_peak,speedup,peer,ratio_to_peer,rel_error,tolerance,verified,verify_method,"
      "h2d_ms,d2h_ms,end_to_end_ms,streams,streams_end_to_end_ms,streams_parts_ms,streams_overlap,sim_checks,"
      "profile_gld_sectors_per_request,profile_gst_sectors_per_request,profile_global_bytes_moved,"
      "profile_shared_wavefronts,profile_bank_conflicts,profile_dram_bytes,profile_hooks_over_unchecked,"
      "profile_over_unchecked,estimate_gpu,estimate_ms,estimate_bound,note\n";
  for (const BenchResult& r : report.results) {
    const bool ran = !r.skipped && r.error.empty();
    std::vector<std::string> cells = {
        r.impl, r.device, r.device_name, to_string(r.dtype), to_string(r.compute_type), std::to_string(r.m),
        std::to_string(r.n), std::to_string(r.k), status_of(r),
        ran ? fmt::format("{:.6g}", r.first_call_ms) : "", ran ? fmt::format("{:.6g}", r.median_ms) : "",
        ran ? fmt::format("{:.6g}", r.min_ms) : "", ran ? fmt::format("{:.6g}", r.max_ms) : "",
        ran ? std::to_string(r.repeats) : "", ran ? fmt::format("{:.6g}", r.gflops) : "", opt(r.peak_gflops),
        opt(r.percent_of_peak), opt(r.speedup), r.peer, opt(r.ratio_to_peer),
        ran ? fmt::format("{:.3e}", r.rel_error) : "", ran ? fmt::format("{:.3e}", r.tolerance) : "",
        ran ? (r.verified ? "true" : "false") : "", r.verify_method,
        r.transfers ? fmt::format("{:.6g}", r.transfers->h2d_ms) : "",
        r.transfers ? fmt::format("{:.6g}", r.transfers->d2h_ms) : "",
        r.transfers ? fmt::format("{:.6g}", r.transfers->end_to_end_ms) : "",
        r.streams ? std::to_string(r.streams->streams) : "",
        r.streams ? fmt::format("{:.6g}", r.streams->end_to_end_ms) : "",
        r.streams ? fmt::format("{:.6g}", r.streams->parts_ms) : "",
        r.streams ? fmt::format("{:.4f}", r.streams->overlap) : "",
        checked_cell(r)};
    const auto pm = [&](const std::string& name) { return r.profile ? fmt::format("{:.6g}", profile_metric(*r.profile, name)) : ""; };
    const auto psum = [&](std::initializer_list<const char*> names, double scale) {
      if (!r.profile) return std::string();
      double v = 0;
      for (const char* n : names) v += profile_metric(*r.profile, n);
      return fmt::format("{:.6g}", v * scale);
    };
    cells.push_back(pm("l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"));
    cells.push_back(pm("l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio"));
    cells.push_back(psum({"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}, 32));
    cells.push_back(psum({"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"}, 1));
    cells.push_back(psum({"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"}, 1));
    cells.push_back(psum({"dram__bytes_read.sum", "dram__bytes_write.sum"}, 1));
    cells.push_back(r.profile ? fmt::format("{:.4g}", r.profile->hooks_over_unchecked) : "");
    cells.push_back(r.profile ? fmt::format("{:.4g}", r.profile->profiled_over_unchecked) : "");
    cells.push_back(r.profile ? r.profile->estimate.gpu : "");
    cells.push_back(r.profile ? fmt::format("{:.6g}", r.profile->estimate.estimate_ms) : "");
    cells.push_back(r.profile ? r.profile->estimate.bound : "");
    cells.push_back(r.skipped ? r.skip_reason : r.error);
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) line += ',';
      line += csv_cell(cells[i]);
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace gpulab::bench
