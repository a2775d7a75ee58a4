// Bluestein's algorithm: a length n with a prime factor above 13 as a convolution of power-of-two
// length, so that every length costs O(n log n).
//
// With w_t = e^{-pi i t^2/n}, jk = (j^2 + k^2 - (k-j)^2)/2 gives e^{-2 pi i jk/n} = w_j w_k conj(w_{k-j}),
// so X_k = w_k sum_j (x_j w_j) conj(w_{k-j}): the convolution of a_j = x_j w_j with b_t = conj(w_t),
// |t| < n. A cyclic convolution of length m >= 2n - 1 holds it without wrap-around, and runs as
// inverse(forward(a) . forward(b)) / m, where forward(b) / m is computed once, in the plan. The inverse
// transform is conj(forward(conj(x))), folded into the loads and stores.
#include "cpu/fft/fft_internal.hpp"

namespace gpulab::cpu::fft::detail {

template <class T>
void plan_bluestein(PlanImpl<T>& impl) {
  const std::size_t n = impl.n;
  auto b = std::make_unique<Bluestein<T>>();
  std::size_t m = 1;
  while (m < 2 * n - 1) m *= 2;
  b->m = m;
  b->inner = std::make_unique<Plan<T>>(m);
  // The chirp in double: k^2 is reduced mod 2n first (e^{-pi i t/n} has period 2n), exactly in
  // integers, so the angle stays small and accurate for large k.
  const auto two_n = static_cast<unsigned long long>(2 * n);
  std::vector<std::complex<double>> kernel(m, std::complex<double>(0, 0));
  b->chirp.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const auto kk = static_cast<unsigned long long>(k);
    const auto r = static_cast<unsigned __int128>(kk % two_n);  // r^2 may pass 64 bits
    const auto sq = static_cast<unsigned long long>(r * r % two_n);
    const Cx<double> wk = root<double>(sq, two_n);  // e^{-2 pi i sq/(2n)} = e^{-pi i k^2/n}
    b->chirp[k] = {static_cast<T>(wk.re), static_cast<T>(wk.im)};
    kernel[k] = std::complex<double>(wk.re, -wk.im);  // conj(w_k) at t = k and t = -k (m - k)
    if (k != 0) kernel[m - k] = kernel[k];
  }
  // Its transform in double, whatever T is, so that float keeps its accuracy.
  const Plan<double> exact(m);
  exact.execute(kernel.data(), kernel.data(), Direction::forward);
  b->kernel.resize(m);
  const double inv_m = 1.0 / static_cast<double>(m);
  for (std::size_t k = 0; k < m; ++k) {
    b->kernel[k] = {static_cast<T>(kernel[k].real() * inv_m), static_cast<T>(kernel[k].imag() * inv_m)};
  }
  impl.bluestein = std::move(b);
}

template <class T>
std::size_t bluestein_work_size(const PlanImpl<T>& impl) {
  return impl.bluestein->m + impl.bluestein->inner->work_size();
}

template <class T>
void run_bluestein(const PlanImpl<T>& impl, const Cx<T>* in, std::ptrdiff_t in_stride, Cx<T>* out,
                   std::ptrdiff_t out_stride, bool inverse, Cx<T>* work) {
  const Bluestein<T>& b = *impl.bluestein;
  const std::size_t n = impl.n, m = b.m;
  Cx<T>* a = work;
  auto* inner_work = reinterpret_cast<std::complex<T>*>(work + m);
  auto* ac = reinterpret_cast<std::complex<T>*>(a);
  for (std::size_t j = 0; j < n; ++j) {
    const Cx<T> x = in[static_cast<std::ptrdiff_t>(j) * in_stride];
    a[j] = mul(inverse ? conj(x) : x, b.chirp[j]);
  }
  for (std::size_t j = n; j < m; ++j) a[j] = {T(0), T(0)};
  b.inner->execute(ac, 1, ac, 1, Direction::forward, inner_work);
  for (std::size_t k = 0; k < m; ++k) a[k] = mul(a[k], b.kernel[k]);
  b.inner->execute(ac, 1, ac, 1, Direction::inverse, inner_work);
  for (std::size_t k = 0; k < n; ++k) {
    const Cx<T> y = mul(a[k], b.chirp[k]);
    out[static_cast<std::ptrdiff_t>(k) * out_stride] = inverse ? conj(y) : y;
  }
}

template void plan_bluestein<float>(PlanImpl<float>&);
template void plan_bluestein<double>(PlanImpl<double>&);
template std::size_t bluestein_work_size<float>(const PlanImpl<float>&);
template std::size_t bluestein_work_size<double>(const PlanImpl<double>&);
template void run_bluestein<float>(const PlanImpl<float>&, const Cx<float>*, std::ptrdiff_t, Cx<float>*,
                                   std::ptrdiff_t, bool, Cx<float>*);
template void run_bluestein<double>(const PlanImpl<double>&, const Cx<double>*, std::ptrdiff_t, Cx<double>*,
                                    std::ptrdiff_t, bool, Cx<double>*);

}  // namespace gpulab::cpu::fft::detail
