// Cooperative groups with values and tiles wider than the hardware's 32-bit lanes: shuffles of a
// 16-byte uint4 and a 32-byte struct through tiles and coalesced groups (CUDA moves any trivially
// copyable type), and tiles of 64 and 128 threads with block_tile_memory: cg::reduce, shfl (one source
// rank for the whole tile, as CUDA requires), any and all, on a block of 224 threads, so its last tile
// of 128 has 96. Random inputs; checked exactly against the host.
#include <cstdio>
#include <random>
#include <vector>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include "cuda_check.h"

namespace cg = cooperative_groups;

constexpr int kBlock = 224;
constexpr int kGrid = 5;
constexpr int kThreads = kBlock * kGrid;

struct Quad {  // 32 bytes: four words that must travel together
  long long a, b, c, d;
};

struct Outputs {
  uint4* up4;         // per thread: the uint4 of the thread 3 ranks up in its tile of 16 (or its own)
  Quad* xor_quad;     // per thread: the Quad of rank ^ 5 in its tile of 32
  uint4* odd_bcast;   // per thread: in the coalesced group of odd lanes, the uint4 of its rank 2
  long long* sum64;   // per thread: the sum over its tile of 64
  long long* sum128;  // per thread: the sum over its tile of 128
  int* max128;        // per thread: the maximum over its tile of 128
  int* bcast128;      // per thread: the value of rank 77 % size in its tile of 128
  int* votes128;      // per thread: any(v % 7 == 0) | all(v > 0) << 1 in its tile of 128
};

__device__ uint4 as_uint4(int v, int g) {
  return make_uint4(static_cast<unsigned>(v), static_cast<unsigned>(g), static_cast<unsigned>(v ^ g), 0xabcd0000u + g);
}

__global__ void wide(const int* in, Outputs out) {
  __shared__ cg::block_tile_memory<kBlock> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  const int tid = static_cast<int>(block.thread_rank());
  const int g = blockIdx.x * kBlock + tid;
  const int v = in[g];

  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  out.up4[g] = t16.shfl_up(as_uint4(v, g), 3);

  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
  const Quad mine{v, -static_cast<long long>(g), static_cast<long long>(v) * 1000003, g + 7ll};
  out.xor_quad[g] = t32.shfl_xor(mine, 5);

  if (threadIdx.x % 2 == 1) {
    cg::coalesced_group odd = cg::coalesced_threads();
    out.odd_bcast[g] = odd.shfl(as_uint4(v, g), 2);
  }

  cg::thread_block_tile<64> t64 = cg::tiled_partition<64>(block);
  out.sum64[g] = cg::reduce(t64, static_cast<long long>(v), cg::plus<long long>());

  cg::thread_block_tile<128> t128 = cg::tiled_partition<128>(block);
  out.sum128[g] = cg::reduce(t128, static_cast<long long>(v), cg::plus<long long>());
  out.max128[g] = cg::reduce(t128, v, cg::greater<int>());
  out.bcast128[g] = t128.shfl(v, 77u % t128.num_threads());
  out.votes128[g] = t128.any(v % 7 == 0) | t128.all(v > 0) << 1;
}

template <class T>
T* device_array(size_t n) {
  T* p = nullptr;
  CHECK(cudaMalloc(&p, n * sizeof(T)));
  CHECK(cudaMemset(p, 0xff, n * sizeof(T)));  // poisoned: every output is written by the kernel
  return p;
}

template <class T>
std::vector<T> host_copy(const T* d, size_t n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

int main() {
  std::mt19937 rng(std::random_device{}());
  std::uniform_int_distribution<int> dist(-50000, 50000);
  std::vector<int> h(kThreads);
  for (int& x : h) x = dist(rng);
  h[kThreads / 2] = 1;  // at least one positive value, whatever the draw

  int* d = nullptr;
  CHECK(cudaMalloc(&d, kThreads * sizeof(int)));
  CHECK(cudaMemcpy(d, h.data(), kThreads * sizeof(int), cudaMemcpyHostToDevice));
  Outputs out{device_array<uint4>(kThreads),     device_array<Quad>(kThreads), device_array<uint4>(kThreads),
              device_array<long long>(kThreads), device_array<long long>(kThreads), device_array<int>(kThreads),
              device_array<int>(kThreads),       device_array<int>(kThreads)};
  wide<<<kGrid, kBlock>>>(d, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  const auto up4 = host_copy(out.up4, kThreads);
  const auto xor_quad = host_copy(out.xor_quad, kThreads);
  const auto odd_bcast = host_copy(out.odd_bcast, kThreads);
  const auto sum64 = host_copy(out.sum64, kThreads);
  const auto sum128 = host_copy(out.sum128, kThreads);
  const auto max128 = host_copy(out.max128, kThreads);
  const auto bcast128 = host_copy(out.bcast128, kThreads);
  const auto votes128 = host_copy(out.votes128, kThreads);

  auto host_uint4 = [&](int g) {
    const int v = h[g];
    return uint4{static_cast<unsigned>(v), static_cast<unsigned>(g), static_cast<unsigned>(v ^ g), 0xabcd0000u + g};
  };
  auto same = [](uint4 a, uint4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; };
  int bad = 0;
  auto fail = [&](const char* what, int g) {
    if (bad++ < 8) std::fprintf(stderr, "thread %d: %s is wrong\n", g, what);
  };
  for (int g = 0; g < kThreads; ++g) {
    const int block = g / kBlock, tid = g % kBlock;
    // tile of 16: rank - 3 when it exists, else its own value
    const int r16 = tid % 16;
    if (!same(up4[g], host_uint4(r16 >= 3 ? g - 3 : g))) fail("shfl_up of a uint4 in a tile of 16", g);
    // tile of 32: the block has 7 full warps
    const int partner = block * kBlock + (tid & ~31) + ((tid % 32) ^ 5);
    const Quad q = xor_quad[g];
    if (q.a != h[partner] || q.b != -static_cast<long long>(partner) ||
        q.c != static_cast<long long>(h[partner]) * 1000003 || q.d != partner + 7ll) {
      fail("shfl_xor of a 32-byte struct in a tile of 32", g);
    }
    if (tid % 2 == 1) {
      const int src = block * kBlock + (tid & ~31) + 5;  // the odd lanes' rank 2 is lane 5
      if (!same(odd_bcast[g], host_uint4(src))) fail("coalesced_group::shfl of a uint4", g);
    }
    auto tile_of = [&](int n, auto fn) {
      const int first = block * kBlock + tid / n * n;
      const int last = std::min(first + n, (block + 1) * kBlock);
      return fn(first, last);
    };
    const long long s64 = tile_of(64, [&](int a, int b) {
      long long s = 0;
      for (int i = a; i < b; ++i) s += h[i];
      return s;
    });
    if (sum64[g] != s64) fail("cg::reduce over a tile of 64", g);
    const long long s128 = tile_of(128, [&](int a, int b) {
      long long s = 0;
      for (int i = a; i < b; ++i) s += h[i];
      return s;
    });
    if (sum128[g] != s128) fail("cg::reduce over a tile of 128 (plus)", g);
    const int m128 = tile_of(128, [&](int a, int b) {
      int m = h[a];
      for (int i = a; i < b; ++i) m = std::max(m, h[i]);
      return m;
    });
    if (max128[g] != m128) fail("cg::reduce over a tile of 128 (greater)", g);
    if (bcast128[g] != tile_of(128, [&](int a, int) { return h[a + 77]; })) fail("shfl in a tile of 128", g);
    const int votes = tile_of(128, [&](int a, int b) {
      bool any = false, all = true;
      for (int i = a; i < b; ++i) {
        any = any || h[i] % 7 == 0;
        all = all && h[i] > 0;
      }
      return int(any) | int(all) << 1;
    });
    if (votes128[g] != votes) fail("any/all in a tile of 128", g);
  }
  if (bad != 0) {
    std::fprintf(stderr, "FAILED: %d wrong values\n", bad);
    return 1;
  }
  std::printf("shuffles of 16- and 32-byte values through tiles and coalesced groups: correct\n");
  std::printf("tiles of 64 and 128 (the last of 96 threads): reduce, shfl, any, all correct on %d threads\n", kThreads);
  CHECK(cudaFree(d));
  for (void* p : {static_cast<void*>(out.up4), static_cast<void*>(out.xor_quad), static_cast<void*>(out.odd_bcast),
                  static_cast<void*>(out.sum64), static_cast<void*>(out.sum128), static_cast<void*>(out.max128),
                  static_cast<void*>(out.bcast128), static_cast<void*>(out.votes128)}) {
    CHECK(cudaFree(p));
  }
  std::printf("PASSED\n");
  return 0;
}
