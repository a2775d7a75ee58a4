// CUDA's device math API: the functions the C library lacks (sinpi, sincospi, erfinv, erfcinv, erfcx,
// normcdf, normcdfinv, cyl_bessel_i0/i1, rcbrt, rsqrt, rhypot, norm3d, rnorm4d, norm, ...), called
// unqualified from kernels in float and double, each checked on random inputs against a long double
// reference on the host within the ulp bound CUDA documents; the rounding-mode arithmetic (__fadd_rz,
// __fmul_ru, __fmaf_rd, __fdiv_*, __frcp_*, __fsqrt_*, __dadd_*, __dmul_*, __fma_*, __ddiv_*, __drcp_*,
// __dsqrt_*) and the conversions with a rounding mode (__float2int_*, __double2ll_*, __ll2float_*,
// __double2float_*, ...), checked bit for bit against the host's FPU in the same mode; and the fast
// intrinsics (__expf, __logf, __sinf, __powf, __fdividef, __saturatef, ...) within their bounds.
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

// ---- kernels -------------------------------------------------------------------------------------------
constexpr int kFloatFns = 20;
constexpr int kDoubleFns = 19;

__global__ void floatFunctions(const float* x, const float* y, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float a = x[i], b = y[i];
  float* o = out + static_cast<size_t>(i) * kFloatFns;
  float s, c;
  sincospif(a, &s, &c);
  o[0] = sinpif(a);
  o[1] = cospif(a);
  o[2] = s;
  o[3] = c;
  o[4] = erfinvf(b);            // b in (-1, 1)
  o[5] = erfcinvf(b + 1.0f);    // (0, 2)
  o[6] = erfcxf(a / 4.0f);
  o[7] = normcdff(a);
  o[8] = normcdfinvf((b + 1.0f) / 2.0f);
  o[9] = cyl_bessel_i0f(a);
  o[10] = cyl_bessel_i1f(a);
  o[11] = rcbrtf(a);
  o[12] = rsqrtf(std::fabs(a));
  o[13] = rhypotf(a, b);
  o[14] = norm3df(a, b, 1.5f);
  o[15] = rnorm4df(a, b, 0.25f, -3.0f);
  const float v[5] = {a, b, 2.0f, -1.0f, 0.5f};
  o[16] = normf(5, v);
  o[17] = exp10f(b);
  sincosf(b, &s, &c);
  o[18] = s;
  o[19] = c;
}

__global__ void doubleFunctions(const double* x, const double* y, double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double a = x[i], b = y[i];
  double* o = out + static_cast<size_t>(i) * kDoubleFns;
  double s, c;
  sincospi(a, &s, &c);
  o[0] = sinpi(a);
  o[1] = cospi(a);
  o[2] = s;
  o[3] = c;
  o[4] = erfinv(b);
  o[5] = erfcinv(b + 1.0);
  o[6] = erfcx(a / 4.0);
  o[7] = normcdf(a);
  o[8] = normcdfinv((b + 1.0) / 2.0);
  o[9] = cyl_bessel_i0(a);
  o[10] = cyl_bessel_i1(a);
  o[11] = rcbrt(a);
  o[12] = rsqrt(std::fabs(a));
  o[13] = rhypot(a, b);
  o[14] = norm3d(a, b, 1.5);
  o[15] = rnorm4d(a, b, 0.25, -3.0);
  const double v[5] = {a, b, 2.0, -1.0, 0.5};
  o[16] = rnorm(5, v);
  o[17] = exp10(b);
  o[18] = fdivide(a, b);
}

// Every rounding-mode operation: 4 modes x (add, sub, mul, fma, div, rcp, sqrt).
constexpr int kRoundedOps = 28;
__global__ void roundedFloat(const float* x, const float* y, const float* z, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float a = x[i], b = y[i], c = z[i], r = std::fabs(a);
  float* o = out + static_cast<size_t>(i) * kRoundedOps;
  o[0] = __fadd_rn(a, b); o[1] = __fadd_rz(a, b); o[2] = __fadd_ru(a, b); o[3] = __fadd_rd(a, b);
  o[4] = __fsub_rn(a, b); o[5] = __fsub_rz(a, b); o[6] = __fsub_ru(a, b); o[7] = __fsub_rd(a, b);
  o[8] = __fmul_rn(a, b); o[9] = __fmul_rz(a, b); o[10] = __fmul_ru(a, b); o[11] = __fmul_rd(a, b);
  o[12] = __fmaf_rn(a, b, c); o[13] = __fmaf_rz(a, b, c); o[14] = __fmaf_ru(a, b, c); o[15] = __fmaf_rd(a, b, c);
  o[16] = __fdiv_rn(a, b); o[17] = __fdiv_rz(a, b); o[18] = __fdiv_ru(a, b); o[19] = __fdiv_rd(a, b);
  o[20] = __frcp_rn(b); o[21] = __frcp_rz(b); o[22] = __frcp_ru(b); o[23] = __frcp_rd(b);
  o[24] = __fsqrt_rn(r); o[25] = __fsqrt_rz(r); o[26] = __fsqrt_ru(r); o[27] = __fsqrt_rd(r);
}
__global__ void roundedDouble(const double* x, const double* y, const double* z, double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double a = x[i], b = y[i], c = z[i], r = std::fabs(a);
  double* o = out + static_cast<size_t>(i) * kRoundedOps;
  o[0] = __dadd_rn(a, b); o[1] = __dadd_rz(a, b); o[2] = __dadd_ru(a, b); o[3] = __dadd_rd(a, b);
  o[4] = __dsub_rn(a, b); o[5] = __dsub_rz(a, b); o[6] = __dsub_ru(a, b); o[7] = __dsub_rd(a, b);
  o[8] = __dmul_rn(a, b); o[9] = __dmul_rz(a, b); o[10] = __dmul_ru(a, b); o[11] = __dmul_rd(a, b);
  o[12] = __fma_rn(a, b, c); o[13] = __fma_rz(a, b, c); o[14] = __fma_ru(a, b, c); o[15] = __fma_rd(a, b, c);
  o[16] = __ddiv_rn(a, b); o[17] = __ddiv_rz(a, b); o[18] = __ddiv_ru(a, b); o[19] = __ddiv_rd(a, b);
  o[20] = __drcp_rn(b); o[21] = __drcp_rz(b); o[22] = __drcp_ru(b); o[23] = __drcp_rd(b);
  o[24] = __dsqrt_rn(r); o[25] = __dsqrt_rz(r); o[26] = __dsqrt_ru(r); o[27] = __dsqrt_rd(r);
}

// Conversions in each mode: float->int, double->long long, long long->float, double->float,
// unsigned long long->double, float->unsigned.
constexpr int kConversions = 24;
__global__ void conversions(const float* f, const double* d, const long long* l, double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double* o = out + static_cast<size_t>(i) * kConversions;
  const unsigned long long u = static_cast<unsigned long long>(l[i]) * 3u;
  o[0] = __float2int_rn(f[i]); o[1] = __float2int_rz(f[i]); o[2] = __float2int_ru(f[i]); o[3] = __float2int_rd(f[i]);
  o[4] = static_cast<double>(__double2ll_rn(d[i])); o[5] = static_cast<double>(__double2ll_rz(d[i]));
  o[6] = static_cast<double>(__double2ll_ru(d[i])); o[7] = static_cast<double>(__double2ll_rd(d[i]));
  o[8] = __ll2float_rn(l[i]); o[9] = __ll2float_rz(l[i]); o[10] = __ll2float_ru(l[i]); o[11] = __ll2float_rd(l[i]);
  o[12] = __double2float_rn(d[i]); o[13] = __double2float_rz(d[i]); o[14] = __double2float_ru(d[i]); o[15] = __double2float_rd(d[i]);
  o[16] = __ull2double_rn(u); o[17] = __ull2double_rz(u); o[18] = __ull2double_ru(u); o[19] = __ull2double_rd(u);
  o[20] = __float2uint_rn(f[i]); o[21] = __float2uint_rz(f[i]); o[22] = __float2uint_ru(f[i]); o[23] = __float2uint_rd(f[i]);
}

constexpr int kFast = 12;
__global__ void fastIntrinsics(const float* x, const float* y, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float a = x[i] / 8.0f, b = y[i];  // a in [-3, 3]: __sinf's documented range
  float* o = out + static_cast<size_t>(i) * kFast;
  float s, c;
  __sincosf(a, &s, &c);
  o[0] = __expf(a); o[1] = __exp10f(b); o[2] = __logf(std::fabs(a) + 0.5f); o[3] = __log2f(std::fabs(a) + 0.5f);
  o[4] = __log10f(std::fabs(a) + 0.5f); o[5] = __sinf(a); o[6] = __cosf(a); o[7] = s; o[8] = c;
  o[9] = __powf(std::fabs(a) + 0.5f, b); o[10] = __fdividef(a, b + 2.0f); o[11] = __saturatef(a);
}

// ---- host references ---------------------------------------------------------------------------------------
typedef long double Ld;
static const Ld kPi = 3.141592653589793238462643383279502884L;

template <class F>
static double ulpsBetween(F got, Ld want) {
  if (std::isnan(want)) return std::isnan(got) ? 0.0 : 1e30;
  if (std::isinf(want)) return got == static_cast<F>(want) ? 0.0 : 1e30;
  const F w = static_cast<F>(want);
  if (std::isinf(w)) return std::isinf(got) && (got > 0) == (w > 0) ? 0.0 : 1e30;
  const F ulp = std::nextafter(std::fabs(w), static_cast<F>(INFINITY)) - std::fabs(w);
  return static_cast<double>(std::fabs(static_cast<Ld>(got) - want) / ulp);
}
// sin(pi x) reduced by the nearest integer k: (-1)^k sin(pi (x - k)), exact reduction.
static Ld sinPiRef(Ld x) {
  const Ld k = std::nearbyint(x);
  const Ld v = std::sin(kPi * (x - k));
  return std::fmod(std::fabs(k), 2.0L) == 1.0L ? -v : v;
}
static Ld cosPiRef(Ld x) { return sinPiRef(x + 0.5L); }  // x + 1/2 exact in long double for these x
// Bisection for a monotonic f: the x in [lo, hi] with f(x) = target.
template <class Fn>
static Ld solve(Fn f, Ld target, Ld lo, Ld hi, bool increasing) {
  for (int k = 0; k < 200; ++k) {
    const Ld mid = (lo + hi) / 2;
    if ((f(mid) < target) == increasing) lo = mid; else hi = mid;
  }
  return (lo + hi) / 2;
}
static Ld erfinvRef(Ld y) { return solve([](Ld v) { return std::erf(v); }, y, -7, 7, true); }
static Ld erfcinvRef(Ld z) { return solve([](Ld v) { return std::erfc(v); }, z, -7, 30, false); }
static Ld besselIRef(int nu, Ld x) {  // the power series, summed to the end
  const Ld q = x * x / 4;
  Ld term = nu == 0 ? 1 : x / 2, sum = term;
  for (int k = 1; k < 400; ++k) {
    term *= q / (static_cast<Ld>(k) * (k + nu));
    sum += term;
  }
  return sum;
}

struct Check {
  const char* name;
  double bound;  // CUDA's documented max ulp error
};
static const Check kFloatChecks[kFloatFns] = {
    {"sinpif", 1}, {"cospif", 1}, {"sincospif.sin", 1}, {"sincospif.cos", 1}, {"erfinvf", 2}, {"erfcinvf", 4},
    {"erfcxf", 4}, {"normcdff", 5}, {"normcdfinvf", 5}, {"cyl_bessel_i0f", 6}, {"cyl_bessel_i1f", 6},
    {"rcbrtf", 1}, {"rsqrtf", 2}, {"rhypotf", 2}, {"norm3df", 3}, {"rnorm4df", 3}, {"normf", 4},
    {"exp10f", 2}, {"sincosf.sin", 2}, {"sincosf.cos", 2}};
static const Check kDoubleChecks[kDoubleFns] = {
    {"sinpi", 2}, {"cospi", 2}, {"sincospi.sin", 2}, {"sincospi.cos", 2}, {"erfinv", 5}, {"erfcinv", 6},
    {"erfcx", 4}, {"normcdf", 5}, {"normcdfinv", 8}, {"cyl_bessel_i0", 6}, {"cyl_bessel_i1", 6},
    {"rcbrt", 1}, {"rsqrt", 1}, {"rhypot", 1}, {"norm3d", 2}, {"rnorm4d", 2}, {"rnorm", 2}, {"exp10", 1},
    {"fdivide", 0}};

template <class F>
static void references(Ld a, Ld b, Ld* r) {
  const Ld s3 = std::sqrt(a * a + b * b + 2.25L);
  r[0] = sinPiRef(a); r[1] = cosPiRef(a); r[2] = r[0]; r[3] = r[1];
  r[4] = erfinvRef(b);
  r[5] = erfcinvRef(static_cast<Ld>(static_cast<F>(b + 1)));  // the argument the kernel sees
  const Ld q = static_cast<Ld>(static_cast<F>(a / 4));
  r[6] = std::exp(q * q) * std::erfc(q);
  r[7] = 0.5L * std::erfc(-a / std::sqrt(2.0L));
  const Ld p = static_cast<Ld>(static_cast<F>(static_cast<F>(b + 1) / 2));
  r[8] = -std::sqrt(2.0L) * erfcinvRef(2 * p);
  r[9] = besselIRef(0, a); r[10] = besselIRef(1, a);
  r[11] = 1 / std::cbrt(a); r[12] = 1 / std::sqrt(std::fabs(a)); r[13] = 1 / std::sqrt(a * a + b * b);
  r[14] = s3; r[15] = 1 / std::sqrt(a * a + b * b + 0.0625L + 9);
  r[16] = std::sqrt(a * a + b * b + 4 + 1 + 0.25L);
  r[17] = std::pow(10.0L, b);
}

// The host FPU in a rounding mode: volatile operands keep each operation between the mode switches.
static const int kModes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
template <class F>
static void roundedReference(F a, F b, F c, F* o) {
  for (int m = 0; m < 4; ++m) {
    volatile F va = a, vb = b, vc = c, vr = std::fabs(a), one = 1;
    volatile F r[7];
    std::fesetround(kModes[m]);
    r[0] = va + vb; r[1] = va - vb; r[2] = va * vb; r[3] = std::fma(static_cast<F>(va), static_cast<F>(vb), static_cast<F>(vc));
    r[4] = va / vb; r[5] = one / vb; r[6] = std::sqrt(static_cast<F>(vr));
    std::fesetround(FE_TONEAREST);
    for (int op = 0; op < 7; ++op) o[op * 4 + m] = r[op];
  }
}
static void conversionReference(float f, double d, long long l, double* o) {
  const unsigned long long u = static_cast<unsigned long long>(l) * 3u;
  const float fi[4] = {std::nearbyint(f), std::trunc(f), std::ceil(f), std::floor(f)};
  const double di[4] = {std::nearbyint(d), std::trunc(d), std::ceil(d), std::floor(d)};
  for (int m = 0; m < 4; ++m) {
    // As the integers the kernel stores (no negative zero; unsigned saturates at 0).
    o[m] = static_cast<double>(static_cast<int>(fi[m]));
    o[4 + m] = static_cast<double>(static_cast<long long>(di[m]));
    o[20 + m] = fi[m] <= 0 ? 0.0 : static_cast<double>(static_cast<unsigned>(fi[m]));
    volatile long long vl = l;
    volatile unsigned long long vu = u;
    volatile double vd = d;
    volatile float r1, r2;
    volatile double r3;
    std::fesetround(kModes[m]);
    r1 = static_cast<float>(vl);
    r2 = static_cast<float>(vd);
    r3 = static_cast<double>(vu);
    std::fesetround(FE_TONEAREST);
    o[8 + m] = r1; o[12 + m] = r2; o[16 + m] = r3;
  }
}

static int failures = 0;
static void fail(const char* what, int i, double got, double want) {
  if (++failures <= 20) std::fprintf(stderr, "MISMATCH %s [%d]: got %.17g, want %.17g\n", what, i, got, want);
}

int main() {
  const int n = 1531;  // not a multiple of the block
  std::mt19937 rng(20261206);
  std::uniform_real_distribution<double> wide(-24.0, 24.0), unit(-0.999, 0.999);
  std::vector<float> xf(n), yf(n), zf(n);
  std::vector<double> xd(n), yd(n), zd(n);
  std::vector<long long> xl(n);
  std::uniform_int_distribution<long long> big(-(1ll << 62), (1ll << 62));
  std::uniform_int_distribution<int> exponent(-60, 60);
  for (int i = 0; i < n; ++i) {
    xd[i] = wide(rng);
    if (xd[i] == 0.0) xd[i] = 0.75;
    yd[i] = unit(rng);
    zd[i] = std::ldexp(unit(rng), exponent(rng));
    xf[i] = static_cast<float>(xd[i]);
    yf[i] = static_cast<float>(yd[i]);
    zf[i] = static_cast<float>(zd[i]);
    xl[i] = big(rng);
    if (i % 7 == 3) { yd[i] = -xd[i]; yf[i] = -xf[i]; }  // exact cancellations: signed zeros in each mode
  }
  float *dxf, *dyf, *dzf, *dof;
  double *dxd, *dyd, *dzd, *dod;
  long long* dl;
  const size_t outCount = static_cast<size_t>(n) * kRoundedOps;  // the largest per-element row
  CHECK(cudaMalloc(&dxf, n * sizeof(float)));
  CHECK(cudaMalloc(&dyf, n * sizeof(float)));
  CHECK(cudaMalloc(&dzf, n * sizeof(float)));
  CHECK(cudaMalloc(&dxd, n * sizeof(double)));
  CHECK(cudaMalloc(&dyd, n * sizeof(double)));
  CHECK(cudaMalloc(&dzd, n * sizeof(double)));
  CHECK(cudaMalloc(&dl, n * sizeof(long long)));
  CHECK(cudaMalloc(&dof, outCount * sizeof(float)));
  CHECK(cudaMalloc(&dod, outCount * sizeof(double)));
  CHECK(cudaMemcpy(dxf, xf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dyf, yf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dzf, zf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dxd, xd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dyd, yd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dzd, zd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dl, xl.data(), n * sizeof(long long), cudaMemcpyHostToDevice));
  const int threads = 128, blocks = (n + threads - 1) / threads;
  std::vector<float> of(outCount);
  std::vector<double> od(outCount);
  auto fetchFloat = [&]() { CHECK(cudaDeviceSynchronize()); CHECK(cudaMemcpy(of.data(), dof, outCount * sizeof(float), cudaMemcpyDeviceToHost)); };
  auto fetchDouble = [&]() { CHECK(cudaDeviceSynchronize()); CHECK(cudaMemcpy(od.data(), dod, outCount * sizeof(double), cudaMemcpyDeviceToHost)); };

  // 1. The math library, float and double, within CUDA's ulp bounds.
  CHECK(cudaMemset(dof, 0xff, outCount * sizeof(float)));  // NaN until written
  floatFunctions<<<blocks, threads>>>(dxf, dyf, dof, n);
  CHECK(cudaGetLastError());
  fetchFloat();
  double worstFloat[kFloatFns] = {};
  for (int i = 0; i < n; ++i) {
    Ld r[kFloatFns];
    references<float>(xf[i], yf[i], r);
    r[18] = std::sin(static_cast<Ld>(yf[i]));
    r[19] = std::cos(static_cast<Ld>(yf[i]));
    for (int k = 0; k < kFloatFns; ++k) {
      const double u = ulpsBetween(of[static_cast<size_t>(i) * kFloatFns + k], r[k]);
      if (u > worstFloat[k]) worstFloat[k] = u;
      if (u > kFloatChecks[k].bound) fail(kFloatChecks[k].name, i, of[static_cast<size_t>(i) * kFloatFns + k], static_cast<double>(r[k]));
    }
  }
  CHECK(cudaMemset(dod, 0xff, outCount * sizeof(double)));
  doubleFunctions<<<blocks, threads>>>(dxd, dyd, dod, n);
  CHECK(cudaGetLastError());
  fetchDouble();
  double worstDouble[kDoubleFns] = {};
  for (int i = 0; i < n; ++i) {
    Ld r[kDoubleFns];
    references<double>(xd[i], yd[i], r);
    r[16] = 1 / r[16];
    r[18] = static_cast<Ld>(xd[i] / yd[i]);
    for (int k = 0; k < kDoubleFns; ++k) {
      const double u = ulpsBetween(od[static_cast<size_t>(i) * kDoubleFns + k], r[k]);
      if (u > worstDouble[k]) worstDouble[k] = u;
      if (u > kDoubleChecks[k].bound) fail(kDoubleChecks[k].name, i, od[static_cast<size_t>(i) * kDoubleFns + k], static_cast<double>(r[k]));
    }
  }
  std::printf("math library: %d float and %d double functions on %d random inputs, within CUDA's ulp bounds\n",
              kFloatFns, kDoubleFns, n);
  for (int k = 0; k < kFloatFns; ++k) std::printf("  %-16s worst %.2f ulp (CUDA: %g)\n", kFloatChecks[k].name, worstFloat[k], kFloatChecks[k].bound);
  for (int k = 0; k < kDoubleFns; ++k) std::printf("  %-16s worst %.2f ulp (CUDA: %g)\n", kDoubleChecks[k].name, worstDouble[k], kDoubleChecks[k].bound);

  // 2. Rounding-mode arithmetic, bit for bit against the host FPU in each mode.
  CHECK(cudaMemset(dof, 0xff, outCount * sizeof(float)));
  roundedFloat<<<blocks, threads>>>(dxf, dyf, dzf, dof, n);
  CHECK(cudaGetLastError());
  fetchFloat();
  CHECK(cudaMemset(dod, 0xff, outCount * sizeof(double)));
  roundedDouble<<<blocks, threads>>>(dxd, dyd, dzd, dod, n);
  CHECK(cudaGetLastError());
  fetchDouble();
  for (int i = 0; i < n; ++i) {
    float rf[kRoundedOps];
    double rd[kRoundedOps];
    roundedReference(xf[i], yf[i], zf[i], rf);
    roundedReference(xd[i], yd[i], zd[i], rd);
    for (int k = 0; k < kRoundedOps; ++k) {
      const float gf = of[static_cast<size_t>(i) * kRoundedOps + k];
      const double gd = od[static_cast<size_t>(i) * kRoundedOps + k];
      if (std::memcmp(&gf, &rf[k], sizeof gf) != 0) fail("rounded float op", i * 100 + k, gf, rf[k]);
      if (std::memcmp(&gd, &rd[k], sizeof gd) != 0) fail("rounded double op", i * 100 + k, gd, rd[k]);
    }
  }
  std::printf("rounding modes: add, sub, mul, fma, div, rcp, sqrt in rn/rz/ru/rd, float and double, bit-exact on %d inputs\n", n);

  // 3. Conversions in each mode.
  CHECK(cudaMemset(dod, 0xff, outCount * sizeof(double)));
  std::vector<float> cf(n);
  std::vector<double> cd(n);
  for (int i = 0; i < n; ++i) {
    cf[i] = xf[i] * 1e6f + yf[i];
    cd[i] = xd[i] * 1e15 + yd[i];
  }
  CHECK(cudaMemcpy(dxf, cf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dxd, cd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  conversions<<<blocks, threads>>>(dxf, dxd, dl, dod, n);
  CHECK(cudaGetLastError());
  fetchDouble();
  for (int i = 0; i < n; ++i) {
    double r[kConversions];
    conversionReference(cf[i], cd[i], xl[i], r);
    for (int k = 0; k < kConversions; ++k) {
      const double g = od[static_cast<size_t>(i) * kConversions + k];
      if (std::memcmp(&g, &r[k], sizeof g) != 0) fail("conversion", i * 100 + k, g, r[k]);
    }
  }
  std::printf("conversions: float->int/uint, double->ll, ll->float, double->float, ull->double in 4 modes on %d inputs\n", n);

  // 4. Fast intrinsics, within CUDA's (looser) bounds; __fdividef's and __saturatef's special cases.
  CHECK(cudaMemset(dof, 0xff, outCount * sizeof(float)));
  CHECK(cudaMemcpy(dxf, xf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  fastIntrinsics<<<blocks, threads>>>(dxf, dyf, dof, n);
  CHECK(cudaGetLastError());
  fetchFloat();
  for (int i = 0; i < n; ++i) {
    const Ld a = xf[i] / 8.0f, b = yf[i], pa = std::fabs(xf[i] / 8.0f) + 0.5f;
    const Ld r[kFast] = {std::exp(a), std::pow(10.0L, b), std::log(pa), std::log2(pa), std::log10(pa), std::sin(a),
                         std::cos(a), std::sin(a), std::cos(a), std::pow(pa, b),
                         a / static_cast<Ld>(static_cast<float>(yf[i] + 2.0f)), a < 0 ? 0 : (a > 1 ? 1 : a)};
    for (int k = 0; k < kFast; ++k) {
      const float g = of[static_cast<size_t>(i) * kFast + k];
      // CUDA: __expf/__exp10f/__powf 2 + ~|1.16 x| ulp, logs and sin/cos about 2^-21 absolute on these ranges.
      const double tolerance = k < 2 || k == 9 ? 8 * 1.2e-7 * std::fabs(static_cast<double>(r[k])) + 1e-30 : 2.5e-6;
      if (std::fabs(static_cast<double>(g - r[k])) > tolerance) fail("fast intrinsic", i * 100 + k, g, static_cast<double>(r[k]));
    }
  }
  std::printf("fast intrinsics: __expf __exp10f __logf __log2f __log10f __sinf __cosf __sincosf __powf __fdividef __saturatef\n");

  CHECK(cudaFree(dxf)); CHECK(cudaFree(dyf)); CHECK(cudaFree(dzf)); CHECK(cudaFree(dxd)); CHECK(cudaFree(dyd));
  CHECK(cudaFree(dzd)); CHECK(cudaFree(dl)); CHECK(cudaFree(dof)); CHECK(cudaFree(dod));
  if (failures != 0) {
    std::printf("FAILED: %d mismatches\n", failures);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
