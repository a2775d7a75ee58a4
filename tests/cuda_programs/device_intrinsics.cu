// CUDA's device intrinsics beyond the math library: integer arithmetic (__mulhi, __umul64hi, __mul24,
// __sad, __hadd, __rhadd, ...), bit manipulation (__funnelshift_*, __byte_perm, __fns, __brev, __clz,
// __ffs, __popc), SIMD video (__vadd4, __vsub2, __vabsdiffu4, __vavgu4, __vcmpgtu4, __vsetlts2, __vmaxs4,
// __vminu2, __vaddss4, __vsubus2, __vsads4, __dp4a, __dp2a_lo/hi), reinterpretations, the load/store
// cache hints on scalars and vector types, clock()/clock64(), and __nanosleep letting a block's threads
// make progress while one of them polls. Checked against the host on random inputs.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

constexpr int kResults = 40;

__global__ void integerAndSimd(const unsigned* x, const unsigned* y, const unsigned* z, unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned a = x[i], b = y[i], c = z[i];
  const int sa = static_cast<int>(a), sb = static_cast<int>(b);
  const unsigned long long wa = (static_cast<unsigned long long>(a) << 32) | b;
  const unsigned long long wb = (static_cast<unsigned long long>(c) << 32) | a;
  unsigned* o = out + static_cast<size_t>(i) * kResults;
  o[0] = static_cast<unsigned>(__mulhi(sa, sb));
  o[1] = __umulhi(a, b);
  o[2] = static_cast<unsigned>(__mul64hi(static_cast<long long>(wa), static_cast<long long>(wb)));
  o[3] = static_cast<unsigned>(__umul64hi(wa, wb) >> 7);
  o[4] = static_cast<unsigned>(__mul24(sa, sb));
  o[5] = __umul24(a, b);
  o[6] = __sad(sa, sb, c);
  o[7] = __usad(a, b, c);
  o[8] = static_cast<unsigned>(__hadd(sa, sb));
  o[9] = static_cast<unsigned>(__rhadd(sa, sb));
  o[10] = __uhadd(a, b);
  o[11] = __urhadd(a, b);
  o[12] = __funnelshift_l(a, b, c);
  o[13] = __funnelshift_lc(a, b, c & 63u);
  o[14] = __funnelshift_r(a, b, c);
  o[15] = __funnelshift_rc(a, b, c & 63u);
  o[16] = __byte_perm(a, b, c);
  o[17] = __fns(a, c & 31u, static_cast<int>(b % 11u) - 5);
  o[18] = __brev(a);
  o[19] = static_cast<unsigned>(__brevll(wa) >> 16);
  o[20] = static_cast<unsigned>(__clz(sa >> (c & 31u))) | (static_cast<unsigned>(__ffs(sb)) << 8) |
          (static_cast<unsigned>(__popc(c)) << 16);
  o[21] = __vadd4(a, b);
  o[22] = __vsub2(a, b);
  o[23] = __vabsdiffu4(a, b);
  o[24] = __vavgu4(a, b);
  o[25] = __vcmpgtu4(a, b);
  o[26] = __vsetlts2(a, b);
  o[27] = __vmaxs4(a, b);
  o[28] = __vminu2(a, b);
  o[29] = __vaddss4(a, b);
  o[30] = __vsubus2(a, b);
  o[31] = __vsads4(a, b);
  o[32] = static_cast<unsigned>(__dp4a(sa, sb, static_cast<int>(c)));
  o[33] = __dp4a(a, b, c);
  o[34] = static_cast<unsigned>(__dp2a_lo(sa, sb, static_cast<int>(c)));
  o[35] = __dp2a_hi(a, b, c);
  o[36] = __vabsss4(a);
  o[37] = __vcmpeq2(a, a ^ (b & 0xffffu));
  o[38] = __float_as_uint(__uint_as_float(a)) ^ static_cast<unsigned>(__double2hiint(__hiloint2double(sa, sb)));
  o[39] = static_cast<unsigned>(__double2loint(__longlong_as_double(static_cast<long long>(wa))));
}

// The cache hints move values of every kind unchanged.
__global__ void cacheHints(const int* i, const float4* f4, const double2* d2, const uchar4* c4, int* io, float4* f4o,
                           double2* d2o, uchar4* c4o, int n) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  __stcg(&io[4 * k], __ldcg(&i[k]));
  __stcs(&io[4 * k + 1], __ldcs(&i[k]) + __ldca(&i[k]));
  __stwb(&io[4 * k + 2], __ldlu(&i[k]));
  __stwt(&io[4 * k + 3], __ldcv(&i[k]) + __ldg(&i[k]));
  __stcg(&f4o[k], __ldcs(&f4[k]));
  __stwt(&d2o[k], __ldcg(&d2[k]));
  __stcs(&c4o[k], __ldlu(&c4[k]));
}

// Thread 0 polls a counter that the block's other threads raise: it must see them all, which needs
// them to run while it waits (a GPU's threads progress independently; __nanosleep yields here).
__global__ void pollWithNanosleep(unsigned* counter, long long* cycles, unsigned* seen) {
  unsigned* mine = counter + blockIdx.x;
  if (threadIdx.x == 0) {
    const long long start = clock64();
    const clock_t start32 = clock();
    unsigned sleep = 32;
    while (atomicAdd(mine, 0u) != blockDim.x - 1) {
      __nanosleep(sleep);
      if (sleep < 1024) sleep *= 2;
    }
    seen[blockIdx.x] = atomicAdd(mine, 0u);
    cycles[2 * blockIdx.x] = clock64() - start;
    cycles[2 * blockIdx.x + 1] = static_cast<long long>(static_cast<unsigned>(clock() - start32) < 0x80000000u);
  } else {
    atomicAdd(mine, 1u);
  }
}

// ---- host references ---------------------------------------------------------------------------------------
static unsigned lanes(unsigned a, unsigned b, int bits, bool isSigned, long long (*op)(long long, long long)) {
  unsigned r = 0;
  const unsigned mask = (1u << bits) - 1u;
  for (int s = 0; s < 32; s += bits) {
    long long x = (a >> s) & mask, y = (b >> s) & mask;
    if (isSigned) {
      if (x >> (bits - 1)) x -= 1ll << bits;
      if (y >> (bits - 1)) y -= 1ll << bits;
    }
    r |= (static_cast<unsigned>(op(x, y)) & mask) << s;
  }
  return r;
}
static long long sat8(long long v) { return v < -128 ? -128 : (v > 127 ? 127 : v); }
// Over the four byte lanes: the sum of |x - y| (absdiff) or of x * y.
static long long sumBytes(unsigned a, unsigned b, bool isSigned, bool absdiff) {
  long long sum = 0;
  for (int k = 0; k < 4; ++k) {
    long long x = (a >> (8 * k)) & 0xff, y = (b >> (8 * k)) & 0xff;
    if (isSigned && x >= 0x80) x -= 0x100;
    if (isSigned && y >= 0x80) y -= 0x100;
    sum += absdiff ? (x > y ? x - y : y - x) : x * y;
  }
  return sum;
}
static unsigned reference(unsigned a, unsigned b, unsigned c, int k) {
  const long long sa = static_cast<int>(a), sb = static_cast<int>(b);
  const unsigned long long wa = (static_cast<unsigned long long>(a) << 32) | b;
  const unsigned long long wb = (static_cast<unsigned long long>(c) << 32) | a;
  auto lo24 = [](unsigned v) { long long t = v & 0xffffff; return t >= 0x800000 ? t - 0x1000000 : t; };
  auto brev32 = [](unsigned v) { unsigned r = 0; for (int i = 0; i < 32; ++i) if (v & (1u << i)) r |= 1u << (31 - i); return r; };
  switch (k) {
    case 0: return static_cast<unsigned>((sa * sb) >> 32);
    case 1: return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
    case 2: return static_cast<unsigned>(static_cast<long long>((static_cast<__int128>(static_cast<long long>(wa)) * static_cast<long long>(wb)) >> 64));
    case 3: return static_cast<unsigned>(static_cast<unsigned long long>((static_cast<unsigned __int128>(wa) * wb) >> 64) >> 7);
    case 4: return static_cast<unsigned>(lo24(a) * lo24(b));
    case 5: return (a & 0xffffff) * (b & 0xffffff);
    case 6: return static_cast<unsigned>(sa > sb ? sa - sb : sb - sa) + c;
    case 7: return (a > b ? a - b : b - a) + c;
    case 8: return static_cast<unsigned>((sa + sb) >> 1);
    case 9: return static_cast<unsigned>((sa + sb + 1) >> 1);
    case 10: return static_cast<unsigned>((static_cast<unsigned long long>(a) + b) >> 1);
    case 11: return static_cast<unsigned>((static_cast<unsigned long long>(a) + b + 1) >> 1);
    case 12: return static_cast<unsigned>((((static_cast<unsigned long long>(b) << 32) | a) << (c & 31)) >> 32);
    case 13: { const unsigned s = (c & 63) > 32 ? 32 : (c & 63); return static_cast<unsigned>((((static_cast<unsigned long long>(b) << 32) | a) << s) >> 32); }
    case 14: return static_cast<unsigned>(((static_cast<unsigned long long>(b) << 32) | a) >> (c & 31));
    case 15: { const unsigned s = (c & 63) > 32 ? 32 : (c & 63); return static_cast<unsigned>(((static_cast<unsigned long long>(b) << 32) | a) >> s); }
    case 16: {
      const unsigned char bytes[8] = {static_cast<unsigned char>(a), static_cast<unsigned char>(a >> 8), static_cast<unsigned char>(a >> 16), static_cast<unsigned char>(a >> 24),
                                      static_cast<unsigned char>(b), static_cast<unsigned char>(b >> 8), static_cast<unsigned char>(b >> 16), static_cast<unsigned char>(b >> 24)};
      unsigned r = 0;
      for (int m = 0; m < 4; ++m) r |= static_cast<unsigned>(bytes[(c >> (4 * m)) & 7]) << (8 * m);
      return r;
    }
    case 17: {  // the offset-th set bit from base, upward (offset > 0) or downward (offset < 0)
      const int base = static_cast<int>(c & 31), offset = static_cast<int>(b % 11u) - 5;
      if (offset == 0) return (a >> base) & 1 ? static_cast<unsigned>(base) : 0xffffffffu;
      int count = 0;
      for (int p = base; p >= 0 && p < 32; p += offset > 0 ? 1 : -1) {
        if ((a >> p) & 1) {
          if (++count == (offset > 0 ? offset : -offset)) return static_cast<unsigned>(p);
        }
      }
      return 0xffffffffu;
    }
    case 18: return brev32(a);
    case 19: return static_cast<unsigned>(((static_cast<unsigned long long>(brev32(b)) << 32 | brev32(a))) >> 16);
    case 20: {
      const unsigned v = static_cast<unsigned>(static_cast<int>(a) >> (c & 31));
      int clz = 0;
      while (clz < 32 && !(v & (0x80000000u >> clz))) ++clz;
      int ffs = 0;
      if (b) { ffs = 1; while (!(b & (1u << (ffs - 1)))) ++ffs; }
      int pop = 0;
      for (int m = 0; m < 32; ++m) pop += (c >> m) & 1;
      return static_cast<unsigned>(clz) | (static_cast<unsigned>(ffs) << 8) | (static_cast<unsigned>(pop) << 16);
    }
    case 21: return lanes(a, b, 8, false, [](long long x, long long y) { return x + y; });
    case 22: return lanes(a, b, 16, false, [](long long x, long long y) { return x - y; });
    case 23: return lanes(a, b, 8, false, [](long long x, long long y) { return x > y ? x - y : y - x; });
    case 24: return lanes(a, b, 8, false, [](long long x, long long y) { return (x + y + 1) / 2; });
    case 25: return lanes(a, b, 8, false, [](long long x, long long y) { return x > y ? 0xffll : 0ll; });
    case 26: return lanes(a, b, 16, true, [](long long x, long long y) { return x < y ? 1ll : 0ll; });
    case 27: return lanes(a, b, 8, true, [](long long x, long long y) { return x > y ? x : y; });
    case 28: return lanes(a, b, 16, false, [](long long x, long long y) { return x < y ? x : y; });
    case 29: return lanes(a, b, 8, true, [](long long x, long long y) { return sat8(x + y); });
    case 30: return lanes(a, b, 16, false, [](long long x, long long y) { return x > y ? x - y : 0ll; });
    case 31: return static_cast<unsigned>(sumBytes(a, b, true, true));
    case 32: return static_cast<unsigned>(sumBytes(a, b, true, false) + static_cast<int>(c));
    case 33: return static_cast<unsigned>(sumBytes(a, b, false, false) + c);
    case 34: case 35: {  // a's halfwords times b's bytes 0-1 (lo) or 2-3 (hi)
      const bool isSigned = k == 34;
      long long sum = 0;
      for (int m = 0; m < 2; ++m) {
        long long x = (a >> (16 * m)) & 0xffff, y = (b >> (8 * (m + (k == 35 ? 2 : 0)))) & 0xff;
        if (isSigned && x >= 0x8000) x -= 0x10000;
        if (isSigned && y >= 0x80) y -= 0x100;
        sum += x * y;
      }
      return static_cast<unsigned>(sum + (isSigned ? static_cast<long long>(static_cast<int>(c)) : static_cast<long long>(c)));
    }
    case 36: return lanes(a, 0, 8, true, [](long long x, long long) { return sat8(x < 0 ? -x : x); });
    case 37: return lanes(a, a ^ (b & 0xffffu), 16, false, [](long long x, long long y) { return x == y ? 0xffffll : 0ll; });
    case 38: return a ^ a;  // the double's high word is sa again
    default: return b;
  }
}

static int failures = 0;

int main() {
  const int n = 2053;
  std::mt19937 rng(71);
  std::vector<unsigned> x(n), y(n), z(n);
  for (int i = 0; i < n; ++i) {
    x[i] = rng() | 1u;
    y[i] = rng() | 0x100u;
    z[i] = rng();
    if (i % 5 == 0) y[i] = x[i] ^ (rng() & 0x00ff00ffu);  // near-equal lanes: the comparisons' both sides
  }
  unsigned *dx, *dy, *dz, *dout;
  const size_t outCount = static_cast<size_t>(n) * kResults;
  CHECK(cudaMalloc(&dx, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dy, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dz, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dout, outCount * sizeof(unsigned)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dz, z.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0xff, outCount * sizeof(unsigned)));
  const int threads = 96, blocks = (n + threads - 1) / threads;
  integerAndSimd<<<blocks, threads>>>(dx, dy, dz, dout, n);
  CHECK(cudaGetLastError());
  std::vector<unsigned> out(outCount);
  CHECK(cudaMemcpy(out.data(), dout, outCount * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < kResults; ++k) {
      const unsigned want = reference(x[i], y[i], z[i], k), got = out[static_cast<size_t>(i) * kResults + k];
      if (got != want && ++failures <= 20) std::fprintf(stderr, "MISMATCH result %d [%d] (%08x %08x %08x): got %08x, want %08x\n", k, i, x[i], y[i], z[i], got, want);
    }
  }
  std::printf("integer, bit and SIMD intrinsics: %d results on %d random inputs\n", kResults, n);

  // Cache hints on int, float4, double2, uchar4.
  const int m = 1001;
  std::vector<int> hi(m);
  std::vector<float4> hf(m);
  std::vector<double2> hd(m);
  std::vector<uchar4> hc(m);
  for (int k = 0; k < m; ++k) {
    hi[k] = static_cast<int>(rng() % 100000) + 1;
    hf[k] = make_float4(rng() * 1e-3f, -1.5f, rng() * 1e-6f, 2.25f);
    hd[k] = make_double2(rng() * 1e-9, -static_cast<double>(rng()));
    hc[k] = make_uchar4(rng() & 0xff, rng() & 0xff, 7, 200);
  }
  int *di, *dio;
  float4 *df, *dfo;
  double2 *dd, *ddo;
  uchar4 *dc, *dco;
  CHECK(cudaMalloc(&di, m * sizeof(int)));
  CHECK(cudaMalloc(&dio, 4 * m * sizeof(int)));
  CHECK(cudaMalloc(&df, m * sizeof(float4)));
  CHECK(cudaMalloc(&dfo, m * sizeof(float4)));
  CHECK(cudaMalloc(&dd, m * sizeof(double2)));
  CHECK(cudaMalloc(&ddo, m * sizeof(double2)));
  CHECK(cudaMalloc(&dc, m * sizeof(uchar4)));
  CHECK(cudaMalloc(&dco, m * sizeof(uchar4)));
  CHECK(cudaMemcpy(di, hi.data(), m * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(df, hf.data(), m * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dd, hd.data(), m * sizeof(double2), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, hc.data(), m * sizeof(uchar4), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dio, 0xff, 4 * m * sizeof(int)));
  CHECK(cudaMemset(dfo, 0xff, m * sizeof(float4)));
  CHECK(cudaMemset(ddo, 0xff, m * sizeof(double2)));
  CHECK(cudaMemset(dco, 0xff, m * sizeof(uchar4)));
  cacheHints<<<(m + 127) / 128, 128>>>(di, df, dd, dc, dio, dfo, ddo, dco, m);
  CHECK(cudaGetLastError());
  std::vector<int> gi(4 * m);
  std::vector<float4> gf(m);
  std::vector<double2> gd(m);
  std::vector<uchar4> gc(m);
  CHECK(cudaMemcpy(gi.data(), dio, 4 * m * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gf.data(), dfo, m * sizeof(float4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gd.data(), ddo, m * sizeof(double2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gc.data(), dco, m * sizeof(uchar4), cudaMemcpyDeviceToHost));
  for (int k = 0; k < m; ++k) {
    const bool ok = gi[4 * k] == hi[k] && gi[4 * k + 1] == 2 * hi[k] && gi[4 * k + 2] == hi[k] && gi[4 * k + 3] == 2 * hi[k] &&
                    std::memcmp(&gf[k], &hf[k], sizeof(float4)) == 0 && std::memcmp(&gd[k], &hd[k], sizeof(double2)) == 0 &&
                    std::memcmp(&gc[k], &hc[k], sizeof(uchar4)) == 0;
    if (!ok && ++failures <= 20) std::fprintf(stderr, "MISMATCH cache hints [%d]\n", k);
  }
  std::printf("cache hints: __ldg __ldcg __ldca __ldcs __ldlu __ldcv, __stcg __stcs __stwb __stwt on int, float4, double2, uchar4\n");

  // __nanosleep in a polling loop, clock64() and clock().
  const int pollBlocks = 3, pollThreads = 67;
  unsigned *dcounter, *dseen;
  long long* dcycles;
  CHECK(cudaMalloc(&dcounter, pollBlocks * sizeof(unsigned)));
  CHECK(cudaMalloc(&dseen, pollBlocks * sizeof(unsigned)));
  CHECK(cudaMalloc(&dcycles, 2 * pollBlocks * sizeof(long long)));
  CHECK(cudaMemset(dcounter, 0, pollBlocks * sizeof(unsigned)));
  CHECK(cudaMemset(dseen, 0xff, pollBlocks * sizeof(unsigned)));
  CHECK(cudaMemset(dcycles, 0xff, 2 * pollBlocks * sizeof(long long)));
  pollWithNanosleep<<<pollBlocks, pollThreads>>>(dcounter, dcycles, dseen);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  unsigned seen[pollBlocks];
  long long cycles[2 * pollBlocks];
  CHECK(cudaMemcpy(seen, dseen, sizeof seen, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(cycles, dcycles, sizeof cycles, cudaMemcpyDeviceToHost));
  for (int b = 0; b < pollBlocks; ++b) {
    if (seen[b] != pollThreads - 1 || cycles[2 * b] < 0 || cycles[2 * b + 1] != 1) {
      if (++failures <= 20) std::fprintf(stderr, "MISMATCH polling block %d: saw %u, %lld cycles\n", b, seen[b], cycles[2 * b]);
    }
  }
  std::printf("__nanosleep: a polling thread saw all %d writers of its block in each of %d blocks; clock64/clock advanced\n",
              pollThreads - 1, pollBlocks);

  CHECK(cudaFree(dx)); CHECK(cudaFree(dy)); CHECK(cudaFree(dz)); CHECK(cudaFree(dout));
  CHECK(cudaFree(di)); CHECK(cudaFree(dio)); CHECK(cudaFree(df)); CHECK(cudaFree(dfo));
  CHECK(cudaFree(dd)); CHECK(cudaFree(ddo)); CHECK(cudaFree(dc)); CHECK(cudaFree(dco));
  CHECK(cudaFree(dcounter)); CHECK(cudaFree(dseen)); CHECK(cudaFree(dcycles));
  if (failures != 0) {
    std::printf("FAILED: %d mismatches\n", failures);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
