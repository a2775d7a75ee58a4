#pragma once
// A bench report as text: the guide's table for a terminal, Markdown for the README, CSV, and JSON (the
// stable interface: docs/benchmarking.md documents its schema); and a plot as SVG.
#include <string>
#include <string_view>

#include <gpulab/bench/bench.hpp>

namespace gpulab::bench {

enum class ReportFormat { table, csv, json, markdown };
// "table", "csv", "json", "markdown" (or "md"); throws InvalidArgument naming the text and the choices.
ReportFormat parse_report_format(std::string_view name);

std::string format_report(const BenchReport& report, ReportFormat format);
std::string format_table(const BenchReport& report);
std::string format_markdown(const BenchReport& report);
std::string format_csv(const BenchReport& report);
std::string format_json(const BenchReport& report);

// GFLOP/s against problem size for each implementation and device, on log axes, with each device's
// peak and the peer drawn; every line is labelled at its end, so no legend is needed.
std::string render_svg_plot(const BenchReport& report);

}  // namespace gpulab::bench
