#pragma once
// The simulator's CUB (../config.cuh): ArgIndexInputIterator, KeyValuePair<offset, *it> at every position.
#include <iterator>

#include <cub/detail/random_access_iterator.cuh>
#include <cub/util_type.cuh>

namespace cub {

template <typename InputIteratorT, typename OffsetT = std::ptrdiff_t,
          typename OutputValueT = typename std::iterator_traits<InputIteratorT>::value_type>
struct ArgIndexInputIterator
    : detail::random_access_iterator<ArgIndexInputIterator<InputIteratorT, OffsetT, OutputValueT>,
                                     KeyValuePair<OffsetT, OutputValueT>, KeyValuePair<OffsetT, OutputValueT>, OffsetT> {
  InputIteratorT itr{};
  __host__ __device__ ArgIndexInputIterator() = default;
  __host__ __device__ explicit ArgIndexInputIterator(InputIteratorT it, OffsetT start = 0) : itr(it) { this->offset = start; }
  __host__ __device__ KeyValuePair<OffsetT, OutputValueT> at(OffsetT i) const {
    return KeyValuePair<OffsetT, OutputValueT>(i, static_cast<OutputValueT>(itr[i]));
  }
  __host__ __device__ void normalize() {
    itr += this->offset;
    this->offset = 0;
  }
};

}  // namespace cub
