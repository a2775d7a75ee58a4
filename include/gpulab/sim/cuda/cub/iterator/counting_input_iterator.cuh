#pragma once
// The simulator's CUB (../config.cuh): CountingInputIterator, the values val, val + 1, ...
#include <cub/detail/random_access_iterator.cuh>

namespace cub {

template <typename ValueType, typename OffsetT = std::ptrdiff_t>
struct CountingInputIterator
    : detail::random_access_iterator<CountingInputIterator<ValueType, OffsetT>, ValueType, ValueType, OffsetT> {
  ValueType val{};
  __host__ __device__ CountingInputIterator() = default;
  __host__ __device__ explicit CountingInputIterator(const ValueType& v) : val(v) {}
  __host__ __device__ ValueType at(OffsetT i) const { return static_cast<ValueType>(val + static_cast<ValueType>(i)); }
};

}  // namespace cub
