// Half precision as CUDA programs use it: <cuda_fp16.h> and <cuda_bf16.h> conversions on the host,
// arithmetic in kernels, __half2 vector math, shuffles and atomics on 16-bit types. Self-checking
// against bit patterns worked out by hand from IEEE 754 (round to nearest, ties to even, subnormals,
// overflow to infinity), so the simulator's results are held to what a GPU computes bit for bit.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "cuda_check.h"

static int failures = 0;

static void expect_bits(const char* what, unsigned got, unsigned want) {
  if (got != want) {
    std::printf("FAIL %s: got %#06x, want %#06x\n", what, got, want);
    ++failures;
  }
}

template <class S>
static unsigned bits_of(S v) {
  unsigned short b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// ---- host conversions: float to both formats, rounded to nearest even ----
struct Conversion {
  const char* what;
  float in;
  unsigned half_bits, bfloat16_bits;
};

static void check_host_conversions() {
  const Conversion table[] = {
      {"1", 1.0f, 0x3c00, 0x3f80},
      {"-2", -2.0f, 0xc000, 0xc000},
      {"-0", -0.0f, 0x8000, 0x8000},
      {"half's max 65504", 65504.0f, 0x7bff, 0x4780},
      {"65519 (below half's tie)", 65519.0f, 0x7bff, 0x4780},
      {"65520 (tie at half's max: to even, infinity)", 65520.0f, 0x7c00, 0x4780},
      {"2^-24 (half's smallest subnormal)", std::ldexp(1.0f, -24), 0x0001, 0x3380},
      {"2^-25 (tie with 0: to even, 0)", std::ldexp(1.0f, -25), 0x0000, 0x3300},
      {"3 x 2^-25 (subnormal tie: to even, 2)", 3 * std::ldexp(1.0f, -25), 0x0002, 0x33c0},
      {"1 + 2^-11 (tie: to even)", 1.0f + std::ldexp(1.0f, -11), 0x3c00, 0x3f80},
      {"1 + 3 x 2^-11 (tie: to even)", 1.0f + 3 * std::ldexp(1.0f, -11), 0x3c02, 0x3f80},
      {"1 + 2^-8 (bfloat16 tie: to even)", 1.0f + std::ldexp(1.0f, -8), 0x3c04, 0x3f80},
      {"1 + 3 x 2^-8 (bfloat16 tie: up to even)", 1.0f + 3 * std::ldexp(1.0f, -8), 0x3c0c, 0x3f82},
      {"FLT_MAX (overflow to infinity)", 3.40282347e38f, 0x7c00, 0x7f80},
      {"infinity", INFINITY, 0x7c00, 0x7f80},
      {"float's smallest subnormal", std::ldexp(1.0f, -149), 0x0000, 0x0000},
      {"2^-133 (bfloat16's smallest subnormal)", std::ldexp(1.0f, -133), 0x0000, 0x0001},
  };
  for (const Conversion& c : table) {
    expect_bits(c.what, bits_of(__float2half(c.in)), c.half_bits);
    expect_bits(c.what, bits_of(__float2bfloat16(c.in)), c.bfloat16_bits);
  }
  // NaN stays NaN (payloads are not specified).
  const unsigned h = bits_of(__float2half(NAN)), b = bits_of(__float2bfloat16(NAN));
  if ((h & 0x7c00) != 0x7c00 || (h & 0x03ff) == 0 || (b & 0x7f80) != 0x7f80 || (b & 0x007f) == 0) {
    std::printf("FAIL NaN converts to %#06x (half) and %#06x (bfloat16)\n", h, b);
    ++failures;
  }
  // Back to float: exact.
  const float back[] = {__half2float(__float2half(std::ldexp(1.0f, -24))), __half2float(__float2half(65504.0f)),
                        __bfloat162float(__float2bfloat16(std::ldexp(1.0f, -133)))};
  const float want[] = {std::ldexp(1.0f, -24), 65504.0f, std::ldexp(1.0f, -133)};
  for (int i = 0; i < 3; ++i) {
    if (back[i] != want[i]) {
      std::printf("FAIL widening %d: got %a, want %a\n", i, back[i], want[i]);
      ++failures;
    }
  }
}

// ---- device arithmetic: each result a single rounding of the exact value ----
__device__ __half h(unsigned short bits) { return __ushort_as_half(bits); }
__device__ __nv_bfloat16 b(unsigned short bits) { return __ushort_as_bfloat16(bits); }

__global__ void scalarArithmetic(unsigned* out) {
  int i = 0;
  out[i++] = __half_as_ushort(__hadd(h(0x7bff), h(0x4c00)));     // 65504 + 16: a tie, to even: infinity
  out[i++] = __half_as_ushort(__hadd(h(0x3c00), h(0x1000)));     // 1 + 2^-11: a tie, to even: 1
  out[i++] = __half_as_ushort(__hadd(h(0x3c00), h(0x1600)));     // 1 + 1.5 x 2^-10: a tie, to even
  out[i++] = __half_as_ushort(__hsub(h(0x3c00), h(0x3c00)));     // 1 - 1 = +0
  out[i++] = __half_as_ushort(__hmul(h(0x0400), h(0x3800)));     // 2^-14 x 0.5: subnormal 2^-15
  out[i++] = __half_as_ushort(__hmul(h(0x0400), h(0x1000)));     // 2^-25: a tie with 0, to even
  out[i++] = __half_as_ushort(__hdiv(h(0x3c00), h(0x4200)));     // 1 / 3
  out[i++] = __half_as_ushort(__hfma(h(0x3c01), h(0x3c01), h(0xbc02)));  // fused: 2^-20, not 0
  out[i++] = __half_as_ushort(__hmax(__float2half(NAN), h(0x4000)));    // NaN loses: 2
  out[i++] = __half_as_ushort(__hmin(h(0x8000), h(0x0000)));     // -0 is below +0
  out[i++] = __heq(__float2half(NAN), __float2half(NAN));          // ordered: false
  out[i++] = __hneu(__float2half(NAN), h(0x3c00));                 // unordered: true
  out[i++] = __hlt(h(0x3c00), h(0x4000));
  out[i++] = static_cast<unsigned>(__half2int_rn(h(0x4100)));      // 2.5: to even, 2
  out[i++] = static_cast<unsigned>(__half2int_rn(h(0x4300)));      // 3.5: to even, 4
  out[i++] = static_cast<unsigned>(__half2int_rz(h(0xc180)));      // -2.75 toward zero: -2
  out[i++] = __bfloat16_as_ushort(__hfma(b(0x4040), b(0x3f81), b(0x9780)));  // 3 x (1 + 2^-7) - 2^-80
  out[i++] = __bfloat16_as_ushort(__hfma(b(0x4040), b(0x3f81), b(0x1780)));  // 3 x (1 + 2^-7) + 2^-80
  out[i++] = __bfloat16_as_ushort(__hadd(b(0x3f80), b(0x3b80)));   // 1 + 2^-8: a tie, to even
  out[i++] = __bfloat16_as_ushort(__hmul(b(0x0080), b(0x3c00)));   // 2^-126 x 2^-7: subnormal 2^-133
  out[i++] = __bfloat16_as_ushort(__hdiv(b(0x3f80), b(0x4040)));   // 1 / 3
  out[i++] = __bfloat16_as_ushort(__hmul(b(0x7f7f), b(0x4000)));   // max x 2: infinity
  const __half2 p = __hfma2(__halves2half2(h(0x3c00), h(0x4000)), __float2half2_rn(3.0f), __floats2half2_rn(0.5f, -1.0f));
  out[i++] = __half_as_ushort(__low2half(p));                      // 1 x 3 + 0.5 = 3.5
  out[i++] = __half_as_ushort(__high2half(p));                     // 2 x 3 - 1 = 5
}

static void check_device_arithmetic() {
  const unsigned want[] = {0x7c00, 0x3c00, 0x3c02, 0x0000, 0x0200, 0x0000, 0x3555, 0x0010, 0x4000, 0x8000,
                           0, 1, 1, 2, 4, static_cast<unsigned>(-2), 0x4041, 0x4042, 0x3f80, 0x0001, 0x3eab,
                           0x7f80, 0x4300, 0x4500};
  const int count = sizeof want / sizeof want[0];
  unsigned* d = nullptr;
  CHECK(cudaMalloc(&d, count * sizeof(unsigned)));
  CHECK(cudaMemset(d, 0xff, count * sizeof(unsigned)));
  scalarArithmetic<<<1, 1>>>(d);
  CHECK(cudaGetLastError());
  unsigned got[count];
  CHECK(cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  for (int i = 0; i < count; ++i) {
    char what[32];
    std::snprintf(what, sizeof what, "device result %d", i);
    expect_bits(what, got[i], want[i]);
  }
}

// ---- kernels as programs write them: a half2 axpy, a bfloat16 dot product, atomics on halves ----
__global__ void axpyHalf2(int n, __half a, const __half* x, __half* y) {
  const int pairs = n / 2;
  const __half2 a2 = __half2half2(a);
  const __half2* x2 = reinterpret_cast<const __half2*>(x);
  __half2* y2 = reinterpret_cast<__half2*>(y);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < pairs; i += gridDim.x * blockDim.x)
    y2[i] = __hfma2(a2, x2[i], y2[i]);
  if (blockIdx.x == 0 && threadIdx.x == 0 && (n & 1)) y[n - 1] = __hfma(a, x[n - 1], y[n - 1]);
}

// Each warp sums its products in float, reduces with shuffles, and one lane adds to the total.
__global__ void dotBfloat16(int n, const __nv_bfloat16* x, const __nv_bfloat16* y, float* total) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    sum += __bfloat162float(x[i]) * __bfloat162float(y[i]);
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, sum);
}

// Counting with 16-bit atomics: small integers are exact in both formats.
__global__ void countHalves(__half* h_count, __nv_bfloat16* b_count, __half2* pair_count) {
  atomicAdd(h_count, __float2half(1.0f));
  atomicAdd(b_count, __float2bfloat16(1.0f));
  atomicAdd(pair_count, __floats2half2_rn(1.0f, 2.0f));
  // A shuffle of a __half2 moves both halves.
  const __half2 mine = __floats2half2_rn(static_cast<float>(threadIdx.x % 32), 0.0f);
  const __half2 from_lane_0 = __shfl_sync(0xffffffffu, mine, 0);
  if (__low2float(from_lane_0) != 0.0f) atomicAdd(h_count, __float2half(1000.0f));  // poisons the count
}

static void check_programs() {
  const int n = 10007;  // odd: the axpy has a tail element
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<__half> hx(n), hy(n), hout(n);
  std::vector<__nv_bfloat16> bx(n), by(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = __float2half(dist(rng));
    hy[i] = __float2half(dist(rng));
    bx[i] = __float2bfloat16(dist(rng));
    by[i] = __float2bfloat16(dist(rng));
  }
  const __half a = __float2half(0.75f);
  __half *dx = nullptr, *dy = nullptr;
  CHECK(cudaMalloc(&dx, n * sizeof(__half)));
  CHECK(cudaMalloc(&dy, n * sizeof(__half)));
  CHECK(cudaMemcpy(dx, hx.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, hy.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  axpyHalf2<<<8, 128>>>(n, a, dx, dy);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout.data(), dy, n * sizeof(__half), cudaMemcpyDeviceToHost));
  // fma rounded once to half: within half an ulp (2^-11 relative) of the exact value, computed in double.
  double worst = 0.0;
  for (int i = 0; i < n; ++i) {
    const double exact = 0.75 * __half2float(hx[i]) + __half2float(hy[i]);
    const double err = std::fabs(__half2float(hout[i]) - exact);
    const double bound = std::ldexp(std::max(std::fabs(exact), std::ldexp(1.0, -14)), -11);
    worst = std::max(worst, err / bound);
  }
  if (!(worst <= 1.0)) {
    std::printf("FAIL half2 axpy: worst error %.3g half-ulps (at most 1)\n", worst);
    ++failures;
  }

  __nv_bfloat16 *dbx = nullptr, *dby = nullptr;
  float* dtotal = nullptr;
  CHECK(cudaMalloc(&dbx, n * sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc(&dby, n * sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc(&dtotal, sizeof(float)));
  CHECK(cudaMemcpy(dbx, bx.data(), n * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dby, by.data(), n * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dtotal, 0, sizeof(float)));
  dotBfloat16<<<16, 256>>>(n, dbx, dby, dtotal);
  CHECK(cudaGetLastError());
  float total = NAN;
  CHECK(cudaMemcpy(&total, dtotal, sizeof total, cudaMemcpyDeviceToHost));
  double exact = 0.0, magnitude = 0.0;
  for (int i = 0; i < n; ++i) {
    const double t = static_cast<double>(__bfloat162float(bx[i])) * __bfloat162float(by[i]);
    exact += t;
    magnitude += std::fabs(t);
  }
  if (!(std::fabs(total - exact) <= 1e-5 * magnitude)) {
    std::printf("FAIL bfloat16 dot: %.9g, float64 %.9g\n", total, exact);
    ++failures;
  }

  __half* dh = nullptr;
  __nv_bfloat16* db = nullptr;
  __half2* dp = nullptr;
  CHECK(cudaMalloc(&dh, sizeof(__half)));
  CHECK(cudaMalloc(&db, sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc(&dp, sizeof(__half2)));
  CHECK(cudaMemset(dh, 0, sizeof(__half)));
  CHECK(cudaMemset(db, 0, sizeof(__nv_bfloat16)));
  CHECK(cudaMemset(dp, 0, sizeof(__half2)));
  countHalves<<<3, 64>>>(dh, db, dp);  // 192 threads
  CHECK(cudaGetLastError());
  __half hc;
  __nv_bfloat16 bc;
  __half2 pc;
  CHECK(cudaMemcpy(&hc, dh, sizeof hc, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&bc, db, sizeof bc, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&pc, dp, sizeof pc, cudaMemcpyDeviceToHost));
  if (__half2float(hc) != 192.0f || __bfloat162float(bc) != 192.0f || __low2float(pc) != 192.0f ||
      __high2float(pc) != 384.0f) {
    std::printf("FAIL 16-bit atomics: half %g, bfloat16 %g, half2 (%g, %g); want 192, 192, (192, 384)\n",
                __half2float(hc), __bfloat162float(bc), __low2float(pc), __high2float(pc));
    ++failures;
  }
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dbx));
  CHECK(cudaFree(dby));
  CHECK(cudaFree(dtotal));
  CHECK(cudaFree(dh));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dp));
}

int main() {
  check_host_conversions();
  check_device_arithmetic();
  check_programs();
  if (failures != 0) {
    std::printf("FAILED: %d checks\n", failures);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
