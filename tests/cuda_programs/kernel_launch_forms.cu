// The forms a kernel launch takes in real CUDA code, each checked against a host reference:
// chevrons written with spaces and a configuration across lines, a launch from a macro and from an included file,
// parameters of every kind a kernel accepts (volatile, const volatile and __restrict__ pointers,
// structs by value holding an array and a pointer, enums, __grid_constant__), template kernels with
// deduced and with mixed explicit and deduced arguments, overloaded kernels, kernels in namespaces,
// __launch_bounds__, a kernel launched through a pointer, cudaLaunchKernel and cudaLaunchKernelEx.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"
#include "kernel_launch_forms_included.cuh"

constexpr int kN = 1001;  // odd, not a multiple of the block
constexpr int kBlock = 128;
constexpr int kGrid = (kN + kBlock - 1) / kBlock;

static int failures = 0;
static void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  } else {
    std::printf("verified: %s\n", what);
  }
}

// Launched only through cudaLaunchKernel with a `const void*`: never by <<<>>> or its type.
__global__ void offsetByBlock(const float* in, float* out, float factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor + static_cast<float>(blockIdx.x);
}

__global__ void scale(const float* in, float* out, float factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor;
}

#define LAUNCH_SCALE(in, out, f) scale<<<kGrid, kBlock>>>(in, out, f, kN)

// volatile and const volatile pointers; __restrict__.
__global__ void copyVolatile(const volatile float* in, volatile float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + 1.0f;
}
__global__ void addRestrict(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// A struct by value holding an array and a pointer, an enum, and __grid_constant__.
enum class Op { add, mul };
struct Coeffs {
  float c[3];
  const float* in;
  int n;
};
__global__ void polynomial(const __grid_constant__ Coeffs p, Op op, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  const float x = p.in[i];
  out[i] = op == Op::add ? p.c[0] + p.c[1] * x + p.c[2] * x * x : p.c[0] * p.c[1] * x;
}

// Templates: deduced, and mixed explicit and deduced.
template <class T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
template <int Stride, class T>
__global__ void __launch_bounds__(128) gatherStrided(const T* in, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[(i * Stride) % n];
}

// Overloads, resolved by the arguments.
__global__ void fill(float* out, float v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = v;
}
__global__ void fill(int* out, int v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = v + i;
}

namespace kernels {
__global__ void square(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}
}  // namespace kernels

namespace ops::inner {
template <class T>
__global__ void cube(const T* in, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i] * in[i];
}
}  // namespace ops::inner

__global__ void shiftShared(const float* in, float* out, int n) {
  extern __shared__ float tile[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  const unsigned next = (threadIdx.x + 1) % blockDim.x;
  if (i < n) out[i] = tile[next];
}

static bool near(float a, float b) { return std::fabs(a - b) <= 1e-5f * (1.0f + std::fabs(b)); }

int main() {
  std::vector<float> hx(kN), hy(kN), ref(kN), hout(kN);
  std::srand(19);
  for (int i = 0; i < kN; ++i) {
    hx[i] = static_cast<float>(std::rand() % 2000 - 1000) / 128.0f + 0.25f;
    hy[i] = static_cast<float>(std::rand() % 2000 - 1000) / 64.0f + 0.5f;
  }
  const size_t bytes = kN * sizeof(float);
  float *dx, *dy, *dout;
  int* dint;
  CHECK(cudaMalloc(&dx, bytes));
  CHECK(cudaMalloc(&dy, bytes));
  CHECK(cudaMalloc(&dout, bytes));
  CHECK(cudaMalloc(&dint, kN * sizeof(int)));
  CHECK(cudaMemcpy(dx, hx.data(), bytes, cudaMemcpyHostToDevice));
  auto poison = [&] { CHECK(cudaMemset(dout, 0xFF, bytes)); };  // NaN
  auto fetch = [&] {
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hout.data(), dout, bytes, cudaMemcpyDeviceToHost));
  };
  auto all = [&](auto f) {
    for (int i = 0; i < kN; ++i) {
      if (!near(hout[i], f(i))) return false;
    }
    return true;
  };

  poison();
  scale << < kGrid, kBlock >> > (dx, dout, 3.0f, kN);
  fetch();
  expect(all([&](int i) { return hx[i] * 3.0f; }), "chevrons written with spaces");

  poison();
  scale<<<
      kGrid,
      kBlock>>>(dx, dout, -2.0f, kN);
  fetch();
  expect(all([&](int i) { return hx[i] * -2.0f; }), "a launch configuration split across lines");

  poison();
  LAUNCH_SCALE(dx, dout, 0.5f);
  fetch();
  expect(all([&](int i) { return hx[i] * 0.5f; }), "a launch from a macro");

  poison();
  launchNegateFromIncluded(dx, dout, kN, kBlock);
  fetch();
  expect(all([&](int i) { return -hx[i]; }), "a launch in an included user header");

  poison();
  copyVolatile<<<kGrid, kBlock>>>(dx, dout, kN);
  fetch();
  expect(all([&](int i) { return hx[i] + 1.0f; }), "volatile and const volatile pointer parameters");

  CHECK(cudaMemcpy(dy, hy.data(), bytes, cudaMemcpyHostToDevice));
  poison();
  addRestrict<<<kGrid, kBlock>>>(dx, dy, dout, kN);
  fetch();
  expect(all([&](int i) { return hx[i] + hy[i]; }), "__restrict__ pointer parameters");

  const Coeffs coeffs{{1.5f, -0.75f, 0.125f}, dx, kN};
  poison();
  polynomial<<<kGrid, kBlock>>>(coeffs, Op::add, dout);
  fetch();
  expect(all([&](int i) { return 1.5f - 0.75f * hx[i] + 0.125f * hx[i] * hx[i]; }),
         "a struct by value (array and pointer), an enum, __grid_constant__");

  CHECK(cudaMemcpy(dout, hy.data(), bytes, cudaMemcpyHostToDevice));
  axpy<<<kGrid, kBlock>>>(2.0f, dx, dout, kN);  // T deduced as float
  fetch();
  expect(all([&](int i) { return 2.0f * hx[i] + hy[i]; }), "a template kernel with deduced arguments");

  poison();
  gatherStrided<7><<<kGrid, kBlock>>>(dx, dout, kN);  // Stride explicit, T deduced
  fetch();
  expect(all([&](int i) { return hx[(i * 7) % kN]; }), "explicit and deduced template arguments, __launch_bounds__");

  poison();
  fill<<<kGrid, kBlock>>>(dout, 4.5f, kN);
  fetch();
  expect(all([](int) { return 4.5f; }), "an overloaded kernel chosen by its arguments (float)");
  CHECK(cudaMemset(dint, 0xFF, kN * sizeof(int)));
  fill<<<kGrid, kBlock>>>(dint, 7, kN);
  CHECK(cudaGetLastError());
  std::vector<int> hint(kN);
  CHECK(cudaMemcpy(hint.data(), dint, kN * sizeof(int), cudaMemcpyDeviceToHost));
  bool ints_ok = true;
  for (int i = 0; i < kN; ++i) ints_ok = ints_ok && hint[i] == 7 + i;
  expect(ints_ok, "an overloaded kernel chosen by its arguments (int)");

  poison();
  kernels::square<<<kGrid, kBlock>>>(dx, dout, kN);
  fetch();
  expect(all([&](int i) { return hx[i] * hx[i]; }), "a kernel in a namespace");

  poison();
  ::ops::inner::cube<<<kGrid, kBlock>>>(dx, dout, kN);
  fetch();
  expect(all([&](int i) { return hx[i] * hx[i] * hx[i]; }), "a deduced template kernel in a nested namespace");

  poison();
  auto kp = kernels::square;
  kp<<<kGrid, kBlock>>>(dy, dout, kN);
  fetch();
  expect(all([&](int i) { return hy[i] * hy[i]; }), "a kernel launched through a pointer");

  poison();
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  shiftShared<<<kGrid, kBlock, kBlock * sizeof(float), stream>>>(dx, dout, kN);
  fetch();
  expect(all([&](int i) {
           const int b = i / kBlock, t = i % kBlock;
           const int j = b * kBlock + (t + 1) % kBlock;
           return j < kN ? hx[j] : 0.0f;
         }),
         "dynamic shared memory and a stream in the configuration");

  poison();
  {
    float factor = 1.25f;
    int n = kN;
    void* args[] = {&dx, &dout, &factor, &n};
    CHECK(cudaLaunchKernel(scale, dim3(kGrid), dim3(kBlock), args, 0, stream));
  }
  fetch();
  expect(all([&](int i) { return hx[i] * 1.25f; }), "cudaLaunchKernel with a typed kernel pointer");

  poison();
  {
    // As CUDA's samples write it: the kernel as a const void*, which only its definition made known.
    float factor = -0.75f;
    int n = kN;
    void* args[] = {&dx, &dout, &factor, &n};
    CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(offsetByBlock), dim3(kGrid), dim3(kBlock), args, 0, stream));
  }
  fetch();
  expect(all([&](int i) { return hx[i] * -0.75f + static_cast<float>(i / kBlock); }),
         "cudaLaunchKernel with the kernel as a void pointer");

  poison();
  {
    cudaLaunchAttribute attrs[2] = {};
    attrs[0].id = cudaLaunchAttributePriority;
    attrs[0].val.priority = 0;
    attrs[1].id = cudaLaunchAttributeClusterDimension;
    attrs[1].val.clusterDim.x = 1;
    attrs[1].val.clusterDim.y = 1;
    attrs[1].val.clusterDim.z = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(kGrid);
    config.blockDim = dim3(kBlock);
    config.dynamicSmemBytes = kBlock * sizeof(float);
    config.stream = stream;
    config.attrs = attrs;
    config.numAttrs = 2;
    CHECK(cudaLaunchKernelEx(&config, shiftShared, dx, dout, kN));
  }
  fetch();
  expect(all([&](int i) {
           const int b = i / kBlock, t = i % kBlock;
           const int j = b * kBlock + (t + 1) % kBlock;
           return j < kN ? hx[j] : 0.0f;
         }),
         "cudaLaunchKernelEx with dynamic shared memory, a stream and attributes");

  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dint));
  if (failures != 0) {
    std::fprintf(stderr, "FAILED: %d checks\n", failures);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
