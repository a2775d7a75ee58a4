// The toolkit's small headers that programs name beside <cuda_runtime.h>: cuComplex.h arithmetic in a
// kernel against the host's, math_constants.h, vector_functions.h, NVTX ranges, the profiler API and
// library_types.h, each as nvcc's toolkit gives them.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <cuComplex.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <library_types.h>
#include <math_constants.h>
#include <nvtx3/nvToolsExt.h>
#include <vector_functions.h>

#include "cuda_check.h"

// z = (a * b + c) / a, then |z|, each complex operation from cuComplex.h.
__global__ void complexChain(const cuFloatComplex* a, const cuFloatComplex* b, const cuFloatComplex* c,
                             cuFloatComplex* z, float* magnitude, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cuFloatComplex t = cuCaddf(cuCmulf(a[i], b[i]), c[i]);
  z[i] = cuCdivf(t, a[i]);
  magnitude[i] = cuCabsf(z[i]);
}

// CUDA's special values are device expressions (bit reinterpretations), so they are taken on the device.
__global__ void specialValues(float* f, double* d) {
  f[0] = CUDART_INF_F;
  f[1] = CUDART_NAN_F;
  f[2] = CUDART_NEG_ZERO_F;
  d[0] = CUDART_INF;
  d[1] = CUDART_NAN;
  d[2] = CUDART_NEG_ZERO;
}

// A full turn in steps of CUDART_PI_F / 8 through make_float2: the points lie on the unit circle.
__global__ void unitCircle(float2* points, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) points[i] = make_float2(cosf(i * CUDART_PI_F / 8.0f), sinf(i * CUDART_PI_F / 8.0f));
}

static float frand() { return std::rand() / static_cast<float>(RAND_MAX) * 4.0f - 2.0f; }

int main() {
  const int n = 1031;
  std::srand(2027);
  cuFloatComplex *ha = new cuFloatComplex[n], *hb = new cuFloatComplex[n], *hc = new cuFloatComplex[n];
  cuFloatComplex* hz = new cuFloatComplex[n];
  float* hm = new float[n];
  for (int i = 0; i < n; ++i) {
    ha[i] = make_cuFloatComplex(frand(), frand());
    if (cuCabsf(ha[i]) < 0.1f) ha[i] = make_cuFloatComplex(1.5f, -0.75f);  // no near-zero divisors
    hb[i] = make_cuFloatComplex(frand(), frand());
    hc[i] = make_cuComplex(frand(), frand());
  }
  const int depth = nvtxRangePushA("toolkit_headers");
  cuFloatComplex *da, *db, *dc, *dz;
  float* dm;
  const size_t bytes = n * sizeof(cuFloatComplex);
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMalloc(&dz, bytes));
  CHECK(cudaMalloc(&dm, n * sizeof(float)));
  CHECK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, hc, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dz, 0xff, bytes));
  CHECK(cudaMemset(dm, 0xff, n * sizeof(float)));
  CHECK(cudaProfilerStart());
  complexChain<<<(n + 127) / 128, 128>>>(da, db, dc, dz, dm, n);
  CHECK(cudaGetLastError());
  CHECK(cudaProfilerStop());
  CHECK(cudaMemcpy(hz, dz, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hm, dm, n * sizeof(float), cudaMemcpyDeviceToHost));
  const int popped = nvtxRangePop();

  // Against the same chain in double precision on the host.
  double worst = 0.0;
  for (int i = 0; i < n; ++i) {
    cuDoubleComplex a = cuComplexFloatToDouble(ha[i]), b = cuComplexFloatToDouble(hb[i]);
    cuDoubleComplex c = cuComplexFloatToDouble(hc[i]);
    cuDoubleComplex z = cuCdiv(cuCadd(cuCmul(a, b), c), a);
    double scale = cuCabs(z) + 1.0;
    double err = std::fmax(std::fabs(cuCreal(z) - cuCrealf(hz[i])), std::fabs(cuCimag(z) - cuCimagf(hz[i])));
    err = std::fmax(err, std::fabs(cuCabs(z) - hm[i])) / scale;
    if (!(err <= worst)) worst = std::isnan(err) ? INFINITY : err;
  }

  const int points = 16 * 3 + 5;
  float2* dp;
  float2 hp[points];
  CHECK(cudaMalloc(&dp, sizeof hp));
  CHECK(cudaMemset(dp, 0xff, sizeof hp));
  unitCircle<<<1, 64>>>(dp, points);
  CHECK(cudaMemcpy(hp, dp, sizeof hp, cudaMemcpyDeviceToHost));
  double radius_error = 0.0;
  for (int i = 0; i < points; ++i) {
    double r = std::sqrt(double(hp[i].x) * hp[i].x + double(hp[i].y) * hp[i].y);
    radius_error = std::fmax(radius_error, std::isnan(r) ? INFINITY : std::fabs(r - 1.0));
  }
  float* dfs;
  double* dds;
  float hfs[3] = {1.0f, 1.0f, 1.0f};
  double hds[3] = {1.0, 1.0, 1.0};
  CHECK(cudaMalloc(&dfs, sizeof hfs));
  CHECK(cudaMalloc(&dds, sizeof hds));
  specialValues<<<1, 1>>>(dfs, dds);
  CHECK(cudaMemcpy(hfs, dfs, sizeof hfs, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hds, dds, sizeof hds, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dfs));
  CHECK(cudaFree(dds));
  const bool constants_ok = CUDART_PI == 3.14159265358979323846 && CUDART_PI_F == 3.14159265358979323846f &&
                            CUDART_PI_HI + CUDART_PI_LO == CUDART_PI && CUDART_TWO_TO_52 == 4503599627370496.0 &&
                            CUDART_LN2 == std::log(2.0) && std::isinf(hfs[0]) && hfs[0] > 0 &&
                            std::isnan(hfs[1]) && hfs[2] == 0.0f && std::signbit(hfs[2]) && std::isinf(hds[0]) &&
                            std::isnan(hds[1]) && hds[2] == 0.0 && std::signbit(hds[2]);
  const bool types_ok = CUDA_R_32F == 0 && CUDA_C_64F == 5 && CUDA_R_16BF == 14;
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dz));
  CHECK(cudaFree(dm));
  CHECK(cudaFree(dp));
  delete[] ha;
  delete[] hb;
  delete[] hc;
  delete[] hz;
  delete[] hm;
  std::printf("complex chain: worst scaled error %.3g over %d elements\n", worst, n);
  std::printf("unit circle: worst radius error %.3g over %d points\n", radius_error, points);
  std::printf("nvtx: push returned depth %d, pop %d\n", depth, popped);
  if (!(worst < 1e-5) || !(radius_error < 1e-6) || !constants_ok || !types_ok || depth != 0 || popped != 0) {
    std::printf("FAILED: constants %s, data types %s\n", constants_ok ? "ok" : "wrong", types_ok ? "ok" : "wrong");
    return 1;
  }
  std::printf("PASSED: cuComplex, math_constants, vector_functions, NVTX, profiler API, library types\n");
  return 0;
}
