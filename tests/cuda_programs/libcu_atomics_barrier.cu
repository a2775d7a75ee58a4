// libcu++'s synchronisation on the simulator as on a GPU: cuda::atomic_ref and cuda::std::atomic_ref
// counters at block and device scope (fetch_add, fetch_min/max, exchange, compare_exchange, load/store
// with memory orders), a __shared__ cuda::atomic handing out tickets, a __shared__ cuda::barrier with a
// completion function driving a staged computation (arrive_and_wait, arrive + wait(token),
// arrive_and_drop), a block-wide cuda::memcpy_async to a barrier, a double-buffered copy through a
// thread-scope cuda::pipeline, and block-scope pipelines over a __shared__ cuda::pipeline_shared_state:
// one warp producing tiles for two consumer warps (pipeline_role), and every thread both. Random inputs, odd sizes, outputs poisoned; checked exactly on the host.
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/std/atomic>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

namespace cg = cooperative_groups;

constexpr int kBins = 29;
constexpr int kMaxBlock = 128;

struct Stats {
  unsigned long long total;  // cuda::std::atomic_ref (system scope)
  int lowest, highest;       // fetch_min / fetch_max at device scope
  unsigned cas_sum;          // compare_exchange_weak loop
  int last;                  // exchange chain: returned + left = initial + stored
  long long exchanged;
};

// Histogram through block-scope atomic_ref on shared bins, merged with device-scope atomic_ref; tickets
// from a __shared__ cuda::atomic give each thread a distinct slot.
__global__ void countWithAtomicRefs(const int* values, int n, unsigned* bins, Stats* stats, int* slot_owner) {
  __shared__ unsigned local[kBins];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::atomic<int, cuda::thread_scope_block> ticket;
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  if (threadIdx.x == 0) ticket.store(0, cuda::std::memory_order_relaxed);
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int v = values[i];
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> bin(local[v % kBins]);
    bin.fetch_add(1u, cuda::std::memory_order_relaxed);
    cuda::std::atomic_ref<unsigned long long> total(stats->total);
    total.fetch_add(static_cast<unsigned long long>(v));
    cuda::atomic_ref<int, cuda::thread_scope_device> lowest(stats->lowest), highest(stats->highest);
    lowest.fetch_min(v, cuda::std::memory_order_relaxed);
    highest.fetch_max(v, cuda::std::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> cas_sum(stats->cas_sum);
    unsigned expected = cas_sum.load(cuda::std::memory_order_relaxed);
    while (!cas_sum.compare_exchange_weak(expected, expected + static_cast<unsigned>(v) * 3u,
                                          cuda::std::memory_order_acq_rel, cuda::std::memory_order_relaxed)) {
    }
    cuda::atomic_ref<int, cuda::thread_scope_device> last(stats->last);
    const int before = last.exchange(v);
    cuda::atomic_ref<long long, cuda::thread_scope_device>(stats->exchanged).fetch_add(before);
    const int my_ticket = ticket.fetch_add(1);
    slot_owner[blockIdx.x * blockDim.x + my_ticket] = threadIdx.x;
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(bins[b]).fetch_add(local[b], cuda::std::memory_order_relaxed);
  }
}

// Counts the barrier's completed phases (run by the last arrival of each phase).
struct CountPhases {
  int* phases;
  __device__ void operator()() noexcept { ++*phases; }
};

// Four phases of one block barrier: all threads twice (arrive_and_wait, then arrive + wait(token)), then
// the odd threads leave with arrive_and_drop, then the even threads alone.
__global__ void stagedNeighbours(const int* in, int n, int* out, int* phase_counts) {
  __shared__ int s[kMaxBlock], u[kMaxBlock];
  __shared__ int phases;
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block, CountPhases> bar;
  const int t = threadIdx.x, B = blockDim.x;
  if (t == 0) {
    phases = 0;
    init(&bar, B, CountPhases{&phases});
  }
  __syncthreads();
  const int i = blockIdx.x * B + t;
  s[t] = i < n ? in[i] : 1;
  bar.arrive_and_wait();                            // phase 1
  u[t] = s[t] + s[(t + 1) % B];
  cuda::barrier<cuda::thread_scope_block, CountPhases>::arrival_token token = bar.arrive();  // phase 2
  const int mine = s[t] * 3;  // reads of s only: may run before the others arrive
  bar.wait(std::move(token));
  if (t % 2 == 1) {
    if (i < n) out[i] = u[t] - u[(t + B - 1) % B] + mine;
    bar.arrive_and_drop();                          // phase 3, and gone from phase 4
    return;
  }
  const int v = u[t] + u[(t + 1) % B];
  bar.arrive_and_wait();                            // phase 3
  s[t] = v;
  bar.arrive_and_wait();                            // phase 4: the even threads only
  const int next_even = t + 2 < B ? t + 2 : 0;
  if (i < n) out[i] = s[t] + s[next_even] + mine;
  if (t == 0) phase_counts[blockIdx.x] = phases;
}

// Tiles of the input copied into shared memory by the whole block with memcpy_async to a barrier.
__global__ void tileNeighbours(const float* in, int n, float* out) {
  __shared__ float tile[kMaxBlock * 4];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  const int per_tile = static_cast<int>(blockDim.x) * 4;
  for (int base = blockIdx.x * per_tile; base < n; base += gridDim.x * per_tile) {
    const int len = n - base < per_tile ? n - base : per_tile;
    cuda::memcpy_async(block, tile, in + base, sizeof(float) * len, bar);
    bar.arrive_and_wait();
    for (int j = threadIdx.x; j < len; j += blockDim.x) out[base + j] = tile[j] + tile[(j + 1) % len];
    bar.arrive_and_wait();  // everyone is done with the tile before the next copy overwrites it
  }
}

// Each thread streams its float4s through two stages of its own pipeline: the copy of the next one is
// issued before the current one is consumed.
__global__ void pipelinedSums(const float4* in, int quads, float* out) {
  __shared__ float4 stage[2][kMaxBlock];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  const int first = blockIdx.x * blockDim.x + t, stride = gridDim.x * blockDim.x;
  float sum = 0.0f;
  if (first < quads) {
    pipe.producer_acquire();
    cuda::memcpy_async(&stage[0][t], &in[first], cuda::aligned_size_t<16>(sizeof(float4)), pipe);
    pipe.producer_commit();
  }
  int k = 0;
  for (int q = first; q < quads; q += stride, ++k) {
    if (q + stride < quads) {
      pipe.producer_acquire();
      cuda::memcpy_async(&stage[(k + 1) % 2][t], &in[q + stride], cuda::aligned_size_t<16>(sizeof(float4)), pipe);
      pipe.producer_commit();
    }
    if (q + stride < quads) {
      cuda::pipeline_consumer_wait_prior<1>(pipe);  // all but the newest stage are complete
    } else {
      cuda::pipeline_consumer_wait_prior<0>(pipe);
    }
    const float4 x = stage[k % 2][t];
    sum += x.x + x.y + x.z + x.w;
    pipe.consumer_release();
  }
  if (first < stride) out[first] = sum;
}

// A block of 96 threads: with `partitioned`, warp 2 copies tile after tile of ints into a ring of
// kRing stages and warps 0-1 consume them (each thread weighting its element by the tile's number);
// without, every thread copies its own element of each tile and every thread consumes.
constexpr int kRing = 3, kRingTile = 64;
template <bool partitioned>
__global__ void ringSums(const int* in, int tiles, long long* out) {
  __shared__ int ring[kRing][kRingTile];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kRing> state;
  auto block = cooperative_groups::this_thread_block();
  const bool producer = partitioned ? threadIdx.x >= kRingTile : true;
  auto pipe = partitioned ? cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer
                                                                        : cuda::pipeline_role::consumer)
                          : cuda::make_pipeline(block, &state);
  const int* base = in + static_cast<long long>(blockIdx.x) * tiles * kRingTile;
  long long sum = 0;
  for (int t = 0; t < tiles; ++t) {
    const int s = t % kRing;
    if (producer) {
      pipe.producer_acquire();
      const int first = partitioned ? static_cast<int>(threadIdx.x) - kRingTile : static_cast<int>(threadIdx.x);
      const int step = partitioned ? 32 : static_cast<int>(blockDim.x);
      for (int k = first; k < kRingTile; k += step) cuda::memcpy_async(&ring[s][k], &base[t * kRingTile + k], sizeof(int), pipe);
      pipe.producer_commit();
    }
    if (!partitioned || !producer) {
      pipe.consumer_wait();
      sum += static_cast<long long>(ring[s][threadIdx.x % kRingTile]) * (t + 1);
      pipe.consumer_release();
    }
  }
  if (threadIdx.x < kRingTile) out[blockIdx.x * kRingTile + threadIdx.x] = sum;
}

static int failures = 0;
static void expect(bool ok, const char* what, long long got, long long want) {
  if (!ok && ++failures <= 10) std::printf("FAIL %s: %lld, expected %lld\n", what, got, want);
}

int main() {
  std::mt19937 rng(1206);
  std::uniform_int_distribution<int> pick(1, 100000);

  // ---- atomic_ref counters ----
  const int threads = 97, blocks = 23;
  const int n = threads * blocks - 40;
  std::vector<int> values(n);
  for (int& v : values) v = pick(rng);
  int *d_values, *d_owner;
  unsigned* d_bins;
  Stats* d_stats;
  CHECK(cudaMalloc(&d_values, n * sizeof(int)));
  CHECK(cudaMalloc(&d_owner, threads * blocks * sizeof(int)));
  CHECK(cudaMalloc(&d_bins, kBins * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_stats, sizeof(Stats)));
  CHECK(cudaMemcpy(d_values, values.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_owner, 0xFF, threads * blocks * sizeof(int)));
  CHECK(cudaMemset(d_bins, 0, kBins * sizeof(unsigned)));
  const Stats start{5, 1 << 30, -(1 << 30), 7u, -9, 0};
  CHECK(cudaMemcpy(d_stats, &start, sizeof start, cudaMemcpyHostToDevice));
  countWithAtomicRefs<<<blocks, threads>>>(d_values, n, d_bins, d_stats, d_owner);
  CHECK(cudaGetLastError());

  // ---- staged neighbours through a barrier ----
  std::vector<int> staged_in(n);
  for (int& v : staged_in) v = pick(rng) % 1000 + 1;
  int *d_staged_in, *d_staged_out, *d_phases;
  CHECK(cudaMalloc(&d_staged_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_staged_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_phases, blocks * sizeof(int)));
  CHECK(cudaMemcpy(d_staged_in, staged_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_staged_out, 0xFF, n * sizeof(int)));
  CHECK(cudaMemset(d_phases, 0xFF, blocks * sizeof(int)));
  stagedNeighbours<<<blocks, threads>>>(d_staged_in, n, d_staged_out, d_phases);
  CHECK(cudaGetLastError());

  // ---- tiles by memcpy_async to a barrier ----
  const int tile_threads = 75, tile_blocks = 3;
  const int m = 4001;
  std::vector<float> floats(m);
  for (float& f : floats) f = static_cast<float>(pick(rng) % 512 + 1);
  float *d_floats, *d_tiles;
  CHECK(cudaMalloc(&d_floats, m * sizeof(float)));
  CHECK(cudaMalloc(&d_tiles, m * sizeof(float)));
  CHECK(cudaMemcpy(d_floats, floats.data(), m * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_tiles, 0xFF, m * sizeof(float)));
  tileNeighbours<<<tile_blocks, tile_threads>>>(d_floats, m, d_tiles);
  CHECK(cudaGetLastError());

  // ---- pipelined float4 sums ----
  const int quads = 1237, pipe_threads = 96, pipe_blocks = 5;
  std::vector<float4> quad_in(quads);
  for (float4& q : quad_in) {
    q = make_float4(static_cast<float>(pick(rng) % 256), static_cast<float>(pick(rng) % 256),
                    static_cast<float>(pick(rng) % 256), static_cast<float>(pick(rng) % 256 + 1));
  }
  float4* d_quads;
  float* d_quad_sums;
  const int lanes = pipe_threads * pipe_blocks;
  CHECK(cudaMalloc(&d_quads, quads * sizeof(float4)));
  CHECK(cudaMalloc(&d_quad_sums, lanes * sizeof(float)));
  CHECK(cudaMemcpy(d_quads, quad_in.data(), quads * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_quad_sums, 0xFF, lanes * sizeof(float)));
  pipelinedSums<<<pipe_blocks, pipe_threads>>>(d_quads, quads, d_quad_sums);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  // ---- check: atomic_ref counters ----
  std::vector<unsigned> bins(kBins);
  std::vector<int> owner(threads * blocks);
  Stats got;
  CHECK(cudaMemcpy(bins.data(), d_bins, kBins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(owner.data(), d_owner, owner.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&got, d_stats, sizeof got, cudaMemcpyDeviceToHost));
  std::vector<unsigned> want_bins(kBins, 0);
  unsigned long long total = start.total;
  int lowest = start.lowest, highest = start.highest;
  unsigned cas_sum = start.cas_sum;
  long long exchange_in = start.last;
  for (int v : values) {
    ++want_bins[v % kBins];
    total += static_cast<unsigned long long>(v);
    lowest = std::min(lowest, v);
    highest = std::max(highest, v);
    cas_sum += static_cast<unsigned>(v) * 3u;
    exchange_in += v;
  }
  for (int b = 0; b < kBins; ++b) expect(bins[b] == want_bins[b], "histogram bin", bins[b], want_bins[b]);
  expect(got.total == total, "cuda::std::atomic_ref total", static_cast<long long>(got.total), static_cast<long long>(total));
  expect(got.lowest == lowest, "fetch_min", got.lowest, lowest);
  expect(got.highest == highest, "fetch_max", got.highest, highest);
  expect(got.cas_sum == cas_sum, "compare_exchange_weak sum", got.cas_sum, cas_sum);
  expect(got.exchanged + got.last == exchange_in, "exchange chain", got.exchanged + got.last, exchange_in);
  for (int b = 0; b < blocks; ++b) {
    const int active = std::min(threads, n - b * threads);
    std::vector<bool> seen(threads, false);
    for (int k = 0; k < threads; ++k) {
      const int o = owner[b * threads + k];
      if (k < active) {
        const bool fresh = o >= 0 && o < active && !seen[o];
        expect(fresh, "ticket slots hold each active thread once", o, k);
        if (fresh) seen[o] = true;
      } else {
        expect(o == -1, "ticket slot past the active threads untouched", o, -1);
      }
    }
  }

  // ---- check: staged neighbours ----
  std::vector<int> staged_out(n), phase_counts(blocks);
  CHECK(cudaMemcpy(staged_out.data(), d_staged_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(phase_counts.data(), d_phases, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    const int B = threads;
    std::vector<int> s(B), u(B), v(B);
    for (int t = 0; t < B; ++t) s[t] = b * B + t < n ? staged_in[b * B + t] : 1;
    for (int t = 0; t < B; ++t) u[t] = s[t] + s[(t + 1) % B];
    for (int t = 0; t < B; ++t) v[t] = u[t] + u[(t + 1) % B];
    for (int t = 0; t < B; ++t) {
      const int i = b * B + t;
      if (i >= n) continue;
      const int mine = s[t] * 3;
      const int want = t % 2 == 1 ? u[t] - u[(t + B - 1) % B] + mine : v[t] + v[t + 2 < B ? t + 2 : 0] + mine;
      expect(staged_out[i] == want, "staged neighbour", staged_out[i], want);
    }
    expect(phase_counts[b] == 4, "barrier phases completed (completion function runs)", phase_counts[b], 4);
  }

  // ---- check: tiles ----
  std::vector<float> tiles(m);
  CHECK(cudaMemcpy(tiles.data(), d_tiles, m * sizeof(float), cudaMemcpyDeviceToHost));
  const int per_tile = tile_threads * 4;
  for (int base = 0; base < m; base += per_tile) {
    const int len = std::min(per_tile, m - base);
    for (int j = 0; j < len; ++j) {
      const float want = floats[base + j] + floats[base + (j + 1) % len];
      expect(tiles[base + j] == want, "tile neighbour sum", static_cast<long long>(tiles[base + j]),
             static_cast<long long>(want));
    }
  }

  // ---- check: pipelined sums ----
  std::vector<float> quad_sums(lanes);
  CHECK(cudaMemcpy(quad_sums.data(), d_quad_sums, lanes * sizeof(float), cudaMemcpyDeviceToHost));
  for (int lane = 0; lane < lanes; ++lane) {
    float sum = 0.0f;
    for (int q = lane; q < quads; q += lanes) sum += quad_in[q].x + quad_in[q].y + quad_in[q].z + quad_in[q].w;
    expect(quad_sums[lane] == sum, "pipelined sum", static_cast<long long>(quad_sums[lane]), static_cast<long long>(sum));
  }

  // ---- block-scope pipelines: a producer warp for two consumer warps, and every thread both ----
  const int ring_blocks = 5, ring_tiles = 37;
  std::vector<int> ring_in(ring_blocks * ring_tiles * kRingTile);
  for (int& v : ring_in) v = pick(rng) - 50000;
  int* d_ring_in = nullptr;
  long long* d_ring_out = nullptr;
  CHECK(cudaMalloc(&d_ring_in, ring_in.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_ring_out, ring_blocks * kRingTile * sizeof(long long)));
  CHECK(cudaMemcpy(d_ring_in, ring_in.data(), ring_in.size() * sizeof(int), cudaMemcpyHostToDevice));
  for (int partitioned = 0; partitioned < 2; ++partitioned) {
    CHECK(cudaMemset(d_ring_out, 0xff, ring_blocks * kRingTile * sizeof(long long)));
    if (partitioned) {
      ringSums<true><<<ring_blocks, 96>>>(d_ring_in, ring_tiles, d_ring_out);
    } else {
      ringSums<false><<<ring_blocks, 96>>>(d_ring_in, ring_tiles, d_ring_out);
    }
    CHECK(cudaGetLastError());
    std::vector<long long> ring_out(ring_blocks * kRingTile);
    CHECK(cudaMemcpy(ring_out.data(), d_ring_out, ring_out.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int b = 0; b < ring_blocks; ++b) {
      for (int i = 0; i < kRingTile; ++i) {
        long long want = 0;
        for (int t = 0; t < ring_tiles; ++t) want += static_cast<long long>(ring_in[(b * ring_tiles + t) * kRingTile + i]) * (t + 1);
        expect(ring_out[b * kRingTile + i] == want, partitioned ? "producer/consumer pipeline sum" : "unified pipeline sum",
               ring_out[b * kRingTile + i], want);
      }
    }
  }
  CHECK(cudaFree(d_ring_in));
  CHECK(cudaFree(d_ring_out));

  CHECK(cudaFree(d_values));
  CHECK(cudaFree(d_owner));
  CHECK(cudaFree(d_bins));
  CHECK(cudaFree(d_stats));
  CHECK(cudaFree(d_staged_in));
  CHECK(cudaFree(d_staged_out));
  CHECK(cudaFree(d_phases));
  CHECK(cudaFree(d_floats));
  CHECK(cudaFree(d_tiles));
  CHECK(cudaFree(d_quads));
  CHECK(cudaFree(d_quad_sums));
  if (failures != 0) {
    std::printf("FAILED: %d mismatches\n", failures);
    return 1;
  }
  std::printf("verified: atomic_ref histogram (block + device scope), cuda::std::atomic_ref total, fetch_min/max, "
              "compare_exchange_weak, exchange, __shared__ cuda::atomic tickets (%d values, %d blocks); "
              "cuda::barrier staged computation over 4 phases with arrive/wait(token)/arrive_and_drop and a "
              "completion; memcpy_async(block, ..., barrier) tiles (%d floats); 2-stage cuda::pipeline (%d float4); "
              "3-stage block-scope pipelines, producer/consumer roles and unified (%d blocks of %d tiles)\n",
              n, blocks, m, quads, ring_blocks, ring_tiles);
  std::printf("PASSED\n");
  return 0;
}
