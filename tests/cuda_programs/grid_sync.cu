// A cooperative launch as CUDA programs write one: as many blocks as can be resident (occupancy x
// multiprocessors), a kernel in three phases separated by grid.sync() (per-block sums, a grid-wide
// total every block reads, a stencil over values other blocks wrote), launched with
// cudaLaunchCooperativeKernel and again with cudaLaunchKernelEx's cooperative attribute (the refusals
// are grid_sync_refused.cu and planted_grid_sync_deadlock.cu). Self-checking against the host, exactly.
#include <cstdio>
#include <random>
#include <vector>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "cuda_check.h"

namespace cg = cooperative_groups;

constexpr int kBlock = 128;

__global__ void threePhases(const int* in, int n, long long* block_sums, long long* scaled, long long* stencil,
                            unsigned long long* ranks, long long* total_seen) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ long long partial[kBlock];
  const unsigned long long stride = grid.num_threads();
  // Phase 1: each block sums its grid-stride share.
  long long mine = 0;
  for (unsigned long long i = grid.thread_rank(); i < static_cast<unsigned long long>(n); i += stride) mine += in[i];
  partial[block.thread_rank()] = mine;
  block.sync();
  for (unsigned s = kBlock / 2; s > 0; s /= 2) {
    if (block.thread_rank() < s) partial[block.thread_rank()] += partial[block.thread_rank() + s];
    block.sync();
  }
  if (block.thread_rank() == 0) block_sums[grid.block_rank()] = partial[0];
  ranks[grid.thread_rank()] = grid.block_rank() * 1000000ull + block.thread_rank() * 10ull + (grid.is_valid() ? 1 : 0);
  grid.sync();
  // Phase 2: every thread reads every block's sum (written by other blocks before the sync).
  long long total = 0;
  for (unsigned long long b = 0; b < grid.num_blocks(); ++b) total += block_sums[b];
  if (grid.thread_rank() == stride - 1) *total_seen = total;
  for (unsigned long long i = grid.thread_rank(); i < static_cast<unsigned long long>(n); i += stride) {
    scaled[i] = in[i] * 3ll - total % 1000;
  }
  grid.sync();
  // Phase 3: neighbours, mostly written by other threads and other blocks.
  for (unsigned long long i = grid.thread_rank(); i < static_cast<unsigned long long>(n); i += stride) {
    const long long left = i > 0 ? scaled[i - 1] : 0;
    const long long right = i + 1 < static_cast<unsigned long long>(n) ? scaled[i + 1] : 0;
    stencil[i] = left + 2 * scaled[i] - right;
  }
}

int main() {
  int device = 0;
  CHECK(cudaGetDevice(&device));
  int cooperative = 0;
  CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, device));
  if (cooperative != 1 || prop.cooperativeLaunch != 1) {
    std::printf("FAILED: cudaDevAttrCooperativeLaunch %d, cudaDeviceProp::cooperativeLaunch %d\n", cooperative,
                prop.cooperativeLaunch);
    return 1;
  }
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, threePhases, kBlock, 0));
  const int blocks = per_sm * prop.multiProcessorCount;
  const int n = blocks * kBlock * 3 + 77;  // odd, not a multiple of the grid

  std::mt19937 rng(20261206);
  std::uniform_int_distribution<int> value(1, 100000);
  std::vector<int> h_in(n);
  for (int& v : h_in) v = value(rng);
  const size_t threads = static_cast<size_t>(blocks) * kBlock;

  int* d_in;
  long long *d_sums, *d_scaled, *d_stencil, *d_total;
  unsigned long long* d_ranks;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_sums, blocks * sizeof(long long)));
  CHECK(cudaMalloc(&d_scaled, n * sizeof(long long)));
  CHECK(cudaMalloc(&d_stencil, n * sizeof(long long)));
  CHECK(cudaMalloc(&d_total, sizeof(long long)));
  CHECK(cudaMalloc(&d_ranks, threads * sizeof(unsigned long long)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  long long expected_total = 0;
  for (int v : h_in) expected_total += v;
  std::vector<long long> scaled(n), expected(n);
  for (int i = 0; i < n; ++i) scaled[i] = h_in[i] * 3ll - expected_total % 1000;
  for (int i = 0; i < n; ++i) {
    expected[i] = (i > 0 ? scaled[i - 1] : 0) + 2 * scaled[i] - (i + 1 < n ? scaled[i + 1] : 0);
  }

  for (int form = 0; form < 2; ++form) {
    CHECK(cudaMemset(d_sums, 0xff, blocks * sizeof(long long)));
    CHECK(cudaMemset(d_scaled, 0xff, n * sizeof(long long)));
    CHECK(cudaMemset(d_stencil, 0xff, n * sizeof(long long)));
    CHECK(cudaMemset(d_total, 0xff, sizeof(long long)));
    CHECK(cudaMemset(d_ranks, 0xff, threads * sizeof(unsigned long long)));
    int count = n;
    if (form == 0) {
      void* args[] = {&d_in, &count, &d_sums, &d_scaled, &d_stencil, &d_ranks, &d_total};
      CHECK(cudaLaunchCooperativeKernel(threePhases, dim3(blocks), dim3(kBlock), args, 0, 0));
    } else {
      cudaLaunchAttribute attr[1];
      attr[0].id = cudaLaunchAttributeCooperative;
      attr[0].val.cooperative = 1;
      cudaLaunchConfig_t config = {};
      config.gridDim = dim3(blocks);
      config.blockDim = dim3(kBlock);
      config.attrs = attr;
      config.numAttrs = 1;
      CHECK(cudaLaunchKernelEx(&config, threePhases, static_cast<const int*>(d_in), count, d_sums, d_scaled, d_stencil,
                               d_ranks, d_total));
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    std::vector<long long> h_stencil(n);
    std::vector<unsigned long long> h_ranks(threads);
    long long h_total = 0;
    CHECK(cudaMemcpy(h_stencil.data(), d_stencil, n * sizeof(long long), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_ranks.data(), d_ranks, threads * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&h_total, d_total, sizeof(long long), cudaMemcpyDeviceToHost));
    if (h_total != expected_total) {
      std::printf("FAILED (form %d): grid total %lld, expected %lld\n", form, h_total, expected_total);
      return 1;
    }
    for (int i = 0; i < n; ++i) {
      if (h_stencil[i] != expected[i]) {
        std::printf("FAILED (form %d): stencil[%d] = %lld, expected %lld\n", form, i, h_stencil[i], expected[i]);
        return 1;
      }
    }
    for (size_t t = 0; t < threads; ++t) {
      const unsigned long long want = (t / kBlock) * 1000000ull + (t % kBlock) * 10ull + 1;
      if (h_ranks[t] != want) {
        std::printf("FAILED (form %d): grid thread %zu reported %llu, expected %llu\n", form, t, h_ranks[t], want);
        return 1;
      }
    }
  }

  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_sums));
  CHECK(cudaFree(d_scaled));
  CHECK(cudaFree(d_stencil));
  CHECK(cudaFree(d_total));
  CHECK(cudaFree(d_ranks));
  std::printf("grid_sync: %d blocks (%d per multiprocessor x %d), %d elements: three grid-synchronised phases "
              "exact with cudaLaunchCooperativeKernel and cudaLaunchKernelEx\n",
              blocks, per_sm, prop.multiProcessorCount, n);
  std::printf("PASSED\n");
  return 0;
}
