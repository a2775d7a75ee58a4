// cuFFT as a program calls it, self-checking: 1-D, 2-D and 3-D plans of every type (C2C, R2C, C2R, Z2Z,
// D2Z, Z2D), cufftPlanMany with strides, distances and embeddings, cufftCreate + cufftMakePlanMany(64),
// in-place transforms (cuFFT's padded layout for real ones), cuFFTXt's plans by data type
// (cufftXtMakePlanMany + cufftXtExec), each against a direct DFT computed here
// in long double, by relative 2-norm error within 8 log2(N) u of the precision, on fresh random inputs,
// every output buffer poisoned with NaN before each exec (a transform that leaves an output element
// unwritten fails). Then ordering with kernels on the plan's stream, and cuFFT's result codes for bad
// arguments. Built unchanged by nvcc for a GPU and by gpulab-simcc for the simulator.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>

#include "library_checks.h"

#define CHECK_CUFFT(call) CHECK_STATUS(call, CUFFT_SUCCESS, status_number)

namespace {

using LD = long double;
using CL = std::complex<long double>;

std::mt19937_64 rng(std::random_device{}());

void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

double uniform() { return std::uniform_real_distribution<double>(-1.0, 1.0)(rng); }

bool is_r2c(cufftType t) { return t == CUFFT_R2C || t == CUFFT_D2Z; }
bool is_c2r(cufftType t) { return t == CUFFT_C2R || t == CUFFT_Z2D; }
bool is_double(cufftType t) { return t == CUFFT_Z2Z || t == CUFFT_D2Z || t == CUFFT_Z2D; }

// How a plan is made.
enum class Make { plan, plan_many, make_plan_many, make_plan_many64 };

struct Spec {
  const char* name;
  cufftType type;
  int rank;
  int n[3];
  int batch = 1;
  int direction = CUFFT_FORWARD;  // C2C and Z2Z
  Make make = Make::plan;
  bool in_place = false;
  bool advanced = false;  // the layouts below, else cuFFT's basic layout
  int inembed[3] = {0, 0, 0};
  int istride = 1, idist = 0;
  int onembed[3] = {0, 0, 0};
  int ostride = 1, odist = 0;
};

// One side's layout: element (i_0.., i_{d-1}) of array b at b * dist + stride * linear(i, embed).
struct Side {
  int rank = 1;
  int extent[3] = {1, 1, 1};
  int embed[3] = {1, 1, 1};
  long stride = 1, dist = 0;
  int reals = 2;  // reals an element holds: 1 (real) or 2 (complex)

  long count() const { return long(extent[0]) * extent[1] * extent[2]; }
  long offset(int b, long i) const {  // of packed index i of array b, in elements
    long idx[3] = {0, 0, 0}, rest = i;
    for (int k = rank - 1; k >= 0; --k) {
      idx[k] = rest % extent[k];
      rest /= extent[k];
    }
    long lin = 0;
    for (int k = 0; k < rank; ++k) lin = lin * embed[k] + idx[k];
    return b * dist + stride * lin;
  }
  long span(int batch) const { return offset(batch - 1, count() - 1) + 1; }  // elements the buffer needs
};

// The N-d DFT of a packed array (row-major), along every dimension.
std::vector<CL> dft_nd(std::vector<CL> x, const int* shape, int rank, bool inverse) {
  long total = 1;
  for (int k = 0; k < rank; ++k) total *= shape[k];
  for (int a = 0; a < rank; ++a) {
    long inner = 1;
    for (int k = a + 1; k < rank; ++k) inner *= shape[k];
    const int n = shape[a];
    std::vector<CL> w(n), line(n), out(n);
    for (int t = 0; t < n; ++t) {
      const LD ang = 2 * 3.14159265358979323846264338327950288L * t / n;
      w[t] = CL(std::cos(ang), inverse ? std::sin(ang) : -std::sin(ang));
    }
    for (long base = 0; base < total; ++base) {
      if ((base / inner) % n != 0) continue;
      for (int i = 0; i < n; ++i) line[i] = x[base + i * inner];
      for (int k = 0; k < n; ++k) {
        CL s = 0;
        for (int j = 0; j < n; ++j) s += line[j] * w[(long(j) * k) % n];
        out[k] = s;
      }
      for (int i = 0; i < n; ++i) x[base + i * inner] = out[i];
    }
  }
  return x;
}

__global__ void scale_kernel(float2* v, int n, float s) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i].x *= s;
    v[i].y *= s;
  }
}

cufftResult make_plan(const Spec& s, cufftHandle* plan) {
  int n[3] = {s.n[0], s.n[1], s.n[2]};
  int ie[3] = {s.inembed[0], s.inembed[1], s.inembed[2]}, oe[3] = {s.onembed[0], s.onembed[1], s.onembed[2]};
  int* in_embed = s.advanced ? ie : nullptr;
  int* out_embed = s.advanced ? oe : nullptr;
  size_t work = 1;
  switch (s.make) {
    case Make::plan:
      if (s.rank == 1) return cufftPlan1d(plan, n[0], s.type, s.batch);
      if (s.rank == 2) return cufftPlan2d(plan, n[0], n[1], s.type);
      return cufftPlan3d(plan, n[0], n[1], n[2], s.type);
    case Make::plan_many:
      return cufftPlanMany(plan, s.rank, n, in_embed, s.istride, s.idist, out_embed, s.ostride, s.odist, s.type, s.batch);
    case Make::make_plan_many: {
      const cufftResult r = cufftCreate(plan);
      if (r != CUFFT_SUCCESS) return r;
      size_t estimate = 1;
      CHECK_CUFFT(cufftEstimateMany(s.rank, n, in_embed, s.istride, s.idist, out_embed, s.ostride, s.odist, s.type,
                                    s.batch, &estimate));
      const cufftResult m = cufftMakePlanMany(*plan, s.rank, n, in_embed, s.istride, s.idist, out_embed, s.ostride,
                                              s.odist, s.type, s.batch, &work);
      size_t size = 1;
      if (m == CUFFT_SUCCESS) CHECK_CUFFT(cufftGetSize(*plan, &size));
      expect(size == work, "cufftGetSize gives cufftMakePlanMany's work size");
      return m;
    }
    case Make::make_plan_many64: {
      const cufftResult r = cufftCreate(plan);
      if (r != CUFFT_SUCCESS) return r;
      long long n64[3] = {n[0], n[1], n[2]}, ie64[3] = {ie[0], ie[1], ie[2]}, oe64[3] = {oe[0], oe[1], oe[2]};
      return cufftMakePlanMany64(*plan, s.rank, n64, s.advanced ? ie64 : nullptr, s.istride, s.idist,
                                 s.advanced ? oe64 : nullptr, s.ostride, s.odist, s.type, s.batch, &work);
    }
  }
  return CUFFT_INVALID_VALUE;
}

cufftResult exec(const Spec& s, cufftHandle plan, void* in, void* out) {
  switch (s.type) {
    case CUFFT_C2C:
      return cufftExecC2C(plan, static_cast<cufftComplex*>(in), static_cast<cufftComplex*>(out), s.direction);
    case CUFFT_Z2Z:
      return cufftExecZ2Z(plan, static_cast<cufftDoubleComplex*>(in), static_cast<cufftDoubleComplex*>(out), s.direction);
    case CUFFT_R2C:
      return cufftExecR2C(plan, static_cast<cufftReal*>(in), static_cast<cufftComplex*>(out));
    case CUFFT_D2Z:
      return cufftExecD2Z(plan, static_cast<cufftDoubleReal*>(in), static_cast<cufftDoubleComplex*>(out));
    case CUFFT_C2R:
      return cufftExecC2R(plan, static_cast<cufftComplex*>(in), static_cast<cufftReal*>(out));
    case CUFFT_Z2D:
      return cufftExecZ2D(plan, static_cast<cufftDoubleComplex*>(in), static_cast<cufftDoubleReal*>(out));
  }
  return CUFFT_INVALID_TYPE;
}

// One case, in precision R: builds the layouts, the inputs and their reference, runs the exec on the
// device, and compares.
template <class R>
void run_case(const Spec& s) {
  const bool r2c = is_r2c(s.type), c2r = is_c2r(s.type);
  int spectrum[3] = {s.n[0], s.n[1], s.n[2]};
  if (r2c || c2r) spectrum[s.rank - 1] = s.n[s.rank - 1] / 2 + 1;
  Side in, out;
  in.rank = out.rank = s.rank;
  for (int k = 0; k < s.rank; ++k) {
    in.extent[k] = c2r ? spectrum[k] : s.n[k];
    out.extent[k] = r2c ? spectrum[k] : s.n[k];
  }
  in.reals = r2c ? 1 : 2;
  out.reals = c2r ? 1 : 2;
  auto set_layout = [&](Side& side, const int* embed, int stride, int dist, bool real_side) {
    if (s.advanced) {
      for (int k = 0; k < s.rank; ++k) side.embed[k] = embed[k];
      side.stride = stride;
      side.dist = dist;
      return;
    }
    for (int k = 0; k < s.rank; ++k) side.embed[k] = side.extent[k];
    if (s.in_place && real_side) side.embed[s.rank - 1] = 2 * spectrum[s.rank - 1];  // cuFFT's padding
    long d = 1;
    for (int k = 0; k < s.rank; ++k) d *= side.embed[k];
    side.stride = 1;
    side.dist = d;
  };
  set_layout(in, s.inembed, s.istride, s.idist, r2c);
  set_layout(out, s.onembed, s.ostride, s.odist, c2r);

  // Host buffers of reals, input filled with random numbers where the layout has no element too.
  const long in_reals = in.span(s.batch) * in.reals, out_reals = out.span(s.batch) * out.reals;
  const R nan = std::numeric_limits<R>::quiet_NaN();
  std::vector<R> h_in(in_reals);
  for (auto& v : h_in) v = static_cast<R>(uniform());
  long total = 1;
  for (int k = 0; k < s.rank; ++k) total *= s.n[k];
  std::vector<CL> ref;  // the expected output elements, array after array in packed order
  for (int b = 0; b < s.batch; ++b) {
    if (c2r) {
      // A Hermitian spectrum: the transform of random reals x, whose c2r is total * x.
      std::vector<CL> x(total);
      for (auto& v : x) v = CL(static_cast<R>(uniform()), 0);
      const auto full = dft_nd(x, s.n, s.rank, false);
      const long last = s.n[s.rank - 1], clast = spectrum[s.rank - 1];
      for (long i = 0; i < in.count(); ++i) {
        const CL v = full[(i / clast) * last + i % clast];
        const long o = in.offset(b, i) * 2;
        h_in[o] = static_cast<R>(v.real());
        h_in[o + 1] = static_cast<R>(v.imag());
      }
      for (long i = 0; i < total; ++i) ref.push_back(x[i] * static_cast<LD>(total));
      continue;
    }
    std::vector<CL> x(total);
    for (long i = 0; i < total; ++i) {
      const long o = in.offset(b, i) * in.reals;
      x[i] = r2c ? CL(h_in[o], 0) : CL(h_in[o], h_in[o + 1]);
    }
    const auto full = dft_nd(x, s.n, s.rank, !r2c && s.direction == CUFFT_INVERSE);
    const long last = s.n[s.rank - 1], clast = out.extent[s.rank - 1];
    for (long i = 0; i < out.count(); ++i) ref.push_back(full[(i / clast) * last + i % clast]);
  }

  // Device buffers: the output poisoned with NaN (in place: all but the input's elements).
  const long bytes_in = in_reals * long(sizeof(R)), bytes_out = out_reals * long(sizeof(R));
  void *d_in = nullptr, *d_out = nullptr;
  std::vector<R> h_out;
  if (s.in_place) {
    std::vector<R> buf(std::max(in_reals, out_reals), nan);
    for (int b = 0; b < s.batch; ++b) {
      for (long i = 0; i < in.count(); ++i) {
        const long o = in.offset(b, i) * in.reals;
        for (int r = 0; r < in.reals; ++r) buf[o + r] = h_in[o + r];
      }
    }
    CHECK(cudaMalloc(&d_in, buf.size() * sizeof(R)));
    CHECK(cudaMemcpy(d_in, buf.data(), buf.size() * sizeof(R), cudaMemcpyHostToDevice));
    d_out = d_in;
    h_out.resize(buf.size());
  } else {
    CHECK(cudaMalloc(&d_in, bytes_in));
    CHECK(cudaMalloc(&d_out, bytes_out));
    CHECK(cudaMemcpy(d_in, h_in.data(), bytes_in, cudaMemcpyHostToDevice));
    std::vector<R> poison(out_reals, nan);
    CHECK(cudaMemcpy(d_out, poison.data(), bytes_out, cudaMemcpyHostToDevice));
    h_out.resize(out_reals);
  }
  cufftHandle plan;
  CHECK_CUFFT(make_plan(s, &plan));
  CHECK_CUFFT(exec(s, plan, d_in, d_out));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_out, h_out.size() * sizeof(R), cudaMemcpyDeviceToHost));
  CHECK_CUFFT(cufftDestroy(plan));

  LD num = 0, den = 0;
  long k = 0;
  for (int b = 0; b < s.batch; ++b) {
    for (long i = 0; i < out.count(); ++i, ++k) {
      const long o = out.offset(b, i) * out.reals;
      const CL got = out.reals == 1 ? CL(h_out[o], 0) : CL(h_out[o], h_out[o + 1]);
      num += std::norm(got - ref[k]);
      den += std::norm(ref[k]);
    }
  }
  const double err = static_cast<double>(std::sqrt(num / den));
  const double u = std::numeric_limits<R>::epsilon() / 2;
  const double bound = 8.0 * std::max(1.0, std::log2(static_cast<double>(total))) * u;
  if (!(err <= bound)) {
    std::printf("FAIL: %s: relative error %.3g above %.3g\n", s.name, err, bound);
    ++failures;
  }
  CHECK(cudaFree(d_in));
  if (!s.in_place) CHECK(cudaFree(d_out));
}

void run(const Spec& s) {
  if (is_double(s.type)) {
    run_case<double>(s);
  } else {
    run_case<float>(s);
  }
}

Spec spec(const char* name, cufftType type, int rank, int n0, int n1 = 1, int n2 = 1) {
  Spec s;
  s.name = name;
  s.type = type;
  s.rank = rank;
  s.n[0] = n0;
  s.n[1] = n1;
  s.n[2] = n2;
  return s;
}

void check_transforms() {
  // Basic layouts, every type, 1-D (batched), 2-D and 3-D, lengths of every kind.
  Spec s = spec("C2C 1-D 17 x 3 forward", CUFFT_C2C, 1, 17);
  s.batch = 3;
  run(s);
  s.name = "C2C 1-D 17 x 3 inverse";
  s.direction = CUFFT_INVERSE;
  run(s);
  run(spec("C2C 1-D 1", CUFFT_C2C, 1, 1));
  run(spec("C2C 1-D 1000", CUFFT_C2C, 1, 1000));
  run(spec("C2C 1-D 1009 (prime)", CUFFT_C2C, 1, 1009));
  s = spec("Z2Z 1-D 129 x 2 inverse", CUFFT_Z2Z, 1, 129);
  s.batch = 2;
  s.direction = CUFFT_INVERSE;
  run(s);
  run(spec("C2C 2-D 12 x 17", CUFFT_C2C, 2, 12, 17));
  run(spec("Z2Z 2-D 31 x 8", CUFFT_Z2Z, 2, 31, 8));
  run(spec("C2C 3-D 4 x 3 x 5", CUFFT_C2C, 3, 4, 3, 5));
  s = spec("Z2Z 3-D 5 x 6 x 7 inverse", CUFFT_Z2Z, 3, 5, 6, 7);
  s.direction = CUFFT_INVERSE;
  run(s);
  s = spec("R2C 1-D 129 x 2", CUFFT_R2C, 1, 129);
  s.batch = 2;
  run(s);
  s = spec("D2Z 1-D 100 x 3", CUFFT_D2Z, 1, 100);
  s.batch = 3;
  run(s);
  run(spec("R2C 2-D 9 x 10", CUFFT_R2C, 2, 9, 10));
  run(spec("D2Z 3-D 3 x 4 x 7", CUFFT_D2Z, 3, 3, 4, 7));
  s = spec("C2R 1-D 31 x 2", CUFFT_C2R, 1, 31);
  s.batch = 2;
  run(s);
  run(spec("C2R 1-D 64", CUFFT_C2R, 1, 64));
  run(spec("Z2D 2-D 8 x 9", CUFFT_Z2D, 2, 8, 9));
  run(spec("C2R 3-D 3 x 5 x 6", CUFFT_C2R, 3, 3, 5, 6));

  // cufftPlanMany with strides, distances and embeddings, and the cufftCreate + cufftMakePlanMany route.
  s = spec("PlanMany C2C 1-D 16 x 4, strides 2 and 3", CUFFT_C2C, 1, 16);
  s.make = Make::plan_many;
  s.batch = 4;
  s.advanced = true;
  s.inembed[0] = 16, s.istride = 2, s.idist = 40;
  s.onembed[0] = 16, s.ostride = 3, s.odist = 50;
  run(s);
  s = spec("MakePlanMany Z2Z 2-D 6 x 5 embedded in 8 x 7", CUFFT_Z2Z, 2, 6, 5);
  s.make = Make::make_plan_many;
  s.batch = 2;
  s.advanced = true;
  s.inembed[0] = 8, s.inembed[1] = 7, s.istride = 2, s.idist = 2 * 56 + 3;
  s.onembed[0] = 6, s.onembed[1] = 6, s.ostride = 1, s.odist = 40;
  run(s);
  s = spec("PlanMany R2C 1-D 20 x 3, output stride 2", CUFFT_R2C, 1, 20);
  s.make = Make::plan_many;
  s.batch = 3;
  s.advanced = true;
  s.inembed[0] = 20, s.istride = 1, s.idist = 22;
  s.onembed[0] = 11, s.ostride = 2, s.odist = 25;
  run(s);
  s = spec("MakePlanMany64 C2R 2-D 5 x 6 embedded", CUFFT_C2R, 2, 5, 6);
  s.make = Make::make_plan_many64;
  s.batch = 2;
  s.advanced = true;
  s.inembed[0] = 5, s.inembed[1] = 5, s.istride = 1, s.idist = 30;
  s.onembed[0] = 5, s.onembed[1] = 8, s.ostride = 1, s.odist = 45;
  run(s);
  s = spec("PlanMany D2Z 2-D 7 x 6 basic (null embed), batch 2", CUFFT_D2Z, 2, 7, 6);
  s.make = Make::plan_many;
  s.batch = 2;
  run(s);

  // In place: complex ones, and real ones in cuFFT's padded layout.
  s = spec("in place C2C 1-D 64 x 2", CUFFT_C2C, 1, 64);
  s.batch = 2;
  s.in_place = true;
  run(s);
  s = spec("in place Z2Z 2-D 10 x 7", CUFFT_Z2Z, 2, 10, 7);
  s.in_place = true;
  run(s);
  s = spec("in place R2C 1-D 20 x 3 (padded)", CUFFT_R2C, 1, 20);
  s.batch = 3;
  s.in_place = true;
  run(s);
  s = spec("in place C2R 2-D 6 x 10 (padded)", CUFFT_C2R, 2, 6, 10);
  s.in_place = true;
  run(s);
  s = spec("in place D2Z 3-D 3 x 4 x 5 (padded)", CUFFT_D2Z, 3, 3, 4, 5);
  s.in_place = true;
  run(s);
  s = spec("in place Z2D 1-D 17 x 2 (padded)", CUFFT_Z2D, 1, 17);
  s.batch = 2;
  s.in_place = true;
  run(s);
}

// An exec on the plan's stream runs after the kernel before it and before the kernel after it.
void check_stream_order() {
  const int n = 256;
  std::vector<float2> x(n);
  for (auto& v : x) v = make_float2(static_cast<float>(uniform()), static_cast<float>(uniform()));
  float2 *d_x, *d_y;
  CHECK(cudaMalloc(&d_x, n * sizeof(float2)));
  CHECK(cudaMalloc(&d_y, n * sizeof(float2)));
  CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cufftHandle plan;
  CHECK_CUFFT(cufftPlan1d(&plan, n, CUFFT_C2C, 1));
  CHECK_CUFFT(cufftSetStream(plan, stream));
  scale_kernel<<<(n + 127) / 128, 128, 0, stream>>>(d_x, n, 3.0f);
  CHECK_CUFFT(cufftExecC2C(plan, d_x, d_y, CUFFT_FORWARD));
  scale_kernel<<<(n + 127) / 128, 128, 0, stream>>>(d_y, n, 0.5f);
  CHECK(cudaStreamSynchronize(stream));
  std::vector<float2> y(n);
  CHECK(cudaMemcpy(y.data(), d_y, n * sizeof(float2), cudaMemcpyDeviceToHost));
  std::vector<CL> xc(n);
  for (int i = 0; i < n; ++i) xc[i] = CL(x[i].x, x[i].y);
  const int shape[1] = {n};
  const auto ref = dft_nd(xc, shape, 1, false);
  LD num = 0, den = 0;
  for (int k = 0; k < n; ++k) {
    const CL want = ref[k] * 1.5L;
    num += std::norm(CL(y[k].x, y[k].y) - want);
    den += std::norm(want);
  }
  expect(std::sqrt(num / den) < 8 * 8 * 0x1p-24, "cuFFT's exec is ordered with kernels on its stream");
  CHECK_CUFFT(cufftDestroy(plan));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
}

// cuFFTXt's single-GPU plan by data types: doubles to complex doubles (a D2Z plan), batched, run by
// cufftXtExec, against the direct DFT.
void check_xt() {
  const int n = 17, batch = 3, bins = n / 2 + 1;
  std::vector<double> x(static_cast<std::size_t>(n) * batch);
  for (auto& v : x) v = uniform();
  double* d_x;
  cufftDoubleComplex* d_y;
  CHECK(cudaMalloc(&d_x, x.size() * sizeof(double)));
  CHECK(cudaMalloc(&d_y, static_cast<std::size_t>(bins) * batch * sizeof(cufftDoubleComplex)));
  CHECK(cudaMemcpy(d_x, x.data(), x.size() * sizeof(double), cudaMemcpyHostToDevice));
  std::vector<cufftDoubleComplex> poison(static_cast<std::size_t>(bins) * batch, make_cuDoubleComplex(NAN, NAN));
  CHECK(cudaMemcpy(d_y, poison.data(), poison.size() * sizeof(cufftDoubleComplex), cudaMemcpyHostToDevice));
  cufftHandle plan;
  CHECK_CUFFT(cufftCreate(&plan));
  long long shape = n;
  size_t work = 0;
  CHECK_CUFFT(cufftXtMakePlanMany(plan, 1, &shape, nullptr, 1, n, CUDA_R_64F, nullptr, 1, bins, CUDA_C_64F, batch, &work,
                                  CUDA_C_64F));
  CHECK_CUFFT(cufftXtExec(plan, d_x, d_y, CUFFT_FORWARD));
  CHECK(cudaDeviceSynchronize());
  std::vector<cufftDoubleComplex> y(poison.size());
  CHECK(cudaMemcpy(y.data(), d_y, y.size() * sizeof(cufftDoubleComplex), cudaMemcpyDeviceToHost));
  LD num = 0, den = 0;
  for (int b = 0; b < batch; ++b) {
    std::vector<CL> xc(n);
    for (int i = 0; i < n; ++i) xc[i] = CL(x[static_cast<std::size_t>(b) * n + i], 0);
    const auto ref = dft_nd(xc, &n, 1, false);
    for (int k = 0; k < bins; ++k) {
      const auto& got = y[static_cast<std::size_t>(b) * bins + k];
      num += std::norm(CL(got.x, got.y) - ref[k]);
      den += std::norm(ref[k]);
    }
  }
  expect(std::sqrt(num / den) < 8 * 5 * 0x1p-53, "cufftXtMakePlanMany (R_64F to C_64F) and cufftXtExec");
#if defined(GPULAB_SIM)
  // The simulator refuses cuFFT callbacks, saying so (a GPU's cuFFT takes them).
  expect(cufftXtSetCallback(plan, nullptr, CUFFT_CB_LD_COMPLEX, nullptr) == CUFFT_NOT_SUPPORTED,
         "cufftXtSetCallback is CUFFT_NOT_SUPPORTED on the simulator");
#endif
  CHECK_CUFFT(cufftDestroy(plan));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
}

// cuFFT's result codes for bad arguments (the simulator also says why on stderr).
void check_result_codes() {
  cufftHandle plan = 0;
  expect(cufftPlan1d(&plan, 0, CUFFT_C2C, 1) == CUFFT_INVALID_SIZE, "nx = 0 is CUFFT_INVALID_SIZE");
  expect(cufftPlan1d(&plan, 8, CUFFT_C2C, 0) == CUFFT_INVALID_SIZE, "batch = 0 is CUFFT_INVALID_SIZE");
  expect(cufftPlan2d(&plan, 8, -1, CUFFT_R2C) == CUFFT_INVALID_SIZE, "ny = -1 is CUFFT_INVALID_SIZE");
  expect(cufftPlan1d(&plan, 8, static_cast<cufftType>(0x77), 1) == CUFFT_INVALID_TYPE,
         "an unknown type is CUFFT_INVALID_TYPE");
  int n4[4] = {2, 2, 2, 2};
  expect(cufftPlanMany(&plan, 4, n4, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, 1) == CUFFT_INVALID_SIZE,
         "rank 4 is CUFFT_INVALID_SIZE");
  float2* d;
  CHECK(cudaMalloc(&d, 64 * sizeof(float2)));
  CHECK(cudaMemset(d, 0, 64 * sizeof(float2)));
  CHECK_CUFFT(cufftPlan1d(&plan, 64, CUFFT_C2C, 1));
  expect(cufftExecZ2Z(plan, reinterpret_cast<cufftDoubleComplex*>(d), reinterpret_cast<cufftDoubleComplex*>(d),
                      CUFFT_FORWARD) == CUFFT_INVALID_TYPE,
         "cufftExecZ2Z on a C2C plan is CUFFT_INVALID_TYPE");
  expect(cufftExecR2C(plan, reinterpret_cast<cufftReal*>(d), d) == CUFFT_INVALID_TYPE,
         "cufftExecR2C on a C2C plan is CUFFT_INVALID_TYPE");
  expect(cufftExecC2C(plan, d, d, 0) == CUFFT_INVALID_VALUE, "direction 0 is CUFFT_INVALID_VALUE");
  CHECK_CUFFT(cufftDestroy(plan));
  expect(cufftExecC2C(plan, d, d, CUFFT_FORWARD) == CUFFT_INVALID_PLAN, "a destroyed plan is CUFFT_INVALID_PLAN");
  expect(cufftDestroy(plan) == CUFFT_INVALID_PLAN, "destroying a plan twice is CUFFT_INVALID_PLAN");
  int version = 0, major = -1;
  CHECK_CUFFT(cufftGetVersion(&version));
  CHECK_CUFFT(cufftGetProperty(MAJOR_VERSION, &major));
  expect(version >= 10000 && major >= 10 && version / 1000 == major, "cufftGetVersion and cufftGetProperty agree");
  size_t work = 1;
  CHECK_CUFFT(cufftEstimate1d(1000, CUFFT_C2C, 4, &work));
  CHECK_CUFFT(cufftCreate(&plan));
  CHECK_CUFFT(cufftSetAutoAllocation(plan, 1));
  CHECK_CUFFT(cufftGetSize2d(plan, 16, 16, CUFFT_R2C, &work));
  CHECK_CUFFT(cufftMakePlan2d(plan, 16, 16, CUFFT_R2C, &work));
  CHECK_CUFFT(cufftDestroy(plan));
  CHECK(cudaFree(d));
}

}  // namespace

int main() {
  check_transforms();
  check_stream_order();
  check_xt();
  check_result_codes();
  if (failures != 0) {
    std::printf("FAILED: %d checks\n", failures);
    return 1;
  }
  std::printf("PASSED: cuFFT 1-D, 2-D, 3-D and PlanMany, C2C/R2C/C2R/Z2Z/D2Z/Z2D, in place, streams, cuFFTXt, result codes\n");
  return 0;
}
