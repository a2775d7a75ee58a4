// GFLOP/s against problem size as a standalone SVG (no scripts, no external fonts), readable without a
// legend: each implementation's line is labelled at its right end, each device's peak is a dashed
// line with its value, and the peer (cuBLAS, OpenBLAS) is drawn thicker. With --profile, each simulator
// row's roofline estimate on a GPU is a long-dashed line of its own, labelled "(estimate)".
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <gpulab/bench/report.hpp>

namespace gpulab::bench {

namespace {

struct Series {
  std::string label;
  bool peer = false, simulated = false, estimate = false;
  std::vector<std::pair<double, double>> points;  // (effective size, GFLOP/s)
};

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

constexpr const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
                                   "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#637939"};

}  // namespace

std::string render_svg_plot(const BenchReport& report) {
  std::map<std::string, Series> by_key;
  std::vector<std::string> order;
  for (const BenchResult& r : report.results) {
    if (r.skipped || !r.error.empty() || r.gflops <= 0) continue;
    const std::string key = r.impl + " @ " + r.device;
    if (!by_key.count(key)) {
      order.push_back(key);
      by_key[key] = Series{key + (r.simulated ? " (simulated)" : ""), r.family == MatmulFamily::peer, r.simulated, false, {}};
    }
    const double size = std::cbrt(static_cast<double>(r.m) * r.n * r.k);
    by_key[key].points.emplace_back(size, r.gflops);
    // --profile: the row's roofline estimate on a GPU, its own series, labelled as an estimate.
    if (r.profile && r.profile->estimate.gflops > 0) {
      const std::string est = r.impl + " @ " + r.profile->estimate.gpu + " (estimate)";
      if (!by_key.count(est)) {
        order.push_back(est);
        by_key[est] = Series{est, false, false, true, {}};
      }
      by_key[est].points.emplace_back(size, r.profile->estimate.gflops);
    }
  }
  struct Peak {
    std::string label;
    double gflops;
  };
  std::vector<Peak> peaks;
  for (const DeviceSummary& d : report.context.devices) {
    if (d.peak_gflops) peaks.push_back({fmt::format("{} peak {:.0f}", d.id, *d.peak_gflops), *d.peak_gflops});
  }

  constexpr double width = 960, height = 600, left = 80, right = 300, top = 50, bottom = 60;
  const double plot_w = width - left - right, plot_h = height - top - bottom;
  double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
  for (auto& [key, s] : by_key) {
    std::sort(s.points.begin(), s.points.end());
    for (auto [x, y] : s.points) {
      xmin = std::min(xmin, x);
      xmax = std::max(xmax, x);
      ymin = std::min(ymin, y);
      ymax = std::max(ymax, y);
    }
  }
  for (const Peak& p : peaks) ymax = std::max(ymax, p.gflops);
  if (by_key.empty()) {
    xmin = 1;
    xmax = 2;
    ymin = 1;
    ymax = 10;
  }
  // Log axes: whole powers of two in size, whole decades in GFLOP/s.
  const double lx0 = std::floor(std::log2(xmin)) - 0.25, lx1 = std::ceil(std::log2(xmax)) + 0.25;
  const double ly0 = std::floor(std::log10(ymin)), ly1 = std::ceil(std::log10(ymax * 1.05));
  const auto px = [&](double x) { return left + (std::log2(x) - lx0) / (lx1 - lx0) * plot_w; };
  const auto py = [&](double y) { return top + plot_h - (std::log10(y) - ly0) / std::max(ly1 - ly0, 1.0) * plot_h; };

  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height);
  svg += fmt::format("<text x=\"{}\" y=\"24\" font-size=\"16\">gpulab bench: C = A * B, {} (GFLOP/s, log scale)</text>\n",
                     left, escape(report.context.dtype));
  // Grid and axes.
  for (int e = static_cast<int>(ly0); e <= static_cast<int>(ly1); ++e) {
    const double y = py(std::pow(10.0, e));
    svg += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>\n", left, y, left + plot_w, y);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 6, y + 4,
                       e >= 0 ? fmt::format("{:.0f}", std::pow(10.0, e)) : fmt::format("{:g}", std::pow(10.0, e)));
  }
  for (int e = static_cast<int>(std::ceil(lx0)); e <= static_cast<int>(std::floor(lx1)); ++e) {
    const double x = px(std::pow(2.0, e));
    svg += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#eee\"/>\n", x, top, x, top + plot_h);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{:.0f}</text>\n", x, top + plot_h + 18, std::pow(2.0, e));
  }
  svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>\n", left, top, plot_w, plot_h);
  svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">problem size (cube root of m*n*k)</text>\n",
                     left + plot_w / 2, height - 18);
  svg += fmt::format("<text transform=\"translate(20 {:.1f}) rotate(-90)\" text-anchor=\"middle\">GFLOP/s</text>\n", top + plot_h / 2);

  // Labels at the right edge, pushed apart so that none overlaps.
  struct Label {
    double y;
    std::string text, color;
    bool bold;
  };
  std::vector<Label> labels;
  for (const Peak& p : peaks) {
    const double y = py(p.gflops);
    svg += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#555\" stroke-dasharray=\"6 4\"/>\n",
                       left, y, left + plot_w, y);
    labels.push_back({y, p.label, "#555", false});
  }
  std::size_t color = 0;
  for (const std::string& key : order) {
    const Series& s = by_key[key];
    const char* c = palette[color++ % std::size(palette)];
    const double stroke = s.peer ? 3.5 : 1.8;
    std::string pts;
    for (auto [x, y] : s.points) pts += fmt::format("{:.1f},{:.1f} ", px(x), py(y));
    svg += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n", pts, c, stroke,
                       s.simulated ? " stroke-dasharray=\"2 3\"" : s.estimate ? " stroke-dasharray=\"8 3\" stroke-opacity=\"0.7\"" : "");
    for (auto [x, y] : s.points) {
      svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\" fill=\"{}\"><title>{}: {:.3g} GFLOP/s at {:.0f}</title></circle>\n",
                         px(x), py(y), s.peer ? 4.5 : 3.5, c, escape(s.label), y, x);
    }
    labels.push_back({py(s.points.back().second), s.label + (s.peer ? " (peer)" : ""), c, s.peer});
  }
  std::sort(labels.begin(), labels.end(), [](const Label& a, const Label& b) { return a.y < b.y; });
  constexpr double gap = 14;
  for (std::size_t i = 1; i < labels.size(); ++i) labels[i].y = std::max(labels[i].y, labels[i - 1].y + gap);
  for (std::size_t i = labels.size(); i-- > 1;) {
    if (labels[i].y > top + plot_h + 20) labels[i].y = top + plot_h + 20;
    labels[i - 1].y = std::min(labels[i - 1].y, labels[i].y - gap);
  }
  for (const Label& l : labels) {
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\"{}>{}</text>\n", left + plot_w + 8, l.y + 4, l.color,
                       l.bold ? " font-weight=\"bold\"" : "", escape(l.text));
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace gpulab::bench
