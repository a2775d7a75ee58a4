#pragma once
// The simulator's CUB (../config.cuh): DiscardOutputIterator, which drops what is written through it.
#include <cub/detail/random_access_iterator.cuh>
#include <cub/util_type.cuh>

namespace cub {

template <typename OffsetT = std::ptrdiff_t>
struct DiscardOutputIterator
    : detail::random_access_iterator<DiscardOutputIterator<OffsetT>, void, NullType&, OffsetT> {
  mutable NullType sink;
  __host__ __device__ DiscardOutputIterator() = default;
  __host__ __device__ explicit DiscardOutputIterator(OffsetT start) { this->offset = start; }
  __host__ __device__ NullType& at(OffsetT) const { return sink; }
};

}  // namespace cub
