// Kernels for the profiler's tests (test_profiler.cpp): each one memory pattern whose counts a GPU's
// counters would give are worked out by hand in the test. Compiled for every backend; the test runs
// them on the simulator with the profiler on.
#include <gpulab/kernel.hpp>

namespace {

__device__ unsigned global_lane() { return blockIdx.x * blockDim.x + threadIdx.x; }

// Lanes read consecutive floats: 128 bytes a warp, 4 sectors.
__global__ void copy_coalesced(const float* in, float* out, int n) {
  const unsigned i = global_lane();
  if (i < static_cast<unsigned>(n)) out[i] = in[i];
}
GPULAB_EXPORT_KERNEL(copy_coalesced);

// Lane i reads in[i * stride]: with a stride of 32 floats, a sector per lane.
__global__ void gather_strided(const float* in, float* out, int n, int stride) {
  const unsigned i = global_lane();
  if (i < static_cast<unsigned>(n)) out[i] = in[i * static_cast<unsigned>(stride)];
}
GPULAB_EXPORT_KERNEL(gather_strided);

// One float4 a lane: 512 bytes a warp, 16 sectors, a quarter of the requests for the same bytes.
__global__ void copy_float4(const float4* in, float4* out, int n) {
  const unsigned i = global_lane();
  if (i < static_cast<unsigned>(n)) out[i] = in[i];
}
GPULAB_EXPORT_KERNEL(copy_float4);

// Every lane reads the same float: one sector.
__global__ void broadcast_read(const float* in, float* out, int n) {
  const unsigned i = global_lane();
  if (i < static_cast<unsigned>(n)) out[i] = in[0] + static_cast<float>(i);
}
GPULAB_EXPORT_KERNEL(broadcast_read);

// Only the even lanes load: 16 lanes active per memory instruction.
__global__ void copy_even_lanes(const float* in, float* out, int n) {
  const unsigned i = global_lane();
  if (i < static_cast<unsigned>(n) && i % 2 == 0) out[i] = in[i];
}
GPULAB_EXPORT_KERNEL(copy_even_lanes);

// A warp fills a 32x32 tile by rows (conflict-free), then each lane sums a row of it, reading it by
// column across the warp: lane l reads word l * (32 + Pad) + r, so without padding all 32 lanes hit bank
// r (32 wavefronts a request) and with one column of padding 32 distinct banks.
template <int Pad>
__global__ void shared_columns(const float* in, float* out) {
  __shared__ float tile[32][32 + Pad];
  const unsigned lane = threadIdx.x;
  for (int r = 0; r < 32; ++r) tile[r][lane] = in[r * 32 + lane];
  __syncthreads();
  float sum = 0;
  for (int r = 0; r < 32; ++r) sum += tile[lane][r];
  out[lane] = sum;
}
GPULAB_EXPORT_KERNEL(shared_columns<0>);
GPULAB_EXPORT_KERNEL(shared_columns<1>);

// Every lane reads the same shared word: a broadcast, one wavefront.
__global__ void shared_broadcast(const float* in, float* out) {
  __shared__ float row[32];
  const unsigned lane = threadIdx.x;
  row[lane] = in[lane];
  __syncthreads();
  float sum = 0;
  for (int r = 0; r < 32; ++r) sum += row[r];
  out[lane] = sum;
}
GPULAB_EXPORT_KERNEL(shared_broadcast);

// Each thread reads `passes` elements, pass p at i + p * n / passes (mod n): every byte of `in` is read
// `passes` times, by different blocks.
__global__ void read_passes(const float* in, float* out, int n, int passes) {
  const unsigned i = global_lane();
  if (i >= static_cast<unsigned>(n)) return;
  float sum = 0;
  for (int p = 0; p < passes; ++p) sum += in[(i + static_cast<unsigned>(p * (n / passes))) % static_cast<unsigned>(n)];
  out[i] = sum;
}
GPULAB_EXPORT_KERNEL(read_passes);

// Every lane adds 1 to one counter: 32 lanes of each instruction on one address.
__global__ void count_all(unsigned* counter) { atomicAdd(counter, 1u); }
GPULAB_EXPORT_KERNEL(count_all);

// Each warp reduces its 32 values by five shuffles; lane 0 writes the sum.
__global__ void warp_reduce_sum(const float* in, float* out) {
  const unsigned i = global_lane();
  float v = in[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) out[i / 32] = v;
}
GPULAB_EXPORT_KERNEL(warp_reduce_sum);

}  // namespace
