#pragma once
// Summary statistics of repeated timings: the median (robust to the odd slow run) with min and max.
#include <span>

namespace gpulab::bench {

struct SampleStats {
  int count = 0;
  double median = 0, min = 0, max = 0;
};

// The median of an even count is the mean of the two middle samples. Throws InvalidArgument when
// `samples` is empty or holds a NaN.
SampleStats summarize(std::span<const double> samples);

}  // namespace gpulab::bench
