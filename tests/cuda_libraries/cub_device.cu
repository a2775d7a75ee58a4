// CUB's device-wide algorithms as programs call them, self-checking, each through CUB's two-phase
// protocol (a first call with no temporary storage asks its size; the storage comes from
// cub::CachingDeviceAllocator or cudaMalloc): DeviceReduce (Sum, Min, Max, ArgMin, ArgMax, Reduce,
// TransformReduce, ReduceByKey), DeviceScan (inclusive and exclusive sums and scans, in place, by key),
// DeviceRadixSort (keys and pairs, ascending and descending, a bit range, DoubleBuffer; negative ints and
// floats), DeviceSegmentedRadixSort, DeviceSelect (If, Flagged, Unique), DevicePartition::If, DeviceHistogram (HistogramEven, HistogramRange),
// DeviceSegmentedReduce (Sum, Min, ArgMax, empty segments) and DeviceRunLengthEncode. Each result is
// compared with the standard library's on fresh random inputs, on sizes that are no multiple of anything
// (1, 17, 1009, 100003), outputs poisoned first. Then the work's ordering with a kernel on a stream,
// and a temporary storage too small (cudaErrorInvalidValue). Built unchanged by nvcc for a GPU and by
// gpulab-simcc for the simulator.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include "library_checks.h"

namespace {

std::mt19937 rng(std::random_device{}());
cub::CachingDeviceAllocator allocator(true);

template <class T>
std::vector<T> random_values(std::size_t n, T lo, T hi) {
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(lo, hi);
    for (auto& x : v) x = d(rng);
  } else {
    std::uniform_int_distribution<T> d(lo, hi);
    for (auto& x : v) x = d(rng);
  }
  return v;
}


// Runs `call(d_temp, bytes)` twice, as CUB's protocol asks: for the size, then with the storage.
template <class Call>
void run(Call call) {
  std::size_t bytes = 0;
  CHECK(call(nullptr, bytes));
  EXPECT(bytes > 0, "a temporary storage size of 0");
  void* temp = nullptr;
  CHECK(allocator.DeviceAllocate(&temp, bytes));
  CHECK(call(temp, bytes));
  CHECK(cudaDeviceSynchronize());
  CHECK(allocator.DeviceFree(temp));
}

struct Square {
  __host__ __device__ long long operator()(int x) const { return static_cast<long long>(x) * x; }
};
struct IsNegative {
  __host__ __device__ bool operator()(int x) const { return x < 0; }
};
// Operators of the program's own: CCCL 3.0's CUB has dropped cub::Sum and cub::Max (for
// cuda::std::plus and cuda::maximum), which older programs still use and the simulator's CUB keeps.
struct Min {
  __host__ __device__ int operator()(int a, int b) const { return b < a ? b : a; }
};
struct Max {
  __host__ __device__ int operator()(int a, int b) const { return b > a ? b : a; }
};
struct Plus {
  template <class T>
  __host__ __device__ T operator()(const T& a, const T& b) const {
    return a + b;
  }
};

void check_reduce(std::size_t n) {
  const auto h = random_values<int>(n, -1000, 1000);
  int* in = to_device(h);
  int* out = poisoned_device<int>(1);
  long long* out64 = poisoned_device<long long>(1);
  const int items = static_cast<int>(n);

  run([&](void* t, std::size_t& b) { return cub::DeviceReduce::Sum(t, b, in, out, items); });
  EXPECT(to_host(out, 1)[0] == std::accumulate(h.begin(), h.end(), 0), "n=%zu: DeviceReduce::Sum", n);
  run([&](void* t, std::size_t& b) { return cub::DeviceReduce::Min(t, b, in, out, items); });
  EXPECT(to_host(out, 1)[0] == *std::min_element(h.begin(), h.end()), "n=%zu: DeviceReduce::Min", n);
  run([&](void* t, std::size_t& b) { return cub::DeviceReduce::Max(t, b, in, out, items); });
  EXPECT(to_host(out, 1)[0] == *std::max_element(h.begin(), h.end()), "n=%zu: DeviceReduce::Max", n);
  // CCCL 3.0's ArgMin and ArgMax: the extremum and its index to two outputs.
  long long* index = poisoned_device<long long>(1);
  run([&](void* t, std::size_t& b) { return cub::DeviceReduce::ArgMin(t, b, in, out, index, items); });
  const auto least = std::min_element(h.begin(), h.end());
  EXPECT(to_host(index, 1)[0] == least - h.begin() && to_host(out, 1)[0] == *least, "n=%zu: DeviceReduce::ArgMin", n);
  run([&](void* t, std::size_t& b) { return cub::DeviceReduce::ArgMax(t, b, in, out, index, items); });
  const auto most = std::max_element(h.begin(), h.end());
  EXPECT(to_host(index, 1)[0] == most - h.begin() && to_host(out, 1)[0] == *most, "n=%zu: DeviceReduce::ArgMax", n);
  run([&](void* t, std::size_t& b) { return cub::DeviceReduce::Reduce(t, b, in, out, items, Min(), 5000); });
  EXPECT(to_host(out, 1)[0] == std::min(5000, *least), "n=%zu: DeviceReduce::Reduce with an operator", n);
  run([&](void* t, std::size_t& b) {
    return cub::DeviceReduce::TransformReduce(t, b, in, out64, items, Plus(), Square(), 0LL);
  });
  long long squares = 0;
  for (int x : h) squares += static_cast<long long>(x) * x;
  EXPECT(to_host(out64, 1)[0] == squares, "n=%zu: DeviceReduce::TransformReduce", n);

  // ReduceByKey over keys with runs.
  std::vector<int> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<int>(i / 3 + (i % 7 == 0));
  int* dkeys = to_device(keys);
  int *unique = poisoned_device<int>(n), *sums = poisoned_device<int>(n), *runs = poisoned_device<int>(1);
  run([&](void* t, std::size_t& b) {
    return cub::DeviceReduce::ReduceByKey(t, b, dkeys, unique, in, sums, runs, Plus(), items);
  });
  std::vector<int> want_keys, want_sums;
  for (std::size_t i = 0; i < n; ++i) {
    if (i == 0 || keys[i] != keys[i - 1]) {
      want_keys.push_back(keys[i]);
      want_sums.push_back(0);
    }
    want_sums.back() += h[i];
  }
  const int r = to_host(runs, 1)[0];
  EXPECT(r == static_cast<int>(want_keys.size()), "n=%zu: DeviceReduce::ReduceByKey: %d runs, not %zu", n, r,
         want_keys.size());
  if (r == static_cast<int>(want_keys.size())) {
    EXPECT(to_host(unique, r) == want_keys && to_host(sums, r) == want_sums, "n=%zu: DeviceReduce::ReduceByKey", n);
  }
  for (void* p : {static_cast<void*>(in), static_cast<void*>(out), static_cast<void*>(out64), static_cast<void*>(index),
                  static_cast<void*>(dkeys), static_cast<void*>(unique), static_cast<void*>(sums), static_cast<void*>(runs)}) {
    CHECK(cudaFree(p));
  }
}

void check_scan(std::size_t n) {
  const auto h = random_values<int>(n, -100, 100);
  const int items = static_cast<int>(n);
  int* in = to_device(h);
  int* out = poisoned_device<int>(n);
  std::vector<int> want(n);
  run([&](void* t, std::size_t& b) { return cub::DeviceScan::InclusiveSum(t, b, in, out, items); });
  std::inclusive_scan(h.begin(), h.end(), want.begin());
  EXPECT(to_host(out, n) == want, "n=%zu: DeviceScan::InclusiveSum", n);
  run([&](void* t, std::size_t& b) { return cub::DeviceScan::ExclusiveSum(t, b, in, out, items); });
  std::exclusive_scan(h.begin(), h.end(), want.begin(), 0);
  EXPECT(to_host(out, n) == want, "n=%zu: DeviceScan::ExclusiveSum", n);
  run([&](void* t, std::size_t& b) { return cub::DeviceScan::InclusiveScan(t, b, in, out, Max(), items); });
  std::inclusive_scan(h.begin(), h.end(), want.begin(), [](int x, int y) { return std::max(x, y); });
  EXPECT(to_host(out, n) == want, "n=%zu: DeviceScan::InclusiveScan with max", n);
  run([&](void* t, std::size_t& b) { return cub::DeviceScan::ExclusiveScan(t, b, in, out, Max(), -7, items); });
  std::exclusive_scan(h.begin(), h.end(), want.begin(), -7, [](int x, int y) { return std::max(x, y); });
  EXPECT(to_host(out, n) == want, "n=%zu: DeviceScan::ExclusiveScan with max from -7", n);
  CHECK(cudaMemcpy(out, in, n * sizeof(int), cudaMemcpyDeviceToDevice));
  run([&](void* t, std::size_t& b) { return cub::DeviceScan::InclusiveSum(t, b, out, out, items); });
  std::inclusive_scan(h.begin(), h.end(), want.begin());
  EXPECT(to_host(out, n) == want, "n=%zu: DeviceScan::InclusiveSum in place", n);
  std::vector<int> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<int>(i / 5);
  int* dkeys = to_device(keys);
  run([&](void* t, std::size_t& b) { return cub::DeviceScan::ExclusiveSumByKey(t, b, dkeys, in, out, items); });
  for (std::size_t i = 0; i < n; ++i) want[i] = (i % 5 == 0) ? 0 : want[i - 1] + h[i - 1];
  EXPECT(to_host(out, n) == want, "n=%zu: DeviceScan::ExclusiveSumByKey", n);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(dkeys));
}

void check_radix_sort(std::size_t n) {
  const int items = static_cast<int>(n);
  const auto keys = random_values<int>(n, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  std::vector<int> values(n);
  std::iota(values.begin(), values.end(), 0);
  int *kin = to_device(keys), *vin = to_device(values), *kout = poisoned_device<int>(n), *vout = poisoned_device<int>(n);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] < keys[b]; });
  std::vector<int> sorted(n);
  for (std::size_t i = 0; i < n; ++i) sorted[i] = keys[order[i]];

  run([&](void* t, std::size_t& b) { return cub::DeviceRadixSort::SortKeys(t, b, kin, kout, items); });
  EXPECT(to_host(kout, n) == sorted, "n=%zu: DeviceRadixSort::SortKeys", n);
  run([&](void* t, std::size_t& b) { return cub::DeviceRadixSort::SortPairs(t, b, kin, kout, vin, vout, items); });
  EXPECT(to_host(kout, n) == sorted && to_host(vout, n) == order, "n=%zu: DeviceRadixSort::SortPairs (stable)", n);
  run([&](void* t, std::size_t& b) { return cub::DeviceRadixSort::SortKeysDescending(t, b, kin, kout, items); });
  EXPECT(to_host(kout, n) == std::vector<int>(sorted.rbegin(), sorted.rend()), "n=%zu: SortKeysDescending", n);

  // Only the low 12 bits, stably: the order of (key & 0xfff) with ties in input order.
  std::vector<int> low = keys;
  std::stable_sort(low.begin(), low.end(), [](int a, int b) { return (a & 0xfff) < (b & 0xfff); });
  run([&](void* t, std::size_t& b) { return cub::DeviceRadixSort::SortKeys(t, b, kin, kout, items, 0, 12); });
  EXPECT(to_host(kout, n) == low, "n=%zu: DeviceRadixSort::SortKeys on bits [0, 12)", n);

  // DoubleBuffer, floats with both signs.
  const auto fkeys = random_values<float>(n, -1e6f, 1e6f);
  float* fa = to_device(fkeys);
  float* fb = poisoned_device<float>(n);
  cub::DoubleBuffer<float> buffers(fa, fb);
  run([&](void* t, std::size_t& b) { return cub::DeviceRadixSort::SortKeys(t, b, buffers, items); });
  std::vector<float> fsorted = fkeys;
  std::sort(fsorted.begin(), fsorted.end());
  EXPECT(to_host(buffers.Current(), n) == fsorted, "n=%zu: DeviceRadixSort::SortKeys on a DoubleBuffer of floats", n);
  // Segments of random lengths, some empty, each sorted by itself (pairs, descending).
  std::vector<int> begins, ends;
  for (std::size_t at = 0; at < n;) {
    const std::size_t len = std::uniform_int_distribution<std::size_t>(0, 300)(rng);
    begins.push_back(static_cast<int>(at));
    at = std::min(n, at + len);
    ends.push_back(static_cast<int>(at));
  }
  const int segments = static_cast<int>(begins.size());
  int *db = to_device(begins), *de = to_device(ends);
  run([&](void* t, std::size_t& b) {
    return cub::DeviceSegmentedRadixSort::SortPairsDescending(t, b, kin, kout, vin, vout, items, segments, db, de);
  });
  std::vector<int> seg_keys(n), seg_values(n);
  for (int s = 0; s < segments; ++s) {
    std::vector<int> idx(ends[s] - begins[s]);
    std::iota(idx.begin(), idx.end(), begins[s]);
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return keys[a] > keys[b]; });
    for (std::size_t i = 0; i < idx.size(); ++i) {
      seg_keys[begins[s] + i] = keys[idx[i]];
      seg_values[begins[s] + i] = values[idx[i]];
    }
  }
  EXPECT(to_host(kout, n) == seg_keys && to_host(vout, n) == seg_values,
         "n=%zu: DeviceSegmentedRadixSort::SortPairsDescending over %d segments", n, segments);
  for (void* p : {static_cast<void*>(kin), static_cast<void*>(vin), static_cast<void*>(kout), static_cast<void*>(vout),
                  static_cast<void*>(fa), static_cast<void*>(fb), static_cast<void*>(db), static_cast<void*>(de)}) {
    CHECK(cudaFree(p));
  }
}

void check_select_histogram_segments(std::size_t n) {
  const int items = static_cast<int>(n);
  auto h = random_values<int>(n, -20, 20);
  int* in = to_device(h);
  int *out = poisoned_device<int>(n), *count = poisoned_device<int>(1);
  run([&](void* t, std::size_t& b) { return cub::DeviceSelect::If(t, b, in, out, count, items, IsNegative()); });
  std::vector<int> want;
  std::copy_if(h.begin(), h.end(), std::back_inserter(want), [](int x) { return x < 0; });
  int c = to_host(count, 1)[0];
  EXPECT(c == static_cast<int>(want.size()) && to_host(out, c) == want, "n=%zu: DeviceSelect::If", n);
  std::vector<char> flags(n);
  for (std::size_t i = 0; i < n; ++i) flags[i] = static_cast<char>(i % 3 == 0);
  char* dflags = to_device(flags);
  run([&](void* t, std::size_t& b) { return cub::DeviceSelect::Flagged(t, b, in, dflags, out, count, items); });
  want.clear();
  for (std::size_t i = 0; i < n; ++i) {
    if (flags[i]) want.push_back(h[i]);
  }
  c = to_host(count, 1)[0];
  EXPECT(c == static_cast<int>(want.size()) && to_host(out, c) == want, "n=%zu: DeviceSelect::Flagged", n);
  std::vector<int> sorted = h;
  std::sort(sorted.begin(), sorted.end());
  int* dsorted = to_device(sorted);
  run([&](void* t, std::size_t& b) { return cub::DeviceSelect::Unique(t, b, dsorted, out, count, items); });
  want = sorted;
  want.erase(std::unique(want.begin(), want.end()), want.end());
  c = to_host(count, 1)[0];
  EXPECT(c == static_cast<int>(want.size()) && to_host(out, c) == want, "n=%zu: DeviceSelect::Unique", n);
  run([&](void* t, std::size_t& b) { return cub::DevicePartition::If(t, b, in, out, count, items, IsNegative()); });
  std::vector<int> want_partition;
  std::copy_if(h.begin(), h.end(), std::back_inserter(want_partition), [](int x) { return x < 0; });
  const std::size_t selected = want_partition.size();
  std::vector<int> rejected;
  std::copy_if(h.begin(), h.end(), std::back_inserter(rejected), [](int x) { return x >= 0; });
  want_partition.insert(want_partition.end(), rejected.rbegin(), rejected.rend());  // rejected ones reversed
  EXPECT(to_host(count, 1)[0] == static_cast<int>(selected) && to_host(out, n) == want_partition,
         "n=%zu: DevicePartition::If", n);
  int *runs_unique = poisoned_device<int>(n), *runs_length = poisoned_device<int>(n);
  run([&](void* t, std::size_t& b) {
    return cub::DeviceRunLengthEncode::Encode(t, b, dsorted, runs_unique, runs_length, count, items);
  });
  c = to_host(count, 1)[0];
  std::vector<int> want_lengths;
  for (int u : want) want_lengths.push_back(static_cast<int>(std::count(sorted.begin(), sorted.end(), u)));
  EXPECT(c == static_cast<int>(want.size()) && to_host(runs_unique, c) == want && to_host(runs_length, c) == want_lengths,
         "n=%zu: DeviceRunLengthEncode::Encode", n);

  // Histograms: 8 even bins over [-20, 20) (20 itself counts in none), and uneven levels.
  int* hist = poisoned_device<int>(8);
  run([&](void* t, std::size_t& b) { return cub::DeviceHistogram::HistogramEven(t, b, in, hist, 9, -20, 20, items); });
  std::vector<int> want_hist(8, 0);
  for (int x : h) {
    if (x >= -20 && x < 20) ++want_hist[(x + 20) * 8 / 40];
  }
  EXPECT(to_host(hist, 8) == want_hist, "n=%zu: DeviceHistogram::HistogramEven", n);
  const std::vector<int> levels = {-15, -3, 0, 1, 12};
  int* dlevels = to_device(levels);
  run([&](void* t, std::size_t& b) { return cub::DeviceHistogram::HistogramRange(t, b, in, hist, 5, dlevels, items); });
  std::fill(want_hist.begin(), want_hist.end(), 0);
  for (int x : h) {
    for (int k = 0; k < 4; ++k) {
      if (x >= levels[k] && x < levels[k + 1]) ++want_hist[k];
    }
  }
  EXPECT(to_host(hist, 4) == std::vector<int>(want_hist.begin(), want_hist.begin() + 4),
         "n=%zu: DeviceHistogram::HistogramRange", n);

  // Segments of random lengths, some empty.
  std::vector<int> begins, ends;
  for (std::size_t at = 0; at < n;) {
    const std::size_t len = std::uniform_int_distribution<std::size_t>(0, 40)(rng);
    begins.push_back(static_cast<int>(at));
    at = std::min(n, at + len);
    ends.push_back(static_cast<int>(at));
  }
  const int segments = static_cast<int>(begins.size());
  int *db = to_device(begins), *de = to_device(ends), *seg = poisoned_device<int>(segments);
  auto* segarg = poisoned_device<cub::KeyValuePair<int, int>>(segments);
  run([&](void* t, std::size_t& b) { return cub::DeviceSegmentedReduce::Sum(t, b, in, seg, segments, db, de); });
  const auto hs = to_host(seg, segments);
  run([&](void* t, std::size_t& b) { return cub::DeviceSegmentedReduce::Min(t, b, in, seg, segments, db, de); });
  const auto hm = to_host(seg, segments);
  run([&](void* t, std::size_t& b) { return cub::DeviceSegmentedReduce::ArgMax(t, b, in, segarg, segments, db, de); });
  const auto ha = to_host(segarg, segments);
  bool sums = true, mins = true, args = true;
  for (int s = 0; s < segments; ++s) {
    const auto first = h.begin() + begins[s], last = h.begin() + ends[s];
    sums = sums && hs[s] == std::accumulate(first, last, 0);
    mins = mins && hm[s] == (first == last ? std::numeric_limits<int>::max() : *std::min_element(first, last));
    if (first != last) {
      const auto m = std::max_element(first, last);
      args = args && ha[s].key == m - first && ha[s].value == *m;
    } else {
      args = args && ha[s].key == 1 && ha[s].value == std::numeric_limits<int>::lowest();
    }
  }
  EXPECT(sums, "n=%zu: DeviceSegmentedReduce::Sum over %d segments", n, segments);
  EXPECT(mins, "n=%zu: DeviceSegmentedReduce::Min", n);
  EXPECT(args, "n=%zu: DeviceSegmentedReduce::ArgMax", n);
  for (void* p : {static_cast<void*>(in), static_cast<void*>(out), static_cast<void*>(count), static_cast<void*>(dflags),
                  static_cast<void*>(dsorted), static_cast<void*>(runs_unique), static_cast<void*>(runs_length),
                  static_cast<void*>(hist), static_cast<void*>(dlevels), static_cast<void*>(db), static_cast<void*>(de),
                  static_cast<void*>(seg), static_cast<void*>(segarg)}) {
    CHECK(cudaFree(p));
  }
}

__global__ void fill_with(int* p, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = value;
}

// A kernel on a stream, then a reduction on the same stream with no synchronisation between: ordered.
void check_ordering_and_errors() {
  const int n = 100003;
  int* data = poisoned_device<int>(n);
  int* out = poisoned_device<int>(1);
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::size_t bytes = 0;
  CHECK(cub::DeviceReduce::Sum(nullptr, bytes, data, out, n, stream));
  void* temp = nullptr;
  CHECK(cudaMalloc(&temp, bytes));
  fill_with<<<(n + 255) / 256, 256, 0, stream>>>(data, n, 3);
  CHECK(cub::DeviceReduce::Sum(temp, bytes, data, out, n, stream));
  int got = 0;
  CHECK(cudaMemcpyAsync(&got, out, sizeof got, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  EXPECT(got == 3 * n, "DeviceReduce::Sum after a kernel on its stream: %d", got);

  // Too little temporary storage: cudaErrorInvalidValue, as CUB returns it.
  int* keys_out = poisoned_device<int>(n);
  std::size_t sort_bytes = 0;
  CHECK(cub::DeviceRadixSort::SortKeys(nullptr, sort_bytes, data, keys_out, n));
  std::size_t short_bytes = sort_bytes / 2;
  void* short_temp = nullptr;
  CHECK(cudaMalloc(&short_temp, short_bytes));
  const cudaError_t e = cub::DeviceRadixSort::SortKeys(short_temp, short_bytes, data, keys_out, n);
  EXPECT(e == cudaErrorInvalidValue, "SortKeys with half its temporary storage returned %s", cudaGetErrorName(e));
  CHECK(cudaGetLastError());  // CUB's errors are returned, not left as the last error
  CHECK(cudaStreamDestroy(stream));
  for (void* p : {static_cast<void*>(data), static_cast<void*>(out), temp, static_cast<void*>(keys_out), short_temp}) {
    CHECK(cudaFree(p));
  }
}

}  // namespace

int main() {
  CHECK(cudaFree(nullptr));
  for (std::size_t n : {1u, 17u, 1009u, 100003u}) {
    check_reduce(n);
    check_scan(n);
    check_radix_sort(n);
    check_select_histogram_segments(n);
  }
  check_ordering_and_errors();
  std::printf("%s (%d failures)\n", failures == 0 ? "PASSED" : "FAILED", failures);
  return failures == 0 ? 0 : 1;
}
