#pragma once
// Helpers every test uses: fresh random inputs (never zeros), NaN poisoning, the float64 reference and
// the relative Frobenius error, and the skip for tests that need a GPU.
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace gpulab::testing {

// A seed that differs from run to run (printed by the test on failure), so inputs are always fresh.
std::uint64_t fresh_seed();

// Uniform in [-1, 1), never all zero.
template <class T>
std::vector<T> random_vector(std::size_t n, std::uint64_t seed);
// Small integers in [-limit, limit], so int32 products are exact.
std::vector<std::int32_t> random_int_vector(std::size_t n, std::uint64_t seed, int limit = 8);

// Fills with NaN (or, for integers, a sentinel) so an element that was never written shows.
template <class T>
void poison(std::span<T> values);

// ||got - ref||_F / ||ref||_F; NaN anywhere in `got` gives +infinity.
double rel_frobenius_error(std::span<const double> ref, std::span<const float> got);
double rel_frobenius_error(std::span<const double> ref, std::span<const double> got);

// Reason a GPU test cannot run here, or empty when a CUDA device is usable.
std::string no_gpu_reason();

}  // namespace gpulab::testing

// In a test labelled `gpu`: skips with the reason when no CUDA device is usable.
#define GPULAB_REQUIRE_GPU()                                                   \
  do {                                                                         \
    const std::string gpulab_no_gpu_reason = ::gpulab::testing::no_gpu_reason(); \
    if (!gpulab_no_gpu_reason.empty()) GTEST_SKIP() << gpulab_no_gpu_reason;  \
  } while (0)
