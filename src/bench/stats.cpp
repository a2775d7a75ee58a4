#include <gpulab/bench/stats.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include <gpulab/error.hpp>

namespace gpulab::bench {

SampleStats summarize(std::span<const double> samples) {
  if (samples.empty()) throw InvalidArgument("summarize: no samples (need at least 1)");
  std::vector<double> sorted(samples.begin(), samples.end());
  for (double s : sorted) {
    if (std::isnan(s)) throw InvalidArgument("summarize: a sample is NaN");
  }
  std::sort(sorted.begin(), sorted.end());
  SampleStats stats;
  stats.count = static_cast<int>(sorted.size());
  stats.min = sorted.front();
  stats.max = sorted.back();
  const std::size_t mid = sorted.size() / 2;
  stats.median = sorted.size() % 2 == 1 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
  return stats;
}

}  // namespace gpulab::bench
