// Race and no-race pairs for racecheck's happens-before (src/sim/checks/racecheck/happens_before.hpp):
// each case is chosen by name on the command line (`ordering <case>`); the correct ones check their result
// and print PASSED, and racecheck must find nothing in them; the racy ones must be reported. Each pair
// differs in one thing: a fence left out, a fence or an atomic at too narrow a scope, a plain access
// where an atomic belongs. Every case terminates with or without the checks.
//
// Between blocks (block 0 publishes, block 1 consumes), between warps of a block, between lanes of a warp:
//   mp_fences / mp_no_writer_fence / mp_no_reader_fence / mp_block_fences      message passing by a flag
//   mp_block_scope_flag                       the flag an atomic of block scope
//   mp_release_acquire / mp_relaxed / mp_block_scope_release                   cuda::atomic_ref orders
//   mp_volatile_fences / mp_volatile_no_fence  the flag volatile, as older CUDA code has it
//   volatile_against_plain                    a volatile read against a plain write, unordered
//   plain_increments                          *p = *p + 1 by two blocks (the write is seen, not only the read)
//   warp_mp_fences / warp_mp_no_fence         the same between warps of one block
//   lane_mp_fences / lane_mp_no_fence         and between lanes of one warp
// Locks, atomics and the patterns built on them:
//   lock_fences / lock_no_fences / lock_block_scope                  a CAS spin lock guarding a plain total
//   atomic_counter / plain_against_atomic / block_atomic_in_block / block_atomic_across_blocks
//   last_block / last_block_no_fence          threadFenceReduction's last block summing the partials
//   last_block_device_variable                its ticket counter a __device__ variable, as the sample's
//   lookback_fences / lookback_no_fence / lookback_ticket           a chain of blocks, each after the last
//   histogram                                 shared-memory bins merged with atomicAdd
//   cas_float_add                             a float sum by an atomicCAS loop
//   grid_barrier / grid_barrier_no_fence      a grid barrier written by hand
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda/atomic>
#include <cuda_runtime.h>

#include "corpus.h"

namespace {

using corpus::device_fence;
using corpus::expect;
using corpus::Fence;
using corpus::fence;
using corpus::no_fence;
using corpus::block_fence;
using corpus::gridBarrier;
using corpus::readNeighbours;

// Thread `writer` publishes data[0] through flag[0]; thread `reader` waits for the flag and reads it.
// With blockScopeFlag, the flag's atomics are of block scope.
__global__ void messagePassing(int* data, int* flag, int* out, Fence writerFence, Fence readerFence, int writer,
                               int reader, bool blockScopeFlag) {
  const int me = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (me == writer) {
    data[0] = 42;
    fence(writerFence);
    if (blockScopeFlag) {
      atomicExch_block(flag, 1);
    } else {
      atomicExch(flag, 1);
    }
  } else if (me == reader) {
    while ((blockScopeFlag ? atomicAdd_block(flag, 0) : atomicAdd(flag, 0)) == 0) {
    }
    fence(readerFence);
    out[0] = data[0];
  }
}

// The hand-off as older CUDA code writes it, through a volatile flag (PTX's volatile accesses are relaxed
// ones at system scope): block 0's thread 0 publishes, block 1's waits. Block 0 starts first, so it
// completes in a build the simulator cannot see volatile accesses in.
__global__ void volatilePassing(int* data, volatile int* flag, int* out, Fence f) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    fence(f);
    *flag = 1;
  } else {
    while (*flag == 0) {
    }
    fence(f);
    out[0] = data[0];
  }
}

// Block 0 writes plainly what block 1 reads through a volatile pointer, with nothing between them.
__global__ void volatileAgainstPlain(int* data, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 7;
  } else {
    out[0] = *static_cast<volatile int*>(data);
  }
}

// Thread 0 of every block adds 1 to one word plainly, with nothing between them.
__global__ void plainIncrement(int* p) {
  if (threadIdx.x == 0) *p = *p + 1;
}

// The same hand-off through cuda::atomic_ref's orders.
template <cuda::thread_scope Scope>
__global__ void atomicRefPassing(int* data, int* flag, int* out, bool ordered) {
  cuda::atomic_ref<int, Scope> f(*flag);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    f.store(1, ordered ? cuda::memory_order_release : cuda::memory_order_relaxed);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (f.load(ordered ? cuda::memory_order_acquire : cuda::memory_order_relaxed) == 0) {
    }
    out[0] = data[0];
  }
}

__global__ void spinLock(int* lock, int* total, Fence f, bool blockScope) {
  while ((blockScope ? atomicCAS_block(lock, 0, 1) : atomicCAS(lock, 0, 1)) != 0) {
  }
  fence(f);
  const int seen = *total;
  fence(f);  // (between the read and the write, so that the checks see both: see fence)
  *total = seen + 1;
  fence(f);
  if (blockScope) {
    atomicExch_block(lock, 0);
  } else {
    atomicExch(lock, 0);
  }
}

// Every thread adds to one counter; thread 0 of block `plainBlock` (if any) stores to it plainly.
__global__ void counter(int* c, int plainBlock, bool blockScope) {
  if (static_cast<int>(blockIdx.x) == plainBlock && threadIdx.x == 0) {
    *c = 5;
    return;
  }
  if (blockScope) {
    atomicAdd_block(c, 1);
  } else {
    atomicAdd(c, 1);
  }
}

__global__ void lastBlock(const float* in, float* partial, unsigned* count, float* sum, int n, Fence f) {
  __shared__ float s[128];
  __shared__ bool amLast;
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s[0];
    fence(f);
    amLast = atomicInc(count, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (amLast) {
    // The last block's threads sum the partials together, after the __syncthreads.
    s[threadIdx.x] = 0.0f;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) s[threadIdx.x] += partial[b];
    __syncthreads();
    if (threadIdx.x == 0) {
      float total = 0.0f;
      for (unsigned t = 0; t < blockDim.x; ++t) total += s[t];
      *sum = total;
    }
  }
}

// value[b] = value[b - 1] + 1 in a chain; by blockIdx, or by a ticket taken with atomicAdd.
__global__ void lookback(int* flags, int* value, int* ticket, Fence f, bool byTicket) {
  __shared__ int mine;
  if (threadIdx.x == 0) mine = byTicket ? atomicAdd(ticket, 1) : static_cast<int>(blockIdx.x);
  __syncthreads();
  if (threadIdx.x != 0) return;
  const int b = mine;
  if (b > 0) {
    while (atomicAdd(&flags[b - 1], 0) == 0) {
    }
    fence(f);
  }
  value[b] = (b > 0 ? value[b - 1] : 0) + 1;
  fence(f);
  atomicExch(&flags[b], 1);
}

__global__ void histogram(const unsigned char* in, int n, unsigned* bins) {
  __shared__ unsigned local[64];
  for (unsigned b = threadIdx.x; b < 64; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += static_cast<int>(gridDim.x * blockDim.x)) {
    atomicAdd(&local[in[i] % 64], 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 64; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

__device__ float casAdd(float* address, float v) {
  int* word = reinterpret_cast<int*>(address);
  int old = *word, assumed;
  do {
    assumed = old;
    old = atomicCAS(word, assumed, __float_as_int(__int_as_float(assumed) + v));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void casFloatAdd(float* sum) { casAdd(sum, 0.5f); }

__device__ unsigned retirementCount;

bool synchronized() {
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) std::printf("the kernel failed: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess;
}

// Message passing from thread `writer` to thread `reader` (global indices) of a grid of `blocks` x `threads`.
bool passMessage(int blocks, int threads, int writer, int reader, Fence w, Fence r, bool blockScopeFlag) {
  int* data = device_zeros<int>(1);
  int* flag = device_zeros<int>(1);
  int* out = device_zeros<int>(1);
  messagePassing<<<blocks, threads>>>(data, flag, out, w, r, writer, reader, blockScopeFlag);
  return synchronized() && expect(fetch(out) == 42, "the reader did not see the message");
}

bool passByVolatile(Fence f) {
  int* data = device_zeros<int>(1);
  int* flag = device_zeros<int>(1);
  int* out = device_zeros<int>(1);
  volatilePassing<<<2, 32>>>(data, flag, out, f);
  return synchronized() && expect(fetch(out) == 42, "the reader did not see the message");
}

bool incrementPlainly() {
  int* p = device_zeros<int>(1);
  plainIncrement<<<2, 32>>>(p);
  if (!synchronized()) return false;
  const int got = fetch(p);
  return expect(got == 1 || got == 2, "the increments made neither 1 nor 2");
}

bool readVolatileAgainstPlain() {
  int* data = device_zeros<int>(1);
  int* out = device_zeros<int>(1);
  volatileAgainstPlain<<<2, 32>>>(data, out);
  if (!synchronized()) return false;
  const int got = fetch(out);
  return expect(got == 0 || got == 7, "the volatile read saw neither value");
}

template <cuda::thread_scope Scope>
bool passByAtomicRef(bool ordered) {
  int* data = device_zeros<int>(1);
  int* flag = device_zeros<int>(1);
  int* out = device_zeros<int>(1);
  atomicRefPassing<Scope><<<2, 32>>>(data, flag, out, ordered);
  return synchronized() && expect(fetch(out) == 42, "the reader did not see the message");
}

bool lock(Fence f, bool blockScope) {
  int* l = device_zeros<int>(1);
  int* total = device_zeros<int>(1);
  spinLock<<<8, 4>>>(l, total, f, blockScope);
  return synchronized() && expect(fetch(total) == 32, "the lock let two threads in at once");
}

bool count(int blocks, int plainBlock, bool blockScope) {
  int* c = device_zeros<int>(1);
  counter<<<blocks, 32>>>(c, plainBlock, blockScope);
  return synchronized() && expect(plainBlock >= 0 || fetch(c) == blocks * 32, "the counter lost adds");
}

bool reduceByLastBlock(Fence f, bool deviceVariable) {
  const int n = 3000, threads = 128, blocks = (n + threads - 1) / threads;
  std::vector<float> in(n);
  double want = 0.0;
  for (int i = 0; i < n; ++i) {
    in[i] = static_cast<float>((i * 29) % 97) * 0.5f;
    want += in[i];
  }
  float* d_in = device_zeros<float>(n);
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  float* partial = device_zeros<float>(blocks);
  unsigned* c = device_zeros<unsigned>(1);
  if (deviceVariable) CHECK(cudaGetSymbolAddress(reinterpret_cast<void**>(&c), retirementCount));
  float* sum = device_zeros<float>(1);
  lastBlock<<<blocks, threads>>>(d_in, partial, c, sum, n, f);
  if (!synchronized()) return false;
  const double got = fetch(sum);
  return expect(got > want * (1 - 1e-5) && got < want * (1 + 1e-5), "the last block's sum is wrong");
}

bool chain(Fence f, bool byTicket) {
  const int blocks = 100;
  int* flags = device_zeros<int>(blocks);
  int* value = device_zeros<int>(blocks);
  int* ticket = device_zeros<int>(1);
  lookback<<<blocks, 64>>>(flags, value, ticket, f, byTicket);
  return synchronized() && expect(fetch(value + blocks - 1) == blocks, "the chain's count is wrong");
}

bool histogramMerge() {
  const int n = 20000;
  std::vector<unsigned char> in(n);
  std::vector<unsigned> want(64, 0);
  for (int i = 0; i < n; ++i) {
    in[i] = static_cast<unsigned char>((i * 131 + 7) % 251);
    ++want[in[i] % 64];
  }
  unsigned char* d_in = device_zeros<unsigned char>(n);
  CHECK(cudaMemcpy(d_in, in.data(), n, cudaMemcpyHostToDevice));
  unsigned* bins = device_zeros<unsigned>(64);
  histogram<<<8, 128>>>(d_in, n, bins);
  if (!synchronized()) return false;
  std::vector<unsigned> got(64);
  CHECK(cudaMemcpy(got.data(), bins, 64 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  return expect(got == want, "the histogram is wrong");
}

bool floatSum() {
  float* sum = device_zeros<float>(1);
  casFloatAdd<<<16, 64>>>(sum);
  return synchronized() && expect(fetch(sum) == 512.0f, "the CAS loop lost adds");
}

bool barrierByHand(Fence f) {
  const int blocks = 8;
  unsigned* arrived = device_zeros<unsigned>(1);
  int* data = device_zeros<int>(blocks);
  int* out = device_zeros<int>(blocks);
  gridBarrier<<<blocks, 32>>>(arrived, data, out, f);
  return synchronized() && readNeighbours(out, blocks);
}

bool run(const char* name) {
  const auto is = [name](const char* c) { return std::strcmp(name, c) == 0; };
  // Block 0's thread 0 to block 1's thread 0, of 2 blocks of 32 threads.
  if (is("mp_fences")) return passMessage(2, 32, 0, 32, device_fence, device_fence, false);
  if (is("mp_no_writer_fence")) return passMessage(2, 32, 0, 32, no_fence, device_fence, false);
  if (is("mp_no_reader_fence")) return passMessage(2, 32, 0, 32, device_fence, no_fence, false);
  if (is("mp_block_fences")) return passMessage(2, 32, 0, 32, block_fence, block_fence, false);
  if (is("mp_block_scope_flag")) return passMessage(2, 32, 0, 32, device_fence, device_fence, true);
  if (is("mp_volatile_fences")) return passByVolatile(device_fence);
  if (is("mp_volatile_no_fence")) return passByVolatile(no_fence);
  if (is("volatile_against_plain")) return readVolatileAgainstPlain();
  if (is("plain_increments")) return incrementPlainly();
  if (is("mp_release_acquire")) return passByAtomicRef<cuda::thread_scope_device>(true);
  if (is("mp_relaxed")) return passByAtomicRef<cuda::thread_scope_device>(false);
  if (is("mp_block_scope_release")) return passByAtomicRef<cuda::thread_scope_block>(true);
  // Warp 0's lane 0 to warp 1's lane 0 of one block; lane 0 to lane 1 of one warp.
  if (is("warp_mp_fences")) return passMessage(1, 64, 0, 32, block_fence, block_fence, true);
  if (is("warp_mp_no_fence")) return passMessage(1, 64, 0, 32, no_fence, no_fence, true);
  if (is("lane_mp_fences")) return passMessage(1, 32, 0, 1, block_fence, block_fence, true);
  if (is("lane_mp_no_fence")) return passMessage(1, 32, 0, 1, no_fence, no_fence, true);
  if (is("lock_fences")) return lock(device_fence, false);
  if (is("lock_no_fences")) return lock(no_fence, false);
  if (is("lock_block_scope")) return lock(device_fence, true);
  if (is("atomic_counter")) return count(4, -1, false);
  if (is("plain_against_atomic")) return count(4, 2, false);
  if (is("block_atomic_in_block")) return count(1, -1, true);
  if (is("block_atomic_across_blocks")) return count(2, -1, true);
  if (is("last_block")) return reduceByLastBlock(device_fence, false);
  if (is("last_block_no_fence")) return reduceByLastBlock(no_fence, false);
  if (is("last_block_device_variable")) return reduceByLastBlock(device_fence, true);
  if (is("lookback_fences")) return chain(device_fence, false);
  if (is("lookback_no_fence")) return chain(no_fence, false);
  if (is("lookback_ticket")) return chain(device_fence, true);
  if (is("histogram")) return histogramMerge();
  if (is("cas_float_add")) return floatSum();
  if (is("grid_barrier")) return barrierByHand(device_fence);
  if (is("grid_barrier_no_fence")) return barrierByHand(no_fence);
  std::printf("FAIL: no case named %s\n", name);
  return false;
}

}  // namespace

int main(int argc, char** argv) { return corpus::main(argc, argv, run); }
