#pragma once
// Owning arrays: DeviceArray (memory of a device: a CUDA GPU, the simulator, or the host), PinnedArray
// (page-locked host memory, for asynchronous copies) and HostArray (ordinary host memory). They are one
// template that differs only in where the memory comes from. Rank 1 and 2, row-major, move-only.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

#include <gpulab/device.hpp>
#include <gpulab/error.hpp>
#include <gpulab/stream.hpp>
#include <gpulab/view.hpp>

namespace gpulab {

enum class MemoryKind : std::uint8_t { device, pinned, host };

namespace detail {

// One allocation: who owns it and how to give it back.
class Allocation {
 public:
  Allocation() = default;
  Allocation(MemoryKind kind, const Device& device, std::size_t bytes);
  Allocation(Allocation&& other) noexcept { swap(other); }
  Allocation& operator=(Allocation&& other) noexcept {
    Allocation(std::move(other)).swap(*this);
    return *this;
  }
  Allocation(const Allocation&) = delete;
  Allocation& operator=(const Allocation&) = delete;
  ~Allocation() { release(); }

  void* data() const noexcept { return data_; }
  std::size_t bytes() const noexcept { return bytes_; }
  const Device& device() const noexcept { return device_; }
  MemoryKind kind() const noexcept { return kind_; }
  void swap(Allocation& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
    std::swap(device_, other.device_);
    std::swap(kind_, other.kind_);
  }

 private:
  void release() noexcept;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  Device device_{};
  MemoryKind kind_ = MemoryKind::host;
};

// Asynchronous copy of `bytes` between any two spaces gpulab knows, ordered on `stream` (or on the
// default stream of the device involved). Throws InvalidArgument for two different devices.
void copy_bytes(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space, std::size_t bytes,
                const Stream& stream);
void fill_bytes(void* dst, MemorySpace space, int value, std::size_t bytes, const Stream& stream);
// Fills `count` elements of `element_bytes` each with the pattern at `value`.
void fill_pattern(void* dst, MemorySpace space, const void* value, std::size_t element_bytes, std::size_t count,
                  const Stream& stream);
// Synchronises `stream`, or the device of `space` when no stream was given.
void synchronize(const Stream& stream, MemorySpace space);

std::size_t checked_byte_count(std::span<const index_t> shape, std::size_t element_bytes);

}  // namespace detail

template <int Rank>
using Shape = std::array<index_t, Rank>;

template <class T, int Rank, MemoryKind Kind>
class BasicArray {
  static_assert(Rank == 1 || Rank == 2, "gpulab arrays have rank 1 or 2");
  static_assert(std::is_trivially_copyable_v<T>, "array elements are copied as bytes");

 public:
  using value_type = T;
  static constexpr int rank = Rank;
  static constexpr MemoryKind memory_kind = Kind;

  BasicArray() = default;

  // A device array: memory of `device` (CUDA, sim, or the host).
  BasicArray(const Device& device, Shape<Rank> shape)
    requires(Kind == MemoryKind::device)
      : shape_(shape), alloc_(Kind, device, detail::checked_byte_count(shape, sizeof(T))) {}

  // A pinned or plain host array.
  explicit BasicArray(Shape<Rank> shape)
    requires(Kind != MemoryKind::device)
      : shape_(shape), alloc_(Kind, host_device(), detail::checked_byte_count(shape, sizeof(T))) {}
  explicit BasicArray(index_t size)
    requires(Kind != MemoryKind::device && Rank == 1)
      : BasicArray(Shape<1>{size}) {}
  BasicArray(index_t rows, index_t cols)
    requires(Kind != MemoryKind::device && Rank == 2)
      : BasicArray(Shape<2>{rows, cols}) {}

  BasicArray(BasicArray&&) noexcept = default;
  BasicArray& operator=(BasicArray&&) noexcept = default;

  const Device& device() const noexcept { return alloc_.device(); }
  MemorySpace space() const noexcept { return alloc_.device().space(); }
  T* data() noexcept { return static_cast<T*>(alloc_.data()); }
  const T* data() const noexcept { return static_cast<const T*>(alloc_.data()); }
  const Shape<Rank>& shape() const noexcept { return shape_; }
  index_t extent(int dim) const noexcept { return shape_[dim]; }
  // In elements, row-major.
  Shape<Rank> strides() const noexcept {
    if constexpr (Rank == 1) {
      return {1};
    } else {
      return {shape_[1], 1};
    }
  }
  index_t size() const noexcept {
    index_t n = 1;
    for (index_t e : shape_) n *= e;
    return n;
  }
  std::size_t bytes() const noexcept { return static_cast<std::size_t>(size()) * sizeof(T); }
  bool empty() const noexcept { return size() == 0; }
  index_t rows() const noexcept
    requires(Rank == 2)
  {
    return shape_[0];
  }
  index_t cols() const noexcept
    requires(Rank == 2)
  {
    return shape_[1];
  }

  using view_type = std::conditional_t<Rank == 1, vector_view<T>, matrix_view<T>>;
  using const_view_type = std::conditional_t<Rank == 1, vector_view<const T>, matrix_view<const T>>;

  view_type view() noexcept { return make_view<T>(data()); }
  const_view_type view() const noexcept { return make_view<const T>(data()); }
  const_view_type cview() const noexcept { return view(); }
  // Arrays pass to kernels and operations as their views.
  operator view_type() noexcept { return view(); }
  operator const_view_type() const noexcept { return view(); }

  // Element access, for memory the host can touch.
  T& operator[](index_t i)
    requires(Kind != MemoryKind::device && Rank == 1)
  {
    return data()[i];
  }
  const T& operator[](index_t i) const
    requires(Kind != MemoryKind::device && Rank == 1)
  {
    return data()[i];
  }
  T& operator()(index_t i, index_t j)
    requires(Kind != MemoryKind::device && Rank == 2)
  {
    return data()[i * shape_[1] + j];
  }
  const T& operator()(index_t i, index_t j) const
    requires(Kind != MemoryKind::device && Rank == 2)
  {
    return data()[i * shape_[1] + j];
  }
  T* begin() noexcept
    requires(Kind != MemoryKind::device)
  {
    return data();
  }
  T* end() noexcept
    requires(Kind != MemoryKind::device)
  {
    return data() + size();
  }
  const T* begin() const noexcept
    requires(Kind != MemoryKind::device)
  {
    return data();
  }
  const T* end() const noexcept
    requires(Kind != MemoryKind::device)
  {
    return data() + size();
  }

  // Sets every element to `value`, ordered on `stream`.
  void fill(const T& value, const Stream& stream = {}) {
    detail::fill_pattern(data(), space(), &value, sizeof(T), static_cast<std::size_t>(size()), stream);
  }
  // Sets every byte to `byte` (cudaMemset).
  void fill_bytes(int byte, const Stream& stream = {}) { detail::fill_bytes(data(), space(), byte, bytes(), stream); }

  // Copies into `host` (same shape), ordered on `stream`. Without a stream the copy has finished on return.
  template <MemoryKind HostKind>
    requires(HostKind != MemoryKind::device)
  void copy_to_host(BasicArray<T, Rank, HostKind>& host, const Stream& stream = {}) const {
    check_same_shape(host.shape());
    detail::copy_bytes(host.data(), host_space, data(), space(), bytes(), stream);
    if (!stream.valid()) detail::synchronize(stream, space());
  }
  void copy_to_host(std::span<T> host, const Stream& stream = {}) const {
    check_same_size(static_cast<index_t>(host.size()));
    detail::copy_bytes(host.data(), host_space, data(), space(), bytes(), stream);
    if (!stream.valid()) detail::synchronize(stream, space());
  }
  // Returns a new host array holding the contents; waits for the copy.
  BasicArray<T, Rank, MemoryKind::host> copy_to_host(const Stream& stream = {}) const {
    BasicArray<T, Rank, MemoryKind::host> host(shape_);
    detail::copy_bytes(host.data(), host_space, data(), space(), bytes(), stream);
    detail::synchronize(stream, space());
    return host;
  }

  // Copies `src` (same number of elements, any space) into this array, ordered on `stream`.
  void copy_from(const T* src, MemorySpace src_space, index_t count, const Stream& stream = {}) {
    check_same_size(count);
    detail::copy_bytes(data(), space(), src, src_space, bytes(), stream);
  }
  template <MemoryKind OtherKind>
  void copy_from(const BasicArray<T, Rank, OtherKind>& src, const Stream& stream = {}) {
    check_same_shape(src.shape());
    detail::copy_bytes(data(), space(), src.data(), src.space(), bytes(), stream);
  }

 private:
  template <class U>
  std::conditional_t<Rank == 1, vector_view<U>, matrix_view<U>> make_view(U* p) const noexcept {
    if constexpr (Rank == 1) {
      return vector_view<U>(p, shape_[0], 1, space());
    } else {
      return matrix_view<U>(p, static_cast<int>(shape_[0]), static_cast<int>(shape_[1]), shape_[1], space());
    }
  }
  void check_same_shape(const Shape<Rank>& other) const;
  void check_same_size(index_t count) const;

  Shape<Rank> shape_{};
  detail::Allocation alloc_;
};

template <class T, int Rank = 1>
using DeviceArray = BasicArray<T, Rank, MemoryKind::device>;
template <class T, int Rank = 1>
using PinnedArray = BasicArray<T, Rank, MemoryKind::pinned>;
template <class T, int Rank = 1>
using HostArray = BasicArray<T, Rank, MemoryKind::host>;

namespace detail {
[[noreturn]] void throw_shape_mismatch(std::span<const index_t> expected, std::span<const index_t> got);
}

template <class T, int Rank, MemoryKind Kind>
void BasicArray<T, Rank, Kind>::check_same_shape(const Shape<Rank>& other) const {
  if (other != shape_) detail::throw_shape_mismatch(shape_, other);
}
template <class T, int Rank, MemoryKind Kind>
void BasicArray<T, Rank, Kind>::check_same_size(index_t count) const {
  if (count != size()) {
    const Shape<1> got{count}, want{size()};
    detail::throw_shape_mismatch(want, got);
  }
}

// Numba's cuda.device_array: uninitialised device memory of the given shape.
template <class T, int Rank>
DeviceArray<T, Rank> device_array(const Device& device, const Shape<Rank>& shape) {
  return DeviceArray<T, Rank>(device, shape);
}
template <class T>
DeviceArray<T, 1> device_array(const Device& device, index_t size) {
  return DeviceArray<T, 1>(device, Shape<1>{size});
}
template <class T>
DeviceArray<T, 2> device_array(const Device& device, index_t rows, index_t cols) {
  return DeviceArray<T, 2>(device, Shape<2>{rows, cols});
}
// Same shape and element type as `like`, on `device` (by default the same device).
template <class T, int Rank, MemoryKind Kind>
DeviceArray<T, Rank> device_array_like(const BasicArray<T, Rank, Kind>& like, const Device& device) {
  return DeviceArray<T, Rank>(device, like.shape());
}
template <class T, int Rank>
DeviceArray<T, Rank> device_array_like(const DeviceArray<T, Rank>& like) {
  return DeviceArray<T, Rank>(like.device(), like.shape());
}

// Numba's cuda.to_device: a device array holding a copy of `host`, ordered on `stream`. Without a
// stream the copy has finished on return, so `host` may be reused at once.
template <class T, int Rank, MemoryKind Kind>
  requires(Kind != MemoryKind::device)
DeviceArray<T, Rank> to_device(const Device& device, const BasicArray<T, Rank, Kind>& host, const Stream& stream = {}) {
  DeviceArray<T, Rank> out(device, host.shape());
  out.copy_from(host, stream);
  if (!stream.valid()) detail::synchronize(stream, out.space());
  return out;
}
template <class T>
DeviceArray<std::remove_const_t<T>, 1> to_device(const Device& device, std::span<T> host, const Stream& stream = {}) {
  DeviceArray<std::remove_const_t<T>, 1> out(device, Shape<1>{static_cast<index_t>(host.size())});
  out.copy_from(host.data(), host_space, static_cast<index_t>(host.size()), stream);
  if (!stream.valid()) detail::synchronize(stream, out.space());
  return out;
}

}  // namespace gpulab
