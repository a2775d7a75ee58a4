// The rest of cooperative groups: run-time tiles (tiled_partition(block, n)), tiles of more than a warp
// (tiled_partition<128>), labeled and binary partitions of a warp with cg::reduce over each part,
// cg::memcpy_async into shared memory with cg::wait, the tile scans and invoke_one. Random inputs, an odd
// copy size; self-checking against the host, exactly (integers).
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

#include "cuda_check.h"
#include "device_buffers.h"

namespace cg = cooperative_groups;

constexpr int kBlock = 256;
constexpr int kGrid = 7;
constexpr int kThreads = kBlock * kGrid;
constexpr int kCopied = kBlock - 3;  // words each block copies with memcpy_async
constexpr int kBytes = 997;          // and an odd number of bytes

struct Outputs {
  int* tile_info;    // per thread and run-time tile size: rank | size << 8
  int* tile_next;    // per thread and run-time tile size: the value of the next rank in its tile
  int* big_next;     // per thread: the value of rank + 37 in its tile of 128
  int* big_info;     // per thread: rank | meta rank << 8 | meta size << 16 in its tile of 128
  int* label_sum;    // per thread: the sum over its warp's threads with the same label
  int* binary_sum;   // per thread: the sum over its warp's threads with the same parity
  int* binary_size;  // per thread: how many threads share its parity
  int* copied;       // per thread: the copied word after it, read from shared memory
  unsigned char* bytes;  // per block: the copied bytes
  int* scans;        // per thread: inclusive and exclusive scan over its tile of 16
  int* invoked;      // per block: how many tiles of 32 invoke_one counted
};

__global__ void partitions(const int* in, const unsigned char* in_bytes, int tile_size_a, int tile_size_b, Outputs out) {
  cg::thread_block block = cg::this_thread_block();
  const int tid = static_cast<int>(block.thread_rank());
  const int g = blockIdx.x * kBlock + tid;
  const int v = in[g];
  __shared__ int values[kBlock];
  __shared__ int words[kBlock];
  __shared__ unsigned char bytes[kBytes];
  __shared__ int invoked;
  if (tid == 0) invoked = 0;
  values[tid] = v;
  block.sync();

  // Run-time tiles of two sizes.
  const int sizes[2] = {tile_size_a, tile_size_b};
  for (int k = 0; k < 2; ++k) {
    cg::thread_group tile = cg::tiled_partition(block, static_cast<unsigned>(sizes[k]));
    const int rank = static_cast<int>(tile.thread_rank());
    const int n = static_cast<int>(tile.size());
    out.tile_info[k * kThreads + g] = rank | n << 8;
    tile.sync();
    out.tile_next[k * kThreads + g] = values[tid - rank + (rank + 1) % n];
  }

  // Tiles of 128: sync across warps.
  cg::thread_block_tile<128> big = cg::tiled_partition<128>(block);
  {
    const int rank = static_cast<int>(big.thread_rank());
    words[tid] = v * 2 + 1;
    big.sync();
    out.big_next[g] = words[tid - rank + (rank + 37) % 128];
    out.big_info[g] = rank | static_cast<int>(big.meta_group_rank()) << 8 | static_cast<int>(big.meta_group_size()) << 16;
    big.sync();
  }
  block.sync();

  // Labeled and binary partitions of each warp.
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::coalesced_group same_label = cg::labeled_partition(warp, v % 5);
  out.label_sum[g] = cg::reduce(same_label, v, cg::plus<int>());
  cg::coalesced_group same_parity = cg::binary_partition(warp, (v & 1) != 0);
  out.binary_sum[g] = cg::reduce(same_parity, v, cg::plus<int>());
  out.binary_size[g] = static_cast<int>(same_parity.num_threads());

  // memcpy_async of words and of an odd number of bytes into shared memory.
  cg::memcpy_async(block, words, in + blockIdx.x * kBlock, sizeof(int) * kCopied);
  cg::memcpy_async(block, bytes, in_bytes + blockIdx.x * kBytes, static_cast<size_t>(kBytes));
  cg::wait(block);
  out.copied[g] = tid + 1 < kCopied ? words[tid + 1] : -1;
  for (int i = tid; i < kBytes; i += kBlock) out.bytes[blockIdx.x * kBytes + i] = bytes[i];

  // Scans over tiles of 16, and one thread per warp counting.
  cg::thread_block_tile<16> sixteen = cg::tiled_partition<16>(block);
  out.scans[2 * g] = cg::inclusive_scan(sixteen, v % 1000);
  out.scans[2 * g + 1] = cg::exclusive_scan(sixteen, v % 1000);
  cg::invoke_one(warp, [&] { atomicAdd(&invoked, 1); });
  block.sync();
  if (tid == 0) out.invoked[blockIdx.x] = invoked;
}

template <class T>
T* device_poisoned(size_t count) {
  T* p;
  CHECK(cudaMalloc(&p, count * sizeof(T)));
  CHECK(cudaMemset(p, 0xff, count * sizeof(T)));
  return p;
}

static int failures = 0;
static void expect(bool ok, const char* what, int i, long long got, long long want) {
  if (!ok && failures++ < 5) std::printf("FAILED: %s at %d: %lld, expected %lld\n", what, i, got, want);
}

int main() {
  std::mt19937 rng(61206);
  std::uniform_int_distribution<int> value(1, 1 << 20);
  std::vector<int> h_in(kThreads);
  for (int& v : h_in) v = value(rng);
  std::vector<unsigned char> h_bytes(kGrid * kBytes);
  for (unsigned char& b : h_bytes) b = static_cast<unsigned char>(value(rng) % 255 + 1);

  int* d_in;
  unsigned char* d_bytes;
  CHECK(cudaMalloc(&d_in, kThreads * sizeof(int)));
  CHECK(cudaMalloc(&d_bytes, h_bytes.size()));
  CHECK(cudaMemcpy(d_in, h_in.data(), kThreads * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_bytes, h_bytes.data(), h_bytes.size(), cudaMemcpyHostToDevice));
  Outputs out;
  out.tile_info = device_poisoned<int>(2 * kThreads);
  out.tile_next = device_poisoned<int>(2 * kThreads);
  out.big_next = device_poisoned<int>(kThreads);
  out.big_info = device_poisoned<int>(kThreads);
  out.label_sum = device_poisoned<int>(kThreads);
  out.binary_sum = device_poisoned<int>(kThreads);
  out.binary_size = device_poisoned<int>(kThreads);
  out.copied = device_poisoned<int>(kThreads);
  out.bytes = device_poisoned<unsigned char>(kGrid * kBytes);
  out.scans = device_poisoned<int>(2 * kThreads);
  out.invoked = device_poisoned<int>(kGrid);

  const int sizes[2] = {4, 16};
  partitions<<<kGrid, kBlock>>>(d_in, d_bytes, sizes[0], sizes[1], out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  const auto tile_info = to_host(out.tile_info, 2 * kThreads), tile_next = to_host(out.tile_next, 2 * kThreads);
  const auto big_next = to_host(out.big_next, kThreads), big_info = to_host(out.big_info, kThreads);
  const auto label_sum = to_host(out.label_sum, kThreads), binary_sum = to_host(out.binary_sum, kThreads);
  const auto binary_size = to_host(out.binary_size, kThreads), copied = to_host(out.copied, kThreads);
  const auto bytes = to_host(out.bytes, kGrid * kBytes);
  const auto scans = to_host(out.scans, 2 * kThreads);
  const auto invoked = to_host(out.invoked, kGrid);

  for (int g = 0; g < kThreads; ++g) {
    const int tid = g % kBlock, base = g - tid;
    for (int k = 0; k < 2; ++k) {
      const int n = sizes[k], rank = tid % n;
      const int info = rank | n << 8;
      expect(tile_info[k * kThreads + g] == info, "run-time tile ranks", g, tile_info[k * kThreads + g], info);
      const int next = h_in[base + tid - rank + (rank + 1) % n];
      expect(tile_next[k * kThreads + g] == next, "run-time tile exchange", g, tile_next[k * kThreads + g], next);
    }
    const int rank = tid % 128;
    const int want_big = h_in[base + tid - rank + (rank + 37) % 128] * 2 + 1;
    expect(big_next[g] == want_big, "tile<128> exchange", g, big_next[g], want_big);
    const int want_info = rank | (tid / 128) << 8 | (kBlock / 128) << 16;
    expect(big_info[g] == want_info, "tile<128> ranks", g, big_info[g], want_info);
    const int warp = g - g % 32;
    int lsum = 0, bsum = 0, bsize = 0;
    for (int j = warp; j < warp + 32; ++j) {
      if (h_in[j] % 5 == h_in[g] % 5) lsum += h_in[j];
      if ((h_in[j] & 1) == (h_in[g] & 1)) {
        bsum += h_in[j];
        ++bsize;
      }
    }
    expect(label_sum[g] == lsum, "labeled_partition reduce", g, label_sum[g], lsum);
    expect(binary_sum[g] == bsum, "binary_partition reduce", g, binary_sum[g], bsum);
    expect(binary_size[g] == bsize, "binary_partition size", g, binary_size[g], bsize);
    const int want_copy = tid + 1 < kCopied ? h_in[g + 1] : -1;
    expect(copied[g] == want_copy, "memcpy_async words", g, copied[g], want_copy);
    const int first16 = g - g % 16;
    int inclusive = 0;
    for (int j = first16; j <= g; ++j) inclusive += h_in[j] % 1000;
    expect(scans[2 * g] == inclusive, "inclusive_scan", g, scans[2 * g], inclusive);
    expect(scans[2 * g + 1] == inclusive - h_in[g] % 1000, "exclusive_scan", g, scans[2 * g + 1],
           inclusive - h_in[g] % 1000);
  }
  for (int i = 0; i < kGrid * kBytes; ++i) expect(bytes[i] == h_bytes[i], "memcpy_async bytes", i, bytes[i], h_bytes[i]);
  for (int b = 0; b < kGrid; ++b) expect(invoked[b] == kBlock / 32, "invoke_one", b, invoked[b], kBlock / 32);
  if (failures > 0) return 1;

  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_bytes));
  for (void* p : {static_cast<void*>(out.tile_info), static_cast<void*>(out.tile_next), static_cast<void*>(out.big_next),
                  static_cast<void*>(out.big_info), static_cast<void*>(out.label_sum), static_cast<void*>(out.binary_sum),
                  static_cast<void*>(out.binary_size), static_cast<void*>(out.copied), static_cast<void*>(out.bytes),
                  static_cast<void*>(out.scans), static_cast<void*>(out.invoked)}) {
    CHECK(cudaFree(p));
  }
  std::printf("cooperative_groups_partitions: %d blocks of %d: run-time tiles of %d and %d, tiles of 128, "
              "labeled and binary partitions with reduce, memcpy_async of %d words and %d bytes, tile scans, "
              "invoke_one, all exact\n",
              kGrid, kBlock, sizes[0], sizes[1], kCopied, kBytes);
  std::printf("PASSED\n");
  return 0;
}
