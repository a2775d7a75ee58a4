#pragma once
// The simulator's CUB (../config.cuh): ConstantInputIterator, one value at every position.
#include <cub/detail/random_access_iterator.cuh>

namespace cub {

template <typename ValueType, typename OffsetT = std::ptrdiff_t>
struct ConstantInputIterator
    : detail::random_access_iterator<ConstantInputIterator<ValueType, OffsetT>, ValueType, ValueType, OffsetT> {
  ValueType val{};
  __host__ __device__ ConstantInputIterator() = default;
  __host__ __device__ explicit ConstantInputIterator(const ValueType& v, OffsetT start = 0) : val(v) { this->offset = start; }
  __host__ __device__ ValueType at(OffsetT) const { return val; }
};

}  // namespace cub
