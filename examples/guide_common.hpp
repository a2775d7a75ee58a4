#pragma once
// What the guide's example programs share: the kernels' signature, Philox inputs, the guide's launch
// configuration, timers, and the check against float64.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gpulab/array.hpp>
#include <gpulab/bench/verify.hpp>
#include <gpulab/device.hpp>
#include <gpulab/launch.hpp>
#include <gpulab/stream.hpp>
#include <gpulab/random/distributions.hpp>

namespace guide {

using MatmulKernel = gpulab::Kernel<void(gpulab::matrix_view<const float>, gpulab::matrix_view<const float>,
                                         gpulab::matrix_view<float>)>;

// The guide's inputs: np.random.rand, uniform in [0, 1) (here (0, 1]: never 0), from Philox.
template <gpulab::MemoryKind Kind>
void fill_uniform(gpulab::BasicArray<float, 2, Kind>& m, std::uint64_t seed, std::uint64_t stream) {
  const gpulab::random::Philox philox(seed, stream);
  for (gpulab::index_t idx = 0; idx < m.size(); ++idx) {
    m.data()[idx] = gpulab::random::uniform_float_open(philox.word(static_cast<std::uint64_t>(idx)));
  }
}

// The guide's launch: 16x16 threads, ceil(n / 16) blocks along each axis; x covers the rows of C.
inline gpulab::LaunchConfig guide_launch(int rows, int cols, const gpulab::Stream& stream = {}) {
  const gpulab::Dim3 block(16, 16);
  return gpulab::LaunchConfig{gpulab::Dim3(gpulab::grid_for(rows, 16), gpulab::grid_for(cols, 16)), block, 0, stream};
}

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The median, in seconds, of `repeats` launches of one of the guide's kernels on an n x n problem, each
// timed between device events. The caller makes the first call (module load, JIT) beforehand, so that
// none of it is counted here, which is what the guide got wrong.
inline double median_kernel_seconds(const MatmulKernel& kernel, const gpulab::Device& device,
                                    const gpulab::Stream& stream, const gpulab::DeviceArray<float, 2>& d_a,
                                    const gpulab::DeviceArray<float, 2>& d_b, gpulab::DeviceArray<float, 2>& d_c,
                                    int repeats = 5) {
  const int n = static_cast<int>(d_a.rows());
  std::vector<double> runs;
  gpulab::Event start(device), stop(device);
  for (int r = 0; r < repeats; ++r) {
    start.record(stream);
    gpulab::launch(kernel, guide_launch(n, n, stream), d_a.cview(), d_b.cview(), d_c.view());
    stop.record(stream);
    stop.synchronize();
    runs.push_back(gpulab::elapsed_ms(start, stop) / 1e3);
  }
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

// The size from the command line, or a default that finishes quickly on the simulator.
inline int size_from_args(int argc, char** argv, int fallback) {
  if (argc < 2) return fallback;
  const int n = std::atoi(argv[1]);
  if (n < 1 || n > 16384) {
    std::fprintf(stderr, "%s: size '%s' must be in [1, 16384]\n", argv[0], argv[1]);
    std::exit(2);
  }
  return n;
}

inline std::string describe(const gpulab::bench::VerifyResult& v) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "rel error %.2e (tolerance %.1e): %s", v.rel_error, v.tolerance,
                v.passed ? "correct" : "WRONG");
  return buf;
}

}  // namespace guide
