// Copies to, from and between CUDA arrays in every direction (host, device, array), with offsets and
// odd sizes (17 x 31, 33 x 129, 9 x 7 x 5), through every call: cudaMemcpy2DToArray /
// 2DFromArray / 2DArrayToArray, the deprecated linear cudaMemcpyToArray / FromArray / ArrayToArray,
// their Async forms on a stream, cudaMemcpy3D with arrays at either end, and copies recorded by a
// stream capture and run as a graph. Each array's expected contents are kept on the host and compared
// after every step.
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"
#include "texture_reference_model.h"

// The linear array copies are deprecated in CUDA, and still used: this program checks they work.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace {

int failures = 0;

template <class T>
void expect_same(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      if (++failures <= 12) std::printf("  %s: element %zu differs\n", what, i);
      return;
    }
  }
}

// A 2-D float array and what it should hold.
struct Array2D {
  int w, h;
  cudaArray_t array;
  std::vector<float> want;

  Array2D(int width, int height) : w(width), h(height), want(static_cast<std::size_t>(width) * height, 0.0f) {
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    CHECK(cudaMallocArray(&array, &desc, w, h));
    CHECK(cudaMemcpy2DToArray(array, 0, 0, want.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  }
  ~Array2D() { CHECK(cudaFreeArray(array)); }
  std::vector<float> contents() const {
    std::vector<float> host(want.size());
    const std::size_t pitch = w * 4 + 20;  // a pitch wider than the rows
    std::vector<unsigned char> pitched(pitch * h);
    CHECK(cudaMemcpy2DFromArray(pitched.data(), pitch, array, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; ++y) std::memcpy(&host[y * w], &pitched[y * pitch], w * 4);
    return host;
  }
};

std::vector<float> random_floats(std::size_t n, TestRandom& rng) {
  std::vector<float> v(n);
  for (float& x : v) x = rng.uniform(-1000, 1000);
  return v;
}

}  // namespace

static void check_2d_copies() {
  TestRandom rng(31);
  Array2D a(17, 31), b(17, 31);
  const int w = a.w, h = a.h;

  // Host to array, from a pitched host buffer.
  {
    const std::size_t spitch = w * 4 + 12;
    const std::vector<float> src = random_floats(spitch / 4 * h, rng);
    CHECK(cudaMemcpy2DToArray(a.array, 0, 0, src.data(), spitch, w * 4, h, cudaMemcpyHostToDevice));
    for (int y = 0; y < h; ++y) std::memcpy(&a.want[y * w], &src[y * spitch / 4], w * 4);
    expect_same(a.contents(), a.want, "cudaMemcpy2DToArray, host to array");
  }
  // A region: columns 3..11, rows 5..24, with cudaMemcpyDefault.
  {
    const int rw = 9, rh = 20, x0 = 3, y0 = 5;
    const std::vector<float> src = random_floats(rw * rh, rng);
    CHECK(cudaMemcpy2DToArray(a.array, x0 * 4, y0, src.data(), rw * 4, rw * 4, rh, cudaMemcpyDefault));
    for (int y = 0; y < rh; ++y) std::memcpy(&a.want[(y0 + y) * w + x0], &src[y * rw], rw * 4);
    expect_same(a.contents(), a.want, "cudaMemcpy2DToArray, a region");
    std::vector<float> region(13 * 25), want(13 * 25);
    CHECK(cudaMemcpy2DFromArray(region.data(), 13 * 4, a.array, 2 * 4, 4, 13 * 4, 25, cudaMemcpyDeviceToHost));
    for (int y = 0; y < 25; ++y) std::memcpy(&want[y * 13], &a.want[(4 + y) * w + 2], 13 * 4);
    expect_same(region, want, "cudaMemcpy2DFromArray, a region");
  }
  // Device memory to array and back.
  {
    float* d;
    std::size_t pitch;
    CHECK(cudaMallocPitch(reinterpret_cast<void**>(&d), &pitch, w * 4, h));
    const std::vector<float> src = random_floats(w * h, rng);
    CHECK(cudaMemcpy2D(d, pitch, src.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArray(b.array, 0, 0, d, pitch, w * 4, h, cudaMemcpyDeviceToDevice));
    b.want = src;
    expect_same(b.contents(), b.want, "cudaMemcpy2DToArray, device to array");
    CHECK(cudaMemset2D(d, pitch, 0, w * 4, h));
    CHECK(cudaMemcpy2DFromArray(d, pitch, a.array, 0, 0, w * 4, h, cudaMemcpyDeviceToDevice));
    std::vector<float> back(w * h);
    CHECK(cudaMemcpy2D(back.data(), w * 4, d, pitch, w * 4, h, cudaMemcpyDeviceToHost));
    expect_same(back, a.want, "cudaMemcpy2DFromArray, array to device");
    CHECK(cudaFree(d));
  }
  // Array to array: a region of a into b at another place.
  {
    const int rw = 6, rh = 11;
    CHECK(cudaMemcpy2DArrayToArray(b.array, 10 * 4, 19, a.array, 1 * 4, 2, rw * 4, rh, cudaMemcpyDeviceToDevice));
    for (int y = 0; y < rh; ++y) std::memcpy(&b.want[(19 + y) * w + 10], &a.want[(2 + y) * w + 1], rw * 4);
    expect_same(b.contents(), b.want, "cudaMemcpy2DArrayToArray");
  }
  // The linear copies: from the middle of row 2, three and a half rows' worth.
  {
    const std::size_t start = 2 * w + 5, count = 3 * w + w / 2;
    const std::vector<float> src = random_floats(count, rng);
    CHECK(cudaMemcpyToArray(a.array, 5 * 4, 2, src.data(), count * 4, cudaMemcpyHostToDevice));
    std::memcpy(&a.want[start], src.data(), count * 4);
    expect_same(a.contents(), a.want, "cudaMemcpyToArray");
    std::vector<float> back(count);
    CHECK(cudaMemcpyFromArray(back.data(), a.array, 5 * 4, 2, count * 4, cudaMemcpyDeviceToHost));
    expect_same(back, src, "cudaMemcpyFromArray");
    // Array to array, linear: from (0, 7) of a to (3, 1) of b, rows not lined up.
    const std::size_t n = 2 * w + 4;
    CHECK(cudaMemcpyArrayToArray(b.array, 3 * 4, 1, a.array, 0, 7, n * 4, cudaMemcpyDeviceToDevice));
    std::memcpy(&b.want[1 * w + 3], &a.want[7 * w], n * 4);
    expect_same(b.contents(), b.want, "cudaMemcpyArrayToArray");
  }
  // The Async forms, on a stream.
  {
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    float* pinned;
    CHECK(cudaMallocHost(reinterpret_cast<void**>(&pinned), w * h * 4));
    const std::vector<float> src = random_floats(w * h, rng);
    std::memcpy(pinned, src.data(), w * h * 4);
    CHECK(cudaMemcpy2DToArrayAsync(a.array, 0, 0, pinned, w * 4, w * 4, h, cudaMemcpyHostToDevice, stream));
    std::vector<float> back(w * h, 0.0f), line(w + 3, 0.0f);
    CHECK(cudaMemcpy2DFromArrayAsync(back.data(), w * 4, a.array, 0, 0, w * 4, h, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaMemcpyToArrayAsync(b.array, 0, 4, pinned, (w + 3) * 4, cudaMemcpyHostToDevice, stream));
    CHECK(cudaMemcpyFromArrayAsync(line.data(), b.array, 0, 4, (w + 3) * 4, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    a.want = src;
    std::memcpy(&b.want[4 * w], src.data(), (w + 3) * 4);
    expect_same(back, src, "cudaMemcpy2DToArrayAsync and cudaMemcpy2DFromArrayAsync");
    expect_same(line, std::vector<float>(src.begin(), src.begin() + w + 3), "cudaMemcpyToArrayAsync and FromArrayAsync");
    expect_same(b.contents(), b.want, "cudaMemcpyToArrayAsync");
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaStreamDestroy(stream));
  }
}

// A larger odd-sized array of char4, round trip host -> array -> device -> host.
static void check_char4_round_trip() {
  TestRandom rng(32);
  const int w = 33, h = 129;
  std::vector<char4> src(w * h);
  for (char4& v : src) {
    v = make_char4(static_cast<signed char>(rng.next()), static_cast<signed char>(rng.next()),
                   static_cast<signed char>(rng.next()), static_cast<signed char>(rng.next()));
  }
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<char4>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &desc, w, h));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, src.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  char4* d;
  CHECK(cudaMalloc(&d, w * h * sizeof(char4)));
  CHECK(cudaMemcpy2DFromArray(d, w * 4, a, 0, 0, w * 4, h, cudaMemcpyDefault));
  std::vector<char4> back(w * h);
  CHECK(cudaMemcpy(back.data(), d, w * h * sizeof(char4), cudaMemcpyDeviceToHost));
  expect_same(back, src, "33 x 129 char4: host -> array -> device -> host");
  CHECK(cudaFree(d));
  CHECK(cudaFreeArray(a));
}

// cudaMemcpy3D with arrays: positions in elements for arrays, x in bytes for pointers.
static void check_3d_copies() {
  TestRandom rng(33);
  const int w = 9, h = 7, d = 5;
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<short2>();
  cudaArray_t a, b;
  CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(w, h, d)));
  CHECK(cudaMalloc3DArray(&b, &desc, make_cudaExtent(w, h, d)));
  std::vector<short2> want_a(w * h * d), want_b(w * h * d, make_short2(0, 0));
  for (short2& v : want_a) v = make_short2(static_cast<short>(rng.next()), static_cast<short>(rng.next()));
  const auto copy = [](cudaMemcpy3DParms p) { CHECK(cudaMemcpy3D(&p)); };
  const auto parms = [] {
    cudaMemcpy3DParms p;
    std::memset(&p, 0, sizeof p);
    return p;
  };
  const auto contents = [&](cudaArray_t array) {
    std::vector<short2> host(w * h * d);
    cudaMemcpy3DParms p = parms();
    p.srcArray = array;
    p.dstPtr = make_cudaPitchedPtr(host.data(), w * sizeof(short2), w, h);
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyDeviceToHost;
    copy(p);
    return host;
  };
  {
    cudaMemcpy3DParms p = parms();
    p.srcPtr = make_cudaPitchedPtr(want_a.data(), w * sizeof(short2), w, h);
    p.dstArray = a;
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyHostToDevice;
    copy(p);
    expect_same(contents(a), want_a, "cudaMemcpy3D, host to 3-D array");
    p.srcPtr = make_cudaPitchedPtr(want_b.data(), w * sizeof(short2), w, h);
    p.dstArray = b;
    copy(p);
  }
  // A box: from (2, 1, 1) of a host volume of 12 x 8 x 6 into (4, 3, 2) of b, 5 x 4 x 3 elements.
  {
    const int sw = 12, sh = 8, sd = 6;
    std::vector<short2> volume(sw * sh * sd);
    for (short2& v : volume) v = make_short2(static_cast<short>(rng.next()), static_cast<short>(rng.next()));
    cudaMemcpy3DParms p = parms();
    p.srcPtr = make_cudaPitchedPtr(volume.data(), sw * sizeof(short2), sw, sh);
    p.srcPos = make_cudaPos(2 * sizeof(short2), 1, 1);
    p.dstArray = b;
    p.dstPos = make_cudaPos(4, 3, 2);
    p.extent = make_cudaExtent(5, 4, 3);
    p.kind = cudaMemcpyHostToDevice;
    copy(p);
    for (int z = 0; z < 3; ++z) {
      for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 5; ++x) want_b[((2 + z) * h + 3 + y) * w + 4 + x] = volume[((1 + z) * sh + 1 + y) * sw + 2 + x];
      }
    }
    expect_same(contents(b), want_b, "cudaMemcpy3D, a box into an array");
  }
  // Array to array, with offsets at both ends.
  {
    cudaMemcpy3DParms p = parms();
    p.srcArray = a;
    p.srcPos = make_cudaPos(1, 2, 0);
    p.dstArray = b;
    p.dstPos = make_cudaPos(0, 0, 3);
    p.extent = make_cudaExtent(8, 5, 2);
    p.kind = cudaMemcpyDeviceToDevice;
    copy(p);
    for (int z = 0; z < 2; ++z) {
      for (int y = 0; y < 5; ++y) {
        for (int x = 0; x < 8; ++x) want_b[((3 + z) * h + y) * w + x] = want_a[(z * h + 2 + y) * w + 1 + x];
      }
    }
    expect_same(contents(b), want_b, "cudaMemcpy3D, array to array");
  }
  // Array to pitched device memory (cudaMalloc3D) and back into the other array, asynchronously.
  {
    cudaPitchedPtr dev;
    CHECK(cudaMalloc3D(&dev, make_cudaExtent(w * sizeof(short2), h, d)));
    cudaMemcpy3DParms p = parms();
    p.srcArray = a;
    p.dstPtr = dev;
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaMemcpy3DAsync(&p, 0));
    cudaMemcpy3DParms q = parms();
    q.srcPtr = dev;
    q.dstArray = b;
    q.extent = make_cudaExtent(w, h, d);
    q.kind = cudaMemcpyDefault;
    CHECK(cudaMemcpy3DAsync(&q, 0));
    CHECK(cudaDeviceSynchronize());
    expect_same(contents(b), want_a, "cudaMemcpy3DAsync, array to device to array");
    CHECK(cudaFree(dev.ptr));
  }
  CHECK(cudaFreeArray(a));
  CHECK(cudaFreeArray(b));
}

// Array copies recorded by a stream capture, run as a graph twice.
static void check_captured_copies() {
  TestRandom rng(34);
  const int w = 19, h = 11;
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &desc, w, h));
  float *in, *out;
  CHECK(cudaMallocHost(reinterpret_cast<void**>(&in), w * h * 4));
  CHECK(cudaMallocHost(reinterpret_cast<void**>(&out), w * h * 4));
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemcpy2DToArrayAsync(a, 0, 0, in, w * 4, w * 4, h, cudaMemcpyHostToDevice, stream));
  CHECK(cudaMemcpy2DFromArrayAsync(out, w * 4, a, 0, 0, w * 4, h, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int run = 0; run < 2; ++run) {
    const std::vector<float> src = random_floats(w * h, rng);
    std::memcpy(in, src.data(), w * h * 4);
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    expect_same(std::vector<float>(out, out + w * h), src, "captured cudaMemcpy2DToArrayAsync and 2DFromArrayAsync");
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFreeHost(in));
  CHECK(cudaFreeHost(out));
  CHECK(cudaFreeArray(a));
}

int main() {
  check_2d_copies();
  check_char4_round_trip();
  check_3d_copies();
  check_captured_copies();
  CHECK(cudaDeviceSynchronize());
  if (failures != 0) {
    std::printf("FAILED: %d mismatches\n", failures);
    return 1;
  }
  std::printf("PASSED: array copies in every direction, 2-D, linear, 3-D, asynchronous and captured\n");
  return 0;
}
