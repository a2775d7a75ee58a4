#pragma once
// The profiler's totals per kernel, from the launches' counts, and what reads them: the public API
// (gpulab/sim/profile.hpp), the summary on stderr at exit and the JSON of GPULAB_SIM_PROFILE_OUT.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/profiler/site_counts.hpp"

namespace gpulab::sim::detail {

struct LaunchShape {
  std::uint64_t blocks = 0;
  unsigned threads_per_block = 0;
  std::size_t dynamic_shared_bytes = 0;
};

// A launch of `kernel` starting while profiling: with instrumentation, its counts follow
// (profile_launch_counts); without, only the launch section is known.
// `function`: the kernel's code, whose symbol gives its name with template arguments.
void profile_launch_started(const std::string& kernel, const void* function, const LaunchShape& shape,
                            bool instrumented);
void profile_launch_counts(const std::string& kernel, const void* function, const SiteTable& sites,
                           const LaunchCounts& counts);

}  // namespace gpulab::sim::detail
