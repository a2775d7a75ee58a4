// Every scoped atomic function, each for every type CUDA declares it for: the _block forms on a block's
// __shared__ counters (and sm_90's float2/float4 atomicAdd_block on the block's own global slot), the
// _system forms and the unscoped ones on counters in global memory shared by the whole grid. Each result
// is checked exactly against the host: sums, wraps of Inc/Dec, bit masks, and for Exch the chain law
// (the values returned plus the final one are the initial one plus every value stored).
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

struct Counters {
  int add_i;
  unsigned add_u;
  unsigned long long add_ull;
  float add_f;
  double add_d;
  int sub_i;
  unsigned sub_u;
  int exch_i;
  unsigned exch_u;
  unsigned long long exch_ull;
  float exch_f;
  long long exch_returned;  // sum of the values the Exch calls returned (integer ones)
  float exch_f_returned;
  int min_i;
  unsigned min_u;
  unsigned long long min_ull;
  long long min_ll;
  int max_i;
  unsigned max_u;
  unsigned long long max_ull;
  long long max_ll;
  unsigned inc_u;
  unsigned dec_u;
  int cas_i;
  unsigned cas_u;
  unsigned long long cas_ull;
  int and_i;
  unsigned and_u;
  unsigned long long and_ull;
  long long and_ll;
  int or_i;
  unsigned or_u;
  unsigned long long or_ull;
  long long or_ll;
  int xor_i;
  unsigned xor_u;
  unsigned long long xor_ull;
  long long xor_ll;
};

constexpr unsigned kIncLimit = 16;   // atomicInc wraps to 0 after 16
constexpr unsigned kDecLimit = 20;   // atomicDec wraps to 20 after 0
constexpr unsigned kDecStart = 5;

__host__ __device__ Counters initialCounters() {
  Counters c = {};
  c.exch_i = -3;
  c.exch_u = 11u;
  c.exch_ull = 13ull;
  c.exch_f = 2.0f;
  c.min_i = 1 << 30;
  c.min_u = 0xffffffffu;
  c.min_ull = ~0ull;
  c.min_ll = 1ll << 60;
  c.max_i = -(1 << 30);
  c.max_ll = -(1ll << 60);
  c.dec_u = kDecStart;
  c.and_i = -1;
  c.and_u = 0xffffffffu;
  c.and_ull = ~0ull;
  c.and_ll = -1;
  return c;
}

// One thread's share of every operation, with the scope given by SUFFIX (_block or _system): v is its
// random value (1..1000), i its index in the grid. The CAS loops start from a guess and go on from the
// value each CAS returns, so no plain read races with the other threads' atomics.
#define EXERCISE_ATOMICS(c, v, i, SUFFIX)                                                                  \
  do {                                                                                                     \
    atomicAdd##SUFFIX(&c->add_i, v);                                                                       \
    atomicAdd##SUFFIX(&c->add_u, static_cast<unsigned>(v));                                                \
    atomicAdd##SUFFIX(&c->add_ull, static_cast<unsigned long long>(v) * 1000003ull);                       \
    atomicAdd##SUFFIX(&c->add_f, static_cast<float>(v % 16 + 1));                                          \
    atomicAdd##SUFFIX(&c->add_d, static_cast<double>(v) * 0.5);                                            \
    atomicSub##SUFFIX(&c->sub_i, v);                                                                       \
    atomicSub##SUFFIX(&c->sub_u, static_cast<unsigned>(v));                                                \
    long long returned = atomicExch##SUFFIX(&c->exch_i, v);                                                \
    returned += atomicExch##SUFFIX(&c->exch_u, static_cast<unsigned>(v) * 2u);                             \
    returned += static_cast<long long>(atomicExch##SUFFIX(&c->exch_ull, static_cast<unsigned long long>(v) * 3ull)); \
    atomicAdd##SUFFIX(reinterpret_cast<unsigned long long*>(&c->exch_returned), static_cast<unsigned long long>(returned)); \
    atomicAdd##SUFFIX(&c->exch_f_returned, atomicExch##SUFFIX(&c->exch_f, static_cast<float>(v % 8)));     \
    atomicMin##SUFFIX(&c->min_i, v - 500);                                                                 \
    atomicMin##SUFFIX(&c->min_u, static_cast<unsigned>(v) * 7u);                                           \
    atomicMin##SUFFIX(&c->min_ull, static_cast<unsigned long long>(v) << 33);                              \
    atomicMin##SUFFIX(&c->min_ll, -static_cast<long long>(v) << 32);                                       \
    atomicMax##SUFFIX(&c->max_i, v - 500);                                                                 \
    atomicMax##SUFFIX(&c->max_u, static_cast<unsigned>(v) * 7u);                                          \
    atomicMax##SUFFIX(&c->max_ull, static_cast<unsigned long long>(v) << 33);                              \
    atomicMax##SUFFIX(&c->max_ll, -static_cast<long long>(v) << 32);                                       \
    atomicInc##SUFFIX(&c->inc_u, kIncLimit);                                                               \
    atomicDec##SUFFIX(&c->dec_u, kDecLimit);                                                               \
    for (int old = 0;;) {                                                                           \
      const int seen = atomicCAS##SUFFIX(&c->cas_i, old, old + v);                                         \
      if (seen == old) break;                                                                              \
      old = seen;                                                                                          \
    }                                                                                                      \
    for (unsigned old = 0u;;) {                                                                      \
      const unsigned seen = atomicCAS##SUFFIX(&c->cas_u, old, old ^ (1u << (i % 32)));                     \
      if (seen == old) break;                                                                              \
      old = seen;                                                                                          \
    }                                                                                                      \
    for (unsigned long long old = 0ull;;) {                                                          \
      const unsigned long long seen = atomicCAS##SUFFIX(&c->cas_ull, old, old + (static_cast<unsigned long long>(v) << 20)); \
      if (seen == old) break;                                                                              \
      old = seen;                                                                                          \
    }                                                                                                      \
    atomicAnd##SUFFIX(&c->and_i, ~(1 << (i % 31)));                                                        \
    atomicAnd##SUFFIX(&c->and_u, ~(1u << (v % 32)));                                                       \
    atomicAnd##SUFFIX(&c->and_ull, ~(1ull << (i % 64)));                                                   \
    atomicAnd##SUFFIX(&c->and_ll, ~(1ll << (v % 63)));                                                     \
    atomicOr##SUFFIX(&c->or_i, 1 << (v % 31));                                                             \
    atomicOr##SUFFIX(&c->or_u, 1u << (i % 32));                                                            \
    atomicOr##SUFFIX(&c->or_ull, 1ull << (v % 64));                                                        \
    atomicOr##SUFFIX(&c->or_ll, 1ll << (i % 63));                                                          \
    atomicXor##SUFFIX(&c->xor_i, v * 12345);                                                               \
    atomicXor##SUFFIX(&c->xor_u, static_cast<unsigned>(v) * 2654435761u);                                  \
    atomicXor##SUFFIX(&c->xor_ull, static_cast<unsigned long long>(v) * 0x9e3779b97f4a7c15ull);            \
    atomicXor##SUFFIX(&c->xor_ll, static_cast<long long>(v) << 40);                                        \
  } while (0)

// Block scope: each block's counters in shared memory, then copied out by thread 0. Also sm_90's
// vector adds at block scope, on the block's own slot of global memory.
__global__ void blockScoped(const int* values, int n, Counters* per_block, float2* pair_sums, float4* quad_sums) {
  __shared__ Counters c;
  if (threadIdx.x == 0) c = initialCounters();
  if (threadIdx.x == 1) {
    pair_sums[blockIdx.x] = make_float2(0.0f, 0.0f);
    quad_sums[blockIdx.x] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  }
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int v = values[i];
    Counters* cp = &c;
    EXERCISE_ATOMICS(cp, v, i, _block);
    atomicAdd_block(&pair_sums[blockIdx.x], make_float2(static_cast<float>(v % 4), 1.0f));
    atomicAdd_block(&quad_sums[blockIdx.x], make_float4(1.0f, static_cast<float>(v % 3), 2.0f, static_cast<float>(v % 5)));
  }
  __syncthreads();
  if (threadIdx.x == 0) per_block[blockIdx.x] = c;
}

// System scope on counters the whole grid shares, and the unscoped vector adds and 16-bit CAS.
__global__ void systemScoped(const int* values, int n, Counters* c, float2* pair_sum, float4* quad_sum,
                             unsigned short* ticks) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int v = values[i];
  EXERCISE_ATOMICS(c, v, i, _system);
  atomicAdd_system(pair_sum, make_float2(static_cast<float>(v % 4), 1.0f));
  atomicAdd(quad_sum, make_float4(1.0f, static_cast<float>(v % 3), 2.0f, static_cast<float>(v % 5)));
  for (unsigned short old = 0;;) {
    const unsigned short seen = atomicCAS(ticks, old, static_cast<unsigned short>(old + 3));
    if (seen == old) break;
    old = seen;
  }
}

// The counters a range [first, last) of values leaves, computed on the host.
static Counters expectedCounters(const std::vector<int>& values, int first, int last) {
  Counters c = initialCounters();
  long long exch_in = static_cast<long long>(c.exch_i) + c.exch_u + static_cast<long long>(c.exch_ull);
  float exch_f_in = c.exch_f;
  for (int i = first; i < last; ++i) {
    const int v = values[i];
    c.add_i += v;
    c.add_u += static_cast<unsigned>(v);
    c.add_ull += static_cast<unsigned long long>(v) * 1000003ull;
    c.add_f += static_cast<float>(v % 16 + 1);
    c.add_d += static_cast<double>(v) * 0.5;
    c.sub_i -= v;
    c.sub_u -= static_cast<unsigned>(v);
    exch_in += v + static_cast<long long>(v) * 2 + static_cast<long long>(v) * 3;
    exch_f_in += static_cast<float>(v % 8);
    c.min_i = std::min(c.min_i, v - 500);
    c.min_u = std::min(c.min_u, static_cast<unsigned>(v) * 7u);
    c.min_ull = std::min(c.min_ull, static_cast<unsigned long long>(v) << 33);
    c.min_ll = std::min(c.min_ll, -static_cast<long long>(v) << 32);
    c.max_i = std::max(c.max_i, v - 500);
    c.max_u = std::max(c.max_u, static_cast<unsigned>(v) * 7u);
    c.max_ull = std::max(c.max_ull, static_cast<unsigned long long>(v) << 33);
    c.max_ll = std::max(c.max_ll, -static_cast<long long>(v) << 32);
    c.inc_u = c.inc_u >= kIncLimit ? 0u : c.inc_u + 1u;
    c.dec_u = (c.dec_u == 0u || c.dec_u > kDecLimit) ? kDecLimit : c.dec_u - 1u;
    c.cas_i += v;
    c.cas_u ^= 1u << (i % 32);
    c.cas_ull += static_cast<unsigned long long>(v) << 20;
    c.and_i &= ~(1 << (i % 31));
    c.and_u &= ~(1u << (v % 32));
    c.and_ull &= ~(1ull << (i % 64));
    c.and_ll &= ~(1ll << (v % 63));
    c.or_i |= 1 << (v % 31);
    c.or_u |= 1u << (i % 32);
    c.or_ull |= 1ull << (v % 64);
    c.or_ll |= 1ll << (i % 63);
    c.xor_i ^= v * 12345;
    c.xor_u ^= static_cast<unsigned>(v) * 2654435761u;
    c.xor_ull ^= static_cast<unsigned long long>(v) * 0x9e3779b97f4a7c15ull;
    c.xor_ll ^= static_cast<long long>(v) << 40;
  }
  // Exch: what is left plus what was returned is what went in; the device's split is checked below.
  c.exch_returned = exch_in;
  c.exch_f_returned = exch_f_in;
  return c;
}

static int failures = 0;
#define EXPECT_EQ(what, got, want)                                                                     \
  do {                                                                                                 \
    if (!((got) == (want))) {                                                                          \
      if (++failures <= 10) std::printf("FAIL %s: %s is %.17g, expected %.17g\n", where, what,         \
                                        static_cast<double>(got), static_cast<double>(want));          \
    }                                                                                                  \
  } while (0)

static void compare(const char* where, const Counters& got, const Counters& want) {
  EXPECT_EQ("add int", got.add_i, want.add_i);
  EXPECT_EQ("add unsigned", got.add_u, want.add_u);
  EXPECT_EQ("add unsigned long long", got.add_ull, want.add_ull);
  EXPECT_EQ("add float", got.add_f, want.add_f);
  EXPECT_EQ("add double", got.add_d, want.add_d);
  EXPECT_EQ("sub int", got.sub_i, want.sub_i);
  EXPECT_EQ("sub unsigned", got.sub_u, want.sub_u);
  const long long left = static_cast<long long>(got.exch_i) + got.exch_u + static_cast<long long>(got.exch_ull);
  EXPECT_EQ("exch returned + left (integers)", got.exch_returned + left, want.exch_returned);
  EXPECT_EQ("exch returned + left (float)", got.exch_f_returned + got.exch_f, want.exch_f_returned);
  EXPECT_EQ("min int", got.min_i, want.min_i);
  EXPECT_EQ("min unsigned", got.min_u, want.min_u);
  EXPECT_EQ("min unsigned long long", got.min_ull, want.min_ull);
  EXPECT_EQ("min long long", got.min_ll, want.min_ll);
  EXPECT_EQ("max int", got.max_i, want.max_i);
  EXPECT_EQ("max unsigned", got.max_u, want.max_u);
  EXPECT_EQ("max unsigned long long", got.max_ull, want.max_ull);
  EXPECT_EQ("max long long", got.max_ll, want.max_ll);
  EXPECT_EQ("inc", got.inc_u, want.inc_u);
  EXPECT_EQ("dec", got.dec_u, want.dec_u);
  EXPECT_EQ("cas int", got.cas_i, want.cas_i);
  EXPECT_EQ("cas unsigned", got.cas_u, want.cas_u);
  EXPECT_EQ("cas unsigned long long", got.cas_ull, want.cas_ull);
  EXPECT_EQ("and int", got.and_i, want.and_i);
  EXPECT_EQ("and unsigned", got.and_u, want.and_u);
  EXPECT_EQ("and unsigned long long", got.and_ull, want.and_ull);
  EXPECT_EQ("and long long", got.and_ll, want.and_ll);
  EXPECT_EQ("or int", got.or_i, want.or_i);
  EXPECT_EQ("or unsigned", got.or_u, want.or_u);
  EXPECT_EQ("or unsigned long long", got.or_ull, want.or_ull);
  EXPECT_EQ("or long long", got.or_ll, want.or_ll);
  EXPECT_EQ("xor int", got.xor_i, want.xor_i);
  EXPECT_EQ("xor unsigned", got.xor_u, want.xor_u);
  EXPECT_EQ("xor unsigned long long", got.xor_ull, want.xor_ull);
  EXPECT_EQ("xor long long", got.xor_ll, want.xor_ll);
}

int main() {
  const int threads = 173;  // odd, not a multiple of the warp size
  const int blocks = 37;
  const int n = threads * blocks - 11;  // the last block is partial
  std::mt19937 rng(20261206);
  std::uniform_int_distribution<int> pick(1, 1000);
  std::vector<int> values(n);
  for (int& v : values) v = pick(rng);

  int* d_values;
  Counters *d_per_block, *d_grid;
  float2 *d_pairs, *d_pair_total;
  float4 *d_quads, *d_quad_total;
  unsigned short* d_ticks;
  CHECK(cudaMalloc(&d_values, n * sizeof(int)));
  CHECK(cudaMalloc(&d_per_block, blocks * sizeof(Counters)));
  CHECK(cudaMalloc(&d_grid, sizeof(Counters)));
  CHECK(cudaMalloc(&d_pairs, blocks * sizeof(float2)));
  CHECK(cudaMalloc(&d_quads, blocks * sizeof(float4)));
  CHECK(cudaMalloc(&d_pair_total, sizeof(float2)));
  CHECK(cudaMalloc(&d_quad_total, sizeof(float4)));
  CHECK(cudaMalloc(&d_ticks, sizeof(unsigned short)));
  CHECK(cudaMemcpy(d_values, values.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  // Poisoned: the kernel writes every byte of these.
  CHECK(cudaMemset(d_per_block, 0xFF, blocks * sizeof(Counters)));
  CHECK(cudaMemset(d_pairs, 0xFF, blocks * sizeof(float2)));
  CHECK(cudaMemset(d_quads, 0xFF, blocks * sizeof(float4)));
  // Start values for the grid's counters.
  const Counters start = initialCounters();
  const float2 zero2 = make_float2(0.0f, 0.0f);
  const float4 zero4 = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  const unsigned short ticks_start = 17;
  CHECK(cudaMemcpy(d_grid, &start, sizeof start, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_pair_total, &zero2, sizeof zero2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_quad_total, &zero4, sizeof zero4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_ticks, &ticks_start, sizeof ticks_start, cudaMemcpyHostToDevice));

  blockScoped<<<blocks, threads>>>(d_values, n, d_per_block, d_pairs, d_quads);
  CHECK(cudaGetLastError());
  systemScoped<<<blocks, threads>>>(d_values, n, d_grid, d_pair_total, d_quad_total, d_ticks);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<Counters> per_block(blocks);
  std::vector<float2> pairs(blocks);
  std::vector<float4> quads(blocks);
  Counters grid;
  float2 pair_total;
  float4 quad_total;
  unsigned short ticks;
  CHECK(cudaMemcpy(per_block.data(), d_per_block, blocks * sizeof(Counters), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(pairs.data(), d_pairs, blocks * sizeof(float2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(quads.data(), d_quads, blocks * sizeof(float4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&grid, d_grid, sizeof grid, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&pair_total, d_pair_total, sizeof pair_total, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&quad_total, d_quad_total, sizeof quad_total, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&ticks, d_ticks, sizeof ticks, cudaMemcpyDeviceToHost));

  char where[64];
  float pair_want[2] = {0, 0}, quad_want[4] = {0, 0, 0, 0};
  for (int b = 0; b < blocks; ++b) {
    const int first = b * threads, last = std::min(n, first + threads);
    std::snprintf(where, sizeof where, "block %d (_block)", b);
    compare(where, per_block[b], expectedCounters(values, first, last));
    float p[2] = {0, 0}, q[4] = {0, 0, 0, 0};
    for (int i = first; i < last; ++i) {
      p[0] += static_cast<float>(values[i] % 4), p[1] += 1.0f;
      q[0] += 1.0f, q[1] += static_cast<float>(values[i] % 3), q[2] += 2.0f, q[3] += static_cast<float>(values[i] % 5);
    }
    EXPECT_EQ("float2 atomicAdd_block .x", pairs[b].x, p[0]);
    EXPECT_EQ("float2 atomicAdd_block .y", pairs[b].y, p[1]);
    EXPECT_EQ("float4 atomicAdd_block .x", quads[b].x, q[0]);
    EXPECT_EQ("float4 atomicAdd_block .y", quads[b].y, q[1]);
    EXPECT_EQ("float4 atomicAdd_block .z", quads[b].z, q[2]);
    EXPECT_EQ("float4 atomicAdd_block .w", quads[b].w, q[3]);
    for (int k = 0; k < 2; ++k) pair_want[k] += p[k];
    for (int k = 0; k < 4; ++k) quad_want[k] += q[k];
  }
  std::snprintf(where, sizeof where, "grid (_system)");
  compare(where, grid, expectedCounters(values, 0, n));
  EXPECT_EQ("float2 atomicAdd_system .x", pair_total.x, pair_want[0]);
  EXPECT_EQ("float2 atomicAdd_system .y", pair_total.y, pair_want[1]);
  EXPECT_EQ("float4 atomicAdd .x", quad_total.x, quad_want[0]);
  EXPECT_EQ("float4 atomicAdd .y", quad_total.y, quad_want[1]);
  EXPECT_EQ("float4 atomicAdd .z", quad_total.z, quad_want[2]);
  EXPECT_EQ("float4 atomicAdd .w", quad_total.w, quad_want[3]);
  EXPECT_EQ("unsigned short atomicCAS", ticks, static_cast<unsigned short>(ticks_start + 3 * n));

  CHECK(cudaFree(d_values));
  CHECK(cudaFree(d_per_block));
  CHECK(cudaFree(d_grid));
  CHECK(cudaFree(d_pairs));
  CHECK(cudaFree(d_quads));
  CHECK(cudaFree(d_pair_total));
  CHECK(cudaFree(d_quad_total));
  CHECK(cudaFree(d_ticks));
  if (failures != 0) {
    std::printf("FAILED: %d mismatches\n", failures);
    return 1;
  }
  std::printf("verified: atomicAdd/Sub/Exch/Min/Max/Inc/Dec/CAS/And/Or/Xor _block on shared counters of %d blocks "
              "and _system on the grid's (%d threads), for int, unsigned, unsigned long long, long long, float, "
              "double; float2/float4 atomicAdd_block, atomicAdd_system, atomicAdd; 16-bit atomicCAS\n",
              blocks, n);
  std::printf("PASSED\n");
  return 0;
}
