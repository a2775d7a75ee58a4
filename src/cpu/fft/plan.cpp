// The complex 1-D plan: chooses the algorithm for n, and runs it on strided, possibly overlapping,
// arrays by gathering and scattering through the work area where the passes need contiguous data.
#include <cstdint>

#include <fmt/format.h>

#include <gpulab/error.hpp>

#include "cpu/fft/fft_internal.hpp"

namespace gpulab::cpu::fft {

namespace {

// Whether n has a prime factor the mixed-radix passes do not take.
bool needs_bluestein(std::size_t n) {
  for (std::size_t p : {2, 3, 5, 7, 11, 13}) {
    while (n % p == 0) n /= p;
  }
  return n != 1;
}

// Whether the n elements at `a` (stride sa) and at `b` (stride sb) may share memory.
template <class T>
bool overlap(const T* a, std::ptrdiff_t sa, const T* b, std::ptrdiff_t sb, std::size_t n) {
  const auto a0 = reinterpret_cast<std::uintptr_t>(a), b0 = reinterpret_cast<std::uintptr_t>(b);
  const auto a1 = reinterpret_cast<std::uintptr_t>(a + static_cast<std::ptrdiff_t>(n - 1) * sa + 1);
  const auto b1 = reinterpret_cast<std::uintptr_t>(b + static_cast<std::ptrdiff_t>(n - 1) * sb + 1);
  return a0 < b1 && b0 < a1;
}

}  // namespace

template <class T>
struct Plan<T>::Impl : detail::PlanImpl<T> {};

template <class T>
Plan<T>::Plan(std::size_t n) : impl_(std::make_unique<Impl>()) {
  if (n == 0) throw InvalidArgument("fft: a transform's length must be at least 1");
  impl_->n = n;
  if (needs_bluestein(n)) {
    detail::plan_bluestein<T>(*impl_);
  } else {
    detail::plan_mixed_radix<T>(*impl_);
  }
}

template <class T>
Plan<T>::~Plan() = default;
template <class T>
Plan<T>::Plan(Plan&&) noexcept = default;
template <class T>
Plan<T>& Plan<T>::operator=(Plan&&) noexcept = default;

template <class T>
std::size_t Plan<T>::size() const noexcept {
  return impl_->n;
}

template <class T>
std::size_t Plan<T>::work_size() const noexcept {
  if (impl_->bluestein) return detail::bluestein_work_size<T>(*impl_);
  return 3 * impl_->n;  // two ping-pong buffers and one to gather into
}

template <class T>
bool Plan<T>::uses_bluestein() const noexcept {
  return impl_->bluestein != nullptr;
}

template <class T>
std::vector<int> Plan<T>::radices() const {
  if (impl_->bluestein) return impl_->bluestein->inner->radices();
  std::vector<int> r;
  for (const auto& pass : impl_->passes) r.push_back(pass.radix);
  return r;
}

template <class T>
void Plan<T>::execute(const std::complex<T>* in, std::ptrdiff_t in_stride, std::complex<T>* out,
                      std::ptrdiff_t out_stride, Direction direction, std::complex<T>* work) const {
  using detail::Cx;
  const std::size_t n = impl_->n;
  const bool inverse = direction == Direction::inverse;
  const Cx<T>* x = detail::cx(in);
  Cx<T>* y = detail::cx(out);
  Cx<T>* w = detail::cx(work);
  if (impl_->bluestein) {  // reads all of its input before it writes any output
    detail::run_bluestein<T>(*impl_, x, in_stride, y, out_stride, inverse, w);
    return;
  }
  // The passes want contiguous arrays, and with a single pass (n prime, or 2, 4) its reads and writes
  // interleave, so an input that overlaps the output is copied first. With several, the first pass has
  // read all of the input before the last one writes.
  Cx<T>* gathered = w + 2 * n;
  const Cx<T>* src = x;
  if (in_stride != 1 || (impl_->passes.size() <= 1 && overlap(in, in_stride, out, out_stride, n))) {
    for (std::size_t j = 0; j < n; ++j) gathered[j] = x[static_cast<std::ptrdiff_t>(j) * in_stride];
    src = gathered;
  }
  if (out_stride == 1) {
    detail::run_mixed_radix<T>(*impl_, src, y, inverse, w);
    return;
  }
  // The result goes to whichever of the three buffers the passes do not read last.
  Cx<T>* result = src == gathered ? w : gathered;
  detail::run_mixed_radix<T>(*impl_, src, result, inverse, src == gathered ? w + n : w);
  for (std::size_t k = 0; k < n; ++k) y[static_cast<std::ptrdiff_t>(k) * out_stride] = result[k];
}

template <class T>
void Plan<T>::execute(const std::complex<T>* in, std::complex<T>* out, Direction direction) const {
  std::vector<std::complex<T>> work(work_size());
  execute(in, 1, out, 1, direction, work.data());
}

template class Plan<float>;
template class Plan<double>;

}  // namespace gpulab::cpu::fft
