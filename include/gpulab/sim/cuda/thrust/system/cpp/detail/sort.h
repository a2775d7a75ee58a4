#pragma once
// gpulab-simcc's shadow of Thrust's <thrust/system/cpp/detail/sort.h>: the CPP system's stable_sort and
// stable_sort_by_key (which thrust::sort, sort_by_key and their stable forms come to) by the host's
// std::stable_sort, in place of the sequential system's radix sort. That radix sort, in the CCCL of
// CUDA 13.0, encodes an int key through `long`, so on LP64 hosts it puts negative ints after the
// positive ones (tests/cuda_libraries/thrust_algorithms.cu sorts negative keys). Each is stable, as
// Thrust promises, and takes any random-access iterators (device_vector's, device_ptr, zip and
// permutation iterators): the range is copied out, sorted and copied back.
#include <thrust/detail/config.h>

#include <thrust/iterator/iterator_traits.h>
#include <thrust/system/cpp/detail/execution_policy.h>
#include <thrust/system/detail/sequential/sort.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

THRUST_NAMESPACE_BEGIN
namespace system::cpp::detail {

// More specialised than the sequential system's (a nearer base of the policy), so chosen for it.
template <typename DerivedPolicy, typename RandomAccessIterator, typename StrictWeakOrdering>
void stable_sort(execution_policy<DerivedPolicy>&, RandomAccessIterator first, RandomAccessIterator last,
                 StrictWeakOrdering comp) {
  using T = typename thrust::iterator_traits<RandomAccessIterator>::value_type;
  std::vector<T> values(first, last);
  std::stable_sort(values.begin(), values.end(), comp);
  std::copy(values.begin(), values.end(), first);
}

template <typename DerivedPolicy, typename RandomAccessIterator1, typename RandomAccessIterator2,
          typename StrictWeakOrdering>
void stable_sort_by_key(execution_policy<DerivedPolicy>&, RandomAccessIterator1 keys_first,
                        RandomAccessIterator1 keys_last, RandomAccessIterator2 values_first, StrictWeakOrdering comp) {
  using K = typename thrust::iterator_traits<RandomAccessIterator1>::value_type;
  using V = typename thrust::iterator_traits<RandomAccessIterator2>::value_type;
  const std::vector<K> keys(keys_first, keys_last);
  const std::vector<V> values(values_first, values_first + static_cast<std::ptrdiff_t>(keys.size()));
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return comp(keys[a], keys[b]); });
  for (std::size_t i = 0; i < order.size(); ++i) {
    keys_first[static_cast<std::ptrdiff_t>(i)] = keys[order[i]];
    values_first[static_cast<std::ptrdiff_t>(i)] = values[order[i]];
  }
}

}  // namespace system::cpp::detail
THRUST_NAMESPACE_END
