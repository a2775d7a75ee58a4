// CUB's block- and warp-wide collectives in kernels, as programs use them, self-checking:
// BlockReduce (Sum, Reduce with an operator, a partial block, items per thread), BlockScan (inclusive
// and exclusive sums and scans, block aggregates, a prefix callback carried across tiles, items per
// thread), BlockLoad and BlockStore (direct, striped and transpose, a partial tile with a default),
// BlockRadixSort (keys, pairs, descending, a bit range, blocked to striped, negative and floating-point
// keys), BlockExchange (striped and warp-striped to blocked), BlockDiscontinuity (heads, tails), WarpReduce and WarpScan (full and logical warps of 8, segmented reductions), with their
// TempStorage in shared memory and a __syncthreads() before each reuse, as CUB asks. The block-wide
// collectives also run in blocks of 80 threads, whose last warp is short. Each result is compared
// with the same computation on the host, on fresh random inputs. Built unchanged by nvcc for a GPU
// and by gpulab-simcc for the simulator.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include "library_checks.h"

namespace {

std::mt19937 rng(std::random_device{}());

std::vector<int> random_ints(std::size_t n, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}


struct MaxOp {
  __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

// ---- BlockReduce -------------------------------------------------------------------------------------
template <int THREADS, int ITEMS>
__global__ void block_reduce(const int* in, int* sums, int* maxima, int* partial, int valid) {
  using Reduce = cub::BlockReduce<int, THREADS>;
  __shared__ typename Reduce::TempStorage temp;
  int items[ITEMS];
  const int base = blockIdx.x * THREADS * ITEMS;
  for (int i = 0; i < ITEMS; ++i) items[i] = in[base + threadIdx.x * ITEMS + i];
  const int sum = Reduce(temp).Sum(items);
  __syncthreads();
  const int max = Reduce(temp).Reduce(items[0], MaxOp());
  __syncthreads();
  const int part = Reduce(temp).Sum(items[0], valid);
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = sum;
    maxima[blockIdx.x] = max;
    partial[blockIdx.x] = part;
  }
}

template <int THREADS, int ITEMS>
void check_block_reduce(int blocks, int valid) {
  const int per_block = THREADS * ITEMS;
  const auto h = random_ints(static_cast<std::size_t>(blocks) * per_block, -1000, 1000);
  int* in = to_device(h);
  int *sums = poisoned_device<int>(blocks), *maxima = poisoned_device<int>(blocks), *partial = poisoned_device<int>(blocks);
  block_reduce<THREADS, ITEMS><<<blocks, THREADS>>>(in, sums, maxima, partial, valid);
  CHECK(cudaGetLastError());
  const auto s = to_host(sums, blocks), m = to_host(maxima, blocks), p = to_host(partial, blocks);
  for (int b = 0; b < blocks; ++b) {
    const int* x = h.data() + b * per_block;
    int want_max = x[0], want_part = 0;
    for (int t = 0; t < THREADS; ++t) {
      want_max = std::max(want_max, x[t * ITEMS]);
      if (t < valid) want_part += x[t * ITEMS];
    }
    EXPECT(s[b] == std::accumulate(x, x + per_block, 0), "BlockReduce<%d> Sum of %d items per thread, block %d", THREADS, ITEMS, b);
    EXPECT(m[b] == want_max, "BlockReduce<%d> Reduce(max), block %d: %d, not %d", THREADS, b, m[b], want_max);
    EXPECT(p[b] == want_part, "BlockReduce<%d> Sum of the first %d threads, block %d", THREADS, valid, b);
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(sums));
  CHECK(cudaFree(maxima));
  CHECK(cudaFree(partial));
}

// ---- BlockScan ---------------------------------------------------------------------------------------
// Carries a running total across the tiles a block scans, as CUB's callback examples do.
struct RunningPrefix {
  int total;
  __device__ int operator()(int block_aggregate) {
    const int old = total;
    total += block_aggregate;
    return old;
  }
};

template <int THREADS, int ITEMS>
__global__ void block_scan(const int* in, int* inclusive, int* exclusive, int* max_scan, int* aggregates,
                           int* carried, int tiles) {
  using Scan = cub::BlockScan<int, THREADS>;
  __shared__ typename Scan::TempStorage temp;
  const int tile = THREADS * ITEMS;
  int items[ITEMS], out[ITEMS];
  for (int i = 0; i < ITEMS; ++i) items[i] = in[threadIdx.x * ITEMS + i];
  int aggregate;
  Scan(temp).InclusiveSum(items, out, aggregate);
  for (int i = 0; i < ITEMS; ++i) inclusive[threadIdx.x * ITEMS + i] = out[i];
  __syncthreads();
  Scan(temp).ExclusiveSum(items, out);
  for (int i = 0; i < ITEMS; ++i) exclusive[threadIdx.x * ITEMS + i] = out[i];
  __syncthreads();
  int one;
  Scan(temp).InclusiveScan(items[0], one, MaxOp());
  max_scan[threadIdx.x] = one;
  if (threadIdx.x == 0) aggregates[0] = aggregate;
  __syncthreads();
  // Every tile of `tiles`, one item per thread, with the running prefix.
  RunningPrefix prefix{0};
  for (int t = 0; t < tiles; ++t) {
    int x = in[t * THREADS + threadIdx.x], y;
    Scan(temp).ExclusiveSum(x, y, prefix);
    carried[t * THREADS + threadIdx.x] = y;
    __syncthreads();
  }
  (void)tile;
}

template <int THREADS, int ITEMS>
void check_block_scan(int tiles) {
  const int n = THREADS * ITEMS;
  const int total = std::max(n, tiles * THREADS);
  const auto h = random_ints(total, -50, 50);
  int* in = to_device(h);
  int *inc = poisoned_device<int>(n), *exc = poisoned_device<int>(n), *mx = poisoned_device<int>(THREADS);
  int *agg = poisoned_device<int>(1), *carried = poisoned_device<int>(tiles * THREADS);
  block_scan<THREADS, ITEMS><<<1, THREADS>>>(in, inc, exc, mx, agg, carried, tiles);
  CHECK(cudaGetLastError());
  const auto hi = to_host(inc, n), he = to_host(exc, n), hm = to_host(mx, THREADS), hc = to_host(carried, tiles * THREADS);
  std::vector<int> want(n);
  std::inclusive_scan(h.begin(), h.begin() + n, want.begin());
  EXPECT(hi == want, "BlockScan<%d> InclusiveSum of %d items per thread", THREADS, ITEMS);
  EXPECT(to_host(agg, 1)[0] == want[n - 1], "BlockScan<%d> block aggregate", THREADS);
  std::exclusive_scan(h.begin(), h.begin() + n, want.begin(), 0);
  EXPECT(he == want, "BlockScan<%d> ExclusiveSum of %d items per thread", THREADS, ITEMS);
  int running = h[0];
  bool ok = true;
  for (int t = 0; t < THREADS; ++t) {
    running = std::max(running, h[t * ITEMS]);
    ok = ok && hm[t] == running;
  }
  EXPECT(ok, "BlockScan<%d> InclusiveScan with max", THREADS);
  std::vector<int> want_carried(tiles * THREADS);
  std::exclusive_scan(h.begin(), h.begin() + tiles * THREADS, want_carried.begin(), 0);
  EXPECT(hc == want_carried, "BlockScan<%d> ExclusiveSum with a prefix callback over %d tiles", THREADS, tiles);
  for (int* p : {in, inc, exc, mx, agg, carried}) CHECK(cudaFree(p));
}

// ---- BlockLoad and BlockStore -------------------------------------------------------------------------
template <int THREADS, int ITEMS, cub::BlockLoadAlgorithm LOAD, cub::BlockStoreAlgorithm STORE>
__global__ void load_store(const int* in, int* out, int* first_items, int valid) {
  using Load = cub::BlockLoad<int, THREADS, ITEMS, LOAD>;
  using Store = cub::BlockStore<int, THREADS, ITEMS, STORE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
  } temp;
  int items[ITEMS];
  Load(temp.load).Load(in, items, valid, -1);
  first_items[threadIdx.x] = items[0];
  __syncthreads();
  Store(temp.store).Store(out, items, valid);
}

template <int THREADS, int ITEMS, cub::BlockLoadAlgorithm LOAD, cub::BlockStoreAlgorithm STORE>
void check_load_store(const char* name, bool striped) {
  const int n = THREADS * ITEMS, valid = n - 5;
  const auto h = random_ints(n, 0, 1 << 20);
  int* in = to_device(h);
  int *out = poisoned_device<int>(n), *first = poisoned_device<int>(THREADS);
  load_store<THREADS, ITEMS, LOAD, STORE><<<1, THREADS>>>(in, out, first, valid);
  CHECK(cudaGetLastError());
  const auto ho = to_host(out, n), hf = to_host(first, THREADS);
  bool round_trip = true, arrangement = true;
  for (int i = 0; i < valid; ++i) round_trip = round_trip && ho[i] == h[i];
  for (int i = valid; i < n; ++i) round_trip = round_trip && ho[i] == static_cast<int>(0xA5A5A5A5u);  // untouched
  for (int t = 0; t < THREADS; ++t) {
    const int at = striped ? t : t * ITEMS;
    arrangement = arrangement && hf[t] == (at < valid ? h[at] : -1);
  }
  EXPECT(round_trip, "%s: load then store of %d of %d items", name, valid, n);
  EXPECT(arrangement, "%s: each thread's first item", name);
  for (int* p : {in, out, first}) CHECK(cudaFree(p));
}

// ---- BlockRadixSort ----------------------------------------------------------------------------------
template <int THREADS, int ITEMS>
__global__ void radix_sort(int* keys, int* values, float* fkeys, int* striped, int* bits_sorted) {
  using Sort = cub::BlockRadixSort<int, THREADS, ITEMS, int>;
  using SortF = cub::BlockRadixSort<float, THREADS, ITEMS>;
  using SortK = cub::BlockRadixSort<int, THREADS, ITEMS>;
  __shared__ union {
    typename Sort::TempStorage pairs;
    typename SortF::TempStorage floats;
    typename SortK::TempStorage keys;
  } temp;
  int k[ITEMS], v[ITEMS], s[ITEMS], b[ITEMS];
  float f[ITEMS];
  for (int i = 0; i < ITEMS; ++i) {
    const int at = threadIdx.x * ITEMS + i;
    k[i] = keys[at];
    v[i] = values[at];
    f[i] = fkeys[at];
    s[i] = k[i];
    b[i] = k[i];
  }
  Sort(temp.pairs).Sort(k, v);
  __syncthreads();
  SortF(temp.floats).SortDescending(f);
  __syncthreads();
  SortK(temp.keys).SortBlockedToStriped(s);
  __syncthreads();
  SortK(temp.keys).Sort(b, 4, 12);  // only bits 4..11
  for (int i = 0; i < ITEMS; ++i) {
    const int at = threadIdx.x * ITEMS + i;
    keys[at] = k[i];
    values[at] = v[i];
    fkeys[at] = f[i];
    striped[i * THREADS + threadIdx.x] = s[i];
    bits_sorted[at] = b[i];
  }
}

template <int THREADS, int ITEMS>
void check_radix_sort() {
  const int n = THREADS * ITEMS;
  const auto hk = random_ints(n, -300, 300);  // negative keys and many equal ones
  std::vector<int> hv(n);
  std::iota(hv.begin(), hv.end(), 0);
  std::vector<float> hf(n);
  std::uniform_real_distribution<float> fd(-100.0f, 100.0f);
  for (auto& x : hf) x = fd(rng);
  hf[0] = -0.0f;
  hf[1] = 0.0f;
  int *k = to_device(hk), *v = to_device(hv), *striped = poisoned_device<int>(n), *bits = poisoned_device<int>(n);
  float* f = to_device(hf);
  radix_sort<THREADS, ITEMS><<<1, THREADS>>>(k, v, f, striped, bits);
  CHECK(cudaGetLastError());
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return hk[a] < hk[b]; });
  std::vector<int> want_k(n);
  for (int i = 0; i < n; ++i) want_k[i] = hk[order[i]];
  EXPECT(to_host(k, n) == want_k, "BlockRadixSort<%d, %d> keys", THREADS, ITEMS);
  EXPECT(to_host(v, n) == order, "BlockRadixSort<%d, %d> values follow their keys, stably", THREADS, ITEMS);
  EXPECT(to_host(striped, n) == want_k, "BlockRadixSort<%d, %d> SortBlockedToStriped", THREADS, ITEMS);
  std::vector<float> want_f = hf;
  std::stable_sort(want_f.begin(), want_f.end(), std::greater<float>());
  const auto got_f = to_host(f, n);
  EXPECT(std::memcmp(got_f.data(), want_f.data(), n * sizeof(float)) == 0 || got_f == want_f,
         "BlockRadixSort<float> SortDescending");
  std::vector<int> want_bits = hk;
  std::stable_sort(want_bits.begin(), want_bits.end(), [](int a, int b) {
    return ((static_cast<unsigned>(a) ^ 0x80000000u) >> 4 & 0xff) < ((static_cast<unsigned>(b) ^ 0x80000000u) >> 4 & 0xff);
  });
  EXPECT(to_host(bits, n) == want_bits, "BlockRadixSort on bits [4, 12)");
  CHECK(cudaFree(k));
  CHECK(cudaFree(v));
  CHECK(cudaFree(f));
  CHECK(cudaFree(striped));
  CHECK(cudaFree(bits));
}

// ---- BlockExchange and BlockDiscontinuity ----------------------------------------------------------
struct NotEqual {
  __host__ __device__ bool operator()(int a, int b) const { return a != b; }
};

template <int THREADS, int ITEMS>
__global__ void exchange_discontinuity(const int* in, int* blocked, int* warp_blocked, int* heads, int* tails) {
  using Exchange = cub::BlockExchange<int, THREADS, ITEMS>;
  using Discontinuity = cub::BlockDiscontinuity<int, THREADS>;
  __shared__ union {
    typename Exchange::TempStorage exchange;
    typename Discontinuity::TempStorage discontinuity;
  } temp;
  int items[ITEMS], flags[ITEMS];
  for (int i = 0; i < ITEMS; ++i) items[i] = in[i * THREADS + threadIdx.x];  // striped
  Exchange(temp.exchange).StripedToBlocked(items);
  for (int i = 0; i < ITEMS; ++i) blocked[threadIdx.x * ITEMS + i] = items[i];
  __syncthreads();
  int warp_items[ITEMS];
  const int lane = threadIdx.x % 32, warp_base = (threadIdx.x / 32) * 32 * ITEMS;
  for (int i = 0; i < ITEMS; ++i) warp_items[i] = in[warp_base + i * 32 + lane];  // warp-striped
  Exchange(temp.exchange).WarpStripedToBlocked(warp_items, warp_items);
  for (int i = 0; i < ITEMS; ++i) warp_blocked[threadIdx.x * ITEMS + i] = warp_items[i];
  __syncthreads();
  Discontinuity(temp.discontinuity).FlagHeads(flags, items, NotEqual());
  for (int i = 0; i < ITEMS; ++i) heads[threadIdx.x * ITEMS + i] = flags[i];
  __syncthreads();
  Discontinuity(temp.discontinuity).FlagTails(flags, items, NotEqual(), items[ITEMS - 1] + 1);
  for (int i = 0; i < ITEMS; ++i) tails[threadIdx.x * ITEMS + i] = flags[i];
}

template <int THREADS, int ITEMS>
void check_exchange_discontinuity() {
  const int n = THREADS * ITEMS;
  const auto h = random_ints(n, 0, 3);  // runs of equal items
  int *in = to_device(h), *blocked = poisoned_device<int>(n), *warp_blocked = poisoned_device<int>(n);
  int *heads = poisoned_device<int>(n), *tails = poisoned_device<int>(n);
  exchange_discontinuity<THREADS, ITEMS><<<1, THREADS>>>(in, blocked, warp_blocked, heads, tails);
  CHECK(cudaGetLastError());
  EXPECT(to_host(blocked, n) == h, "BlockExchange<%d, %d> StripedToBlocked", THREADS, ITEMS);
  EXPECT(to_host(warp_blocked, n) == h, "BlockExchange<%d, %d> WarpStripedToBlocked", THREADS, ITEMS);
  std::vector<int> want_heads(n), want_tails(n);
  for (int i = 0; i < n; ++i) {
    want_heads[i] = i == 0 || h[i] != h[i - 1];
    want_tails[i] = i == n - 1 || h[i] != h[i + 1];
  }
  EXPECT(to_host(heads, n) == want_heads, "BlockDiscontinuity<%d> FlagHeads", THREADS);
  EXPECT(to_host(tails, n) == want_tails, "BlockDiscontinuity<%d> FlagTails with a tile successor", THREADS);
  for (int* p : {in, blocked, warp_blocked, heads, tails}) CHECK(cudaFree(p));
}

// ---- WarpReduce and WarpScan -------------------------------------------------------------------------
template <int THREADS>
__global__ void warp_collectives(const int* in, int* warp_sums, int* logical_sums, int* scans, int* excl,
                                 int* head_sums, const int* heads) {
  constexpr int kWarps = (THREADS + 31) / 32;
  using Reduce = cub::WarpReduce<int>;
  using Reduce8 = cub::WarpReduce<int, 8>;
  using Scan = cub::WarpScan<int>;
  __shared__ typename Reduce::TempStorage reduce_temp[kWarps];
  __shared__ typename Reduce8::TempStorage reduce8_temp[THREADS / 8 + 1];
  __shared__ typename Scan::TempStorage scan_temp[kWarps];
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int x = in[tid];
  const int lanes = THREADS - warp * 32 < 32 ? THREADS - warp * 32 : 32;
  const int sum = Reduce(reduce_temp[warp]).Sum(x, lanes);
  if (lane == 0) warp_sums[warp] = sum;
  const int sum8 = Reduce8(reduce8_temp[tid / 8]).Sum(x);
  if (tid % 8 == 0) logical_sums[tid / 8] = sum8;
  int inclusive, exclusive;
  Scan(scan_temp[warp]).InclusiveSum(x, inclusive);
  scans[tid] = inclusive;
  Scan(scan_temp[warp]).ExclusiveScan(x, exclusive, 100, MaxOp());
  excl[tid] = exclusive;
  const int seg = Reduce(reduce_temp[warp]).HeadSegmentedSum(x, heads[tid]);
  head_sums[tid] = seg;
}

template <int THREADS>
void check_warp_collectives() {
  constexpr int kWarps = (THREADS + 31) / 32;
  const auto h = random_ints(THREADS, -100, 100);
  auto flags = random_ints(THREADS, 0, 3);
  for (auto& f : flags) f = f == 0;  // a segment head one time in four
  int *in = to_device(h), *heads = to_device(flags);
  int *ws = poisoned_device<int>(kWarps), *ls = poisoned_device<int>(THREADS / 8), *sc = poisoned_device<int>(THREADS);
  int *ex = poisoned_device<int>(THREADS), *hs = poisoned_device<int>(THREADS);
  warp_collectives<THREADS><<<1, THREADS>>>(in, ws, ls, sc, ex, hs, heads);
  CHECK(cudaGetLastError());
  const auto hws = to_host(ws, kWarps), hls = to_host(ls, THREADS / 8), hsc = to_host(sc, THREADS);
  const auto hex = to_host(ex, THREADS), hhs = to_host(hs, THREADS);
  bool sums = true, sums8 = true, scans = true, exclusive = true, heads_ok = true;
  for (int w = 0; w < kWarps; ++w) {
    const int begin = w * 32, end = std::min(THREADS, begin + 32);
    sums = sums && hws[w] == std::accumulate(h.begin() + begin, h.begin() + end, 0);
    int running = 0, running_max = 100;
    for (int t = begin; t < end; ++t) {
      running += h[t];
      scans = scans && hsc[t] == running;
      exclusive = exclusive && hex[t] == running_max;
      running_max = std::max(running_max, h[t]);
      if (t == begin || flags[t]) {
        int seg = 0;
        for (int u = t; u < end && (u == t || !flags[u]); ++u) seg += h[u];
        heads_ok = heads_ok && hhs[t] == seg;
      }
    }
  }
  for (int g = 0; g < THREADS / 8; ++g) sums8 = sums8 && hls[g] == std::accumulate(h.begin() + g * 8, h.begin() + g * 8 + 8, 0);
  EXPECT(sums, "WarpReduce Sum in blocks of %d threads", THREADS);
  EXPECT(sums8, "WarpReduce<int, 8> Sum in blocks of %d threads", THREADS);
  EXPECT(scans, "WarpScan InclusiveSum in blocks of %d threads", THREADS);
  EXPECT(exclusive, "WarpScan ExclusiveScan(max, 100) in blocks of %d threads", THREADS);
  EXPECT(heads_ok, "WarpReduce HeadSegmentedSum in blocks of %d threads", THREADS);
  for (int* p : {in, heads, ws, ls, sc, ex, hs}) CHECK(cudaFree(p));
}

}  // namespace

int main() {
  CHECK(cudaFree(nullptr));
  check_block_reduce<128, 1>(3, 77);
  check_block_reduce<96, 4>(2, 41);
  check_block_reduce<80, 3>(1, 80);
  check_block_scan<128, 3>(5);
  check_block_scan<96, 1>(3);
  check_block_scan<80, 2>(1);
  check_load_store<64, 4, cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>("direct", false);
  check_load_store<64, 4, cub::BLOCK_LOAD_STRIPED, cub::BLOCK_STORE_STRIPED>("striped", true);
  check_load_store<96, 3, cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>("transpose", false);
  check_load_store<64, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>("warp transpose", false);
  check_radix_sort<128, 4>();
  check_radix_sort<96, 3>();
  check_exchange_discontinuity<128, 3>();
  check_exchange_discontinuity<64, 5>();
  check_warp_collectives<96>();  // warp collectives want whole warps, as CUB's do
  check_warp_collectives<128>();
  CHECK(cudaDeviceSynchronize());
  std::printf("%s (%d failures)\n", failures == 0 ? "PASSED" : "FAILED", failures);
  return failures == 0 ? 0 : 1;
}
