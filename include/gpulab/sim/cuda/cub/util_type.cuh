#pragma once
// The simulator's CUB (config.cuh): CUB's types. NullType, KeyValuePair, DoubleBuffer, Uninitialized
// (raw storage for a TempStorage, so it may sit in a union and in __shared__ memory whatever T is),
// and the radix-sort key traits (detail/radix_key.cuh).
#include <cstddef>
#include <cstring>
#include <iterator>
#include <limits>
#include <type_traits>

#include <cub/config.cuh>

namespace cub {

struct NullType {
  template <typename T>
  __host__ __device__ NullType& operator=(const T&) {
    return *this;
  }
  friend __host__ __device__ bool operator==(const NullType&, const NullType&) { return true; }
  friend __host__ __device__ bool operator!=(const NullType&, const NullType&) { return false; }
};

template <typename Key, typename Value>
struct KeyValuePair {
  using KeyT = Key;
  using ValueT = Value;
  Key key;
  Value value;
  __host__ __device__ KeyValuePair() = default;
  __host__ __device__ KeyValuePair(const Key& k, const Value& v) : key(k), value(v) {}
  __host__ __device__ bool operator!=(const KeyValuePair& b) const { return value != b.value || key != b.key; }
  __host__ __device__ bool operator==(const KeyValuePair& b) const { return value == b.value && key == b.key; }
};

// Two buffers and which one is current: the device radix sorts leave their result in Current().
template <typename T>
struct DoubleBuffer {
  T* d_buffers[2] = {nullptr, nullptr};
  int selector = 0;
  __host__ __device__ DoubleBuffer() = default;
  __host__ __device__ DoubleBuffer(T* d_current, T* d_alternate) : d_buffers{d_current, d_alternate} {}
  __host__ __device__ T* Current() { return d_buffers[selector]; }
  __host__ __device__ T* Alternate() { return d_buffers[selector ^ 1]; }
};

// Storage for a T that runs no constructor: CUB's TempStorage types are these, so a program may put
// them in a union or in __shared__ memory.
template <typename T>
struct Uninitialized {
  alignas(alignof(T)) unsigned char storage[sizeof(T)];
  __host__ __device__ T& Alias() { return *reinterpret_cast<T*>(storage); }
};

template <int N>
struct Int2Type {
  enum { VALUE = N };
};

// The value type of an iterator (CUB's cub::detail::value_t).
namespace detail {
template <typename It>
using value_t = typename std::iterator_traits<It>::value_type;

// The type an algorithm writes: the output iterator's value type, or the input's when the output is
// a write-only iterator whose value type is void.
template <typename In, typename Out>
using non_void_value_t = std::conditional_t<std::is_void_v<value_t<Out>>, value_t<In>, value_t<Out>>;
}  // namespace detail

}  // namespace cub
