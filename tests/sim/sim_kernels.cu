// Kernels for the simulator's tests (tests/sim/<layer>/test_*.cpp): one per built-in or behaviour, each
// small enough that its expected output is computed by hand in the test. CUDA C++, compiled once for
// every backend into the OBJECT library sim_test_kernels (tests/sim/CMakeLists.txt); the tests find
// each kernel by the name it is exported with. One concept, the tests' kernel set, kept in one file over
// 500 lines so that one object library compiles it once.
#include <gpulab/kernel.hpp>

#if defined(GPULAB_SIM)
#include <stdexcept>
#endif

namespace {

// ---- built-in variables -----------------------------------------------------------------------------
// Each thread writes who it is, at its linear index in the grid.
__global__ void write_thread_info(int* out) {
  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned bid = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
  int* o = out + 4 * (bid * per_block + tid);
  o[0] = static_cast<int>(threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16);
  o[1] = static_cast<int>(blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16);
  o[2] = static_cast<int>(blockDim.x | blockDim.y << 8 | blockDim.z << 16);
  o[3] = static_cast<int>(gridDim.x | gridDim.y << 8 | gridDim.z << 16) + (warpSize << 24);
}
GPULAB_EXPORT_KERNEL(write_thread_info);

// ---- warp intrinsics ----------------------------------------------------------------------------------
// Sum of each warp's 32 values by a shuffle-down tree; lane 0 writes it.
__global__ void warp_sum(const float* in, float* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) out[i / 32] = v;
}
GPULAB_EXPORT_KERNEL(warp_sum);

// Every shuffle, with and without `width`: 8 results per lane.
__global__ void shuffles(int* out) {
  const int lane = static_cast<int>(threadIdx.x);
  const int v = 100 + lane;
  int* o = out + 8 * lane;
  o[0] = __shfl_sync(0xffffffffu, v, 5);
  o[1] = __shfl_sync(0xffffffffu, v, lane + 3, 8);
  o[2] = __shfl_up_sync(0xffffffffu, v, 3);
  o[3] = __shfl_up_sync(0xffffffffu, v, 3, 8);
  o[4] = __shfl_down_sync(0xffffffffu, v, 3);
  o[5] = __shfl_down_sync(0xffffffffu, v, 3, 8);
  o[6] = __shfl_xor_sync(0xffffffffu, v, 1);
  o[7] = static_cast<int>(__shfl_xor_sync(0xffffffffu, static_cast<double>(v) * 0.5, 20, 16) * 2.0);
}
GPULAB_EXPORT_KERNEL(shuffles);

// Votes under a partial mask: lanes 0-19 vote, the others do not take part.
__global__ void votes(unsigned* out) {
  const unsigned lane = threadIdx.x;
  unsigned* o = out + 5 * lane;
  if (lane < 20) {
    const unsigned mask = 0x000fffffu;
    o[0] = __ballot_sync(mask, lane % 3 == 0);
    o[1] = static_cast<unsigned>(__any_sync(mask, lane == 7));
    o[2] = static_cast<unsigned>(__all_sync(mask, lane < 19));
    o[3] = __match_any_sync(mask, lane % 4);
    o[4] = __activemask() & mask;
  } else {
    o[0] = o[1] = o[2] = o[3] = o[4] = 0xdeadbeefu;
  }
}
GPULAB_EXPORT_KERNEL(votes);

// __activemask in the two arms of a branch: each arm's lanes, as a converged warp reports them. The
// block's second warp is partial.
__global__ void active_in_branches(unsigned* out) {
  const unsigned t = threadIdx.x;
  if (t % 3 == 0) {
    out[t] = __activemask();
  } else {
    out[t] = __activemask();
  }
}
GPULAB_EXPORT_KERNEL(active_in_branches);

// ---- bit and math intrinsics, vector types ----------------------------------------------------------------
__global__ void bits_and_math(const unsigned* in, unsigned* bits, float* math) {
  const unsigned i = threadIdx.x;
  const unsigned x = in[i];
  bits[4 * i + 0] = static_cast<unsigned>(__popc(x));
  bits[4 * i + 1] = static_cast<unsigned>(__clz(static_cast<int>(x)));
  bits[4 * i + 2] = static_cast<unsigned>(__ffs(static_cast<int>(x)));
  bits[4 * i + 3] = __brev(x);
  if (i == 0) {
    const float4 f = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
    const float2 g = make_float2(0.5f, -2.0f);
    math[0] = fmaf(f.x, f.y, f.z);
    math[1] = rsqrtf(f.w);
    math[2] = __fdividef(f.z, f.y);
    math[3] = __expf(0.0f);
    math[4] = __saturatef(g.y);
    math[5] = __saturatef(g.x);
    math[6] = __saturatef(3.0f);
    math[7] = static_cast<float>(min(3, -4) + max(2u, 7u)) + min(1.5f, 2.5f) + max(-1.0f, -3.0f);
    math[8] = static_cast<float>(__ldg(in + 1));
    math[9] = static_cast<float>(alignof(float4) + alignof(double2) + alignof(float2) + alignof(int4));
  }
}
GPULAB_EXPORT_KERNEL(bits_and_math);

// ---- atomics ---------------------------------------------------------------------------------------------
// ints: [add, min, max, exch, cas wins, sub]; uns: [add, inc, dec, and, or, xor, cas word].
__global__ void contended_atomics(int* ints, unsigned* uns, unsigned long long* ull, float* f, double* d) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(ints, 1);
  atomicAdd(uns, 2u);
  atomicAdd(ull, 3ull);
  atomicAdd(f, 0.5f);
  atomicAdd(d, 0.25);
  atomicInc(uns + 1, 9u);  // wraps to 0 after 9
  atomicDec(uns + 2, 6u);  // wraps to 6 after 0
  atomicMin(ints + 1, static_cast<int>(g) - 100);
  atomicMax(ints + 2, static_cast<int>(g) * 3);
  atomicAnd(uns + 3, ~(1u << (g % 32)));
  atomicOr(uns + 4, 1u << (g % 32));
  atomicXor(uns + 5, 1u << (g % 8));
  atomicExch(ints + 3, 7);
  atomicSub(ints + 5, 2);
  // Exactly one thread turns the word from 0 to 1.
  if (atomicCAS(uns + 6, 0u, 1u) == 0u) atomicAdd(ints + 4, 1);
}
GPULAB_EXPORT_KERNEL(contended_atomics);

// Return values: one thread checks that each atomic returns the old value.
__global__ void atomic_returns(int* out) {
  __shared__ int x;
  __shared__ unsigned u;
  __shared__ float f;
  __shared__ double d;
  x = 10;
  u = 5;
  f = 1.5f;
  d = 2.5;
  out[0] = atomicAdd(&x, 3);                       // 10, x = 13
  out[1] = atomicExch(&x, 4);                      // 13, x = 4
  out[2] = atomicCAS(&x, 4, 9);                    // 4, x = 9
  out[3] = atomicCAS(&x, 4, 1);                    // 9, x stays 9
  out[4] = x;                                      // 9
  out[5] = static_cast<int>(atomicInc(&u, 5u));    // 5, u = 0 (5 >= 5 wraps)
  out[6] = static_cast<int>(u);                    // 0
  out[7] = static_cast<int>(atomicDec(&u, 3u));    // 0, u = 3 (0 wraps to val)
  out[8] = static_cast<int>(u);                    // 3
  out[9] = static_cast<int>(atomicAdd(&f, 1.0f) * 10.0f);  // 15
  out[10] = static_cast<int>(atomicAdd(&d, 5.0) * 10.0);   // 25
  out[11] = static_cast<int>(d * 10.0);                    // 75
  out[12] = atomicMin(&x, -2);                             // 9, x = -2
  out[13] = x;                                             // -2
}
GPULAB_EXPORT_KERNEL(atomic_returns);

// ---- shared memory and barriers -----------------------------------------------------------------------------
// Reverses each block's slice through dynamic shared memory.
__global__ void reverse_in_shared(const int* in, int* out) {
  int* s = gpulab::dynamic_shared<int>();
  const unsigned n = blockDim.x;
  const unsigned base = blockIdx.x * n;
  s[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = s[n - 1 - threadIdx.x];
}
GPULAB_EXPORT_KERNEL(reverse_in_shared);

// A barrier in a loop: each round every thread reads its right neighbour's value of the round.
__global__ void barrier_rounds(int* out, int rounds) {
  __shared__ int s[256];
  const unsigned t = threadIdx.x;
  const unsigned n = blockDim.x;
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {
    s[t] = static_cast<int>(t) * r + static_cast<int>(blockIdx.x);
    __syncthreads();
    acc += s[(t + 1) % n];
    __syncthreads();
  }
  out[blockIdx.x * n + t] = acc;
}
GPULAB_EXPORT_KERNEL(barrier_rounds);

__global__ void barrier_votes(int* out) {
  const int t = static_cast<int>(threadIdx.x);
  const int count = __syncthreads_count(t % 3 == 0);
  const int all = __syncthreads_and(t < 1000);
  const int none = __syncthreads_and(t != 5);
  const int any = __syncthreads_or(t == 17);
  const int nobody = __syncthreads_or(t < 0);
  if (t == 0) {
    out[0] = count;
    out[1] = all;
    out[2] = none;
    out[3] = any;
    out[4] = nobody;
  }
}
GPULAB_EXPORT_KERNEL(barrier_votes);

// A warp-synchronous tree reduction in shared memory, ordered by __syncwarp only, then a block-level
// combine: correct, and racecheck must find nothing in it.
__global__ void shared_warp_reduce(const int* in, int* out) {
  __shared__ int s[128];
  __shared__ int warp_total[4];
  const unsigned t = threadIdx.x;
  const unsigned lane = t % 32;
  const unsigned warp = t / 32;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncwarp();
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    int v = 0;
    if (lane < offset) v = s[t] + s[t + offset];
    __syncwarp();
    if (lane < offset) s[t] = v;
    __syncwarp();
  }
  if (lane == 0) warp_total[warp] = s[t];
  __syncthreads();
  if (t == 0) {
    int sum = 0;
    for (unsigned w = 0; w < blockDim.x / 32; ++w) sum += warp_total[w];
    out[blockIdx.x] = sum;
  }
}
GPULAB_EXPORT_KERNEL(shared_warp_reduce);

// The guide's tiled matrix product (done right), on raw pointers: C = A * B, n x n.
__global__ void tiled_matmul(const float* a, const float* b, float* c, int n) {
  constexpr int tile = 16;
  __shared__ float sa[tile][tile];
  __shared__ float sb[tile][tile];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int row = static_cast<int>(blockIdx.y) * tile + ty;
  const int col = static_cast<int>(blockIdx.x) * tile + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += tile) {
    sa[ty][tx] = row < n && k0 + tx < n ? a[row * n + k0 + tx] : 0.0f;
    sb[ty][tx] = col < n && k0 + ty < n ? b[(k0 + ty) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < tile; ++k) acc += sa[ty][k] * sb[k][tx];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = acc;
}
GPULAB_EXPORT_KERNEL(tiled_matmul);

// ---- streams and events ---------------------------------------------------------------------------------------
// Waits (a bounded time) for the host to set *flag, and says whether it saw it: a launch that only
// returned after its kernel ended would make this report 0.
__global__ void wait_for_host(const int* flag, int* seen) {
  for (long i = 0; i < 2000000000L; ++i) {
    if (*static_cast<const volatile int*>(flag) != 0) {
      *seen = 1;
      return;
    }
  }
  *seen = 0;
}
GPULAB_EXPORT_KERNEL(wait_for_host);

// Appends `value` to a log after some busy work: the order of the log is the order the kernels ran in.
__global__ void append_after_work(int* log, int value, int work) {
  volatile float x = 1.0f;
  for (int i = 0; i < work; ++i) x = x * 1.0000001f;
  const int slot = atomicAdd(log, 1);
  log[1 + slot] = value;
}
GPULAB_EXPORT_KERNEL(append_after_work);

// Thread 0 spins until *flag is set or `budget` rounds have passed, then says what it saw: 1 when other
// work set the flag while it spun, 0 when that work could only run after it.
__global__ void wait_for_flag(int* flag, int* saw, long long budget) {
  if (threadIdx.x != 0) return;
  for (long long i = 0; i < budget && atomicAdd(flag, 0) == 0; ++i) {
  }
  *saw = atomicAdd(flag, 0);
}
GPULAB_EXPORT_KERNEL(wait_for_flag);

// Sets the flag wait_for_flag spins on.
__global__ void set_flag(int* flag) { atomicExch(flag, 1); }
GPULAB_EXPORT_KERNEL(set_flag);

// ---- planted bugs, for the checks ------------------------------------------------------------------------------
// Thread 3 of block 1 writes one element past the end of `a` (n elements).
__global__ void planted_oob_write(int* a, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) a[i] = i;
  if (blockIdx.x == 1 && threadIdx.x == 3) a[n] = -1;
}
GPULAB_EXPORT_KERNEL(planted_oob_write);

// Thread 40 reads what thread 2 wrote, with no barrier between (different warps): a race whichever
// order they run in. (The index is a run-time value: g++ does not instrument accesses to a static
// array at a constant in-bounds index, so racecheck cannot see those; see docs/simulator.md.)
__global__ void planted_shared_race(int* out) {
  __shared__ int s[64];
  const unsigned t = threadIdx.x;
  const unsigned at = blockIdx.x;  // 0
  if (t == 2) s[at] = 42;
  if (t == 40) out[0] = s[at];
  __syncthreads();
}
GPULAB_EXPORT_KERNEL(planted_shared_race);

// The same race in the other order: the reader runs first in the simulator's schedule.
__global__ void planted_shared_race_reader_first(int* out) {
  __shared__ int s[64];
  const unsigned t = threadIdx.x;
  const unsigned at = blockIdx.x + 8;
  if (t == 1) out[0] = s[at];
  if (t == 50) s[at] = 7;
  __syncthreads();
}
GPULAB_EXPORT_KERNEL(planted_shared_race_reader_first);

// Two lanes of one warp: lane 1 reads what lane 0 wrote, without __syncwarp.
__global__ void planted_warp_race(int* out) {
  __shared__ int s[32];
  const unsigned t = threadIdx.x;
  s[t] = static_cast<int>(t);
  out[t] = s[(t + 31) % 32];
}
GPULAB_EXPORT_KERNEL(planted_warp_race);

// Global memory: each thread writes its slot and reads its neighbour's. With `barrier` the exchange is
// ordered within the block (correct); without, thread t may read before thread t+1 writes (a race).
// Blocks use disjoint slots.
__global__ void global_neighbour_exchange(int* slots, int* out, int barrier) {
  const unsigned base = blockIdx.x * blockDim.x;
  const unsigned t = threadIdx.x;
  slots[base + t] = static_cast<int>(base + t);
  if (barrier) __syncthreads();
  out[base + t] = slots[base + (t + 1) % blockDim.x];
}
GPULAB_EXPORT_KERNEL(global_neighbour_exchange);

// Across blocks: each block's thread 0 publishes a value and, after a barrier that orders its own
// block only, reads the next block's (a race: blocks are not ordered within a launch).
__global__ void global_race_across_blocks(int* slots, int* out) {
  if (threadIdx.x == 0) slots[blockIdx.x] = static_cast<int>(blockIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = slots[(blockIdx.x + 1) % gridDim.x];
}
GPULAB_EXPORT_KERNEL(global_race_across_blocks);

// Every thread of one block reads one global word, twice, with a barrier between; then thread 40
// writes it. Past its first few reads, a block's reads of a word are noted once for all until its next
// barrier or warp call (include/gpulab/sim/detail/checks/racecheck.hpp): the second round must be
// recorded afresh. barrier_first 1: a barrier orders the write after every read (correct); 0: the write
// races with the second round.
// The rounds index the word with two arguments (both 0): with one index, the sanitize preset's build
// (whose __syncthreads is an out-of-line call) instrumented only the first of the two reads.
__global__ void global_reads_then_write(int* word, int* out, int barrier_first, int first, int second) {
  const unsigned t = threadIdx.x;
  int v = word[first];
  __syncthreads();
  v += word[second];
  if (barrier_first) __syncthreads();
  if (t == 40) word[0] = v;
  out[t] = v;
}
GPULAB_EXPORT_KERNEL(global_reads_then_write);

// Every thread of every block counts into one word with atomics: ordered by definition, no race.
__global__ void global_atomic_count(int* count) { atomicAdd(count, 1); }
GPULAB_EXPORT_KERNEL(global_atomic_count);

// The first half of the block waits at one barrier, the second half at another.
__global__ void divergent_barrier(int* out) {
  const unsigned t = threadIdx.x;
  if (t < blockDim.x / 2) {
    __syncthreads();
    out[t] = 1;
  } else {
    __syncthreads();
    out[t] = 2;
  }
}
GPULAB_EXPORT_KERNEL(divergent_barrier);

// Thread 5 leaves before the barrier the others wait at.
__global__ void exit_before_barrier(int* out) {
  const unsigned t = threadIdx.x;
  if (t == 5) return;
  __syncthreads();
  out[t] = 1;
}
GPULAB_EXPORT_KERNEL(exit_before_barrier);

// Lane 0 waits in a shuffle for lane 1, which waits at __syncthreads: a deadlock on any device.
__global__ void warp_barrier_deadlock(int* out) {
  const unsigned t = threadIdx.x;
  if (t == 0) {
    out[0] = __shfl_sync(0x3u, 1, 1);
  } else {
    __syncthreads();
  }
}
GPULAB_EXPORT_KERNEL(warp_barrier_deadlock);

// ---- the barrier's fast mode (sim/detail/fast_barrier.hpp) and what ends it ----------------------------
// Each kernel first runs `rounds` rounds of plain barriers, which put the block in fast mode, then does
// one thing the engine must take over from there.

// A running total passed around the block through shared memory, `rounds` times.
__device__ int fast_rounds(int* s, int rounds) {
  const int t = static_cast<int>(threadIdx.x);
  const int n = static_cast<int>(blockDim.x);
  int acc = t;
  for (int r = 0; r < rounds; ++r) {
    s[t] = acc;
    __syncthreads();
    acc += s[(t + 1) % n];
    __syncthreads();
  }
  return acc;
}

// Then warp shuffles, a counting barrier and plain barriers again: out[t] = the warp's sum of acc,
// out[n + t] = the count of odd acc, out[2n + t] = acc of the next thread after a last round.
__global__ void fast_mode_then_warp_calls(int* out, int rounds) {
  __shared__ int s[256];
  const int t = static_cast<int>(threadIdx.x);
  const int n = static_cast<int>(blockDim.x);
  const int acc = fast_rounds(s, rounds);
  int sum = acc;
  for (int d = 16; d > 0; d /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, d);
  const int odd = __syncthreads_count(acc % 2 != 0);
  const int again = fast_rounds(s, rounds);
  s[t] = again;
  __syncthreads();
  out[t] = sum;
  out[n + t] = odd;
  out[2 * n + t] = s[(t + 1) % n];
}
GPULAB_EXPORT_KERNEL(fast_mode_then_warp_calls);

// Then the odd threads exit and the even ones go on with barriers among themselves.
__global__ void fast_mode_then_exits(int* out, int rounds) {
  __shared__ int s[256];
  const int t = static_cast<int>(threadIdx.x);
  const int n = static_cast<int>(blockDim.x);
  const int acc = fast_rounds(s, rounds);
  out[t] = acc;
  if (t % 2 != 0) return;
  for (int r = 0; r < 3; ++r) {
    s[t] = acc + r;
    __syncthreads();
    out[n + t] = s[(t + 2) % n];
    __syncthreads();
  }
}
GPULAB_EXPORT_KERNEL(fast_mode_then_exits);

// Then thread `thrower` fails while the others wait at the next barrier; every thread counts itself
// into out[1] when it leaves, normally or unwound.
struct LeaveCounter {
  int* count;
  __device__ ~LeaveCounter() { atomicAdd(count, 1); }
};
__global__ void fast_mode_then_throw(int* out, int rounds, int thrower) {
  __shared__ int s[256];
  const LeaveCounter leaving{out + 1};
  const int acc = fast_rounds(s, rounds);
  if (static_cast<int>(threadIdx.x) == thrower) {
#if defined(GPULAB_SIM)
    throw std::runtime_error("planted failure after fast barriers");
#else
    __trap();
#endif
  }
  __syncthreads();
  atomicAdd(out, acc);
}
GPULAB_EXPORT_KERNEL(fast_mode_then_throw);

// Then lane 5 waits in a shuffle for lane 6, which waits at a barrier: a deadlock. Threads 0 to 4 reach
// that barrier while the block is still in fast mode.
__global__ void fast_mode_then_deadlock(int* out, int rounds) {
  __shared__ int s[256];
  const int acc = fast_rounds(s, rounds);
  if (threadIdx.x == 5) {
    out[0] = __shfl_sync(0x60u, acc, 6);
  } else {
    __syncthreads();  // the barrier of the deadlock
  }
}
GPULAB_EXPORT_KERNEL(fast_mode_then_deadlock);

// Then thread 3 reads what thread 200 writes, with no barrier between (thread 3 runs first). The
// index is not a constant: g++'s instrumentation skips constant in-bounds indices into a TLS array
// (docs/simulator.md, "Limits of the checks").
__global__ void fast_mode_then_race(int* out, int rounds) {
  __shared__ int s[256];
  const int t = static_cast<int>(threadIdx.x);
  const int acc = fast_rounds(s, rounds);
  const int at = static_cast<int>(blockDim.x) - 56;  // 200 for 256 threads
  __syncthreads();
  if (t == 3) out[0] = s[at];
  if (t == at) s[at] = acc;
}
GPULAB_EXPORT_KERNEL(fast_mode_then_race);

// Then the first half of the block waits at one barrier and the second half at another.
__global__ void fast_mode_then_divergent_barrier(int* out, int rounds) {
  __shared__ int s[256];
  const int t = static_cast<int>(threadIdx.x);
  const int acc = fast_rounds(s, rounds);
  if (t < static_cast<int>(blockDim.x) / 2) {
    __syncthreads();  // the first half's barrier
  } else {
    __syncthreads();  // the second half's barrier
  }
  out[t] = acc;
}
GPULAB_EXPORT_KERNEL(fast_mode_then_divergent_barrier);

// Then thread 100 writes one element past the end of out (n elements).
__global__ void fast_mode_then_overrun(int* out, int rounds) {
  __shared__ int s[256];
  const int t = static_cast<int>(threadIdx.x);
  const int acc = fast_rounds(s, rounds);
  out[t == 100 ? blockDim.x : t] = acc;
  __syncthreads();
}
GPULAB_EXPORT_KERNEL(fast_mode_then_overrun);

// Shared words accessed whole and in bytes within one barrier interval (racecheck keeps a cell per word
// until a word is accessed in parts). Indices come from blockDim so that they are not constants.
//   mode 0: thread 0 writes word w whole, thread 40 then reads its byte 2: a race.
//   mode 1: threads 1 and 41 write bytes 0 and 1 of word w, then after a barrier thread 2 reads w whole,
//           and threads 1 and 41 write bytes 2 and 3 of word w + 1: no race.
//   mode 2: as mode 1 without the barrier: thread 2's whole read races with both byte writes.
__global__ void mixed_width_shared(int* out, int mode) {
  __shared__ unsigned int words[64];
  const unsigned t = threadIdx.x;
  const unsigned w = blockDim.x / 8;  // 8 for 64 threads
  auto* bytes = reinterpret_cast<unsigned char*>(words);
  words[t] = 0;
  __syncthreads();
  if (mode == 0) {
    if (t == 0) words[w] = 0x01020304u;
    if (t == 40) out[0] = bytes[4 * w + 2];
  } else {
    if (t == 1) bytes[4 * w] = 7;
    if (t == 41) bytes[4 * w + 1] = 9;
    if (mode == 1) __syncthreads();
    if (t == 2) out[0] = static_cast<int>(words[w]);
    if (t == 1) bytes[4 * (w + 1) + 2] = 5;
    if (t == 41) bytes[4 * (w + 1) + 3] = 6;
  }
  __syncthreads();
}
GPULAB_EXPORT_KERNEL(mixed_width_shared);

// Thread 9 of block 2 throws; the block's other threads are waiting at a barrier.
__global__ void throws_in_thread(int* out) {
  const unsigned t = threadIdx.x;
  out[blockIdx.x * blockDim.x + t] = 1;
  if (blockIdx.x == 2 && t == 9) {
#if defined(GPULAB_SIM)
    throw std::runtime_error("planted failure");
#else
    __trap();
#endif
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = 2;
}
GPULAB_EXPORT_KERNEL(throws_in_thread);

// Reads through a pointer the kernel finds in device memory: a host address planted there.
__global__ void follow_pointer(int* const* table, int* out) { out[threadIdx.x] = *table[0]; }
GPULAB_EXPORT_KERNEL(follow_pointer);

// A thread-local array indexed at run time (so it lives on the thread's stack): each thread sums
// in[t], in[t] + 1, ..., in[t] + 15 through it, reading back every element it wrote.
__global__ void local_array_sum(const int* in, int* out) {
  int local[16];
  const int t = static_cast<int>(threadIdx.x);
  for (int i = 0; i < 16; ++i) local[(i * 7 + t) % 16] = in[t] + (i * 7 + t) % 16;
  int sum = 0;
  for (int i = 0; i < 16; ++i) sum += local[(i * 5 + t) % 16];
  out[t] = sum;
}
GPULAB_EXPORT_KERNEL(local_array_sum);

// Each thread publishes the address of one of its locals in shared memory and, after a barrier, reads
// its right neighbour's: another thread's local memory, which no thread may touch.
__global__ void read_neighbours_local(int* out) {
  __shared__ const int* published[64];
  const unsigned t = threadIdx.x;
  const int mine = static_cast<int>(t) * 7 + out[t];
  published[t] = &mine;
  __syncthreads();
  out[t] = *published[(t + 1) % blockDim.x];
  __syncthreads();  // keeps `mine` alive until every neighbour has read it
}
GPULAB_EXPORT_KERNEL(read_neighbours_local);

__global__ void copy_ints(const int* in, int* out) { out[threadIdx.x] = in[threadIdx.x]; }
GPULAB_EXPORT_KERNEL(copy_ints);

// Writes past the launch's dynamic shared memory (shared_bytes = 64 ints).
__global__ void dynamic_shared_overrun(int* out) {
  int* s = gpulab::dynamic_shared<int>();
  s[threadIdx.x] = 1;  // threadIdx.x reaches 64
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
GPULAB_EXPORT_KERNEL(dynamic_shared_overrun);

}  // namespace
