#pragma once
// The simulator's CUB (../config.cuh): CacheModifiedInputIterator, a pointer read through a cache hint;
// the simulator has no caches, so each read is a plain load.
#include <cub/detail/random_access_iterator.cuh>

namespace cub {

enum CacheLoadModifier { LOAD_DEFAULT, LOAD_CA, LOAD_CG, LOAD_CS, LOAD_CV, LOAD_LDG, LOAD_VOLATILE };
enum CacheStoreModifier { STORE_DEFAULT, STORE_WB, STORE_CG, STORE_CS, STORE_WT, STORE_VOLATILE };

template <CacheLoadModifier MODIFIER, typename ValueType, typename OffsetT = std::ptrdiff_t>
struct CacheModifiedInputIterator
    : detail::random_access_iterator<CacheModifiedInputIterator<MODIFIER, ValueType, OffsetT>, ValueType,
                                     const ValueType&, OffsetT> {
  const ValueType* ptr = nullptr;
  __host__ __device__ CacheModifiedInputIterator() = default;
  template <typename QualifiedValueType>
  __host__ __device__ explicit CacheModifiedInputIterator(QualifiedValueType* p) : ptr(p) {}
  __host__ __device__ const ValueType& at(OffsetT i) const { return ptr[i]; }
};

}  // namespace cub
