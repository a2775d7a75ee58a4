// The host generators' sequences (generator.hpp), from the device API's generators
// (<gpulab/sim/device/curand_*.hpp>), laid out as cuRAND's host API lays them out.
#include "simcuda/curand/generator.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <fmt/format.h>

#include <gpulab/sim/device/curand_common.hpp>
#include <gpulab/sim/device/curand_mrg32k3a.hpp>
#include <gpulab/sim/device/curand_philox.hpp>
#include <gpulab/sim/device/curand_xorwow.hpp>
#include <gpulab/sim/device/math_functions.hpp>

namespace gpulab::sim::curand {

namespace {
constexpr std::uint64_t xorwow_threads = 4096, mrg_threads = 81920, philox_threads = 65536;

// mean + stddev z: a multiply and an add, each rounded, as the toolkit's host generator computes it.
template <class T>
T scaled(T z, T mean, T stddev) {
  const volatile T product = stddev * z;  // kept apart from the add: -ffp-contract must not fuse them
  return product + mean;
}

// The device API's Poisson count from one word (cuRAND's _curand_poisson, which its device API applies
// to quasi-random words): Fishman's inversion in blocks of e^-500 below a mean of 1000, a rounded normal
// quantile from the same word above.
unsigned int poisson_of_word(std::uint32_t x, double lambda) {
  if (lambda < 1000) {
    const double u = static_cast<double>(x) * two_pow_m32 + two_pow_m32 / 2.0;  // in (0, 1)
    double p = 1.0, q = 1.0, L = 0;
    unsigned int k = 0;
    int power = 0;
    do {
      L = lambda > power + 500.0 ? std::exp(-500.0) : std::exp(static_cast<double>(power) - lambda);
      p *= L;
      q *= L;
      power += 500;
      while (u > q) {
        ++k;
        p *= lambda / static_cast<double>(k);
        q += p;
      }
    } while (static_cast<double>(power) < lambda);
    return k;
  }
  // The normal quantile of the word, mirrored about 1/2 to keep its precision.
  double s = -1.4142135623730951;
  std::uint32_t t = x;
  if (t > 0x80000000u) {
    t = 0xffffffffu - t;
    s = -s;
  }
  const double p = static_cast<double>(t) * two_pow_m32 + two_pow_m32 / 2.0;  // in (0, 1/2]
  const double z = s * static_cast<double>(gpulab::sim::math::erfcinv(static_cast<gpulab::sim::math::Wide>(2.0 * p)));
  return static_cast<unsigned int>(std::sqrt(lambda) * z + lambda + 0.5);
}
}  // namespace

Sequence::Sequence(RngKind kind, std::uint64_t seed) : kind_(kind), seed_(seed) {
  if (kind == RngKind::xorwow) {
    xorwow_.resize(xorwow_threads);
    xorwow_init(seed, 0, 0, xorwow_[0]);
    for (std::size_t t = 1; t < xorwow_.size(); ++t) {
      xorwow_[t] = xorwow_[t - 1];
      xorwow_skipahead_sequence(1, xorwow_[t]);
    }
  } else if (kind == RngKind::mrg32k3a) {
    mrg_.resize(mrg_threads);
    mrg32k3a_init(seed, 0, 0, mrg_[0]);
    for (std::size_t t = 1; t < mrg_.size(); ++t) {
      mrg_[t] = mrg_[t - 1];
      mrg32k3a_skipahead_subsequence(1, mrg_[t]);
    }
  }
}

Sequence::~Sequence() = default;

std::uint64_t Sequence::threads() const noexcept {
  switch (kind_) {
    case RngKind::xorwow: return xorwow_threads;
    case RngKind::mrg32k3a: return mrg_threads;
    case RngKind::philox4_32_10: break;
  }
  return philox_threads;
}

std::uint64_t Batch::words_of(std::uint64_t thread) const {
  auto it = std::upper_bound(words.begin(), words.end(), thread,
                             [](std::uint64_t t, const std::pair<std::uint64_t, std::uint64_t>& r) { return t < r.first; });
  return it == words.begin() ? 0 : std::prev(it)->second;
}

// The batch's calls, grouped by thread: each thread's state is made once, at its word count, and
// stepped through its calls T apart (each call reads its w words). `fill(state, values)` makes one
// call's c values.
template <class T, class Fill>
void Sequence::run(const Batch& b, T* out, Fill&& fill) const {
  if (b.n == 0) return;
  const std::uint64_t threads_n = threads();
  const std::uint64_t c = b.c;
  const std::uint64_t last_call = b.first_call + (b.skip + b.n - 1) / c;
  const std::uint64_t end = std::min(last_call + 1, b.first_call + threads_n);
  for (std::uint64_t m0 = b.first_call; m0 < end; ++m0) {
    const std::uint64_t t = m0 % threads_n;
    const std::uint64_t word = b.words_of(t);
    auto emit = [&](std::uint64_t m, const T* values) {
      for (std::uint64_t j = 0; j < c; ++j) {
        const std::uint64_t k = (m - b.first_call) * c + j;  // result index from the first call's start
        if (k >= b.skip && k - b.skip < b.n) out[k - b.skip] = values[j];
      }
    };
    T values[4] = {};
    switch (kind_) {
      case RngKind::xorwow: {
        XorwowState s = xorwow_[t];
        xorwow_skipahead(word, s);
        for (std::uint64_t m = m0; m <= last_call; m += threads_n) fill(s, values), emit(m, values);
        break;
      }
      case RngKind::mrg32k3a: {
        Mrg32k3aState s = mrg_[t];
        mrg32k3a_skipahead(word, s);
        for (std::uint64_t m = m0; m <= last_call; m += threads_n) fill(s, values), emit(m, values);
        break;
      }
      case RngKind::philox4_32_10: {
        PhiloxState s;
        philox_init(seed_, t, word, s);
        for (std::uint64_t m = m0; m <= last_call; m += threads_n) fill(s, values), emit(m, values);
        break;
      }
    }
  }
}

namespace {
// The per-kind calls, overloaded on the state type.
std::uint32_t word(XorwowState& s) { return xorwow_next(s); }
std::uint32_t word(Mrg32k3aState& s) { return mrg32k3a_next(s); }

template <class T, class S, class F>
void four_words(S& s, T* v, F&& f) {
  const Words4 x = philox_next4(s);
  v[0] = f(x.x), v[1] = f(x.y), v[2] = f(x.z), v[3] = f(x.w);
}

// The Box-Muller pairs of a call, before scaling.
void normals(XorwowState& s, float* v) {
  const std::uint32_t a = xorwow_next(s), b = xorwow_next(s);
  const Pair<float> p = box_muller_float(a, b);
  v[0] = p.x, v[1] = p.y;
}
void normals(Mrg32k3aState& s, float* v) {
  const Pair<float> p = mrg32k3a_box_muller(s);
  v[0] = p.x, v[1] = p.y;
}
void normals(PhiloxState& s, float* v) {
  const Words4 x = philox_next4(s);
  const Pair<float> a = box_muller_float(x.x, x.y), b = box_muller_float(x.z, x.w);
  v[0] = a.x, v[1] = a.y, v[2] = b.x, v[3] = b.y;
}
void normals(XorwowState& s, double* v) {
  const std::uint32_t a = xorwow_next(s), b = xorwow_next(s), c = xorwow_next(s), d = xorwow_next(s);
  const Pair<double> p = box_muller_double(a, b, c, d);
  v[0] = p.x, v[1] = p.y;
}
void normals(Mrg32k3aState& s, double* v) {
  const Pair<double> p = mrg32k3a_box_muller_double(s);
  v[0] = p.x, v[1] = p.y;
}
void normals(PhiloxState& s, double* v) {
  const Words4 x = philox_next4(s), y = philox_next4(s);
  const Pair<double> a = box_muller_double(x.x, x.y, x.z, x.w), b = box_muller_double(y.x, y.y, y.z, y.w);
  v[0] = a.x, v[1] = a.y, v[2] = b.x, v[3] = b.y;
}

// c results from w words a device call, for each distribution (generator.hpp's table).
struct Shape {
  unsigned c, w;
};
Shape shape_of(RngKind k, Dist d) {
  const bool philox = k == RngKind::philox4_32_10, xorwow = k == RngKind::xorwow;
  switch (d) {
    case Dist::raw:
    case Dist::uniform:
    case Dist::poisson: return philox ? Shape{4, 4} : Shape{1, 1};
    case Dist::uniform_double: return philox ? Shape{4, 8} : xorwow ? Shape{1, 2} : Shape{1, 1};
    case Dist::normal: return philox ? Shape{4, 4} : Shape{2, 2};
    case Dist::normal_double: return philox ? Shape{4, 8} : xorwow ? Shape{2, 4} : Shape{2, 2};
  }
  return {1, 1};
}
}  // namespace

void Sequence::bits(const Batch& b, unsigned int* out) const {
  run(b, out, [](auto& s, unsigned int* v) {
    if constexpr (std::is_same_v<std::decay_t<decltype(s)>, PhiloxState>) {
      four_words<unsigned int>(s, v, [](std::uint32_t x) { return x; });
    } else {
      v[0] = word(s);
    }
  });
}

void Sequence::uniform(const Batch& b, float* out) const {
  run(b, out, [](auto& s, float* v) {
    using S = std::decay_t<decltype(s)>;
    if constexpr (std::is_same_v<S, PhiloxState>) {
      four_words<float>(s, v, uniform_float);
    } else if constexpr (std::is_same_v<S, Mrg32k3aState>) {
      v[0] = mrg32k3a_uniform(s);
    } else {
      v[0] = uniform_float(xorwow_next(s));
    }
  });
}

void Sequence::uniform_double(const Batch& b, double* out) const {
  run(b, out, [](auto& s, double* v) {
    using S = std::decay_t<decltype(s)>;
    if constexpr (std::is_same_v<S, PhiloxState>) {
      const Words4 x = philox_next4(s), y = philox_next4(s);
      v[0] = uniform_double_53(x.x, x.y), v[1] = uniform_double_53(x.z, x.w);
      v[2] = uniform_double_53(y.x, y.y), v[3] = uniform_double_53(y.z, y.w);
    } else if constexpr (std::is_same_v<S, Mrg32k3aState>) {
      v[0] = mrg32k3a_uniform_double(s);
    } else {
      const std::uint32_t x = xorwow_next(s), y = xorwow_next(s);
      v[0] = uniform_double_53(x, y);
    }
  });
}

void Sequence::normal(const Batch& b, float* out, float mean, float stddev) const {
  run(b, out, [&](auto& s, float* v) {
    normals(s, v);
    for (unsigned j = 0; j < b.c; ++j) v[j] = scaled(v[j], mean, stddev);
  });
}

void Sequence::normal_double(const Batch& b, double* out, double mean, double stddev) const {
  run(b, out, [&](auto& s, double* v) {
    normals(s, v);
    for (unsigned j = 0; j < b.c; ++j) v[j] = scaled(v[j], mean, stddev);
  });
}

void Sequence::log_normal(const Batch& b, float* out, float mean, float stddev) const {
  run(b, out, [&](auto& s, float* v) {
    normals(s, v);
    for (unsigned j = 0; j < b.c; ++j) v[j] = std::exp(scaled(v[j], mean, stddev));
  });
}

void Sequence::log_normal_double(const Batch& b, double* out, double mean, double stddev) const {
  run(b, out, [&](auto& s, double* v) {
    normals(s, v);
    for (unsigned j = 0; j < b.c; ++j) v[j] = std::exp(scaled(v[j], mean, stddev));
  });
}

void Sequence::poisson(const Batch& b, unsigned int* out, double lambda) const {
  bits(b, out);
  for (std::size_t i = 0; i < b.n; ++i) out[i] = poisson_of_word(out[i], lambda);
}

Generator::Generator(RngKind kind) : kind_(kind), words_(1, {0, 0}) {}

void Generator::set_seed(std::uint64_t seed) {
  seed_ = seed;
  restart();
}

void Generator::set_offset(std::uint64_t offset) {
  offset_ = offset;
  restart();
}

// Q at the offset, W as a call of `offset` raw words from 0 leaves it.
void Generator::restart() {
  position_ = offset_;
  words_.assign(1, {0, 0});
  const Shape raw = shape_of(kind_, Dist::raw);
  count_calls(0, offset_ / raw.c, raw.w);
}

// Adds delta to W[t] for t in [lo, hi), keeping the runs sorted and merged.
void Generator::add_to_threads(std::uint64_t lo, std::uint64_t hi, std::uint64_t delta) {
  if (lo >= hi || delta == 0) return;
  auto split = [&](std::uint64_t t) {
    auto it = std::upper_bound(words_.begin(), words_.end(), t,
                               [](std::uint64_t x, const std::pair<std::uint64_t, std::uint64_t>& r) { return x < r.first; });
    const std::uint64_t value = std::prev(it)->second;
    if (std::prev(it)->first != t) words_.insert(it, {t, value});
  };
  split(lo);
  const std::uint64_t threads_n = sequence()->threads();
  if (hi < threads_n) split(hi);
  for (auto& r : words_) {
    if (r.first >= lo && r.first < hi) r.second += delta;
  }
  std::vector<std::pair<std::uint64_t, std::uint64_t>> merged;
  for (const auto& r : words_) {
    if (merged.empty() || merged.back().second != r.second) merged.push_back(r);
  }
  words_ = std::move(merged);
}

// `calls` whole device calls from `first_call` on, w words each, dealt to the threads in turn.
void Generator::count_calls(std::uint64_t first_call, std::uint64_t calls, unsigned w) {
  const std::uint64_t threads_n = sequence()->threads();
  add_to_threads(0, threads_n, calls / threads_n * w);
  const std::uint64_t rest = calls % threads_n, from = first_call % threads_n;
  if (from + rest <= threads_n) {
    add_to_threads(from, from + rest, w);
  } else {
    add_to_threads(from, threads_n, w);
    add_to_threads(0, from + rest - threads_n, w);
  }
}

Batch Generator::plan(Dist d, std::size_t n) {
  const Shape sh = shape_of(kind_, d);
  // XORWOW's and MRG32k3a's normals count the position in pairs; everything else in results.
  const bool counts_calls = (d == Dist::normal || d == Dist::normal_double) && kind_ != RngKind::philox4_32_10;
  Batch b;
  b.n = n;
  b.c = sh.c;
  b.first_call = counts_calls ? position_ : position_ / sh.c;
  b.skip = counts_calls ? 0 : position_ % sh.c;
  b.words = words_;
  if (n == 0) return b;
  const std::uint64_t results = b.skip + n;
  count_calls(b.first_call, results / sh.c, sh.w);  // a call cut off at the end is not counted
  position_ += counts_calls ? (n + sh.c - 1) / sh.c : n;
  return b;
}

void Generator::set_ordering(int ordering) {
  // Values of curandOrdering. BEST, DEFAULT and LEGACY give one sequence for XORWOW and Philox in the
  // toolkit's host generator; MRG32k3a's LEGACY and XORWOW's SEEDED are other layouts, not reproduced.
  constexpr int best = 100, default_ = 101, seeded = 102, legacy = 103;
  if (ordering == best || ordering == default_) return;
  if (ordering == legacy && kind_ != RngKind::mrg32k3a) return;
  if (ordering == seeded && kind_ == RngKind::xorwow) {
    throw Refusal(Status::out_of_range,
                  "CURAND_ORDERING_PSEUDO_SEEDED is not simulated (its sequence is not reproduced): use "
                  "CURAND_ORDERING_PSEUDO_DEFAULT");
  }
  if (ordering == legacy) {
    throw Refusal(Status::out_of_range,
                  "CURAND_ORDERING_PSEUDO_LEGACY of MRG32k3a is not simulated (its sequence is not reproduced): "
                  "use CURAND_ORDERING_PSEUDO_DEFAULT");
  }
  throw Refusal(Status::out_of_range, fmt::format("ordering {} is not one this generator takes", ordering));
}

std::shared_ptr<const Sequence> Generator::sequence() {
  // Made lazily: a generator's creation and seeding stay cheap, as cuRAND's are until curandGenerateSeeds.
  if (!sequence_ || sequence_->seed() != seed_) sequence_ = std::make_shared<const Sequence>(kind_, seed_);
  return sequence_;
}

}  // namespace gpulab::sim::curand
