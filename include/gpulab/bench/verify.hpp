#pragma once
// Verification of a matrix product against float64 (or, for int32, exact 64-bit) arithmetic.
//
// Up to `full_reference_limit` multiply-adds the whole product is recomputed and compared entry by
// entry (the relative Frobenius error). Beyond it, Freivalds' check: random vectors x, compare C x
// with A (B x), O(n^2) instead of O(n^3); with Gaussian x, ||(C - AB) x|| / ||AB x|| estimates the
// relative Frobenius error. Sampled entries, recomputed exactly, back it up. A reference is built once
// per input pair and checks every implementation's result.
#include <cstdint>
#include <string>
#include <vector>

#include <gpulab/dtype.hpp>
#include <gpulab/view.hpp>

namespace gpulab::bench {

// The arithmetic an implementation does, which sets its tolerance: float32 results computed with
// TF32 tensor cores round their inputs to 10 mantissa bits.
enum class ComputeType : std::uint8_t { float32, float64, tf32, int32 };

const char* to_string(ComputeType type);
// The compute type of an ordinary implementation of `dtype`.
ComputeType compute_type_of(Dtype dtype);
// Unit roundoff: 2^-24 (float32), 2^-53 (float64), 2^-11 (TF32), 0 (int32: exact).
double unit_roundoff(ComputeType type);

// c * u * sqrt(K): rounding errors of a K-term dot product grow like a random walk. 0 for int32.
inline constexpr double default_tolerance_factor = 4.0;
double matmul_tolerance(ComputeType type, int k, double factor = default_tolerance_factor);

struct VerifyOptions {
  std::int64_t full_reference_limit = std::int64_t{1} << 27;  // m*n*k up to which every entry is checked
  int freivalds_vectors = 4;
  int sampled_entries = 256;
  std::uint64_t seed = 0x5eed;  // for the random vectors and the sampled positions
  double tolerance_factor = default_tolerance_factor;
};

struct VerifyResult {
  double rel_error = 0;  // relative Frobenius error (estimated, with Freivalds); +inf with a NaN
  double tolerance = 0;
  bool passed = false;
  std::string method;  // "full float64 reference", "freivalds (4 float64 vectors) + 256 sampled entries"
};

// Everything needed to check any result of A * B (row-major host matrices).
template <class T>
class MatmulReference {
 public:
  MatmulReference(matrix_view<const T> a, matrix_view<const T> b, const VerifyOptions& options = {});

  // Checks `c` (host memory, m x n) against A * B with the tolerance of `type`.
  VerifyResult check(matrix_view<const T> c, ComputeType type) const;
  bool full() const noexcept { return full_; }
  int m() const noexcept { return m_; }
  int n() const noexcept { return n_; }
  int k() const noexcept { return k_; }

 private:
  int m_ = 0, n_ = 0, k_ = 0;
  bool full_ = false;
  VerifyOptions options_;
  std::vector<double> c_full_;  // m x n, when full_
  int vectors_ = 0;
  std::vector<double> x_;       // n x vectors, row-major
  std::vector<double> y_;       // m x vectors: A (B x)
  struct Sample {
    int i, j;
    double value;
  };
  std::vector<Sample> samples_;
};

extern template class MatmulReference<float>;
extern template class MatmulReference<double>;
extern template class MatmulReference<std::int32_t>;

}  // namespace gpulab::bench
