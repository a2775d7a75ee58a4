#pragma once
// The simulator's CUB (../config.cuh): CUB's functors, as its algorithms and programs use them (CCCL
// 3.0 prefers cuda::std::plus and friends; these remain for the code written against them).
#include <cub/util_type.cuh>

namespace cub {

struct Sum {
  template <typename A, typename B>
  __host__ __device__ auto operator()(const A& a, const B& b) const -> decltype(a + b) {
    return a + b;
  }
};
struct Max {
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const {
    return (b > a) ? b : a;
  }
};
struct Min {
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const {
    return (b < a) ? b : a;
  }
};
struct Equality {
  template <typename T, typename U>
  __host__ __device__ bool operator()(const T& a, const U& b) const {
    return a == b;
  }
};
struct Inequality {
  template <typename T, typename U>
  __host__ __device__ bool operator()(const T& a, const U& b) const {
    return a != b;
  }
};
// On KeyValuePair<offset, value>: the greater value, the smaller offset among equal ones.
struct ArgMax {
  template <typename K, typename V>
  __host__ __device__ KeyValuePair<K, V> operator()(const KeyValuePair<K, V>& a, const KeyValuePair<K, V>& b) const {
    if ((b.value > a.value) || ((a.value == b.value) && (b.key < a.key))) return b;
    return a;
  }
};
struct ArgMin {
  template <typename K, typename V>
  __host__ __device__ KeyValuePair<K, V> operator()(const KeyValuePair<K, V>& a, const KeyValuePair<K, V>& b) const {
    if ((b.value < a.value) || ((a.value == b.value) && (b.key < a.key))) return b;
    return a;
  }
};

}  // namespace cub
