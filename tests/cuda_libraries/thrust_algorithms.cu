// Thrust as a program uses it, self-checking: device_vector and host_vector, device_ptr and
// raw_pointer_cast into kernels, device_malloc, the algorithms (transform, reduce, transform_reduce,
// inclusive and exclusive scans, sort, stable_sort, sort_by_key, copy_if, unique, reduce_by_key,
// sequence, fill, count, count_if, min_element, max_element, gather), the fancy iterators (counting,
// constant, transform, zip, permutation, discard), thrust::device, thrust::cuda::par and par.on(stream).
// Each result is compared with the standard library's on the same fresh random input, on sizes that
// are no multiple of anything (1, 2, 17, 127, 1009, 100003); outputs are first filled with a poison
// value an algorithm that skips an element would leave behind.
//
// Ordering: a kernel writes a device_vector and a Thrust algorithm reads it next with no
// synchronisation between them, on the default stream and on a created stream through par.on(stream):
// on a GPU both are ordered by the stream, and they must be on the simulator too. Out of memory is
// Thrust's bad_alloc. Built unchanged by nvcc for a GPU and by gpulab-simcc for the simulator.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <new>
#include <numeric>
#include <random>
#include <vector>

#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_free.h>
#include <thrust/device_malloc.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

#include "library_checks.h"

namespace {

constexpr int kPoison = -7777777;

std::mt19937 rng(std::random_device{}());

std::vector<int> random_ints(std::size_t n, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

template <class T>
std::vector<T> to_std(const thrust::device_vector<T>& d) {
  thrust::host_vector<T> h = d;
  return std::vector<T>(h.begin(), h.end());
}

struct Square {
  __host__ __device__ long long operator()(int x) const { return static_cast<long long>(x) * x; }
};
struct IsOdd {
  __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};
struct Saxpy {
  int a;
  __host__ __device__ int operator()(int x, int y) const { return a * x + y; }
};
struct SumOfPair {
  __host__ __device__ int operator()(const thrust::tuple<int, int>& t) const {
    return thrust::get<0>(t) + thrust::get<1>(t);
  }
};

// A temporary-storage allocator of the kind programs pass as thrust::cuda::par(allocator).
struct CountingAllocator {
  using value_type = char;
  int* live;
  char* allocate(std::ptrdiff_t n) {
    char* p = nullptr;
    CHECK(cudaMalloc(&p, static_cast<std::size_t>(n)));
    ++*live;
    return p;
  }
  void deallocate(char* p, std::size_t) {
    CHECK(cudaFree(p));
    --*live;
  }
};

__global__ void add_index(int* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += i;
}

__global__ void slow_fill(int* p, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    // Enough work per thread that a reader not ordered after the kernel would see the old values.
    int v = value;
    for (int k = 0; k < 200; ++k) v = (v * 7 + k) % 1000003;
    p[i] = value + (v < 0 ? 1 : 0);  // v is never negative
  }
}

void check_algorithms(std::size_t n) {
  const std::vector<int> a = random_ints(n, -1000, 1000);
  const std::vector<int> b = random_ints(n, -1000, 1000);
  thrust::device_vector<int> da(a.begin(), a.end());
  thrust::device_vector<int> db(b.begin(), b.end());
  EXPECT(da.size() == n && to_std(da) == a, "n=%zu: device_vector from host data", n);

  // transform, with a functor of one and of two arguments.
  thrust::device_vector<int> out(n, kPoison);
  thrust::transform(da.begin(), da.end(), db.begin(), out.begin(), Saxpy{3});
  std::vector<int> want(n);
  std::transform(a.begin(), a.end(), b.begin(), want.begin(), [](int x, int y) { return 3 * x + y; });
  EXPECT(to_std(out) == want, "n=%zu: transform (saxpy)", n);
  thrust::transform(thrust::device, da.begin(), da.end(), out.begin(), thrust::negate<int>());
  std::transform(a.begin(), a.end(), want.begin(), std::negate<int>());
  EXPECT(to_std(out) == want, "n=%zu: transform (negate, thrust::device)", n);

  // reduce, transform_reduce, count, count_if, min_element, max_element.
  const long long sum = std::accumulate(a.begin(), a.end(), 0LL);
  EXPECT(thrust::reduce(da.begin(), da.end(), 0LL) == sum, "n=%zu: reduce", n);
  EXPECT(thrust::reduce(da.begin(), da.end(), -1001, thrust::maximum<int>()) == *std::max_element(a.begin(), a.end()),
         "n=%zu: reduce with maximum", n);
  long long squares = 0;
  for (int x : a) squares += static_cast<long long>(x) * x;
  EXPECT(thrust::transform_reduce(da.begin(), da.end(), Square(), 0LL, thrust::plus<long long>()) == squares,
         "n=%zu: transform_reduce", n);
  EXPECT(thrust::count(da.begin(), da.end(), a[0]) == std::count(a.begin(), a.end(), a[0]), "n=%zu: count", n);
  EXPECT(thrust::count_if(da.begin(), da.end(), IsOdd()) == std::count_if(a.begin(), a.end(), [](int x) { return (x & 1) != 0; }),
         "n=%zu: count_if", n);
  EXPECT(thrust::min_element(da.begin(), da.end()) - da.begin() == std::min_element(a.begin(), a.end()) - a.begin(),
         "n=%zu: min_element", n);
  EXPECT(*thrust::max_element(da.begin(), da.end()) == *std::max_element(a.begin(), a.end()), "n=%zu: max_element", n);

  // Scans, in place and out of place.
  thrust::fill(out.begin(), out.end(), kPoison);
  thrust::inclusive_scan(da.begin(), da.end(), out.begin());
  std::inclusive_scan(a.begin(), a.end(), want.begin());
  EXPECT(to_std(out) == want, "n=%zu: inclusive_scan", n);
  thrust::fill(out.begin(), out.end(), kPoison);
  thrust::exclusive_scan(da.begin(), da.end(), out.begin(), 5);
  std::exclusive_scan(a.begin(), a.end(), want.begin(), 5);
  EXPECT(to_std(out) == want, "n=%zu: exclusive_scan", n);
  thrust::device_vector<int> inplace = da;
  thrust::inclusive_scan(inplace.begin(), inplace.end(), inplace.begin(), thrust::maximum<int>());
  std::inclusive_scan(a.begin(), a.end(), want.begin(), [](int x, int y) { return std::max(x, y); });
  EXPECT(to_std(inplace) == want, "n=%zu: inclusive_scan in place with maximum", n);

  // Sorts: ascending, descending, stable by key with values.
  thrust::device_vector<int> s = da;
  thrust::sort(s.begin(), s.end());
  std::vector<int> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  EXPECT(to_std(s) == sorted, "n=%zu: sort", n);
  s = da;
  thrust::sort(s.begin(), s.end(), thrust::greater<int>());
  std::sort(sorted.begin(), sorted.end(), std::greater<int>());
  EXPECT(to_std(s) == sorted, "n=%zu: sort with greater", n);
  {
    const std::vector<int> keys = random_ints(n, 0, 9);  // many equal keys: stability shows
    thrust::device_vector<int> dk(keys.begin(), keys.end());
    thrust::device_vector<int> dv(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(static_cast<int>(n)));
    thrust::sort_by_key(dk.begin(), dk.end(), dv.begin());
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return keys[x] < keys[y]; });
    std::vector<int> sorted_keys(n);
    for (std::size_t i = 0; i < n; ++i) sorted_keys[i] = keys[order[i]];
    EXPECT(to_std(dk) == sorted_keys, "n=%zu: sort_by_key keys", n);
    EXPECT(to_std(dv) == order, "n=%zu: sort_by_key values (stable)", n);

    // reduce_by_key on the sorted keys: one sum per run of equal keys.
    thrust::device_vector<int> rk(n, kPoison), rv(n, kPoison);
    auto ends = thrust::reduce_by_key(dk.begin(), dk.end(), thrust::constant_iterator<int>(1), rk.begin(), rv.begin());
    std::vector<int> run_keys, run_counts;
    for (std::size_t i = 0; i < n; ++i) {
      if (i == 0 || sorted_keys[i] != sorted_keys[i - 1]) {
        run_keys.push_back(sorted_keys[i]);
        run_counts.push_back(0);
      }
      ++run_counts.back();
    }
    const std::size_t runs = static_cast<std::size_t>(ends.first - rk.begin());
    EXPECT(runs == run_keys.size() && static_cast<std::size_t>(ends.second - rv.begin()) == runs,
           "n=%zu: reduce_by_key found %zu runs, not %zu", n, runs, run_keys.size());
    rk.resize(runs);
    rv.resize(runs);
    EXPECT(to_std(rk) == run_keys && to_std(rv) == run_counts, "n=%zu: reduce_by_key keys and counts", n);
  }
  s = da;
  thrust::stable_sort(s.begin(), s.end());
  std::vector<int> stable = a;
  std::stable_sort(stable.begin(), stable.end());
  EXPECT(to_std(s) == stable, "n=%zu: stable_sort", n);

  // unique on the sorted values, copy_if.
  auto unique_end = thrust::unique(s.begin(), s.end());
  stable.erase(std::unique(stable.begin(), stable.end()), stable.end());
  s.erase(unique_end, s.end());
  EXPECT(to_std(s) == stable, "n=%zu: unique", n);
  thrust::device_vector<int> odd(n, kPoison);
  auto odd_end = thrust::copy_if(da.begin(), da.end(), odd.begin(), IsOdd());
  odd.erase(odd_end, odd.end());
  std::vector<int> want_odd;
  std::copy_if(a.begin(), a.end(), std::back_inserter(want_odd), [](int x) { return (x & 1) != 0; });
  EXPECT(to_std(odd) == want_odd, "n=%zu: copy_if", n);

  // sequence, fill, gather.
  thrust::device_vector<int> seq(n, kPoison);
  thrust::sequence(seq.begin(), seq.end(), 10, 3);
  for (std::size_t i = 0; i < n; ++i) want[i] = 10 + 3 * static_cast<int>(i);
  EXPECT(to_std(seq) == want, "n=%zu: sequence", n);
  thrust::fill(seq.begin(), seq.end(), 42);
  EXPECT(to_std(seq) == std::vector<int>(n, 42), "n=%zu: fill", n);
  const std::vector<int> idx = random_ints(n, 0, static_cast<int>(n) - 1);
  thrust::device_vector<int> didx(idx.begin(), idx.end());
  thrust::fill(out.begin(), out.end(), kPoison);
  thrust::gather(didx.begin(), didx.end(), da.begin(), out.begin());
  for (std::size_t i = 0; i < n; ++i) want[i] = a[idx[i]];
  EXPECT(to_std(out) == want, "n=%zu: gather", n);

  // Fancy iterators: counting, transform, zip, permutation, discard.
  const long long tri = thrust::reduce(thrust::counting_iterator<long long>(0), thrust::counting_iterator<long long>(n));
  EXPECT(tri == static_cast<long long>(n) * (static_cast<long long>(n) - 1) / 2, "n=%zu: reduce over counting_iterator", n);
  const long long sq = thrust::reduce(thrust::make_transform_iterator(da.begin(), Square()),
                                      thrust::make_transform_iterator(da.end(), Square()), 0LL);
  EXPECT(sq == squares, "n=%zu: reduce over transform_iterator", n);
  auto zip = thrust::make_zip_iterator(thrust::make_tuple(da.begin(), db.begin()));
  thrust::fill(out.begin(), out.end(), kPoison);
  thrust::transform(zip, zip + n, out.begin(), SumOfPair());
  std::transform(a.begin(), a.end(), b.begin(), want.begin(), std::plus<int>());
  EXPECT(to_std(out) == want, "n=%zu: transform over zip_iterator", n);
  const long long perm = thrust::reduce(thrust::make_permutation_iterator(da.begin(), didx.begin()),
                                        thrust::make_permutation_iterator(da.begin(), didx.end()), 0LL);
  long long want_perm = 0;
  for (int i : idx) want_perm += a[i];
  EXPECT(perm == want_perm, "n=%zu: reduce over permutation_iterator", n);
  thrust::device_vector<int> kept(n, kPoison);
  auto pair_end = thrust::reduce_by_key(da.begin(), da.end(), db.begin(), thrust::make_discard_iterator(), kept.begin());
  EXPECT(pair_end.second - kept.begin() >= 1, "n=%zu: reduce_by_key into a discard_iterator", n);

  // Element access and device_ptr arithmetic.
  EXPECT(da[n - 1] == a[n - 1], "n=%zu: device_vector element read", n);
  da[0] = 123456;
  EXPECT(da[0] == 123456, "n=%zu: device_vector element write", n);
}

// A kernel given raw_pointer_cast pointers; Thrust reads its result with no synchronisation between.
void check_ordering() {
  const int n = 100003;
  thrust::device_vector<int> v(n);
  thrust::sequence(v.begin(), v.end());
  const int blocks = (n + 255) / 256;
  add_index<<<blocks, 256>>>(thrust::raw_pointer_cast(v.data()), n);  // v[i] = 2i
  const long long want = static_cast<long long>(n) * (n - 1);           // sum of 2i
  EXPECT(thrust::reduce(v.begin(), v.end(), 0LL) == want, "reduce after a kernel on the default stream");

  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  slow_fill<<<blocks, 256, 0, stream>>>(thrust::raw_pointer_cast(v.data()), n, 3);
  EXPECT(thrust::reduce(thrust::cuda::par.on(stream), v.begin(), v.end(), 0LL) == 3LL * n,
         "reduce with par.on(stream) after a kernel on that stream");
  slow_fill<<<blocks, 256, 0, stream>>>(thrust::raw_pointer_cast(v.data()), n, 5);
  thrust::sort(thrust::cuda::par_nosync.on(stream), v.begin(), v.end());
  EXPECT(thrust::count(thrust::cuda::par.on(stream), v.begin(), v.end(), 5) == n, "sort and count with par.on(stream)");
  int live = 0;
  CountingAllocator alloc{&live};
  slow_fill<<<blocks, 256, 0, stream>>>(thrust::raw_pointer_cast(v.data()), n, 7);
  thrust::device_vector<int> scanned(n, kPoison);
  thrust::inclusive_scan(thrust::cuda::par(alloc).on(stream), v.begin(), v.end(), scanned.begin());
  EXPECT(scanned[n - 1] == 7 * n && scanned[0] == 7, "inclusive_scan with par(allocator).on(stream)");
  EXPECT(live == 0, "par(allocator): %d temporary allocations not freed", live);
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaStreamDestroy(stream));

  // device_malloc'ed memory, written by a kernel and read back by Thrust and by cudaMemcpy.
  thrust::device_ptr<int> p = thrust::device_malloc<int>(n);
  thrust::fill(p, p + n, 1);
  add_index<<<blocks, 256>>>(thrust::raw_pointer_cast(p), n);  // p[i] = 1 + i
  EXPECT(thrust::reduce(p, p + n, 0LL) == static_cast<long long>(n) + static_cast<long long>(n) * (n - 1) / 2,
         "reduce over device_malloc'ed memory after a kernel");
  std::vector<int> back(n, kPoison);
  CHECK(cudaMemcpy(back.data(), thrust::raw_pointer_cast(p), n * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(back[n - 1] == n, "cudaMemcpy from device_malloc'ed memory: %d", back[n - 1]);
  thrust::device_free(p);
  CHECK(cudaGetLastError());
}

void check_out_of_memory() {
  bool threw = false;
  try {
    thrust::device_vector<char> huge(std::size_t{1} << 50);  // a petabyte
  } catch (const std::bad_alloc& e) {
    threw = true;
    std::printf("a petabyte device_vector: %s\n", e.what());
  }
  EXPECT(threw, "a petabyte device_vector threw no bad_alloc");
  (void)cudaGetLastError();  // the failed allocation's error, if the runtime kept one
}

}  // namespace

int main() {
  CHECK(cudaFree(nullptr));  // a context, or the reason there is none (before Thrust throws it)
  for (std::size_t n : {1u, 2u, 17u, 127u, 1009u, 100003u}) check_algorithms(n);
  check_ordering();
  check_out_of_memory();
  std::printf("%s (%d failures)\n", failures == 0 ? "PASSED" : "FAILED", failures);
  return failures == 0 ? 0 : 1;
}
