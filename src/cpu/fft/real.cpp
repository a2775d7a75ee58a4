// Real-to-complex and complex-to-real transforms of length n (n reals, n/2 + 1 complex outputs).
//
// Even n = 2h: the reals packed in pairs, z_j = x_{2j} + i x_{2j+1}, make one complex transform of
// length h, Z. Its even and odd parts, E_k = (Z_k + conj(Z_{h-k}))/2 and O_k = -i (Z_k - conj(Z_{h-k}))/2,
// are the transforms of the even and odd samples, and X_k = E_k + W_n^k O_k (W_n = e^{-2 pi i/n}) for
// k = 0..h, with Z_h = Z_0: half the work of a complex transform of n. The inverse undoes it: from
// X_k and X_{h-k}, Z_k = (X_k + conj(X_{h-k})) + i conj(W_n^k) (X_k - conj(X_{h-k})), then an inverse
// transform of length h gives n (x_{2j} + i x_{2j+1}), the unnormalised result.
// Odd n: a complex transform of n of the reals (forward), or of the Hermitian spectrum rebuilt from
// its first half (inverse). Both forms read all of their input into the work area before writing any
// output, so cuFFT's in-place layouts (the reals where the complex outputs go) work.
#include <gpulab/error.hpp>

#include "cpu/fft/fft_internal.hpp"

namespace gpulab::cpu::fft {

using detail::Cx;

template <class T>
struct RealPlan<T>::Impl {
  std::size_t n = 0;
  Plan<T> complex;                 // of n/2 (even n) or n (odd n)
  std::vector<Cx<T>> twiddles;     // W_n^k, k = 0..n/2 (even n)
  explicit Impl(std::size_t length) : n(length), complex(length % 2 == 0 ? length / 2 : length) {}
};

template <class T>
RealPlan<T>::RealPlan(std::size_t n) {
  if (n == 0) throw InvalidArgument("fft: a transform's length must be at least 1");
  impl_ = std::make_unique<Impl>(n);
  if (n % 2 == 0) {
    for (std::size_t k = 0; k <= n / 2; ++k) impl_->twiddles.push_back(detail::root<T>(k, n));
  }
}

template <class T>
RealPlan<T>::~RealPlan() = default;
template <class T>
RealPlan<T>::RealPlan(RealPlan&&) noexcept = default;
template <class T>
RealPlan<T>& RealPlan<T>::operator=(RealPlan&&) noexcept = default;

template <class T>
std::size_t RealPlan<T>::size() const noexcept {
  return impl_->n;
}

template <class T>
std::size_t RealPlan<T>::work_size() const noexcept {
  const std::size_t len = impl_->complex.size();
  return 2 * (len + 1) + impl_->complex.work_size();
}

template <class T>
void RealPlan<T>::forward(const T* in, std::ptrdiff_t in_stride, std::complex<T>* out, std::ptrdiff_t out_stride,
                          std::complex<T>* work) const {
  const std::size_t n = impl_->n, len = impl_->complex.size();
  Cx<T>* z = detail::cx(work);
  Cx<T>* spectrum = z + len + 1;
  std::complex<T>* inner_work = work + 2 * (len + 1);
  Cx<T>* y = detail::cx(out);
  auto x = [&](std::size_t j) { return in[static_cast<std::ptrdiff_t>(j) * in_stride]; };
  auto put = [&](std::size_t k, Cx<T> v) { y[static_cast<std::ptrdiff_t>(k) * out_stride] = v; };
  if (n % 2 != 0) {
    for (std::size_t j = 0; j < n; ++j) z[j] = {x(j), T(0)};
    impl_->complex.execute(work, 1, reinterpret_cast<std::complex<T>*>(spectrum), 1, Direction::forward, inner_work);
    for (std::size_t k = 0; k <= n / 2; ++k) put(k, spectrum[k]);
    return;
  }
  const std::size_t h = len;
  for (std::size_t j = 0; j < h; ++j) z[j] = {x(2 * j), x(2 * j + 1)};
  impl_->complex.execute(work, 1, reinterpret_cast<std::complex<T>*>(spectrum), 1, Direction::forward, inner_work);
  spectrum[h] = spectrum[0];
  const Cx<T>* w = impl_->twiddles.data();
  for (std::size_t k = 0; k <= h; ++k) {
    const Cx<T> zk = spectrum[k], zr = detail::conj(spectrum[h - k]);
    const Cx<T> e = detail::scale(detail::add(zk, zr), T(0.5));
    const Cx<T> o = detail::times_minus_i<false>(detail::scale(detail::sub(zk, zr), T(0.5)));
    put(k, detail::add(e, detail::mul(w[k], o)));
  }
}

template <class T>
void RealPlan<T>::inverse(const std::complex<T>* in, std::ptrdiff_t in_stride, T* out, std::ptrdiff_t out_stride,
                          std::complex<T>* work) const {
  const std::size_t n = impl_->n, len = impl_->complex.size(), h = n / 2;
  Cx<T>* spectrum = detail::cx(work);
  Cx<T>* z = spectrum + len + 1;
  std::complex<T>* inner_work = work + 2 * (len + 1);
  const Cx<T>* x = detail::cx(in);
  auto get = [&](std::size_t k) { return x[static_cast<std::ptrdiff_t>(k) * in_stride]; };
  auto put = [&](std::size_t j, T v) { out[static_cast<std::ptrdiff_t>(j) * out_stride] = v; };
  for (std::size_t k = 0; k <= h; ++k) spectrum[k] = get(k);
  spectrum[0].im = T(0);  // the Hermitian spectrum of real data has these real
  if (n % 2 == 0) spectrum[h].im = T(0);
  if (n % 2 != 0) {
    for (std::size_t k = 1; k <= h; ++k) spectrum[n - k] = detail::conj(spectrum[k]);
    impl_->complex.execute(work, 1, reinterpret_cast<std::complex<T>*>(z), 1, Direction::inverse, inner_work);
    for (std::size_t j = 0; j < n; ++j) put(j, z[j].re);
    return;
  }
  const Cx<T>* w = impl_->twiddles.data();
  for (std::size_t k = 0; k < h; ++k) {
    const Cx<T> xk = spectrum[k], xr = detail::conj(spectrum[h - k]);
    const Cx<T> e = detail::add(xk, xr);
    const Cx<T> o = detail::mul_conj(detail::sub(xk, xr), w[k]);
    z[k] = detail::add(e, detail::times_minus_i<true>(o));  // e + i o
  }
  impl_->complex.execute(reinterpret_cast<std::complex<T>*>(z), 1, work, 1, Direction::inverse, inner_work);
  for (std::size_t j = 0; j < h; ++j) {
    put(2 * j, spectrum[j].re);
    put(2 * j + 1, spectrum[j].im);
  }
}

template <class T>
void RealPlan<T>::forward(const T* in, std::complex<T>* out) const {
  std::vector<std::complex<T>> work(work_size());
  forward(in, 1, out, 1, work.data());
}

template <class T>
void RealPlan<T>::inverse(const std::complex<T>* in, T* out) const {
  std::vector<std::complex<T>> work(work_size());
  inverse(in, 1, out, 1, work.data());
}

template class RealPlan<float>;
template class RealPlan<double>;

}  // namespace gpulab::cpu::fft
