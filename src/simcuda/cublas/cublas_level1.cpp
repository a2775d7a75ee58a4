// cuBLAS level 1 on the simulator: vector operations, as BLAS defines them (a negative increment walks
// the vector from its end; n <= 0 does nothing, and a reduction of it is 0), each run as one task on
// the handle's stream with the vectors it reads and writes declared to the checks.
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

#include <fmt/format.h>

#include "simcuda/cublas/cublas_context.hpp"
#include "simcuda/cublas/cublas_numeric.hpp"

namespace gpulab::sim::cublas {

namespace {

template <class T>
DeviceRegion vec(const T* p, int n, int inc, const char* name) {
  return vector_region(p, n, inc, sizeof(T), name);
}

// sqrt(sum |x_i|^2) without overflow or underflow of the squares: the running scale and scaled sum of
// squares of LAPACK's classic nrm2.
template <class T>
real_t<T> nrm2(const T* x, int n, int inc) {
  using R = real_t<T>;
  R scale = 0, ssq = 1;
  auto add = [&](R v) {
    if (v == 0) return;
    const R a = std::abs(v);
    if (scale < a) {
      ssq = 1 + ssq * (scale / a) * (scale / a);
      scale = a;
    } else {
      ssq += (a / scale) * (a / scale);
    }
  };
  for (int i = 0; i < n; ++i) {
    const T v = x[static_cast<long long>(i) * inc];
    if constexpr (is_complex_v<T>) {
      add(v.real());
      add(v.imag());
    } else {
      add(v);
    }
  }
  return scale * std::sqrt(ssq);
}

// A reduction to a scalar (nrm2, asum, dot, i?amax): incx <= 0 or n <= 0 gives what `empty` is.
template <class R, class F>
void reduce(cublasHandle_t handle, const char* call, R* result, std::initializer_list<DeviceRegion> reads, F&& compute) {
  const cublasContext& ctx = context_of(handle);
  const Result<R> out(ctx, result);
  std::vector<DeviceRegion> regions(reads);
  enqueue(
      ctx, call,
      [out, regions, compute](HostTaskAccess& access) {
        for (const auto& r : regions) access.read(r);
        out.set(access, compute());
      },
      out.on_host());
}

template <class C, class R>
cublasStatus_t nrm2_call(const char* call, cublasHandle_t handle, int n, const C* x, int incx, R* result) {
  return api(call, [&] {
    const auto* e = elements(x);
    const bool empty = n <= 0 || incx <= 0;
    reduce(handle, call, result, {empty ? DeviceRegion{} : vec(e, n, incx, "x")},
           [=] { return empty ? R(0) : nrm2(e, n, incx); });
  });
}

template <class C, class R>
cublasStatus_t asum_call(const char* call, cublasHandle_t handle, int n, const C* x, int incx, R* result) {
  return api(call, [&] {
    const auto* e = elements(x);
    const bool empty = n <= 0 || incx <= 0;
    reduce(handle, call, result, {empty ? DeviceRegion{} : vec(e, n, incx, "x")}, [=] {
      R sum = 0;
      for (int i = 0; !empty && i < n; ++i) sum += abs1(e[static_cast<long long>(i) * incx]);
      return sum;
    });
  });
}

// i?amax and i?amin: the first 1-based index of the largest (smallest) |x_i|; 0 for an empty vector.
template <class C>
cublasStatus_t iamax_call(const char* call, cublasHandle_t handle, int n, const C* x, int incx, int* result, bool max) {
  return api(call, [&] {
    const auto* e = elements(x);
    const bool empty = n <= 0 || incx <= 0;
    reduce(handle, call, result, {empty ? DeviceRegion{} : vec(e, n, incx, "x")}, [=] {
      if (empty) return 0;
      int best = 0;
      auto best_value = abs1(e[0]);
      for (int i = 1; i < n; ++i) {
        const auto v = abs1(e[static_cast<long long>(i) * incx]);
        if (max ? v > best_value : v < best_value) {
          best = i;
          best_value = v;
        }
      }
      return best + 1;
    });
  });
}

template <class C>
cublasStatus_t dot_call(const char* call, cublasHandle_t handle, int n, const C* x, int incx, const C* y, int incy,
                        C* result, bool conjugate) {
  using T = typename element_of<C>::type;
  return api(call, [&] {
    const auto* ex = elements(x);
    const auto* ey = elements(y);
    const bool empty = n <= 0;
    reduce(handle, call, elements(result),
           {empty ? DeviceRegion{} : vec(ex, n, incx, "x"), empty ? DeviceRegion{} : vec(ey, n, incy, "y")}, [=] {
             T sum{};
             for (int i = 0; i < n; ++i) sum += conj_if(at(ex, i, n, incx), conjugate) * at(ey, i, n, incy);
             return sum;
           });
  });
}

// An in-place update of one or two vectors by `update(access, i)`, with its scalars read in the work.
template <class F>
void update(cublasHandle_t handle, const char* call, std::initializer_list<DeviceRegion> reads,
            std::initializer_list<DeviceRegion> writes, F&& work) {
  const cublasContext& ctx = context_of(handle);
  std::vector<DeviceRegion> r(reads), w(writes);
  enqueue(ctx, call, [r, w, work](HostTaskAccess& access) {
    for (const auto& region : r) access.read(region);
    for (const auto& region : w) access.write(region);
    work(access);
  });
}

template <class C, class S>
cublasStatus_t scal_call(const char* call, cublasHandle_t handle, int n, const S* alpha, C* x, int incx) {
  return api(call, [&] {
    const Scalar<typename element_of<S>::type> a(context_of(handle), elements(alpha), "alpha");
    if (n <= 0 || incx <= 0) return;
    auto* e = elements(x);
    const DeviceRegion rx = vec(e, n, incx, "x");
    update(handle, call, {rx}, {rx}, [=](HostTaskAccess& access) {
      const auto av = a.get(access);
      for (int i = 0; i < n; ++i) e[static_cast<long long>(i) * incx] *= av;
    });
  });
}

template <class C>
cublasStatus_t axpy_call(const char* call, cublasHandle_t handle, int n, const C* alpha, const C* x, int incx, C* y,
                         int incy) {
  return api(call, [&] {
    const Scalar<typename element_of<C>::type> a(context_of(handle), elements(alpha), "alpha");
    if (n <= 0) return;
    const auto* ex = elements(x);
    auto* ey = elements(y);
    const DeviceRegion ry = vec(ey, n, incy, "y");
    update(handle, call, {vec(ex, n, incx, "x"), ry}, {ry}, [=](HostTaskAccess& access) {
      const auto av = a.get(access);
      for (int i = 0; i < n; ++i) at(ey, i, n, incy) += av * at(ex, i, n, incx);
    });
  });
}

template <class C>
cublasStatus_t copy_call(const char* call, cublasHandle_t handle, int n, const C* x, int incx, C* y, int incy) {
  return api(call, [&] {
    context_of(handle);
    if (n <= 0) return;
    const auto* ex = elements(x);
    auto* ey = elements(y);
    update(handle, call, {vec(ex, n, incx, "x")}, {vec(ey, n, incy, "y")}, [=](HostTaskAccess&) {
      for (int i = 0; i < n; ++i) at(ey, i, n, incy) = at(ex, i, n, incx);
    });
  });
}

template <class C>
cublasStatus_t swap_call(const char* call, cublasHandle_t handle, int n, C* x, int incx, C* y, int incy) {
  return api(call, [&] {
    context_of(handle);
    if (n <= 0) return;
    auto* ex = elements(x);
    auto* ey = elements(y);
    const DeviceRegion rx = vec(ex, n, incx, "x"), ry = vec(ey, n, incy, "y");
    update(handle, call, {rx, ry}, {rx, ry}, [=](HostTaskAccess&) {
      for (int i = 0; i < n; ++i) std::swap(at(ex, i, n, incx), at(ey, i, n, incy));
    });
  });
}

// A plane rotation with real c and s: x_i' = c x_i + s y_i, y_i' = c y_i - s x_i.
template <class C, class R>
cublasStatus_t rot_call(const char* call, cublasHandle_t handle, int n, C* x, int incx, C* y, int incy, const R* c,
                        const R* s) {
  return api(call, [&] {
    const cublasContext& ctx = context_of(handle);
    const Scalar<R> cs(ctx, c, "c"), sn(ctx, s, "s");
    if (n <= 0) return;
    auto* ex = elements(x);
    auto* ey = elements(y);
    const DeviceRegion rx = vec(ex, n, incx, "x"), ry = vec(ey, n, incy, "y");
    update(handle, call, {rx, ry}, {rx, ry}, [=](HostTaskAccess& access) {
      const R cv = cs.get(access), sv = sn.get(access);
      for (int i = 0; i < n; ++i) {
        auto& xi = at(ex, i, n, incx);
        auto& yi = at(ey, i, n, incy);
        const auto xv = xi;
        xi = cv * xv + sv * yi;
        yi = cv * yi - sv * xv;
      }
    });
  });
}

}  // namespace

}  // namespace gpulab::sim::cublas

using namespace gpulab::sim::cublas;  // NOLINT: the API below is cuBLAS's, at global scope

extern "C" {

cublasStatus_t cublasSnrm2_v2(cublasHandle_t h, int n, const float* x, int incx, float* r) { return nrm2_call("cublasSnrm2_v2", h, n, x, incx, r); }
cublasStatus_t cublasDnrm2_v2(cublasHandle_t h, int n, const double* x, int incx, double* r) { return nrm2_call("cublasDnrm2_v2", h, n, x, incx, r); }
cublasStatus_t cublasScnrm2_v2(cublasHandle_t h, int n, const cuComplex* x, int incx, float* r) { return nrm2_call("cublasScnrm2_v2", h, n, x, incx, r); }
cublasStatus_t cublasDznrm2_v2(cublasHandle_t h, int n, const cuDoubleComplex* x, int incx, double* r) { return nrm2_call("cublasDznrm2_v2", h, n, x, incx, r); }

cublasStatus_t cublasSasum_v2(cublasHandle_t h, int n, const float* x, int incx, float* r) { return asum_call("cublasSasum_v2", h, n, x, incx, r); }
cublasStatus_t cublasDasum_v2(cublasHandle_t h, int n, const double* x, int incx, double* r) { return asum_call("cublasDasum_v2", h, n, x, incx, r); }
cublasStatus_t cublasScasum_v2(cublasHandle_t h, int n, const cuComplex* x, int incx, float* r) { return asum_call("cublasScasum_v2", h, n, x, incx, r); }
cublasStatus_t cublasDzasum_v2(cublasHandle_t h, int n, const cuDoubleComplex* x, int incx, double* r) { return asum_call("cublasDzasum_v2", h, n, x, incx, r); }

cublasStatus_t cublasIsamax_v2(cublasHandle_t h, int n, const float* x, int incx, int* r) { return iamax_call("cublasIsamax_v2", h, n, x, incx, r, true); }
cublasStatus_t cublasIdamax_v2(cublasHandle_t h, int n, const double* x, int incx, int* r) { return iamax_call("cublasIdamax_v2", h, n, x, incx, r, true); }
cublasStatus_t cublasIcamax_v2(cublasHandle_t h, int n, const cuComplex* x, int incx, int* r) { return iamax_call("cublasIcamax_v2", h, n, x, incx, r, true); }
cublasStatus_t cublasIzamax_v2(cublasHandle_t h, int n, const cuDoubleComplex* x, int incx, int* r) { return iamax_call("cublasIzamax_v2", h, n, x, incx, r, true); }
cublasStatus_t cublasIsamin_v2(cublasHandle_t h, int n, const float* x, int incx, int* r) { return iamax_call("cublasIsamin_v2", h, n, x, incx, r, false); }
cublasStatus_t cublasIdamin_v2(cublasHandle_t h, int n, const double* x, int incx, int* r) { return iamax_call("cublasIdamin_v2", h, n, x, incx, r, false); }
cublasStatus_t cublasIcamin_v2(cublasHandle_t h, int n, const cuComplex* x, int incx, int* r) { return iamax_call("cublasIcamin_v2", h, n, x, incx, r, false); }
cublasStatus_t cublasIzamin_v2(cublasHandle_t h, int n, const cuDoubleComplex* x, int incx, int* r) { return iamax_call("cublasIzamin_v2", h, n, x, incx, r, false); }

cublasStatus_t cublasSdot_v2(cublasHandle_t h, int n, const float* x, int incx, const float* y, int incy, float* r) { return dot_call("cublasSdot_v2", h, n, x, incx, y, incy, r, false); }
cublasStatus_t cublasDdot_v2(cublasHandle_t h, int n, const double* x, int incx, const double* y, int incy, double* r) { return dot_call("cublasDdot_v2", h, n, x, incx, y, incy, r, false); }
cublasStatus_t cublasCdotu_v2(cublasHandle_t h, int n, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* r) { return dot_call("cublasCdotu_v2", h, n, x, incx, y, incy, r, false); }
cublasStatus_t cublasCdotc_v2(cublasHandle_t h, int n, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* r) { return dot_call("cublasCdotc_v2", h, n, x, incx, y, incy, r, true); }
cublasStatus_t cublasZdotu_v2(cublasHandle_t h, int n, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* r) { return dot_call("cublasZdotu_v2", h, n, x, incx, y, incy, r, false); }
cublasStatus_t cublasZdotc_v2(cublasHandle_t h, int n, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* r) { return dot_call("cublasZdotc_v2", h, n, x, incx, y, incy, r, true); }

cublasStatus_t cublasSscal_v2(cublasHandle_t h, int n, const float* a, float* x, int incx) { return scal_call("cublasSscal_v2", h, n, a, x, incx); }
cublasStatus_t cublasDscal_v2(cublasHandle_t h, int n, const double* a, double* x, int incx) { return scal_call("cublasDscal_v2", h, n, a, x, incx); }
cublasStatus_t cublasCscal_v2(cublasHandle_t h, int n, const cuComplex* a, cuComplex* x, int incx) { return scal_call("cublasCscal_v2", h, n, a, x, incx); }
cublasStatus_t cublasCsscal_v2(cublasHandle_t h, int n, const float* a, cuComplex* x, int incx) { return scal_call("cublasCsscal_v2", h, n, a, x, incx); }
cublasStatus_t cublasZscal_v2(cublasHandle_t h, int n, const cuDoubleComplex* a, cuDoubleComplex* x, int incx) { return scal_call("cublasZscal_v2", h, n, a, x, incx); }
cublasStatus_t cublasZdscal_v2(cublasHandle_t h, int n, const double* a, cuDoubleComplex* x, int incx) { return scal_call("cublasZdscal_v2", h, n, a, x, incx); }

cublasStatus_t cublasSaxpy_v2(cublasHandle_t h, int n, const float* a, const float* x, int incx, float* y, int incy) { return axpy_call("cublasSaxpy_v2", h, n, a, x, incx, y, incy); }
cublasStatus_t cublasDaxpy_v2(cublasHandle_t h, int n, const double* a, const double* x, int incx, double* y, int incy) { return axpy_call("cublasDaxpy_v2", h, n, a, x, incx, y, incy); }
cublasStatus_t cublasCaxpy_v2(cublasHandle_t h, int n, const cuComplex* a, const cuComplex* x, int incx, cuComplex* y, int incy) { return axpy_call("cublasCaxpy_v2", h, n, a, x, incx, y, incy); }
cublasStatus_t cublasZaxpy_v2(cublasHandle_t h, int n, const cuDoubleComplex* a, const cuDoubleComplex* x, int incx, cuDoubleComplex* y, int incy) { return axpy_call("cublasZaxpy_v2", h, n, a, x, incx, y, incy); }

cublasStatus_t cublasScopy_v2(cublasHandle_t h, int n, const float* x, int incx, float* y, int incy) { return copy_call("cublasScopy_v2", h, n, x, incx, y, incy); }
cublasStatus_t cublasDcopy_v2(cublasHandle_t h, int n, const double* x, int incx, double* y, int incy) { return copy_call("cublasDcopy_v2", h, n, x, incx, y, incy); }
cublasStatus_t cublasCcopy_v2(cublasHandle_t h, int n, const cuComplex* x, int incx, cuComplex* y, int incy) { return copy_call("cublasCcopy_v2", h, n, x, incx, y, incy); }
cublasStatus_t cublasZcopy_v2(cublasHandle_t h, int n, const cuDoubleComplex* x, int incx, cuDoubleComplex* y, int incy) { return copy_call("cublasZcopy_v2", h, n, x, incx, y, incy); }

cublasStatus_t cublasSswap_v2(cublasHandle_t h, int n, float* x, int incx, float* y, int incy) { return swap_call("cublasSswap_v2", h, n, x, incx, y, incy); }
cublasStatus_t cublasDswap_v2(cublasHandle_t h, int n, double* x, int incx, double* y, int incy) { return swap_call("cublasDswap_v2", h, n, x, incx, y, incy); }
cublasStatus_t cublasCswap_v2(cublasHandle_t h, int n, cuComplex* x, int incx, cuComplex* y, int incy) { return swap_call("cublasCswap_v2", h, n, x, incx, y, incy); }
cublasStatus_t cublasZswap_v2(cublasHandle_t h, int n, cuDoubleComplex* x, int incx, cuDoubleComplex* y, int incy) { return swap_call("cublasZswap_v2", h, n, x, incx, y, incy); }

cublasStatus_t cublasSrot_v2(cublasHandle_t h, int n, float* x, int incx, float* y, int incy, const float* c, const float* s) { return rot_call("cublasSrot_v2", h, n, x, incx, y, incy, c, s); }
cublasStatus_t cublasDrot_v2(cublasHandle_t h, int n, double* x, int incx, double* y, int incy, const double* c, const double* s) { return rot_call("cublasDrot_v2", h, n, x, incx, y, incy, c, s); }
cublasStatus_t cublasCsrot_v2(cublasHandle_t h, int n, cuComplex* x, int incx, cuComplex* y, int incy, const float* c, const float* s) { return rot_call("cublasCsrot_v2", h, n, x, incx, y, incy, c, s); }
cublasStatus_t cublasZdrot_v2(cublasHandle_t h, int n, cuDoubleComplex* x, int incx, cuDoubleComplex* y, int incy, const double* c, const double* s) { return rot_call("cublasZdrot_v2", h, n, x, incx, y, incy, c, s); }

}  // extern "C"
