// The mixed-radix complex transform: a self-sorting (Stockham) FFT, one pass per factor of n.
//
// A pass combines `radix` sub-transforms of length ns into transforms of length L = ns * radix. Before
// the pass, the data holds n / ns transforms of length ns, each contiguous: block b is the transform of
// the subsequence x[b + t (n/ns)]. Blocks q + r (n/L), r < radix, are the radix decimations of the
// subsequence x[q + s (n/L)] of length L, so (decimation in time) its output k1 + ns k2 is the radix-point
// DFT over r of (block q + r n/L's element k1) * W_L^{r k1}. Reading element j + r n/radix and writing
// element q L + k1 + r ns leaves the data in natural order after the last pass: no bit reversal, and
// both the reads (radix sequential streams) and the writes are contiguous in k1.
#include <algorithm>
#include <stdexcept>

#include "cpu/fft/fft_internal.hpp"

namespace gpulab::cpu::fft::detail {

namespace {

// The radix-point DFTs, forward (roots e^{-2 pi i/radix}) or inverse (their conjugates).
template <bool Inverse, class T>
inline void butterfly2(Cx<T>* v) {
  const Cx<T> a = v[0], b = v[1];
  v[0] = add(a, b);
  v[1] = sub(a, b);
}

template <bool Inverse, class T>
inline void butterfly4(Cx<T>* v) {
  const Cx<T> t0 = add(v[0], v[2]), t1 = sub(v[0], v[2]);
  const Cx<T> t2 = add(v[1], v[3]), t3 = times_minus_i<Inverse>(sub(v[1], v[3]));
  v[0] = add(t0, t2);
  v[1] = add(t1, t3);
  v[2] = sub(t0, t2);
  v[3] = sub(t1, t3);
}

template <bool Inverse, class T>
inline void butterfly3(Cx<T>* v) {
  // W_3 = -1/2 - i sqrt(3)/2: y1,2 = a0 - (a1 + a2)/2 -/+ i (sqrt(3)/2)(a1 - a2).
  constexpr T half_sqrt3 = static_cast<T>(0.86602540378443864676372317075293618L);
  const Cx<T> s = add(v[1], v[2]);
  const Cx<T> d = times_minus_i<Inverse>(scale(sub(v[1], v[2]), half_sqrt3));
  const Cx<T> m = sub(v[0], scale(s, T(0.5)));
  v[0] = add(v[0], s);
  v[1] = add(m, d);
  v[2] = sub(m, d);
}

template <bool Inverse, class T>
inline void butterfly5(Cx<T>* v) {
  // With c_k = cos(2 pi k/5), s_k = sin(2 pi k/5): y1,4 = a0 + c1 b1 + c2 b2 -/+ i (s1 d1 + s2 d2) and
  // y2,3 = a0 + c2 b1 + c1 b2 -/+ i (s2 d1 - s1 d2), where b1 = a1 + a4, b2 = a2 + a3, d1 = a1 - a4,
  // d2 = a2 - a3.
  constexpr T c1 = static_cast<T>(0.30901699437494742410229341718281906L);
  constexpr T c2 = static_cast<T>(-0.80901699437494742410229341718281906L);
  constexpr T s1 = static_cast<T>(0.95105651629515357211643933337938214L);
  constexpr T s2 = static_cast<T>(0.58778525229247312916870595463907277L);
  const Cx<T> b1 = add(v[1], v[4]), b2 = add(v[2], v[3]);
  const Cx<T> d1 = sub(v[1], v[4]), d2 = sub(v[2], v[3]);
  const Cx<T> a0 = v[0];
  const Cx<T> e1 = add(a0, add(scale(b1, c1), scale(b2, c2)));
  const Cx<T> e2 = add(a0, add(scale(b1, c2), scale(b2, c1)));
  const Cx<T> f1 = times_minus_i<Inverse>(add(scale(d1, s1), scale(d2, s2)));
  const Cx<T> f2 = times_minus_i<Inverse>(sub(scale(d1, s2), scale(d2, s1)));
  v[0] = add(a0, add(b1, b2));
  v[1] = add(e1, f1);
  v[4] = sub(e1, f1);
  v[2] = add(e2, f2);
  v[3] = sub(e2, f2);
}

// A generic odd radix (7, 11, 13): the direct DFT, pairing y_k with y_{radix-k}, which share the
// cosine parts and differ in the sign of the sine parts, so it costs half the multiplies.
template <bool Inverse, class T>
inline void butterfly_odd(Cx<T>* v, int radix, const Cx<T>* roots) {
  Cx<T> y[largest_radix];
  Cx<T> sum = v[0];
  for (int r = 1; r < radix; ++r) sum = add(sum, v[r]);
  y[0] = sum;
  for (int k = 1; 2 * k < radix; ++k) {
    Cx<T> even = v[0], odd{T(0), T(0)};
    for (int r = 1; 2 * r < radix; ++r) {
      const Cx<T> w = roots[(static_cast<long>(r) * k) % radix];  // e^{-2 pi i rk/radix} = cos - i sin
      const Cx<T> b = add(v[r], v[radix - r]), d = sub(v[r], v[radix - r]);
      even = add(even, scale(b, w.re));
      odd = add(odd, scale(d, -w.im));  // sum of sin * d
    }
    const Cx<T> f = times_minus_i<Inverse>(odd);
    y[k] = add(even, f);
    y[radix - k] = sub(even, f);
  }
  for (int r = 0; r < radix; ++r) v[r] = y[r];
}

template <int Radix, bool Inverse, class T>
void radix_pass(const Cx<T>* src, Cx<T>* dst, std::size_t n, const Pass& pass, const Cx<T>* twiddles,
                const Cx<T>* roots) {
  const int radix = Radix > 0 ? Radix : pass.radix;
  const std::size_t ns = pass.ns;
  const std::size_t m = n / static_cast<std::size_t>(radix);  // distance between a butterfly's inputs
  const std::size_t blocks = m / ns;
  const Cx<T>* tw = twiddles + pass.twiddles;
  Cx<T> v[Radix > 0 ? Radix : static_cast<int>(largest_radix)];
  for (std::size_t q = 0; q < blocks; ++q) {
    const Cx<T>* s = src + q * ns;
    Cx<T>* d = dst + q * ns * static_cast<std::size_t>(radix);
    for (std::size_t k = 0; k < ns; ++k) {
      for (int r = 0; r < radix; ++r) v[r] = s[k + static_cast<std::size_t>(r) * m];
      if (ns > 1) {  // the first pass's twiddles are all 1
        const Cx<T>* t = tw + k * static_cast<std::size_t>(radix - 1);
        for (int r = 1; r < radix; ++r) v[r] = Inverse ? mul_conj(v[r], t[r - 1]) : mul(v[r], t[r - 1]);
      }
      if constexpr (Radix == 2) {
        butterfly2<Inverse>(v);
      } else if constexpr (Radix == 3) {
        butterfly3<Inverse>(v);
      } else if constexpr (Radix == 4) {
        butterfly4<Inverse>(v);
      } else if constexpr (Radix == 5) {
        butterfly5<Inverse>(v);
      } else {
        butterfly_odd<Inverse>(v, radix, roots + pass.roots);
      }
      for (int r = 0; r < radix; ++r) d[k + static_cast<std::size_t>(r) * ns] = v[r];
    }
  }
}

template <bool Inverse, class T>
void run_pass(const PlanImpl<T>& impl, const Pass& pass, const Cx<T>* src, Cx<T>* dst) {
  const Cx<T>* tw = impl.twiddles.data();
  const Cx<T>* roots = impl.roots.data();
  switch (pass.radix) {
    case 2:
      return radix_pass<2, Inverse>(src, dst, impl.n, pass, tw, roots);
    case 3:
      return radix_pass<3, Inverse>(src, dst, impl.n, pass, tw, roots);
    case 4:
      return radix_pass<4, Inverse>(src, dst, impl.n, pass, tw, roots);
    case 5:
      return radix_pass<5, Inverse>(src, dst, impl.n, pass, tw, roots);
    default:
      return radix_pass<0, Inverse>(src, dst, impl.n, pass, tw, roots);
  }
}

}  // namespace

template <class T>
void plan_mixed_radix(PlanImpl<T>& impl) {
  // Radix 4 first (fewest passes and multiplies for powers of two), then a leftover 2, then 3, 5 and
  // the odd primes up to 13.
  std::vector<int> radices;
  std::size_t rest = impl.n;
  while (rest % 4 == 0) radices.push_back(4), rest /= 4;
  while (rest % 2 == 0) radices.push_back(2), rest /= 2;
  for (int p : {3, 5, 7, 11, 13}) {
    while (rest % static_cast<std::size_t>(p) == 0) radices.push_back(p), rest /= static_cast<std::size_t>(p);
  }
  if (rest != 1) throw std::logic_error("fft: plan_mixed_radix given a length with a prime factor above 13");
  std::size_t ns = 1;
  for (int radix : radices) {
    Pass pass;
    pass.radix = radix;
    pass.ns = ns;
    pass.twiddles = impl.twiddles.size();
    const std::size_t length = ns * static_cast<std::size_t>(radix);
    if (ns > 1) {
      for (std::size_t k = 0; k < ns; ++k) {
        for (int r = 1; r < radix; ++r) impl.twiddles.push_back(root<T>(static_cast<unsigned long long>(r) * k, length));
      }
    }
    if (radix > 5) {
      pass.roots = impl.roots.size();
      for (int t = 0; t < radix; ++t) impl.roots.push_back(root<T>(static_cast<unsigned long long>(t), static_cast<unsigned long long>(radix)));
    }
    impl.passes.push_back(pass);
    ns = length;
  }
}

template <class T>
void run_mixed_radix(const PlanImpl<T>& impl, const Cx<T>* in, Cx<T>* out, bool inverse, Cx<T>* work) {
  const std::size_t count = impl.passes.size();
  if (count == 0) {  // n = 1
    out[0] = in[0];
    return;
  }
  // Pass p reads what pass p-1 wrote and writes the other work buffer; the first reads `in`, the last
  // writes `out`, so the data moves count times and never needs a final copy.
  Cx<T>* buffers[2] = {work, work + impl.n};
  const Cx<T>* src = in;
  for (std::size_t p = 0; p < count; ++p) {
    Cx<T>* dst = p + 1 == count ? out : buffers[p % 2];
    if (inverse) {
      run_pass<true>(impl, impl.passes[p], src, dst);
    } else {
      run_pass<false>(impl, impl.passes[p], src, dst);
    }
    src = dst;
  }
}

template void plan_mixed_radix<float>(PlanImpl<float>&);
template void plan_mixed_radix<double>(PlanImpl<double>&);
template void run_mixed_radix<float>(const PlanImpl<float>&, const Cx<float>*, Cx<float>*, bool, Cx<float>*);
template void run_mixed_radix<double>(const PlanImpl<double>&, const Cx<double>*, Cx<double>*, bool, Cx<double>*);

}  // namespace gpulab::cpu::fft::detail
