#pragma once
// The simulator's CUB (../config.cuh): TransformInputIterator, op(*it) at every position.
#include <cub/detail/random_access_iterator.cuh>

namespace cub {

template <typename ValueType, typename ConversionOp, typename InputIteratorT, typename OffsetT = std::ptrdiff_t>
struct TransformInputIterator
    : detail::random_access_iterator<TransformInputIterator<ValueType, ConversionOp, InputIteratorT, OffsetT>,
                                     ValueType, ValueType, OffsetT> {
  InputIteratorT input_itr{};
  ConversionOp conversion_op{};
  __host__ __device__ TransformInputIterator() = default;
  __host__ __device__ TransformInputIterator(InputIteratorT input, ConversionOp op) : input_itr(input), conversion_op(op) {}
  __host__ __device__ ValueType at(OffsetT i) const { return conversion_op(input_itr[i]); }
};

}  // namespace cub
