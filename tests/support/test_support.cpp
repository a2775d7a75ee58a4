#include "test_support.hpp"

#include <chrono>
#include <cmath>
#include <limits>

#include <gpulab/device.hpp>

namespace gpulab::testing {

std::uint64_t fresh_seed() {
  static std::random_device device;
  const auto now = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return (static_cast<std::uint64_t>(device()) << 32) ^ now;
}

template <class T>
std::vector<T> random_vector(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<T> v(n);
  for (auto& x : v) {
    double d = dist(rng);
    // Keep every entry away from zero: a zero hides a missed multiply.
    if (std::abs(d) < 1e-3) d = 0.5;
    x = static_cast<T>(d);
  }
  return v;
}
template std::vector<float> random_vector<float>(std::size_t, std::uint64_t);
template std::vector<double> random_vector<double>(std::size_t, std::uint64_t);

std::vector<std::int32_t> random_int_vector(std::size_t n, std::uint64_t seed, int limit) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> dist(-limit, limit);
  std::vector<std::int32_t> v(n);
  for (auto& x : v) {
    int d = dist(rng);
    x = d == 0 ? 1 : d;
  }
  return v;
}

template <class T>
void poison(std::span<T> values) {
  for (auto& x : values) {
    if constexpr (std::numeric_limits<T>::has_quiet_NaN) {
      x = std::numeric_limits<T>::quiet_NaN();
    } else {
      x = std::numeric_limits<T>::min();
    }
  }
}
template void poison<float>(std::span<float>);
template void poison<double>(std::span<double>);
template void poison<std::int32_t>(std::span<std::int32_t>);

template <class G>
static double rel_error_impl(std::span<const double> ref, std::span<const G> got) {
  if (ref.size() != got.size()) return std::numeric_limits<double>::infinity();
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const double g = static_cast<double>(got[i]);
    if (!std::isfinite(g)) return std::numeric_limits<double>::infinity();
    const long double d = static_cast<long double>(g) - ref[i];
    num += d * d;
    den += static_cast<long double>(ref[i]) * ref[i];
  }
  if (den == 0) return num == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return static_cast<double>(std::sqrt(num / den));
}
double rel_frobenius_error(std::span<const double> ref, std::span<const float> got) { return rel_error_impl(ref, got); }
double rel_frobenius_error(std::span<const double> ref, std::span<const double> got) {
  return rel_error_impl(ref, got);
}

std::string no_gpu_reason() {
  const CudaStatus status = cuda_status();
  if (!status.built_with_cuda) return "no GPU: gpulab was built without the CUDA backend";
  if (status.usable()) return {};
  if (status.error_code != 0) {
    return "no GPU: cudaGetDeviceCount failed with " + status.error_name + " (" + status.error_text + ")";
  }
  return "no GPU: the CUDA driver reports no devices";
}

}  // namespace gpulab::testing
