#pragma once
// Non-owning views of vectors and matrices, passed by value into kernels. A kernel gets rows, columns and
// the leading dimension from its view, never from a global. A view also records its memory space, so
// host code can refuse to mix operands from different devices.
#include <cstdint>
#include <type_traits>

#include <gpulab/kernel_qualifiers.hpp>
#include <gpulab/memory_space.hpp>

namespace gpulab {

using index_t = std::int64_t;

// Row-major: element (i, j) at data[i * ld + j]. Column-major: at data[j * ld + i]. A transposed view of
// a row-major matrix is the same memory seen as column-major, so transposes never copy.
enum class Layout : std::uint8_t { row_major = 0, col_major = 1 };

template <class T>
class vector_view {
 public:
  using value_type = T;

  constexpr vector_view() = default;  // defaulted: host and device already (nvcc rejects the annotation)
  GPULAB_HD constexpr vector_view(T* data, index_t size, index_t stride = 1, MemorySpace space = host_space)
      : data_(data), size_(size), stride_(stride), space_(space) {}

  // A view of T converts to a view of const T.
  template <class U>
    requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>)
  GPULAB_HD constexpr vector_view(const vector_view<U>& other)
      : data_(other.data()), size_(other.size()), stride_(other.stride()), space_(other.space()) {}

  GPULAB_HD constexpr T* data() const { return data_; }
  GPULAB_HD constexpr index_t size() const { return size_; }
  GPULAB_HD constexpr index_t stride() const { return stride_; }
  GPULAB_HD constexpr MemorySpace space() const { return space_; }
  GPULAB_HD constexpr bool empty() const { return size_ == 0; }

  GPULAB_HD constexpr T& operator[](index_t i) const { return data_[i * stride_]; }
  GPULAB_HD constexpr T& operator()(index_t i) const { return data_[i * stride_]; }

 private:
  T* data_ = nullptr;
  index_t size_ = 0;
  index_t stride_ = 1;
  MemorySpace space_{};
};

template <class T>
class matrix_view {
 public:
  using value_type = T;

  constexpr matrix_view() = default;
  // Row-major by default: ld is the distance between consecutive rows (>= cols).
  GPULAB_HD constexpr matrix_view(T* data, int rows, int cols, index_t ld, MemorySpace space = host_space,
                                  Layout layout = Layout::row_major)
      : data_(data), rows_(rows), cols_(cols), ld_(ld), layout_(layout), space_(space) {}

  template <class U>
    requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>)
  GPULAB_HD constexpr matrix_view(const matrix_view<U>& other)
      : data_(other.data()),
        rows_(other.rows()),
        cols_(other.cols()),
        ld_(other.ld()),
        layout_(other.layout()),
        space_(other.space()) {}

  GPULAB_HD constexpr T* data() const { return data_; }
  GPULAB_HD constexpr int rows() const { return rows_; }
  GPULAB_HD constexpr int cols() const { return cols_; }
  GPULAB_HD constexpr index_t ld() const { return ld_; }
  GPULAB_HD constexpr Layout layout() const { return layout_; }
  GPULAB_HD constexpr bool is_row_major() const { return layout_ == Layout::row_major; }
  GPULAB_HD constexpr MemorySpace space() const { return space_; }
  GPULAB_HD constexpr bool empty() const { return rows_ == 0 || cols_ == 0; }

  // Distance between (i, j) and (i + 1, j), and between (i, j) and (i, j + 1).
  GPULAB_HD constexpr index_t row_stride() const { return is_row_major() ? ld_ : 1; }
  GPULAB_HD constexpr index_t col_stride() const { return is_row_major() ? 1 : ld_; }

  GPULAB_HD constexpr T& operator()(index_t i, index_t j) const {
    return data_[i * row_stride() + j * col_stride()];
  }

  // The same memory seen as its transpose: rows and columns swap, the layout flips, nothing is copied.
  GPULAB_HD constexpr matrix_view transposed() const {
    return matrix_view(data_, cols_, rows_, ld_, space_,
                       is_row_major() ? Layout::col_major : Layout::row_major);
  }

  // Rows [row, row + rows) and columns [col, col + cols). The caller keeps it inside the matrix.
  GPULAB_HD constexpr matrix_view block(int row, int col, int rows, int cols) const {
    return matrix_view(&(*this)(row, col), rows, cols, ld_, space_, layout_);
  }

 private:
  T* data_ = nullptr;
  int rows_ = 0;
  int cols_ = 0;
  index_t ld_ = 0;
  Layout layout_ = Layout::row_major;
  MemorySpace space_{};
};

// Host-side constructors that check what a kernel cannot: a leading dimension too small for the rows, a
// negative extent. They throw InvalidArgument naming the value and the limit.
template <class T>
matrix_view<T> make_matrix_view(T* data, index_t rows, index_t cols, index_t ld, MemorySpace space = host_space,
                                Layout layout = Layout::row_major);
template <class T>
vector_view<T> make_vector_view(T* data, index_t size, index_t stride = 1, MemorySpace space = host_space);

namespace detail {
void check_matrix_extents(index_t rows, index_t cols, index_t ld, Layout layout);
void check_vector_extents(index_t size, index_t stride);

template <class T>
struct is_view : std::false_type {};
template <class T>
struct is_view<vector_view<T>> : std::true_type {};
template <class T>
struct is_view<matrix_view<T>> : std::true_type {};
}  // namespace detail

template <class T>
matrix_view<T> make_matrix_view(T* data, index_t rows, index_t cols, index_t ld, MemorySpace space, Layout layout) {
  detail::check_matrix_extents(rows, cols, ld, layout);
  return matrix_view<T>(data, static_cast<int>(rows), static_cast<int>(cols), ld, space, layout);
}

template <class T>
vector_view<T> make_vector_view(T* data, index_t size, index_t stride, MemorySpace space) {
  detail::check_vector_extents(size, stride);
  return vector_view<T>(data, size, stride, space);
}

}  // namespace gpulab
