// Forward progress: threads that wait on each other through memory, as CUDA code on Volta and later
// GPUs may, each case chosen by its name on the command line (`forward_progress <case>`). Every correct
// case checks its result and prints PASSED; the two deadlocks must be reported by the simulator, never
// hang. Cases:
//   warp_handoff          a warp waits on a flag another warp of its block sets, then hands on to block 1
//   chain_by_block        each of 400 blocks waits for the block before it (look-back by blockIdx)
//   chain_by_ticket       the same chain in the order of tickets taken with atomicAdd
//   spin_lock             every thread of 32 blocks takes a CAS lock with fences to add to a plain total
//   last_block            the threadFenceReduction pattern: the last block to finish sums the partials
//   grid_barrier          a grid barrier written by hand, over as many blocks as can be resident
//   reverse_chain         block i waits for block i + 1, over as many blocks as can be resident
//   atomic_wait           cuda::atomic_ref::wait in block 0 for a store by block 1
//   nanosleep_poll        a warp polls a volatile flag with __nanosleep, another warp of its block sets it
//   deadlock              block 0 waits for a flag nothing sets (a deadlock to report)
//   reverse_chain_too_big the reverse chain over more blocks than can be resident (a deadlock on a GPU too)
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda/atomic>
#include <cuda_runtime.h>

#include "corpus.h"

namespace {

using corpus::deviceZeros;
using corpus::download;
using corpus::expect;
using corpus::fetch;

__device__ int poll(int* p) { return atomicAdd(p, 0); }

__global__ void warpHandoff(int* flags, int* out) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      while (poll(&flags[0]) == 0) {
      }
      __threadfence();
      out[0] = out[1] + 1;  // out[1] was written by warp 1 before it set the flag
      __threadfence();
      atomicExch(&flags[1], 1);
    } else if (threadIdx.x == 32) {
      out[1] = 41;
      __threadfence();
      atomicExch(&flags[0], 1);
    }
  } else if (threadIdx.x == 0) {
    while (poll(&flags[1]) == 0) {
    }
    __threadfence();
    out[2] = out[0] + 1;
  }
}

// value[b] = value[b - 1] + b, each block waiting for its predecessor's flag.
__device__ void chainStep(int b, int* flags, int* value) {
  if (b > 0) {
    while (poll(&flags[b - 1]) == 0) {
    }
    __threadfence();
  }
  value[b] = (b > 0 ? value[b - 1] : 0) + b;
  __threadfence();
  atomicExch(&flags[b], 1);
}

__global__ void chainByBlock(int* flags, int* value) {
  if (threadIdx.x == 0) chainStep(static_cast<int>(blockIdx.x), flags, value);
}

__global__ void chainByTicket(int* ticket, int* flags, int* value) {
  __shared__ int mine;
  if (threadIdx.x == 0) mine = atomicAdd(ticket, 1);
  __syncthreads();
  if (threadIdx.x == 0) chainStep(mine, flags, value);
}

__global__ void spinLock(int* lock, int* total) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  __threadfence();
  *total = *total + 1;
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void lastBlock(const float* in, float* partial, unsigned* count, float* sum, int n) {
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
    __threadfence();
    amLast = atomicInc(count, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (amLast && threadIdx.x == 0) {
    float total = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b) total += partial[b];
    *sum = total;
    *count = 0;
  }
}

__global__ void gridBarrier(unsigned* arrived, int* data, int* out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = static_cast<int>(blockIdx.x) * 3;
    __threadfence();
    atomicAdd(arrived, 1u);
    while (atomicAdd(arrived, 0u) < gridDim.x) {
    }
    __threadfence();
    out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
  }
}

__global__ void reverseChain(int* flags, int* value) {
  if (threadIdx.x != 0) return;
  const int b = static_cast<int>(blockIdx.x), last = static_cast<int>(gridDim.x) - 1;
  if (b < last) {
    while (poll(&flags[b + 1]) == 0) {
    }
    __threadfence();
  }
  value[b] = (b < last ? value[b + 1] : 0) + 1;
  __threadfence();
  atomicExch(&flags[b], 1);
}

__global__ void atomicWait(int* flag, int* out) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0) {
    f.wait(0, cuda::memory_order_acquire);
    out[0] = out[1] * 2;
  } else {
    out[1] = 21;
    f.store(1, cuda::memory_order_release);
    f.notify_all();
  }
}

__global__ void nanosleepPoll(volatile int* flag, int* out) {
  if (threadIdx.x == 0) {
    while (*flag == 0) __nanosleep(100);
    __threadfence_block();
    out[0] = out[1] + 1;
  } else if (threadIdx.x == 32) {
    out[1] = 6;
    __threadfence_block();
    *flag = 1;
  }
}

__global__ void waitForever(int* flag) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    while (poll(flag) == 0) {
    }
  }
}

// The blocks of `threads` threads a GPU keeps resident at once for kernel `k`.
template <class K>
int residentBlocks(K k, int threads) {
  int perSm = 0, sms = 0, device = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, k, threads, 0));
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return perSm * sms;
}

bool run(const char* name) {
  if (std::strcmp(name, "warp_handoff") == 0) {
    int* flags = deviceZeros<int>(2);
    int* out = deviceZeros<int>(3);
    warpHandoff<<<2, 64>>>(flags, out);
    CHECK(cudaDeviceSynchronize());
    const auto h = download(out, 3);
    return expect(h[0] == 42 && h[2] == 43, "the hand-off chain computed wrong values");
  }
  if (std::strcmp(name, "chain_by_block") == 0 || std::strcmp(name, "chain_by_ticket") == 0) {
    const int blocks = 400;
    int* flags = deviceZeros<int>(blocks);
    int* value = deviceZeros<int>(blocks);
    int* ticket = deviceZeros<int>(1);
    if (name[9] == 'b') {
      chainByBlock<<<blocks, 32>>>(flags, value);
    } else {
      chainByTicket<<<blocks, 32>>>(ticket, flags, value);
    }
    CHECK(cudaDeviceSynchronize());
    return expect(download(value, blocks)[blocks - 1] == blocks * (blocks - 1) / 2, "the chain's sum is wrong");
  }
  if (std::strcmp(name, "spin_lock") == 0) {
    int* lock = deviceZeros<int>(1);
    int* total = deviceZeros<int>(1);
    spinLock<<<32, 64>>>(lock, total);
    CHECK(cudaDeviceSynchronize());
    return expect(download(total, 1)[0] == 32 * 64, "the lock let two threads in at once");
  }
  if (std::strcmp(name, "last_block") == 0) {
    const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
    std::vector<float> in(n);
    double want = 0.0;
    for (int i = 0; i < n; ++i) {
      in[i] = static_cast<float>((i * 37) % 101) * 0.25f;
      want += in[i];
    }
    float* d_in = deviceZeros<float>(n);
    CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    float* partial = deviceZeros<float>(blocks);
    unsigned* count = deviceZeros<unsigned>(1);
    float* sum = deviceZeros<float>(1);
    lastBlock<<<blocks, threads>>>(d_in, partial, count, sum, n);
    CHECK(cudaDeviceSynchronize());
    const double got = download(sum, 1)[0];
    return expect(got > want * (1 - 1e-5) && got < want * (1 + 1e-5), "the last block's sum is wrong");
  }
  if (std::strcmp(name, "grid_barrier") == 0) {
    const int blocks = residentBlocks(gridBarrier, 64);
    unsigned* arrived = deviceZeros<unsigned>(1);
    int* data = deviceZeros<int>(blocks);
    int* out = deviceZeros<int>(blocks);
    gridBarrier<<<blocks, 64>>>(arrived, data, out);
    CHECK(cudaDeviceSynchronize());
    const auto h = download(out, blocks);
    for (int b = 0; b < blocks; ++b) {
      if (h[b] != ((b + 1) % blocks) * 3) return expect(false, "a block read its neighbour's value before the barrier");
    }
    return true;
  }
  if (std::strcmp(name, "reverse_chain") == 0 || std::strcmp(name, "reverse_chain_too_big") == 0) {
    const int blocks = residentBlocks(reverseChain, 32) + (name[13] == '_' ? 1 : 0);
    int* flags = deviceZeros<int>(blocks);
    int* value = deviceZeros<int>(blocks);
    reverseChain<<<blocks, 32>>>(flags, value);
    const cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      std::printf("reverse chain over %d blocks: %s\n", blocks, cudaGetErrorString(e));
      return false;
    }
    return expect(download(value, 1)[0] == blocks, "the reverse chain's count is wrong");
  }
  if (std::strcmp(name, "atomic_wait") == 0) {
    int* flag = deviceZeros<int>(1);
    int* out = deviceZeros<int>(2);
    atomicWait<<<2, 32>>>(flag, out);
    CHECK(cudaDeviceSynchronize());
    return expect(download(out, 1)[0] == 42, "the waiter read before the store");
  }
  if (std::strcmp(name, "nanosleep_poll") == 0) {
    int* flag = deviceZeros<int>(1);
    int* out = deviceZeros<int>(2);
    nanosleepPoll<<<1, 64>>>(flag, out);
    CHECK(cudaDeviceSynchronize());
    return expect(download(out, 1)[0] == 7, "the poller read before the flag");
  }
  if (std::strcmp(name, "deadlock") == 0) {
    int* flag = deviceZeros<int>(1);
    waitForever<<<4, 32>>>(flag);
    const cudaError_t e = cudaDeviceSynchronize();
    std::printf("waitForever: %s\n", cudaGetErrorString(e));
    return false;
  }
  std::printf("FAIL: no case named %s\n", name);
  return false;
}

}  // namespace

int main(int argc, char** argv) { return corpus::main(argc, argv, run); }
