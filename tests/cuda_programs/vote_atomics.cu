// The vote and atomic intrinsics, as the CUDA samples demonstrate them: per-warp counts with
// __ballot_sync and __popc, __any_sync / __all_sync, groups of equal keys with __match_any_sync, and
// the warp reductions of sm_80 (__reduce_add/min/max/and/or/xor_sync, over the whole warp and over its
// odd lanes), global atomics of every kind (Add, Sub, Exch, Min, Max, Inc with its wrap, Dec, CAS, And, Or, Xor),
// including a float maximum built from atomicCAS. Self-checking, exactly, against the host.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

// One int4 per warp: positives (ballot + popc), any negative, all below 1000, and the number of lanes
// whose key (value mod 4) matches lane 0's.
__global__ void warpVotes(const int* in, int n, int4* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = i < n ? in[i] : 0;
  const unsigned positives = __ballot_sync(0xffffffffu, v > 0);
  const int any_negative = __any_sync(0xffffffffu, v < 0);
  const int all_small = __all_sync(0xffffffffu, v < 1000);
  const unsigned same_key = __match_any_sync(0xffffffffu, ((v % 4) + 4) % 4);
  const unsigned lane0_group = __shfl_sync(0xffffffffu, same_key, 0);
  if ((threadIdx.x & 31) == 0 && i < n) out[i / 32] = make_int4(__popc(positives), any_negative, all_small, __popc(lane0_group));
}

// Per warp: the sm_80 reductions over all 32 lanes, and __reduce_add_sync / __reduce_min_sync over the odd
// lanes alone (a partial mask). Lanes past n hold 0.
struct Reductions {
  int add, min, max;
  unsigned and_bits, or_bits, xor_bits;
  int odd_add, odd_min;
};

__global__ void warpReductions(const int* in, int n, Reductions* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = i < n ? in[i] : 0;
  const unsigned bits = static_cast<unsigned>(v) * 2654435761u;
  Reductions r;
  r.add = __reduce_add_sync(0xffffffffu, v);
  r.min = __reduce_min_sync(0xffffffffu, v);
  r.max = __reduce_max_sync(0xffffffffu, v);
  r.and_bits = __reduce_and_sync(0xffffffffu, bits | 0x80000001u);
  r.or_bits = __reduce_or_sync(0xffffffffu, bits & 0x0ff0ff0fu);
  r.xor_bits = __reduce_xor_sync(0xffffffffu, bits);
  r.odd_add = r.odd_min = 0;
  if (threadIdx.x & 1) {
    r.odd_add = __reduce_add_sync(0xaaaaaaaau, v);
    r.odd_min = __reduce_min_sync(0xaaaaaaaau, v);
  }
  const int lane = threadIdx.x & 31;
  const int odd_add = __shfl_sync(0xffffffffu, r.odd_add, 1), odd_min = __shfl_sync(0xffffffffu, r.odd_min, 1);
  if (lane == 0 && i < n) {
    r.odd_add = odd_add;
    r.odd_min = odd_min;
    out[i / 32] = r;
  }
}

struct Totals {
  int sum, diff, last, min, max;
  unsigned ring, countdown, and_bits, or_bits, xor_bits;
  int cas_claims;
  float fmax;
};

__device__ float atomicMaxFloat(float* address, float value) {
  int* bits = reinterpret_cast<int*>(address);
  int old = *bits;
  while (__int_as_float(old) < value) {
    const int assumed = old;
    old = atomicCAS(bits, assumed, __float_as_int(value));
    if (old == assumed) break;
  }
  return __int_as_float(old);
}

__global__ void everyAtomic(const int* in, int n, Totals* t, int* claimed) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int v = in[i];
  atomicAdd(&t->sum, v);
  atomicSub(&t->diff, v);
  atomicExch(&t->last, 7);  // every thread stores the same value
  atomicMin(&t->min, v);
  atomicMax(&t->max, v);
  atomicInc(&t->ring, 99u);        // wraps to 0 after 99
  atomicDec(&t->countdown, 1000000u);
  atomicAnd(&t->and_bits, ~(1u << (i % 32)));
  atomicOr(&t->or_bits, 1u << (v & 31));
  atomicXor(&t->xor_bits, static_cast<unsigned>(v));
  if (atomicCAS(&claimed[v & 255], 0, 1) == 0) atomicAdd(&t->cas_claims, 1);  // one claim per slot
  atomicMaxFloat(&t->fmax, static_cast<float>(v) * 0.5f);
}

int main() {
  const int n = 30011;
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> dist(-500, 999);
  std::vector<int> host(n);
  for (int& v : host) v = dist(rng);
  int failures = 0;

  int* in = nullptr;
  int4* votes = nullptr;
  Totals* totals = nullptr;
  int* claimed = nullptr;
  const int warps = (n + 31) / 32;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&votes, warps * sizeof(int4)));
  CHECK(cudaMalloc(&totals, sizeof(Totals)));
  CHECK(cudaMalloc(&claimed, 256 * sizeof(int)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  warpVotes<<<(n + 255) / 256, 256>>>(in, n, votes);
  CHECK(cudaGetLastError());
  std::vector<int4> got(warps);
  CHECK(cudaMemcpy(got.data(), votes, warps * sizeof(int4), cudaMemcpyDeviceToHost));
  for (int w = 0; w < warps; ++w) {
    int positives = 0, any_negative = 0, all_small = 1, same = 0;
    const int key0 = ((host[w * 32] % 4) + 4) % 4;
    for (int l = 0; l < 32; ++l) {
      const int i = w * 32 + l;
      const int v = i < n ? host[i] : 0;
      positives += v > 0;
      any_negative |= v < 0;
      all_small &= v < 1000;
      same += ((v % 4) + 4) % 4 == key0;
    }
    const int4 g = got[w];
    if (g.x != positives || g.y != any_negative || g.z != all_small || g.w != same) {
      std::printf("FAIL warp %d: got (%d, %d, %d, %d), want (%d, %d, %d, %d)\n", w, g.x, g.y, g.z, g.w, positives,
                  any_negative, all_small, same);
      ++failures;
      break;
    }
  }

  Reductions* reductions = nullptr;
  CHECK(cudaMalloc(&reductions, warps * sizeof(Reductions)));
  warpReductions<<<(n + 127) / 128, 128>>>(in, n, reductions);
  CHECK(cudaGetLastError());
  std::vector<Reductions> red(warps);
  CHECK(cudaMemcpy(red.data(), reductions, warps * sizeof(Reductions), cudaMemcpyDeviceToHost));
  for (int w = 0; w < warps; ++w) {
    Reductions want{0, 1 << 30, -(1 << 30), ~0u, 0u, 0u, 0, 1 << 30};
    for (int l = 0; l < 32; ++l) {
      const int i = w * 32 + l;
      const int v = i < n ? host[i] : 0;
      const unsigned bits = static_cast<unsigned>(v) * 2654435761u;
      want.add += v;
      want.min = std::min(want.min, v);
      want.max = std::max(want.max, v);
      want.and_bits &= bits | 0x80000001u;
      want.or_bits |= bits & 0x0ff0ff0fu;
      want.xor_bits ^= bits;
      if (l & 1) {
        want.odd_add += v;
        want.odd_min = std::min(want.odd_min, v);
      }
    }
    const Reductions& g = red[w];
    if (std::memcmp(&g, &want, sizeof want) != 0) {
      std::printf("FAIL warp %d reductions: add %d/%d min %d/%d max %d/%d and %#x/%#x or %#x/%#x xor %#x/%#x "
                  "odd add %d/%d odd min %d/%d\n",
                  w, g.add, want.add, g.min, want.min, g.max, want.max, g.and_bits, want.and_bits, g.or_bits,
                  want.or_bits, g.xor_bits, want.xor_bits, g.odd_add, want.odd_add, g.odd_min, want.odd_min);
      ++failures;
      break;
    }
  }
  CHECK(cudaFree(reductions));

  Totals start{};
  start.min = 1 << 30;
  start.max = -(1 << 30);
  start.countdown = 1000000u;
  start.and_bits = 0xffffffffu;
  start.fmax = -1e30f;
  CHECK(cudaMemcpy(totals, &start, sizeof start, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(claimed, 0, 256 * sizeof(int)));
  everyAtomic<<<(n + 127) / 128, 128>>>(in, n, totals, claimed);
  CHECK(cudaGetLastError());
  Totals t{};
  CHECK(cudaMemcpy(&t, totals, sizeof t, cudaMemcpyDeviceToHost));

  Totals want = start;
  std::vector<bool> slot(256, false);
  int claims = 0;
  for (int i = 0; i < n; ++i) {
    const int v = host[i];
    want.sum += v;
    want.diff -= v;
    want.last = 7;
    want.min = std::min(want.min, v);
    want.max = std::max(want.max, v);
    want.ring = want.ring >= 99u ? 0u : want.ring + 1;
    want.countdown = (want.countdown == 0 || want.countdown > 1000000u) ? 1000000u : want.countdown - 1;
    want.and_bits &= ~(1u << (i % 32));
    want.or_bits |= 1u << (v & 31);
    want.xor_bits ^= static_cast<unsigned>(v);
    if (!slot[v & 255]) {
      slot[v & 255] = true;
      ++claims;
    }
    want.fmax = std::max(want.fmax, static_cast<float>(v) * 0.5f);
  }
  want.cas_claims = claims;
  if (t.sum != want.sum || t.diff != want.diff || t.last != want.last || t.min != want.min || t.max != want.max ||
      t.ring != want.ring || t.countdown != want.countdown || t.and_bits != want.and_bits ||
      t.or_bits != want.or_bits || t.xor_bits != want.xor_bits || t.cas_claims != want.cas_claims ||
      t.fmax != want.fmax) {
    std::printf("FAIL atomics: sum %d/%d diff %d/%d min %d/%d max %d/%d ring %u/%u countdown %u/%u and %#x/%#x "
                "or %#x/%#x xor %#x/%#x claims %d/%d fmax %g/%g\n",
                t.sum, want.sum, t.diff, want.diff, t.min, want.min, t.max, want.max, t.ring, want.ring, t.countdown,
                want.countdown, t.and_bits, want.and_bits, t.or_bits, want.or_bits, t.xor_bits, want.xor_bits,
                t.cas_claims, want.cas_claims, t.fmax, want.fmax);
    ++failures;
  }

  CHECK(cudaFree(in));
  CHECK(cudaFree(votes));
  CHECK(cudaFree(totals));
  CHECK(cudaFree(claimed));
  if (failures != 0) return 1;
  std::printf("PASSED\n");
  return 0;
}
