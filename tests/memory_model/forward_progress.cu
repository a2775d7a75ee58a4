// Forward progress: threads that wait on each other through memory, as CUDA code on Volta and later
// GPUs may, each case chosen by its name on the command line (`forward_progress <case>`). Every correct
// case checks its result and prints PASSED; the two deadlocks must be reported by the simulator, never
// hang. Cases:
//   warp_handoff          a warp waits on a flag another warp of its block sets, then hands on to block 1
//   chain_by_block        each of 400 blocks waits for the block before it (look-back by blockIdx)
//   chain_by_ticket       the same chain in the order of tickets taken with atomicAdd
//   spin_lock             every thread of 32 blocks takes a CAS lock with fences to add to a plain total
//   grid_barrier          a grid barrier written by hand, over as many blocks as can be resident
//   reverse_chain         block i waits for block i + 1, over as many blocks as can be resident
//   atomic_wait           cuda::atomic_ref::wait in block 0 for a store by block 1
//   nanosleep_poll        a warp polls a volatile flag with __nanosleep, another warp of its block sets it
//   volatile_spin         the same with no __nanosleep (the checked build only: see CMakeLists.txt)
//   volatile_shared_spin  the same with the flag in shared memory (checked only)
//   deadlock              block 0 waits for a flag nothing sets (a deadlock to report)
//   reverse_chain_too_big the reverse chain over more blocks than can be resident (a deadlock on a GPU too)
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda/atomic>
#include <cuda_runtime.h>

#include "corpus.h"

namespace {

using corpus::expect;
using corpus::gridBarrier;
using corpus::readNeighbours;

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

// Thread 0 polls a volatile flag (sleeping between polls with `sleep`) that thread 32, of the block's
// other warp, sets.
__global__ void volatilePoll(volatile int* flag, int* out, bool sleep) {
  if (threadIdx.x == 0) {
    while (*flag == 0) {
      if (sleep) __nanosleep(100);
    }
    __threadfence_block();
    out[0] = out[1] + 1;
  } else if (threadIdx.x == 32) {
    out[1] = 6;
    __threadfence_block();
    *flag = 1;
  }
}

// The same with the flag in shared memory.
__global__ void volatileSharedPoll(int* out) {
  __shared__ volatile int flag;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    while (flag == 0) {
    }
    out[0] = 9;
  } else if (threadIdx.x == 32) {
    flag = 1;
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
  const auto is = [name](const char* c) { return std::strcmp(name, c) == 0; };
  if (is("warp_handoff")) {
    int* flags = device_zeros<int>(2);
    int* out = device_zeros<int>(3);
    warpHandoff<<<2, 64>>>(flags, out);
    CHECK(cudaDeviceSynchronize());
    const auto h = to_host(out, 3);
    return expect(h[0] == 42 && h[2] == 43, "the hand-off chain computed wrong values");
  }
  if (is("chain_by_block") || is("chain_by_ticket")) {
    const int blocks = 400;
    int* flags = device_zeros<int>(blocks);
    int* value = device_zeros<int>(blocks);
    int* ticket = device_zeros<int>(1);
    if (is("chain_by_block")) {
      chainByBlock<<<blocks, 32>>>(flags, value);
    } else {
      chainByTicket<<<blocks, 32>>>(ticket, flags, value);
    }
    CHECK(cudaDeviceSynchronize());
    return expect(to_host(value, blocks)[blocks - 1] == blocks * (blocks - 1) / 2, "the chain's sum is wrong");
  }
  if (is("spin_lock")) {
    int* lock = device_zeros<int>(1);
    int* total = device_zeros<int>(1);
    spinLock<<<32, 64>>>(lock, total);
    CHECK(cudaDeviceSynchronize());
    return expect(fetch(total) == 32 * 64, "the lock let two threads in at once");
  }
  if (is("grid_barrier")) {
    const int blocks = residentBlocks(gridBarrier, 64);
    unsigned* arrived = device_zeros<unsigned>(1);
    int* data = device_zeros<int>(blocks);
    int* out = device_zeros<int>(blocks);
    gridBarrier<<<blocks, 64>>>(arrived, data, out, corpus::device_fence);
    CHECK(cudaDeviceSynchronize());
    return readNeighbours(out, blocks);
  }
  if (is("reverse_chain") || is("reverse_chain_too_big")) {
    const int blocks = residentBlocks(reverseChain, 32) + (is("reverse_chain_too_big") ? 1 : 0);
    int* flags = device_zeros<int>(blocks);
    int* value = device_zeros<int>(blocks);
    reverseChain<<<blocks, 32>>>(flags, value);
    const cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      std::printf("reverse chain over %d blocks: %s\n", blocks, cudaGetErrorString(e));
      return false;
    }
    return expect(fetch(value) == blocks, "the reverse chain's count is wrong");
  }
  if (is("atomic_wait")) {
    int* flag = device_zeros<int>(1);
    int* out = device_zeros<int>(2);
    atomicWait<<<2, 32>>>(flag, out);
    CHECK(cudaDeviceSynchronize());
    return expect(fetch(out) == 42, "the waiter read before the store");
  }
  if (is("nanosleep_poll") || is("volatile_spin")) {
    int* flag = device_zeros<int>(1);
    int* out = device_zeros<int>(2);
    volatilePoll<<<1, 64>>>(flag, out, is("nanosleep_poll"));
    CHECK(cudaDeviceSynchronize());
    return expect(fetch(out) == 7, "the poller read before the flag");
  }
  if (is("volatile_shared_spin")) {
    int* out = device_zeros<int>(1);
    volatileSharedPoll<<<1, 64>>>(out);
    CHECK(cudaDeviceSynchronize());
    return expect(fetch(out) == 9, "the poller did not see the flag");
  }
  if (is("deadlock")) {
    int* flag = device_zeros<int>(1);
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
