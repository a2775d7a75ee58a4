#pragma once
// gpulab's CPU FFT: complex, real-to-complex and complex-to-real discrete Fourier transforms of any
// length n >= 1, in float and double, batched, strided and in 1, 2 or 3 (or more) dimensions. It is the
// simulator's cuFFT (src/simcuda/cufft) underneath, and follows cuFFT's conventions: the forward
// transform is X_k = sum_j x_j e^{-2 pi i jk/n}, the inverse uses e^{+2 pi i jk/n}, and neither
// normalises (inverse(forward(x)) = n x); a real transform of length n has n/2 + 1 complex outputs.
//
// Why gpulab's own: the FFT beneath the simulator must be kept with the project and under a licence that
// suits it. FFTW is GPL-2+ (it would bind gpulab), Debian's KissFFT is float-only, and pocketfft (BSD)
// is packaged neither by Debian nor as a header on PyPI. docs/simulator.md ("#### cuFFT") says more.
//
// Algorithms (src/cpu/fft): a length whose prime factors are all at most 13 runs a self-sorting
// (Stockham) mixed-radix transform, radices 4, 2, 3, 5 and a generic odd radix for 7, 11, 13, one pass
// over the data per factor, with every twiddle factor computed once, in double (also for float, so float
// results are as accurate as float arithmetic allows). Any other length runs Bluestein's algorithm: the
// transform as a convolution with a chirp, done by power-of-two transforms, so every length is
// O(n log n). A plan computes factors and twiddles once; executing it does no planning.
//
// Threads: a plan is immutable once made, so any number of threads may execute one plan at the same
// time, each with its own work area (the forms without a work area allocate one per call).
#include <complex>
#include <cstddef>
#include <memory>
#include <vector>

namespace gpulab::cpu::fft {

// Forward: e^{-2 pi i jk/n}. Inverse: e^{+2 pi i jk/n}. Neither scales.
enum class Direction { forward, inverse };

// One complex transform of length n. Strides count elements (complex numbers), are >= 1, and may
// differ between input and output; input and output may be the same array or overlap.
template <class T>
class Plan {
 public:
  explicit Plan(std::size_t n);  // throws InvalidArgument for n = 0
  ~Plan();
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;

  std::size_t size() const noexcept;
  // Complex elements of work area execute() needs.
  std::size_t work_size() const noexcept;
  // Whether the length has a prime factor above 13 (Bluestein's algorithm runs it).
  bool uses_bluestein() const noexcept;
  // The radices of the mixed-radix passes, in the order they run (of the inner power-of-two transform
  // for Bluestein's algorithm).
  std::vector<int> radices() const;

  void execute(const std::complex<T>* in, std::ptrdiff_t in_stride, std::complex<T>* out, std::ptrdiff_t out_stride,
               Direction direction, std::complex<T>* work) const;
  void execute(const std::complex<T>* in, std::complex<T>* out, Direction direction) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A real transform of length n: forward takes n reals to the n/2 + 1 first complex outputs (the rest
// are their conjugates), inverse takes those n/2 + 1 to n reals. The inverse reads the imaginary parts
// of X_0 and (n even) X_{n/2} as 0, as the Hermitian spectrum of real data has them. Even lengths run
// a complex transform of n/2 on the reals packed in pairs; odd ones a complex transform of n. Input and
// output may overlap (cuFFT's in-place layout); the input is never written.
template <class T>
class RealPlan {
 public:
  explicit RealPlan(std::size_t n);  // throws InvalidArgument for n = 0
  ~RealPlan();
  RealPlan(RealPlan&&) noexcept;
  RealPlan& operator=(RealPlan&&) noexcept;

  std::size_t size() const noexcept;
  std::size_t work_size() const noexcept;

  void forward(const T* in, std::ptrdiff_t in_stride, std::complex<T>* out, std::ptrdiff_t out_stride,
               std::complex<T>* work) const;
  void inverse(const std::complex<T>* in, std::ptrdiff_t in_stride, T* out, std::ptrdiff_t out_stride,
               std::complex<T>* work) const;
  void forward(const T* in, std::complex<T>* out) const;
  void inverse(const std::complex<T>* in, T* out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

enum class Kind { c2c, r2c, c2r };

// Where a batch of multi-dimensional arrays lies in memory, as cuFFT's advanced layout says: element
// (i_0, ..., i_{d-1}) of array b is at b * distance + stride * (((i_0 * embed[1] + i_1) * embed[2] + i_2)
// ...), counted in elements of the array's type (real or complex). embed[0] only bounds the array.
struct Layout {
  std::vector<std::size_t> embed;  // one per dimension, each at least the array's extent there
  std::ptrdiff_t stride = 1;
  std::ptrdiff_t distance = 0;
  // The packed layout of arrays of `extents`: embed = extents, stride 1, distance their product.
  static Layout packed(const std::vector<std::size_t>& extents);
};

// A batch of d-dimensional transforms of `shape` (row-major: the last dimension is the fastest), by
// 1-D transforms along each dimension. For r2c the input arrays have `shape` and the output arrays
// `complex_shape(shape)` (the last extent n/2 + 1); for c2r the other way round. Input and output may
// be the same memory (in place) when each array's output lies where its own input does; c2r keeps its
// input intact.
template <class T>
class ManyPlan {
 public:
  ManyPlan(std::vector<std::size_t> shape, Kind kind, Layout in, Layout out, std::size_t batch);
  ~ManyPlan();
  ManyPlan(ManyPlan&&) noexcept;
  ManyPlan& operator=(ManyPlan&&) noexcept;

  const std::vector<std::size_t>& shape() const noexcept;
  Kind kind() const noexcept;
  std::size_t batch() const noexcept;
  // Complex elements of work area execute() needs.
  std::size_t work_size() const noexcept;

  // Each throws InvalidArgument when the plan's kind is another. `work` may be null (then one is made).
  void execute(const std::complex<T>* in, std::complex<T>* out, Direction direction,
               std::complex<T>* work = nullptr) const;                                // c2c
  void execute(const T* in, std::complex<T>* out, std::complex<T>* work = nullptr) const;  // r2c
  void execute(const std::complex<T>* in, T* out, std::complex<T>* work = nullptr) const;  // c2r

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// `shape` with its last extent n replaced by n/2 + 1: the complex side of a real transform.
std::vector<std::size_t> complex_shape(std::vector<std::size_t> shape);

extern template class Plan<float>;
extern template class Plan<double>;
extern template class RealPlan<float>;
extern template class RealPlan<double>;
extern template class ManyPlan<float>;
extern template class ManyPlan<double>;

}  // namespace gpulab::cpu::fft
