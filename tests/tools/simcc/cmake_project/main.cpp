// Host C++ (compiled by the C++ compiler, not the CUDA one): checks run_saxpy against a double
// reference on random inputs of a size that is not a multiple of the block size.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "saxpy.hpp"

int main() {
  const int n = 1000;
  const float a = 1.75f;
  std::mt19937 rng(20250607);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = dist(rng);
    y[i] = dist(rng);
  }
  std::vector<float> result = y;
  const std::string error = run_saxpy(n, a, x.data(), result.data());
  if (!error.empty()) {
    std::printf("FAILED: run_saxpy: %s\n", error.c_str());
    return 1;
  }
  for (int i = 0; i < n; ++i) {
    const double expected = static_cast<double>(a) * x[i] + y[i];
    if (std::fabs(result[i] - expected) > 1e-5 * (1.0 + std::fabs(expected))) {
      std::printf("FAILED: y[%d] = %.9g, expected %.9g\n", i, result[i], expected);
      return 1;
    }
  }
  std::printf("PASSED: saxpy of %d values, built by CMake with gpulab-simcc as the CUDA compiler\n", n);
  return 0;
}
