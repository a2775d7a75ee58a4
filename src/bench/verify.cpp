#include <gpulab/bench/verify.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include <fmt/format.h>

#include <gpulab/error.hpp>
#include <gpulab/random/distributions.hpp>

namespace gpulab::bench {

const char* to_string(ComputeType type) {
  switch (type) {
    case ComputeType::float32: return "float32";
    case ComputeType::float64: return "float64";
    case ComputeType::tf32: return "tf32";
    case ComputeType::int32: return "int32";
  }
  return "?";
}

ComputeType compute_type_of(Dtype dtype) {
  switch (dtype) {
    case Dtype::float32: return ComputeType::float32;
    case Dtype::float64: return ComputeType::float64;
    case Dtype::int32: return ComputeType::int32;
  }
  return ComputeType::float32;
}

double unit_roundoff(ComputeType type) {
  switch (type) {
    case ComputeType::float32: return 0x1p-24;
    case ComputeType::float64: return 0x1p-53;
    case ComputeType::tf32: return 0x1p-11;
    case ComputeType::int32: return 0;
  }
  return 0;
}

double matmul_tolerance(ComputeType type, int k, double factor) {
  return factor * unit_roundoff(type) * std::sqrt(static_cast<double>(std::max(k, 1)));
}

namespace {

constexpr bool is_integer_dtype(Dtype d) { return d == Dtype::int32; }

// The accumulator of the reference: exact 64-bit integers for int32, double otherwise.
template <class T>
using Acc = std::conditional_t<std::is_integral_v<T>, std::int64_t, double>;

template <class T>
void check_host_matrix(const matrix_view<const T>& v, const char* what) {
  if (v.space() != host_space) {
    throw InvalidArgument(fmt::format("verify: {} lives on {}; the reference needs host memory", what,
                                      to_string(v.space())));
  }
}

}  // namespace

template <class T>
MatmulReference<T>::MatmulReference(matrix_view<const T> a, matrix_view<const T> b, const VerifyOptions& options)
    : m_(a.rows()), n_(b.cols()), k_(a.cols()), options_(options) {
  if (b.rows() != a.cols()) {
    throw InvalidArgument(fmt::format("verify: A is {}x{} but B is {}x{}; A's columns must equal B's rows",
                                      a.rows(), a.cols(), b.rows(), b.cols()));
  }
  check_host_matrix(a, "A");
  check_host_matrix(b, "B");
  using A = Acc<T>;
  const auto work = static_cast<std::int64_t>(m_) * n_ * std::max(k_, 1);
  full_ = work <= options.full_reference_limit;
  if (full_) {
    // i-k-j order: the inner loop runs along rows of B and C, which the compiler vectorises.
    std::vector<A> row(static_cast<std::size_t>(n_));
    c_full_.assign(static_cast<std::size_t>(m_) * n_, 0.0);
    for (int i = 0; i < m_; ++i) {
      std::fill(row.begin(), row.end(), A{0});
      for (int p = 0; p < k_; ++p) {
        const A aip = static_cast<A>(a(i, p));
        for (int j = 0; j < n_; ++j) row[j] += aip * static_cast<A>(b(p, j));
      }
      for (int j = 0; j < n_; ++j) c_full_[static_cast<std::size_t>(i) * n_ + j] = static_cast<double>(row[j]);
    }
    return;
  }
  const random::Philox philox(options.seed, 0xf4e1'0a1dULL);
  vectors_ = std::max(options.freivalds_vectors, 1);
  const int v = vectors_;
  x_.resize(static_cast<std::size_t>(n_) * v);
  for (std::size_t idx = 0; idx < x_.size(); ++idx) {
    x_[idx] = is_integer_dtype(dtype_of<T>())
                  ? static_cast<double>(random::uniform_nonzero_int(philox.word(idx), 8))
                  : static_cast<double>(random::normal_at(philox, idx));
  }
  // y = A (B x): two O(n^2) products.
  std::vector<A> bx(static_cast<std::size_t>(k_) * v, A{0});
  for (int p = 0; p < k_; ++p) {
    for (int j = 0; j < n_; ++j) {
      const A bpj = static_cast<A>(b(p, j));
      for (int q = 0; q < v; ++q) bx[static_cast<std::size_t>(p) * v + q] += bpj * static_cast<A>(x_[static_cast<std::size_t>(j) * v + q]);
    }
  }
  y_.assign(static_cast<std::size_t>(m_) * v, 0.0);
  for (int i = 0; i < m_; ++i) {
    for (int q = 0; q < v; ++q) {
      A s{0};
      for (int p = 0; p < k_; ++p) s += static_cast<A>(a(i, p)) * bx[static_cast<std::size_t>(p) * v + q];
      y_[static_cast<std::size_t>(i) * v + q] = static_cast<double>(s);
    }
  }
  const random::Philox positions(options.seed, 0x5a3b1eULL);
  const int count = std::max(options.sampled_entries, 0);
  samples_.reserve(static_cast<std::size_t>(count));
  for (int s = 0; s < count; ++s) {
    const int i = static_cast<int>(positions.word(2 * static_cast<std::uint64_t>(s)) % static_cast<std::uint32_t>(m_));
    const int j = static_cast<int>(positions.word(2 * static_cast<std::uint64_t>(s) + 1) % static_cast<std::uint32_t>(n_));
    A dot{0};
    for (int p = 0; p < k_; ++p) dot += static_cast<A>(a(i, p)) * static_cast<A>(b(p, j));
    samples_.push_back({i, j, static_cast<double>(dot)});
  }
}

template <class T>
VerifyResult MatmulReference<T>::check(matrix_view<const T> c, ComputeType type) const {
  if (c.rows() != m_ || c.cols() != n_) {
    throw InvalidArgument(
        fmt::format("verify: C is {}x{} but the reference is {}x{}", c.rows(), c.cols(), m_, n_));
  }
  check_host_matrix(c, "C");
  constexpr double inf = std::numeric_limits<double>::infinity();
  VerifyResult result;
  result.tolerance = matmul_tolerance(type, k_, options_.tolerance_factor);
  const auto finish = [&](double err) {
    result.rel_error = err;
    // A NaN error (0/0 cannot happen: inputs are never all zero) counts as a failure.
    result.passed = std::isfinite(err) && err <= result.tolerance;
    return result;
  };
  // ||got - want|| / ||want|| over pairs of values, +inf as soon as a value is not finite.
  struct Ratio {
    long double num = 0, den = 0;
    bool bad = false;
    void add(double got, double want) {
      if (!std::isfinite(got)) bad = true;
      const long double d = static_cast<long double>(got) - want;
      num += d * d;
      den += static_cast<long double>(want) * want;
    }
    double value() const {
      if (bad) return inf;
      if (den == 0) return num == 0 ? 0.0 : inf;
      return static_cast<double>(std::sqrt(num / den));
    }
  };
  if (full_) {
    result.method = "full float64 reference";
    if (std::is_integral_v<T>) result.method = "full exact int64 reference";
    Ratio r;
    for (int i = 0; i < m_; ++i) {
      for (int j = 0; j < n_; ++j) r.add(static_cast<double>(c(i, j)), c_full_[static_cast<std::size_t>(i) * n_ + j]);
    }
    return finish(r.value());
  }
  result.method = fmt::format("freivalds ({} {} vectors) + {} sampled entries", vectors_,
                              std::is_integral_v<T> ? "int64" : "float64", samples_.size());
  using A = Acc<T>;
  Ratio fr;
  const int v = vectors_;
  std::vector<A> cx(static_cast<std::size_t>(v));
  for (int i = 0; i < m_; ++i) {
    std::fill(cx.begin(), cx.end(), A{0});
    bool bad = false;
    for (int j = 0; j < n_; ++j) {
      const T cij = c(i, j);
      if constexpr (!std::is_integral_v<T>) {
        if (!std::isfinite(cij)) bad = true;
      }
      for (int q = 0; q < v; ++q) cx[q] += static_cast<A>(cij) * static_cast<A>(x_[static_cast<std::size_t>(j) * v + q]);
    }
    if (bad) return finish(inf);
    for (int q = 0; q < v; ++q) fr.add(static_cast<double>(cx[q]), y_[static_cast<std::size_t>(i) * v + q]);
  }
  Ratio sr;
  for (const Sample& s : samples_) sr.add(static_cast<double>(c(s.i, s.j)), s.value);
  return finish(std::max(fr.value(), sr.value()));
}

template class MatmulReference<float>;
template class MatmulReference<double>;
template class MatmulReference<std::int32_t>;

}  // namespace gpulab::bench
