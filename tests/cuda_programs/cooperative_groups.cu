// Cooperative groups as CUDA programs use them: a block sum with tiles and cg::reduce, stream compaction
// with coalesced_threads() (one atomic per warp), votes on small tiles, and a prefix scan over many
// blocks built from cg::inclusive_scan / cg::exclusive_scan. Self-checking against the host, exactly
// (integers).
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

#include "cuda_check.h"

namespace cg = cooperative_groups;

constexpr int kBlock = 256;  // whole warps: a tile of 32 reads all of its lanes

// Each warp-sized tile reduces its values; tile sums meet in shared memory; the first tile finishes.
__global__ void sumWithTiles(const int* in, int n, unsigned long long* total) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ int tile_sums[kBlock / 32];
  int v = 0;
  for (int i = blockIdx.x * kBlock + static_cast<int>(block.thread_rank()); i < n; i += gridDim.x * kBlock) v += in[i];
  v = cg::reduce(warp, v, cg::plus<int>());
  if (warp.thread_rank() == 0) tile_sums[warp.meta_group_rank()] = v;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    int s = warp.thread_rank() < warp.meta_group_size() ? tile_sums[warp.thread_rank()] : 0;
    s = cg::reduce(warp, s, cg::plus<int>());
    if (warp.thread_rank() == 0) atomicAdd(total, static_cast<unsigned long long>(s));
  }
}

// Keeps the odd values: the active threads of each warp take one slot range with a single atomic.
__global__ void keepOdd(const int* in, int n, int* out, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (in[i] & 1)) {
    cg::coalesced_group active = cg::coalesced_threads();
    int base = 0;
    if (active.thread_rank() == 0) base = atomicAdd(count, static_cast<int>(active.size()));
    base = active.shfl(base, 0);
    out[base + active.thread_rank()] = in[i];
  }
}

// Per tile of 4: any, all, ballot, and the tile's minimum and maximum (cg::less, cg::greater).
__global__ void tileVotes(const int* in, int n, int4* out) {
  cg::thread_block_tile<4> quad = cg::tiled_partition<4>(cg::this_thread_block());
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = i < n ? in[i] : 0;
  const int positive = v > 0;
  const int any = quad.any(positive), all = quad.all(positive);
  const unsigned ballot = quad.ballot(positive);
  const int lo = cg::reduce(quad, v, cg::less<int>()), hi = cg::reduce(quad, v, cg::greater<int>());
  if (i < n && quad.thread_rank() == 0) out[i / 4] = make_int4(any | (all << 1), static_cast<int>(ballot), lo, hi);
}

// Scan, phase 1: each block's inclusive scan (warp scans, then the warp totals' exclusive scan), and
// the block's total.
__global__ void scanBlocks(const int* in, int n, int* out, int* block_totals) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ int warp_totals[kBlock / 32];
  const int i = blockIdx.x * kBlock + static_cast<int>(block.thread_rank());
  int v = cg::inclusive_scan(warp, i < n ? in[i] : 0);
  if (warp.thread_rank() == 31) warp_totals[warp.meta_group_rank()] = v;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    cg::thread_block_tile<8> eight = cg::tiled_partition<8>(warp);
    if (eight.meta_group_rank() == 0) {
      const int t = warp_totals[eight.thread_rank()];
      warp_totals[eight.thread_rank()] = cg::exclusive_scan(eight, t);
    }
  }
  block.sync();
  v += warp_totals[warp.meta_group_rank()];
  if (i < n) out[i] = v;
  if (block.thread_rank() == kBlock - 1) block_totals[blockIdx.x] = v;
}

// Phase 2, one block: the exclusive scan of the block totals, kBlock at a time with a running carry.
__global__ void scanTotals(int* totals, int count) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ int warp_totals[kBlock / 32];
  __shared__ int carry;
  if (block.thread_rank() == 0) carry = 0;
  for (int start = 0; start < count; start += kBlock) {
    block.sync();
    const int i = start + static_cast<int>(block.thread_rank());
    const int mine = i < count ? totals[i] : 0;
    int v = cg::exclusive_scan(warp, mine);
    if (warp.thread_rank() == 31) warp_totals[warp.meta_group_rank()] = v + mine;
    block.sync();
    if (warp.meta_group_rank() == 0) {
      const int t = warp.thread_rank() < warp.meta_group_size() ? warp_totals[warp.thread_rank()] : 0;
      const int before = cg::exclusive_scan(warp, t);
      if (warp.thread_rank() < warp.meta_group_size()) warp_totals[warp.thread_rank()] = before;
    }
    block.sync();
    v += warp_totals[warp.meta_group_rank()] + carry;
    if (i < count) totals[i] = v;
    block.sync();
    if (block.thread_rank() == kBlock - 1) carry = v + mine;
  }
}

// Phase 3: each block adds the totals of the blocks before it.
__global__ void addOffsets(int* out, int n, const int* offsets) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  if (i < n) out[i] += offsets[blockIdx.x];
}

static int failures = 0;
static void fail(const char* what) {
  std::printf("FAIL %s\n", what);
  ++failures;
}

int main() {
  const int n = 100003;  // prime: no block or tile size divides it
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> dist(-1000, 1000);
  std::vector<int> host(n);
  for (int& v : host) v = dist(rng);
  const int blocks = (n + kBlock - 1) / kBlock;

  int *in = nullptr, *out = nullptr, *count = nullptr, *totals = nullptr;
  unsigned long long* sum = nullptr;
  int4* votes = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMalloc(&count, sizeof(int)));
  CHECK(cudaMalloc(&totals, blocks * sizeof(int)));
  CHECK(cudaMalloc(&sum, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&votes, (n + 3) / 4 * sizeof(int4)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  // Sum.
  CHECK(cudaMemset(sum, 0, sizeof(unsigned long long)));
  sumWithTiles<<<64, kBlock>>>(in, n, sum);
  CHECK(cudaGetLastError());
  unsigned long long got_sum = 0;
  CHECK(cudaMemcpy(&got_sum, sum, sizeof got_sum, cudaMemcpyDeviceToHost));
  long long want_sum = 0;
  for (int v : host) want_sum += v;
  if (static_cast<long long>(got_sum) != want_sum) fail("block sum with tiles");

  // Compaction: the same multiset of odd values, in any order.
  CHECK(cudaMemset(count, 0, sizeof(int)));
  CHECK(cudaMemset(out, 0xff, n * sizeof(int)));
  keepOdd<<<blocks, kBlock>>>(in, n, out, count);
  CHECK(cudaGetLastError());
  int kept = 0;
  CHECK(cudaMemcpy(&kept, count, sizeof kept, cudaMemcpyDeviceToHost));
  std::vector<int> want_odd;
  for (int v : host) if (v & 1) want_odd.push_back(v);
  std::vector<int> got_odd(static_cast<size_t>(std::max(kept, 0)));
  if (kept != static_cast<int>(want_odd.size())) {
    fail("compaction count");
  } else {
    CHECK(cudaMemcpy(got_odd.data(), out, kept * sizeof(int), cudaMemcpyDeviceToHost));
    std::sort(got_odd.begin(), got_odd.end());
    std::sort(want_odd.begin(), want_odd.end());
    if (got_odd != want_odd) fail("compaction values");
  }

  // Votes and min/max per tile of 4 (the last tile is partial: its missing values count as 0).
  tileVotes<<<blocks, kBlock>>>(in, n, votes);
  CHECK(cudaGetLastError());
  std::vector<int4> got_votes((n + 3) / 4);
  CHECK(cudaMemcpy(got_votes.data(), votes, got_votes.size() * sizeof(int4), cudaMemcpyDeviceToHost));
  for (size_t q = 0; q < got_votes.size(); ++q) {
    int any = 0, all = 1, ballot = 0, lo = 1 << 30, hi = -(1 << 30);
    for (int r = 0; r < 4; ++r) {
      const size_t i = q * 4 + r;
      const int v = i < static_cast<size_t>(n) ? host[i] : 0;
      any |= v > 0;
      all &= v > 0;
      ballot |= (v > 0) << r;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    const int4 g = got_votes[q];
    if (g.x != (any | (all << 1)) || g.y != ballot || g.z != lo || g.w != hi) {
      std::printf("tile %zu: got (%d, %d, %d, %d), want (%d, %d, %d, %d)\n", q, g.x, g.y, g.z, g.w, any | (all << 1),
                  ballot, lo, hi);
      fail("tile votes");
      break;
    }
  }

  // Inclusive prefix scan over all blocks.
  CHECK(cudaMemset(out, 0xff, n * sizeof(int)));
  scanBlocks<<<blocks, kBlock>>>(in, n, out, totals);
  CHECK(cudaGetLastError());
  scanTotals<<<1, kBlock>>>(totals, blocks);
  CHECK(cudaGetLastError());
  addOffsets<<<blocks, kBlock>>>(out, n, totals);
  CHECK(cudaGetLastError());
  std::vector<int> got_scan(n);
  CHECK(cudaMemcpy(got_scan.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  int running = 0;
  for (int i = 0; i < n; ++i) {
    running += host[i];
    if (got_scan[i] != running) {
      std::printf("scan at %d: got %d, want %d\n", i, got_scan[i], running);
      fail("multi-block prefix scan");
      break;
    }
  }

  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(count));
  CHECK(cudaFree(totals));
  CHECK(cudaFree(sum));
  CHECK(cudaFree(votes));
  if (failures != 0) {
    std::printf("FAILED: %d checks\n", failures);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
