// cuBLAS as a program calls it, self-checking: every routine the simulator provides against a float64
// (complex<double>) reference computed here, by relative Frobenius error within 4*k*u of the compute
// type, on fresh random inputs, shapes no multiple of anything, padding and outputs poisoned with NaN
// (a routine that reads padding, or C when beta = 0, fails). Then cuBLAS's status codes for bad
// arguments, device pointer mode, and ordering with kernels on the handle's stream. Built unchanged by
// nvcc for a GPU and by gpulab-simcc for the simulator.
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "library_checks.h"

#define CHECK_CUBLAS(call) CHECK_STATUS(call, CUBLAS_STATUS_SUCCESS, cublasGetStatusName)

namespace {

std::mt19937_64 rng(std::random_device{}());

void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

template <class T> struct Traits;
template <> struct Traits<float> { using Ref = double; static constexpr double u = 0x1p-24; };
template <> struct Traits<double> { using Ref = double; static constexpr double u = 0x1p-53; };
template <> struct Traits<cuComplex> { using Ref = std::complex<double>; static constexpr double u = 0x1p-24; };
template <> struct Traits<cuDoubleComplex> { using Ref = std::complex<double>; static constexpr double u = 0x1p-53; };
template <class T> using Ref = typename Traits<T>::Ref;

double to_ref(float v) { return v; }
double to_ref(double v) { return v; }
std::complex<double> to_ref(cuComplex v) { return {v.x, v.y}; }
std::complex<double> to_ref(cuDoubleComplex v) { return {v.x, v.y}; }
template <class T> T from_ref(Ref<T> v);
template <> float from_ref<float>(double v) { return static_cast<float>(v); }
template <> double from_ref<double>(double v) { return v; }
template <> cuComplex from_ref<cuComplex>(std::complex<double> v) { return make_cuComplex(static_cast<float>(v.real()), static_cast<float>(v.imag())); }
template <> cuDoubleComplex from_ref<cuDoubleComplex>(std::complex<double> v) { return make_cuDoubleComplex(v.real(), v.imag()); }

double uniform() { return std::uniform_real_distribution<double>(-1.0, 1.0)(rng); }
template <class T> T random_value() {
  if constexpr (std::is_same_v<Ref<T>, double>) {
    return from_ref<T>(uniform());
  } else {
    return from_ref<T>(Ref<T>(uniform(), uniform()));
  }
}
template <class T> T poison() {
  const double nan = std::nan("");
  if constexpr (std::is_same_v<Ref<T>, double>) {
    return from_ref<T>(nan);
  } else {
    return from_ref<T>(Ref<T>(nan, nan));
  }
}
template <class R> R conj_of(R v, bool c) {
  if constexpr (std::is_same_v<R, double>) {
    return v;
  } else {
    return c ? std::conj(v) : v;
  }
}

// A column-major rows x cols matrix with leading dimension ld: random inside, NaN in the padding.
template <class T> std::vector<T> random_matrix(int rows, int cols, int ld) {
  std::vector<T> m(static_cast<std::size_t>(ld) * (cols > 0 ? cols : 1), poison<T>());
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) m[static_cast<std::size_t>(j) * ld + i] = random_value<T>();
  return m;
}

// ||got - want||_F / ||want||_F over the rows x cols inside of two column-major matrices.
template <class T, class R>
double relative_error(const std::vector<T>& got, int ldg, const std::vector<R>& want, int ldw, int rows, int cols) {
  double num = 0, den = 0;
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) {
      const R g = static_cast<R>(to_ref(got[static_cast<std::size_t>(j) * ldg + i]));
      const R w = want[static_cast<std::size_t>(j) * ldw + i];
      num += std::norm(std::complex<double>(g - w));
      den += std::norm(std::complex<double>(w));
    }
  if (std::isnan(num)) return INFINITY;
  return den == 0 ? std::sqrt(num) : std::sqrt(num / den);
}

template <class T> cublasStatus_t gemm(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const T*, const T*, int, const T*, int, const T*, T*, int);
template <> cublasStatus_t gemm<float>(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b, int m, int n, int k, const float* al, const float* A, int lda, const float* B, int ldb, const float* be, float* C, int ldc) { return cublasSgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc); }
template <> cublasStatus_t gemm<double>(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b, int m, int n, int k, const double* al, const double* A, int lda, const double* B, int ldb, const double* be, double* C, int ldc) { return cublasDgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc); }
template <> cublasStatus_t gemm<cuComplex>(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b, int m, int n, int k, const cuComplex* al, const cuComplex* A, int lda, const cuComplex* B, int ldb, const cuComplex* be, cuComplex* C, int ldc) { return cublasCgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc); }
template <> cublasStatus_t gemm<cuDoubleComplex>(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b, int m, int n, int k, const cuDoubleComplex* al, const cuDoubleComplex* A, int lda, const cuDoubleComplex* B, int ldb, const cuDoubleComplex* be, cuDoubleComplex* C, int ldc) { return cublasZgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc); }

// C = alpha op(A) op(B) + beta C in float64, column-major.
template <class T>
std::vector<Ref<T>> reference_gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, Ref<T> alpha,
                                   const std::vector<T>& A, int lda, const std::vector<T>& B, int ldb, Ref<T> beta,
                                   const std::vector<T>& C, int ldc) {
  std::vector<Ref<T>> out(static_cast<std::size_t>(m) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      Ref<T> sum{};
      for (int l = 0; l < k; ++l) {
        const Ref<T> a = ta == CUBLAS_OP_N ? to_ref(A[static_cast<std::size_t>(l) * lda + i]) : conj_of(to_ref(A[static_cast<std::size_t>(i) * lda + l]), ta == CUBLAS_OP_C);
        const Ref<T> b = tb == CUBLAS_OP_N ? to_ref(B[static_cast<std::size_t>(j) * ldb + l]) : conj_of(to_ref(B[static_cast<std::size_t>(l) * ldb + j]), tb == CUBLAS_OP_C);
        sum += a * b;
      }
      out[static_cast<std::size_t>(j) * m + i] = alpha * sum + (beta == Ref<T>(0) ? Ref<T>(0) : beta * to_ref(C[static_cast<std::size_t>(j) * ldc + i]));
    }
  return out;
}

struct Shape { int m, n, k; };
const Shape shapes[] = {{1, 1, 1}, {2, 17, 1}, {17, 31, 33}, {33, 2, 129}, {127, 129, 31}, {131, 67, 61}};
const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};

template <class T>
void check_gemm(cublasHandle_t handle, const char* name) {
  for (const Shape& s : shapes) {
    for (cublasOperation_t ta : ops) {
      for (cublasOperation_t tb : ops) {
        const int ra = ta == CUBLAS_OP_N ? s.m : s.k, ca = ta == CUBLAS_OP_N ? s.k : s.m;
        const int rb = tb == CUBLAS_OP_N ? s.k : s.n, cb = tb == CUBLAS_OP_N ? s.n : s.k;
        const int lda = ra + 3, ldb = rb + 1, ldc = s.m + 2;
        const auto A = random_matrix<T>(ra, ca, lda), B = random_matrix<T>(rb, cb, ldb);
        const bool zero_beta = (s.m + s.n) % 2 == 0;
        auto C = random_matrix<T>(s.m, s.n, ldc);
        if (zero_beta) for (auto& c : C) c = poison<T>();  // beta = 0: C must not be read
        const T alpha = random_value<T>(), beta = zero_beta ? from_ref<T>(Ref<T>(0)) : random_value<T>();
        T *dA = to_device(A), *dB = to_device(B), *dC = to_device(C);
        CHECK_CUBLAS(gemm<T>(handle, ta, tb, s.m, s.n, s.k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc));
        const auto got = to_host(dC, C.size());
        const auto want = reference_gemm<T>(ta, tb, s.m, s.n, s.k, to_ref(alpha), A, lda, B, ldb, to_ref(beta), C, ldc);
        const double err = relative_error(got, ldc, want, s.m, s.m, s.n);
        if (err > 4.0 * s.k * Traits<T>::u) {
          std::printf("FAIL: %s %dx%dx%d op %d,%d: relative error %.3g > %.3g\n", name, s.m, s.n, s.k, ta, tb, err, 4.0 * s.k * Traits<T>::u);
          ++failures;
        }
        CHECK(cudaFree(dA));
        CHECK(cudaFree(dB));
        CHECK(cudaFree(dC));
      }
    }
  }
}

// Strided and pointer-array batches, and alpha/beta in device memory.
void check_batched(cublasHandle_t handle) {
  const int m = 17, n = 9, k = 23, batches = 3;
  const long long sa = m * k + 5, sb = k * n + 2, sc = m * n + 7;
  const auto A = random_matrix<float>(m, static_cast<int>(k * batches + 1), m), B = random_matrix<float>(k, static_cast<int>(n * batches + 1), k);
  std::vector<float> Abuf(sa * batches), Bbuf(sb * batches), Cbuf(sc * batches, std::nanf(""));
  for (auto& v : Abuf) v = static_cast<float>(uniform());
  for (auto& v : Bbuf) v = static_cast<float>(uniform());
  float *dA = to_device(Abuf), *dB = to_device(Bbuf), *dC = to_device(Cbuf);
  const float scalars[2] = {static_cast<float>(uniform()), 0.0f};
  float* dScalars = to_device(std::vector<float>(scalars, scalars + 2));
  CHECK_CUBLAS(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));
  CHECK_CUBLAS(cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, dScalars, dA, m, sa, dB, k, sb, dScalars + 1, dC, m, sc, batches));
  CHECK_CUBLAS(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
  auto got = to_host(dC, Cbuf.size());
  for (int b = 0; b < batches; ++b) {
    const std::vector<float> a(Abuf.begin() + b * sa, Abuf.begin() + b * sa + m * k), bb(Bbuf.begin() + b * sb, Bbuf.begin() + b * sb + k * n);
    const std::vector<float> c(got.begin() + b * sc, got.begin() + b * sc + m * n);
    const auto want = reference_gemm<float>(CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, scalars[0], a, m, bb, k, 0.0, c, m);
    expect(relative_error(c, m, want, m, m, n) <= 4.0 * k * 0x1p-24, "cublasSgemmStridedBatched with device alpha and beta");
  }
  // Pointer arrays, in device memory, into the same buffers.
  std::vector<const float*> pa(batches), pb(batches);
  std::vector<float*> pc(batches);
  for (int b = 0; b < batches; ++b) {
    pa[b] = dA + b * sa;
    pb[b] = dB + b * sb;
    pc[b] = dC + b * sc;
  }
  const float** dpa = to_device(pa);
  const float** dpb = to_device(pb);
  float** dpc = to_device(pc);
  const float alpha = 1.5f, beta = -0.5f;
  CHECK_CUBLAS(cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dpa, m, dpb, k, &beta, dpc, m, batches));
  const auto got2 = to_host(dC, Cbuf.size());
  for (int b = 0; b < batches; ++b) {
    const std::vector<float> a(Abuf.begin() + b * sa, Abuf.begin() + b * sa + m * k), bb(Bbuf.begin() + b * sb, Bbuf.begin() + b * sb + k * n);
    const std::vector<float> before(got.begin() + b * sc, got.begin() + b * sc + m * n);
    const std::vector<float> c(got2.begin() + b * sc, got2.begin() + b * sc + m * n);
    const auto want = reference_gemm<float>(CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, alpha, a, m, bb, k, beta, before, m);
    expect(relative_error(c, m, want, m, m, n) <= 4.0 * k * 0x1p-24, "cublasSgemmBatched");
  }
  for (void* p : {static_cast<void*>(dA), static_cast<void*>(dB), static_cast<void*>(dC), static_cast<void*>(dScalars),
                  static_cast<void*>(dpa), static_cast<void*>(dpb), static_cast<void*>(dpc)}) CHECK(cudaFree(p));
  (void)A;
  (void)B;
}

// gemmEx on half, bfloat16 and int8 inputs, TF32 compute, and Hgemm: each against the float64 product of
// the inputs as stored, within 4*k*u of the precision the inputs are rounded to (plus C's own rounding).
void check_gemm_ex(cublasHandle_t handle) {
  const int m = 33, n = 19, k = 47;
  std::vector<float> A(m * k), B(k * n);
  for (auto& v : A) v = static_cast<float>(uniform());
  for (auto& v : B) v = static_cast<float>(uniform());
  std::vector<__half> Ah(A.size()), Bh(B.size());
  for (std::size_t i = 0; i < A.size(); ++i) Ah[i] = __float2half(A[i]);
  for (std::size_t i = 0; i < B.size(); ++i) Bh[i] = __float2half(B[i]);
  std::vector<float> Ahf(A.size()), Bhf(B.size());  // the half inputs' exact values
  for (std::size_t i = 0; i < A.size(); ++i) Ahf[i] = __half2float(Ah[i]);
  for (std::size_t i = 0; i < B.size(); ++i) Bhf[i] = __half2float(Bh[i]);
  const auto want_h = reference_gemm<float>(CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, 1.0, Ahf, m, Bhf, k, 0.0, Ahf, m);
  const auto want_f = reference_gemm<float>(CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, 1.0, A, m, B, k, 0.0, A, m);
  __half *dAh = to_device(Ah), *dBh = to_device(Bh);
  float *dA = to_device(A), *dB = to_device(B), *dC = to_device(std::vector<float>(m * n, std::nanf("")));
  const float one = 1.0f, zero = 0.0f;
  CHECK_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dAh, CUDA_R_16F, m, dBh, CUDA_R_16F, k, &zero, dC, CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  expect(relative_error(to_host(dC, m * n), m, want_h, m, m, n) <= 4.0 * k * 0x1p-24, "cublasGemmEx 16F inputs, 32F output");
  CHECK_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA, CUDA_R_32F, m, dB, CUDA_R_32F, k, &zero, dC, CUDA_R_32F, m, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT_TENSOR_OP));
  const double tf32_err = relative_error(to_host(dC, m * n), m, want_f, m, m, n);
  expect(tf32_err <= 4.0 * k * 0x1p-11, "cublasGemmEx TF32 within its bound");
  CHECK_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA, CUDA_R_32F, m, dB, CUDA_R_32F, k, &zero, dC, CUDA_R_32F, m, CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT));
  expect(relative_error(to_host(dC, m * n), m, want_f, m, m, n) <= 4.0 * k * 0x1p-24, "cublasGemmEx 32F pedantic");
  __half* dCh = to_device(std::vector<__half>(m * n, __float2half(0.0f)));
  const __half hone = __float2half(1.0f), hzero = __float2half(0.0f);
  CHECK_CUBLAS(cublasHgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &hone, dAh, m, dBh, k, &hzero, dCh, m));
  const auto Ch = to_host(dCh, m * n);
  std::vector<float> Chf(Ch.size());
  for (std::size_t i = 0; i < Ch.size(); ++i) Chf[i] = __half2float(Ch[i]);
  expect(relative_error(Chf, m, want_h, m, m, n) <= (4.0 * k + 1) * 0x1p-11, "cublasHgemm");
  // int8 in, int32 out: exact.
  std::vector<std::int8_t> Ai(m * k), Bi(k * n);
  for (auto& v : Ai) v = static_cast<std::int8_t>(static_cast<int>(rng() % 255) - 127);
  for (auto& v : Bi) v = static_cast<std::int8_t>(static_cast<int>(rng() % 255) - 127);
  std::int8_t *dAi = to_device(Ai), *dBi = to_device(Bi);
  std::int32_t* dCi = to_device(std::vector<std::int32_t>(m * n, -1));
  const int ione = 1, izero = 0;
  CHECK_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &ione, dAi, CUDA_R_8I, m, dBi, CUDA_R_8I, k, &izero, dCi, CUDA_R_32I, m, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
  const auto Ci = to_host(dCi, m * n);
  bool exact = true;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      int sum = 0;
      for (int l = 0; l < k; ++l) sum += Ai[l * m + i] * Bi[j * k + l];
      exact = exact && Ci[j * m + i] == sum;
    }
  expect(exact, "cublasGemmEx 8I inputs, 32I output, exact");
  for (void* p : {static_cast<void*>(dAh), static_cast<void*>(dBh), static_cast<void*>(dA), static_cast<void*>(dB), static_cast<void*>(dC),
                  static_cast<void*>(dCh), static_cast<void*>(dAi), static_cast<void*>(dBi), static_cast<void*>(dCi)}) CHECK(cudaFree(p));
}

// Level 1 with increments (negative ones walk from the end), results to host and to device memory.
void check_level1(cublasHandle_t handle) {
  const int n = 131, incx = 2, incy = -3;
  std::vector<double> x(n * incx, std::nan("")), y(n * 3, std::nan(""));
  for (int i = 0; i < n; ++i) x[i * incx] = uniform();
  for (int i = 0; i < n; ++i) y[i * 3] = uniform();
  auto yat = [&](const std::vector<double>& v, int i) { return v[(n - 1 - i) * 3]; };  // incy = -3
  double *dx = to_device(x), *dy = to_device(y);
  double dot = 0, nrm = 0, asum = 0, want_dot = 0, want_nrm = 0, want_asum = 0;
  int imax = 0, imin = 0, want_imax = 1, want_imin = 1;
  for (int i = 0; i < n; ++i) {
    want_dot += x[i * incx] * yat(y, i);
    want_nrm += x[i * incx] * x[i * incx];
    want_asum += std::fabs(x[i * incx]);
    if (std::fabs(x[i * incx]) > std::fabs(x[(want_imax - 1) * incx])) want_imax = i + 1;
    if (std::fabs(x[i * incx]) < std::fabs(x[(want_imin - 1) * incx])) want_imin = i + 1;
  }
  want_nrm = std::sqrt(want_nrm);
  CHECK_CUBLAS(cublasDdot(handle, n, dx, incx, dy, incy, &dot));
  CHECK_CUBLAS(cublasDnrm2(handle, n, dx, incx, &nrm));
  CHECK_CUBLAS(cublasDasum(handle, n, dx, incx, &asum));
  CHECK_CUBLAS(cublasIdamax(handle, n, dx, incx, &imax));
  CHECK_CUBLAS(cublasIdamin(handle, n, dx, incx, &imin));
  expect(std::fabs(dot - want_dot) <= 4.0 * n * 0x1p-53 * want_asum * 2, "cublasDdot with a negative increment");
  expect(std::fabs(nrm - want_nrm) <= 4.0 * n * 0x1p-53 * want_nrm, "cublasDnrm2");
  expect(std::fabs(asum - want_asum) <= 4.0 * n * 0x1p-53 * want_asum, "cublasDasum");
  expect(imax == want_imax && imin == want_imin, "cublasIdamax / cublasIdamin (1-based)");
  // A result in device memory.
  double* dres = to_device(std::vector<double>(1, std::nan("")));
  CHECK_CUBLAS(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));
  CHECK_CUBLAS(cublasDnrm2(handle, n, dx, incx, dres));
  CHECK_CUBLAS(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
  expect(std::fabs(to_host(dres, 1)[0] - want_nrm) <= 4.0 * n * 0x1p-53 * want_nrm, "cublasDnrm2 into device memory");
  // y = alpha x + y, then scal, copy, swap, rot.
  const double alpha = uniform();
  CHECK_CUBLAS(cublasDaxpy(handle, n, &alpha, dx, incx, dy, incy));
  auto y1 = to_host(dy, y.size());
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && std::fabs(yat(y1, i) - (yat(y, i) + alpha * x[i * incx])) <= 1e-15;
  expect(ok, "cublasDaxpy with a negative increment");
  CHECK_CUBLAS(cublasDscal(handle, n, &alpha, dx, incx));
  CHECK_CUBLAS(cublasDswap(handle, n, dx, incx, dy, incy));
  const auto xs = to_host(dx, x.size()), ys = to_host(dy, y.size());
  ok = true;
  for (int i = 0; i < n; ++i) ok = ok && xs[i * incx] == yat(y1, i) && yat(ys, i) == alpha * x[i * incx];
  expect(ok, "cublasDscal and cublasDswap");
  const double c = 0.6, s = 0.8;
  CHECK_CUBLAS(cublasDrot(handle, n, dx, incx, dy, incy, &c, &s));
  const auto xr = to_host(dx, x.size()), yr = to_host(dy, y.size());
  ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && std::fabs(xr[i * incx] - (c * xs[i * incx] + s * yat(ys, i))) <= 1e-15 && std::fabs(yat(yr, i) - (c * yat(ys, i) - s * xs[i * incx])) <= 1e-15;
  expect(ok, "cublasDrot");
  CHECK_CUBLAS(cublasDcopy(handle, n, dx, incx, dy, incy));
  const auto yc = to_host(dy, y.size());
  ok = true;
  for (int i = 0; i < n; ++i) ok = ok && yat(yc, i) == xr[i * incx];
  expect(ok, "cublasDcopy");
  // Complex dot: dotc conjugates x.
  std::vector<cuComplex> cx(n), cy(n);
  for (auto& v : cx) v = random_value<cuComplex>();
  for (auto& v : cy) v = random_value<cuComplex>();
  cuComplex *dcx = to_device(cx), *dcy = to_device(cy), dotc, dotu;
  CHECK_CUBLAS(cublasCdotc(handle, n, dcx, 1, dcy, 1, &dotc));
  CHECK_CUBLAS(cublasCdotu(handle, n, dcx, 1, dcy, 1, &dotu));
  std::complex<double> wc = 0, wu = 0;
  double mag = 0;
  for (int i = 0; i < n; ++i) {
    wc += std::conj(to_ref(cx[i])) * to_ref(cy[i]);
    wu += to_ref(cx[i]) * to_ref(cy[i]);
    mag += std::abs(to_ref(cx[i])) * std::abs(to_ref(cy[i]));
  }
  expect(std::abs(to_ref(dotc) - wc) <= 4.0 * n * 0x1p-24 * mag && std::abs(to_ref(dotu) - wu) <= 4.0 * n * 0x1p-24 * mag, "cublasCdotc / cublasCdotu");
  for (void* p : {static_cast<void*>(dx), static_cast<void*>(dy), static_cast<void*>(dres), static_cast<void*>(dcx), static_cast<void*>(dcy)}) CHECK(cudaFree(p));
}

// gemv, ger, symv (the unstored triangle is NaN), trsv (likewise).
void check_level2(cublasHandle_t handle) {
  const int m = 37, n = 29, lda = m + 3;
  const auto A = random_matrix<double>(m, n, lda);
  std::vector<double> x(m > n ? m : n), y(m > n ? m : n, std::nan(""));
  for (auto& v : x) v = uniform();
  double *dA = to_device(A), *dx = to_device(x), *dy = to_device(y);
  const double alpha = uniform(), zero = 0;
  for (cublasOperation_t t : {CUBLAS_OP_N, CUBLAS_OP_T}) {
    CHECK_CUBLAS(cublasDgemv(handle, t, m, n, &alpha, dA, lda, dx, 1, &zero, dy, 1));
    const int ly = t == CUBLAS_OP_N ? m : n, lx = t == CUBLAS_OP_N ? n : m;
    const auto got = to_host(dy, ly);
    std::vector<double> want(ly, 0);
    for (int i = 0; i < ly; ++i)
      for (int j = 0; j < lx; ++j) want[i] += alpha * (t == CUBLAS_OP_N ? A[j * lda + i] : A[i * lda + j]) * x[j];
    expect(relative_error(got, ly, want, ly, ly, 1) <= 4.0 * lx * 0x1p-53, t == CUBLAS_OP_N ? "cublasDgemv N" : "cublasDgemv T");
  }
  CHECK_CUBLAS(cublasDger(handle, m, n, &alpha, dx, 1, dx, 1, dA, lda));
  const auto Ager = to_host(dA, A.size());
  std::vector<double> want_ger(m * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) want_ger[j * m + i] = A[j * lda + i] + alpha * x[i] * x[j];
  expect(relative_error(Ager, lda, want_ger, m, m, n) <= 4.0 * 0x1p-53, "cublasDger");
  // Triangular and symmetric: only the `uplo` triangle is written; the other holds NaN.
  const int nt = 23, ldt = nt + 1;
  for (cublasFillMode_t uplo : {CUBLAS_FILL_MODE_UPPER, CUBLAS_FILL_MODE_LOWER}) {
    std::vector<double> T(ldt * nt, std::nan(""));
    for (int j = 0; j < nt; ++j)
      for (int i = 0; i < nt; ++i)
        if (uplo == CUBLAS_FILL_MODE_UPPER ? i <= j : i >= j) T[j * ldt + i] = i == j ? 2.0 + uniform() : uniform() / nt;
    auto full = [&](int i, int j) { const bool stored = uplo == CUBLAS_FILL_MODE_UPPER ? i <= j : i >= j; return stored ? T[j * ldt + i] : T[i * ldt + j]; };
    double* dT = to_device(T);
    double* dv = to_device(std::vector<double>(x.begin(), x.begin() + nt));
    double* dw = to_device(std::vector<double>(nt, std::nan("")));
    CHECK_CUBLAS(cublasDsymv(handle, uplo, nt, &alpha, dT, ldt, dv, 1, &zero, dw, 1));
    const auto got = to_host(dw, nt);
    std::vector<double> want(nt, 0);
    for (int i = 0; i < nt; ++i) for (int j = 0; j < nt; ++j) want[i] += alpha * full(i, j) * x[j];
    expect(relative_error(got, nt, want, nt, nt, 1) <= 4.0 * nt * 0x1p-53, "cublasDsymv");
    for (cublasOperation_t t : {CUBLAS_OP_N, CUBLAS_OP_T}) {
      for (cublasDiagType_t d : {CUBLAS_DIAG_NON_UNIT, CUBLAS_DIAG_UNIT}) {
        CHECK(cudaMemcpy(dv, x.data(), nt * sizeof(double), cudaMemcpyHostToDevice));
        CHECK_CUBLAS(cublasDtrsv(handle, uplo, t, d, nt, dT, ldt, dv, 1));
        const auto sol = to_host(dv, nt);
        // op(T) sol must give back x.
        std::vector<double> back(nt, 0);
        for (int i = 0; i < nt; ++i)
          for (int j = 0; j < nt; ++j) {
            const int r = t == CUBLAS_OP_N ? i : j, c = t == CUBLAS_OP_N ? j : i;
            const bool stored = uplo == CUBLAS_FILL_MODE_UPPER ? r <= c : r >= c;
            if (!stored) continue;
            back[i] += (r == c && d == CUBLAS_DIAG_UNIT ? 1.0 : T[c * ldt + r]) * sol[j];
          }
        expect(relative_error(back, nt, std::vector<double>(x.begin(), x.begin() + nt), nt, nt, 1) <= 4.0 * nt * 0x1p-53 * 10, "cublasDtrsv solves");
      }
    }
    CHECK(cudaFree(dT));
    CHECK(cudaFree(dv));
    CHECK(cudaFree(dw));
  }
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
}

// trsm on both sides, syrk on a triangle, geam as the out-of-place transpose.
void check_level3_others(cublasHandle_t handle) {
  const int m = 19, n = 13;
  for (cublasSideMode_t side : {CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT}) {
    for (cublasOperation_t t : {CUBLAS_OP_N, CUBLAS_OP_T}) {
      const int order = side == CUBLAS_SIDE_LEFT ? m : n, lda = order + 2, ldb = m + 1;
      std::vector<float> T(lda * order, std::nanf(""));
      for (int j = 0; j < order; ++j)
        for (int i = 0; i <= j; ++i) T[j * lda + i] = i == j ? 2.0f + static_cast<float>(uniform()) : static_cast<float>(uniform()) / order;
      const auto B = random_matrix<float>(m, n, ldb);
      float *dT = to_device(T), *dB = to_device(B);
      const float alpha = 0.75f;
      CHECK_CUBLAS(cublasStrsm(handle, side, CUBLAS_FILL_MODE_UPPER, t, CUBLAS_DIAG_NON_UNIT, m, n, &alpha, dT, lda, dB, ldb));
      const auto X = to_host(dB, B.size());
      // op(T) X (left) or X op(T) (right) must give alpha B.
      auto op_t = [&](int i, int j) { const int r = t == CUBLAS_OP_N ? i : j, c = t == CUBLAS_OP_N ? j : i; return r <= c ? static_cast<double>(T[c * lda + r]) : 0.0; };
      std::vector<double> back(m * n, 0), want(m * n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
          want[j * m + i] = alpha * B[j * ldb + i];
          if (side == CUBLAS_SIDE_LEFT) for (int l = 0; l < m; ++l) back[j * m + i] += op_t(i, l) * X[j * ldb + l];
          else for (int l = 0; l < n; ++l) back[j * m + i] += X[l * ldb + i] * op_t(l, j);
        }
      expect(relative_error(back, m, want, m, m, n) <= 4.0 * order * 0x1p-24 * 10, side == CUBLAS_SIDE_LEFT ? "cublasStrsm left" : "cublasStrsm right");
      CHECK(cudaFree(dT));
      CHECK(cudaFree(dB));
    }
  }
  // syrk: C's lower triangle = alpha A A^T + beta C; its upper triangle (NaN) is left alone.
  const int ns = 21, ks = 11, ldc = ns + 1;
  const auto A = random_matrix<double>(ns, ks, ns);
  std::vector<double> C(ldc * ns, std::nan(""));
  for (int j = 0; j < ns; ++j) for (int i = j; i < ns; ++i) C[j * ldc + i] = uniform();
  double *dA = to_device(A), *dC = to_device(C);
  const double alpha = uniform(), beta = uniform();
  CHECK_CUBLAS(cublasDsyrk(handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, ns, ks, &alpha, dA, ns, &beta, dC, ldc));
  const auto got = to_host(dC, C.size());
  bool upper_untouched = true;
  double num = 0, den = 0;
  for (int j = 0; j < ns; ++j)
    for (int i = 0; i < ns; ++i) {
      if (i < j) { upper_untouched = upper_untouched && std::isnan(got[j * ldc + i]); continue; }
      double w = beta * C[j * ldc + i];
      for (int l = 0; l < ks; ++l) w += alpha * A[l * ns + i] * A[l * ns + j];
      num += (got[j * ldc + i] - w) * (got[j * ldc + i] - w);
      den += w * w;
    }
  expect(upper_untouched && std::sqrt(num / den) <= 4.0 * ks * 0x1p-53, "cublasDsyrk on the lower triangle");
  // geam: C = A^T (beta = 0, B never read: it is null).
  const int rg = 7, cg = 45;
  const auto G = random_matrix<float>(rg, cg, rg);
  float *dG = to_device(G), *dGt = to_device(std::vector<float>(cg * rg, std::nanf("")));
  const float one = 1.0f, fzero = 0.0f;
  CHECK_CUBLAS(cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, cg, rg, &one, dG, rg, &fzero, nullptr, cg, dGt, cg));
  const auto Gt = to_host(dGt, cg * rg);
  bool exact = true;
  for (int j = 0; j < rg; ++j) for (int i = 0; i < cg; ++i) exact = exact && Gt[j * cg + i] == G[i * rg + j];
  expect(exact, "cublasSgeam transposes");
  for (void* p : {static_cast<void*>(dA), static_cast<void*>(dC), static_cast<void*>(dG), static_cast<void*>(dGt)}) CHECK(cudaFree(p));
}

// Batched LU: factor, solve and invert two well-conditioned matrices; A x = b recovered, A inv(A) = I.
// Then trmm, symm and dgmm against float64.
void check_lu_and_level3_rest(cublasHandle_t handle) {
  const int n = 13, batch = 2, lda = n + 1;
  std::vector<std::vector<double>> A(batch);
  std::vector<double*> dA(batch), dAinv(batch), dB(batch);
  std::vector<std::vector<double>> rhs(batch);
  for (int b = 0; b < batch; ++b) {
    A[b] = random_matrix<double>(n, n, lda);
    for (int i = 0; i < n; ++i) A[b][i * lda + (n - 1 - i)] += 4.0;  // dominant anti-diagonal: pivoting needed
    dA[b] = to_device(A[b]);
    dAinv[b] = to_device(std::vector<double>(n * n, std::nan("")));
    rhs[b].resize(n);
    for (auto& v : rhs[b]) v = uniform();
    dB[b] = to_device(rhs[b]);
  }
  double** dAp = to_device(dA);
  double** dAinvp = to_device(dAinv);
  double** dBp = to_device(dB);
  int* dPiv = to_device(std::vector<int>(n * batch, -1));
  int* dInfo = to_device(std::vector<int>(batch, -1));
  CHECK_CUBLAS(cublasDgetrfBatched(handle, n, dAp, lda, dPiv, dInfo, batch));
  const auto info = to_host(dInfo, batch);
  const auto piv = to_host(dPiv, n * batch);
  expect(info[0] == 0 && info[1] == 0 && piv[0] == n, "cublasDgetrfBatched: info 0, the first pivot is the anti-diagonal's row");
  int host_info = -99;
  CHECK_CUBLAS(cublasDgetrsBatched(handle, CUBLAS_OP_N, n, 1, dAp, lda, dPiv, dBp, n, &host_info, batch));
  expect(host_info == 0, "cublasDgetrsBatched: info 0");
  CHECK_CUBLAS(cublasDgetriBatched(handle, n, dAp, lda, dPiv, dAinvp, n, dInfo, batch));
  for (int b = 0; b < batch; ++b) {
    const auto x = to_host(dB[b], n);
    const auto inv = to_host(dAinv[b], n * n);
    std::vector<double> ax(n, 0), identity(n * n, 0), prod(n * n, 0);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) ax[i] += A[b][j * lda + i] * x[j];
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        identity[j * n + i] = i == j;
        for (int l = 0; l < n; ++l) prod[j * n + i] += A[b][l * lda + i] * inv[j * n + l];
      }
    expect(relative_error(ax, n, rhs[b], n, n, 1) <= 1e-12, "cublasDgetrsBatched solves A x = b");
    expect(relative_error(prod, n, identity, n, n, n) <= 1e-12, "cublasDgetriBatched: A inv(A) = I");
  }
  int bad_info = 0;
  expect(cublasDgetrsBatched(handle, CUBLAS_OP_N, n, 1, dAp, n - 1, dPiv, dBp, n, &bad_info, batch) == CUBLAS_STATUS_INVALID_VALUE && bad_info == -5,
         "cublasDgetrsBatched with lda < n: INVALID_VALUE and info = -5");
  for (int b = 0; b < batch; ++b) {
    CHECK(cudaFree(dA[b]));
    CHECK(cudaFree(dAinv[b]));
    CHECK(cudaFree(dB[b]));
  }
  for (void* p : {static_cast<void*>(dAp), static_cast<void*>(dAinvp), static_cast<void*>(dBp), static_cast<void*>(dPiv), static_cast<void*>(dInfo)}) CHECK(cudaFree(p));

  // trmm (left, lower, transposed, unit diagonal), symm (right, upper), dgmm (left).
  const int m = 11, k = 7, ldt = m + 2;
  std::vector<double> T(ldt * m, std::nan(""));
  for (int j = 0; j < m; ++j) for (int i = j; i < m; ++i) T[j * ldt + i] = i == j ? std::nan("") : uniform();  // unit: diagonal never read
  const auto B = random_matrix<double>(m, k, m);
  double *dT = to_device(T), *dBm = to_device(B), *dC = to_device(std::vector<double>(m * k, std::nan("")));
  const double alpha = uniform();
  CHECK_CUBLAS(cublasDtrmm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_UNIT, m, k, &alpha, dT, ldt, dBm, m, dC, m));
  std::vector<double> want(m * k, 0);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < m; ++i) {
      double sum = B[j * m + i];  // the unit diagonal
      for (int l = i + 1; l < m; ++l) sum += T[i * ldt + l] * B[j * m + l];  // op(T)(i, l) = T(l, i), l > i
      want[j * m + i] = alpha * sum;
    }
  expect(relative_error(to_host(dC, m * k), m, want, m, m, k) <= 4.0 * m * 0x1p-53, "cublasDtrmm");
  std::vector<double> S(k * k, std::nan(""));
  for (int j = 0; j < k; ++j) for (int i = 0; i <= j; ++i) S[j * k + i] = uniform();
  double* dS = to_device(S);
  const double beta = 0;
  CHECK_CUBLAS(cublasDsymm(handle, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, m, k, &alpha, dS, k, dBm, m, &beta, dC, m));
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < m; ++i) {
      double sum = 0;
      for (int l = 0; l < k; ++l) sum += B[l * m + i] * (l <= j ? S[j * k + l] : S[l * k + j]);
      want[j * m + i] = alpha * sum;
    }
  expect(relative_error(to_host(dC, m * k), m, want, m, m, k) <= 4.0 * k * 0x1p-53, "cublasDsymm");
  std::vector<double> d(m);
  for (auto& v : d) v = uniform();
  double* dd = to_device(d);
  CHECK_CUBLAS(cublasDdgmm(handle, CUBLAS_SIDE_LEFT, m, k, dBm, m, dd, 1, dC, m));
  const auto got = to_host(dC, m * k);
  bool exact = true;
  for (int j = 0; j < k; ++j) for (int i = 0; i < m; ++i) exact = exact && got[j * m + i] == B[j * m + i] * d[i];
  expect(exact, "cublasDdgmm");
  for (void* p : {static_cast<void*>(dT), static_cast<void*>(dBm), static_cast<void*>(dC), static_cast<void*>(dS), static_cast<void*>(dd)}) CHECK(cudaFree(p));
}

__global__ void addOne(float* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1.0f;
}

// Work on the handle's stream is ordered with kernels on that stream: kernel, then scal, then kernel.
void check_stream_order(cublasHandle_t handle) {
  const int n = 1000;
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(uniform());
  float* dv = to_device(v);
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CHECK_CUBLAS(cublasSetStream(handle, stream));
  const float two = 2.0f;
  addOne<<<(n + 127) / 128, 128, 0, stream>>>(dv, n);
  CHECK_CUBLAS(cublasSscal(handle, n, &two, dv, 1));
  addOne<<<(n + 127) / 128, 128, 0, stream>>>(dv, n);
  CHECK(cudaStreamSynchronize(stream));
  const auto got = to_host(dv, n);
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && got[i] == (v[i] + 1.0f) * 2.0f + 1.0f;
  expect(ok, "cuBLAS work is ordered with kernels on its stream");
  cudaStream_t back;
  CHECK_CUBLAS(cublasGetStream(handle, &back));
  expect(back == stream, "cublasGetStream");
  CHECK_CUBLAS(cublasSetStream(handle, 0));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(dv));
}

// cuBLAS's status codes for bad arguments (the simulator also says why on stderr).
void check_status_codes(cublasHandle_t handle) {
  float* d = to_device(std::vector<float>(64, 1.0f));
  const float one = 1.0f;
  expect(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 3, d, 4, &one, d, 4) == CUBLAS_STATUS_INVALID_VALUE, "lda < m is CUBLAS_STATUS_INVALID_VALUE");
  expect(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, 4, 4, 5, &one, d, 4, d, 5, &one, d, 4) == CUBLAS_STATUS_INVALID_VALUE, "lda < k with transa = T is CUBLAS_STATUS_INVALID_VALUE");
  expect(cublasSgemm(handle, CUBLAS_OP_CONJG, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, d, 4, &one, d, 4) == CUBLAS_STATUS_INVALID_VALUE, "transa = CUBLAS_OP_CONJG (a placeholder cuBLAS refuses) is CUBLAS_STATUS_INVALID_VALUE");
  expect(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, -1, 4, 4, &one, d, 4, d, 4, &one, d, 4) == CUBLAS_STATUS_INVALID_VALUE, "m < 0 is CUBLAS_STATUS_INVALID_VALUE");
  expect(cublasSgemv(handle, CUBLAS_OP_N, 4, 4, &one, d, 4, d, 0, &one, d, 1) == CUBLAS_STATUS_INVALID_VALUE, "incx = 0 in gemv is CUBLAS_STATUS_INVALID_VALUE");
  expect(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, CUDA_R_32F, 4, d, CUDA_R_16F, 4, &one, d, CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_NOT_SUPPORTED, "gemmEx with mixed A and B types is CUBLAS_STATUS_NOT_SUPPORTED");
  expect(cublasSgemm(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, d, 4, d, 4, &one, d, 4) == CUBLAS_STATUS_NOT_INITIALIZED, "a null handle is CUBLAS_STATUS_NOT_INITIALIZED");
  expect(cublasSetMatrix(4, 4, 4, d, 3, d, 4) == CUBLAS_STATUS_INVALID_VALUE, "cublasSetMatrix with lda < rows is CUBLAS_STATUS_INVALID_VALUE");
  // Quick returns: nothing to do, nothing read.
  expect(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 0, 4, 4, &one, nullptr, 1, nullptr, 4, &one, nullptr, 1) == CUBLAS_STATUS_SUCCESS, "m = 0 returns at once");
  CHECK(cudaFree(d));
  // Transfers: a strided vector through cublasSetVector/GetVector, a matrix through Set/GetMatrix.
  std::vector<float> h(30);
  for (auto& v : h) v = static_cast<float>(uniform());
  float* dv = nullptr;
  CHECK(cudaMalloc(&dv, 30 * sizeof(float)));
  CHECK_CUBLAS(cublasSetMatrix(5, 6, sizeof(float), h.data(), 5, dv, 5));
  std::vector<float> back(10, 0.0f);
  CHECK_CUBLAS(cublasGetVector(10, sizeof(float), dv, 3, back.data(), 1));
  bool ok = true;
  for (int i = 0; i < 10; ++i) ok = ok && back[i] == h[i * 3];
  expect(ok, "cublasSetMatrix then cublasGetVector with incx = 3");
  CHECK(cudaFree(dv));
  int version = 0;
  CHECK_CUBLAS(cublasGetVersion(handle, &version));
  expect(version >= 11000, "cublasGetVersion");
}

}  // namespace

int main() {
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  check_gemm<float>(handle, "cublasSgemm");
  check_gemm<double>(handle, "cublasDgemm");
  check_gemm<cuComplex>(handle, "cublasCgemm");
  check_gemm<cuDoubleComplex>(handle, "cublasZgemm");
  check_batched(handle);
  check_gemm_ex(handle);
  check_level1(handle);
  check_level2(handle);
  check_level3_others(handle);
  check_lu_and_level3_rest(handle);
  check_stream_order(handle);
  check_status_codes(handle);
  CHECK_CUBLAS(cublasDestroy(handle));
  if (failures != 0) {
    std::printf("FAILED: %d checks\n", failures);
    return 1;
  }
  std::printf("PASSED: cuBLAS level 1, 2 and 3, batched and Ex gemms, streams and status codes\n");
  return 0;
}
