#pragma once
// The simulator's CUB (../config.cuh): the arithmetic CUB's input iterators share, on a position
// (CRTP: Derived holds the position in `offset` and says what `*it` is at a position).
#include <cstddef>
#include <iterator>

namespace cub::detail {

template <typename Derived, typename Value, typename Reference = Value, typename Offset = std::ptrdiff_t>
struct random_access_iterator {
  using iterator_category = std::random_access_iterator_tag;
  using value_type = Value;
  using difference_type = Offset;
  using pointer = void;
  using reference = Reference;

  Offset offset = 0;

  __host__ __device__ Derived& self() { return static_cast<Derived&>(*this); }
  __host__ __device__ const Derived& self() const { return static_cast<const Derived&>(*this); }
  __host__ __device__ Reference operator*() const { return self().at(offset); }
  template <typename Distance>
  __host__ __device__ Reference operator[](Distance n) const {
    return self().at(offset + static_cast<Offset>(n));
  }
  __host__ __device__ Derived& operator++() { return ++offset, self(); }
  __host__ __device__ Derived operator++(int) {
    Derived old = self();
    ++offset;
    return old;
  }
  __host__ __device__ Derived& operator--() { return --offset, self(); }
  __host__ __device__ Derived operator--(int) {
    Derived old = self();
    --offset;
    return old;
  }
  template <typename Distance>
  __host__ __device__ Derived operator+(Distance n) const {
    Derived d = self();
    d.offset += static_cast<Offset>(n);
    return d;
  }
  template <typename Distance>
  __host__ __device__ Derived operator-(Distance n) const {
    Derived d = self();
    d.offset -= static_cast<Offset>(n);
    return d;
  }
  template <typename Distance>
  __host__ __device__ Derived& operator+=(Distance n) {
    return offset += static_cast<Offset>(n), self();
  }
  template <typename Distance>
  __host__ __device__ Derived& operator-=(Distance n) {
    return offset -= static_cast<Offset>(n), self();
  }
  __host__ __device__ Offset operator-(const Derived& other) const { return offset - other.offset; }
  __host__ __device__ bool operator==(const Derived& other) const { return offset == other.offset; }
  __host__ __device__ bool operator!=(const Derived& other) const { return offset != other.offset; }
  __host__ __device__ bool operator<(const Derived& other) const { return offset < other.offset; }
};

}  // namespace cub::detail
