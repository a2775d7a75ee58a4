#pragma once
// The sequences of cuRAND's host generators, computed on the CPU (libgpulab_curand's core, apart from
// the C API so that tests can call it beside the toolkit's libcurand).
//
// cuRAND's host API fills its output as a grid of device-API threads would, each on its own
// subsequence, and the toolkit's host generator (curandCreateGeneratorHost) gives the same layout.
// Measured on CUDA 13.0's libcurand (tests/cuda_libraries/curand_oracle.cpp, which checks it against
// random mixes of calls, lengths and offsets):
//   - T threads (XORWOW 4096, MRG32k3a 81920, Philox 65536), thread t on subsequence t, each keeping
//     its count of words used, W[t];
//   - a distribution is a device-API call giving c results from w words (raw words and floats: c = w = 1,
//     Philox c = w = 4 (curand4); doubles: XORWOW c = 1, w = 2, MRG32k3a c = w = 1, Philox c = 4, w = 8;
//     normals: c = w = 2, Philox c = w = 4; normal doubles: XORWOW c = 2, w = 4, MRG32k3a c = w = 2,
//     Philox c = 4, w = 8); log-normals are exp(mean + stddev z) of the normals;
//   - the generator counts a position Q (the offset, plus what was handed out). A call of n results
//     makes device calls m = m0, m0 + 1, ...: thread m % T makes them in turn, each from the words after
//     the thread's W, and result j of call m is element (m - m0) c + j - j0 of the output. For raw
//     words, uniforms, doubles and Philox's normals, m0 = Q / c, j0 = Q % c and Q grows by n; for the
//     normals of XORWOW and MRG32k3a, m0 = Q, j0 = 0 and Q grows by n / 2 (it counts pairs there);
//   - W[t] grows by w for each call of t whose every result was handed out (a call cut off at the end
//     is made again, from the same words, by the next call that needs it);
//   - an offset O sets Q = O and W as a call of O raw words from 0 would leave it; a seed restarts at
//     the offset.
// Poisson counts are gpulab's own (see Sequence::poisson), laid out as raw words.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "simcuda/curand/status.hpp"

namespace gpulab::sim::curand {

struct XorwowState;
struct Mrg32k3aState;

// One generating call, as planned by Generator::plan: its device calls, where it starts and the
// threads' word counts W before it (piecewise constant over runs of threads: a pair (first thread,
// words) starts each run).
struct Batch {
  std::uint64_t first_call = 0;  // m0
  std::uint64_t skip = 0;        // j0: results of the first call before the output's first element
  std::size_t n = 0;
  unsigned c = 1;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> words;
  std::uint64_t words_of(std::uint64_t thread) const;
};

enum class Dist { raw, uniform, uniform_double, normal, normal_double, poisson };

// (kind, seed): what every call of a generator with that seed reads. Immutable once made, so that a
// call queued on a stream keeps it by value (a shared_ptr) while the program goes on.
class Sequence {
 public:
  Sequence(RngKind kind, std::uint64_t seed);
  ~Sequence();
  Sequence(const Sequence&) = delete;
  Sequence& operator=(const Sequence&) = delete;

  RngKind kind() const noexcept { return kind_; }
  std::uint64_t seed() const noexcept { return seed_; }
  std::uint64_t threads() const noexcept;

  // The n results of a batch (planned for the matching Dist; log-normals are normal batches).
  void bits(const Batch& b, unsigned int* out) const;
  void uniform(const Batch& b, float* out) const;
  void uniform_double(const Batch& b, double* out) const;
  void normal(const Batch& b, float* out, float mean, float stddev) const;
  void normal_double(const Batch& b, double* out, double mean, double stddev) const;
  void log_normal(const Batch& b, float* out, float mean, float stddev) const;
  void log_normal_double(const Batch& b, double* out, double mean, double stddev) const;
  // Poisson counts of mean lambda > 0, one from each raw word of a raw-word batch: the inverse of the
  // distribution function (Fishman's search, as cuRAND's device API applies it to a quasi-random word)
  // below a mean of 1000, a rounded normal quantile of the word above. Not the toolkit host
  // generator's sequence (its method is not documented): distributed alike, compared with it
  // statistically.
  void poisson(const Batch& b, unsigned int* out, double lambda) const;

 private:
  template <class T, class Fill>
  void run(const Batch& b, T* out, Fill&& fill) const;

  RngKind kind_;
  std::uint64_t seed_;
  // Each subsequence's state at its start, for the generators whose jumps cost matrix products
  // (cuRAND's curandGenerateSeeds does the same on the GPU); Philox's state is computed directly.
  std::vector<XorwowState> xorwow_;
  std::vector<Mrg32k3aState> mrg_;
};

// A generator of the host API: its kind, seed, offset, position Q and the threads' word counts.
class Generator {
 public:
  explicit Generator(RngKind kind);

  RngKind kind() const noexcept { return kind_; }
  void set_seed(std::uint64_t seed);
  void set_offset(std::uint64_t offset);  // absolute: the position restarts there
  // Refuses (Refusal) the orderings this generator's kind does not reproduce.
  void set_ordering(int ordering);

  // The Sequence for the current seed (made at the first call after a seed change).
  std::shared_ptr<const Sequence> sequence();
  // The next generating call of n results of `d`, and the generator moved past it.
  Batch plan(Dist d, std::size_t n);

 private:
  void restart();
  void count_calls(std::uint64_t first_call, std::uint64_t calls, unsigned w);
  void add_to_threads(std::uint64_t lo, std::uint64_t hi, std::uint64_t delta);

  RngKind kind_;
  std::uint64_t seed_ = 0;
  std::uint64_t offset_ = 0;
  std::uint64_t position_ = 0;                                   // Q
  std::vector<std::pair<std::uint64_t, std::uint64_t>> words_;  // W, as runs (first thread, words)
  std::shared_ptr<const Sequence> sequence_;
};

}  // namespace gpulab::sim::curand
