#include <gpulab/error.hpp>
#include <gpulab/view.hpp>

#include <climits>

#include <fmt/format.h>

namespace gpulab::detail {

void check_matrix_extents(index_t rows, index_t cols, index_t ld, Layout layout) {
  if (rows < 0 || cols < 0) throw InvalidArgument(fmt::format("matrix extents must be >= 0, got {}x{}", rows, cols));
  if (rows > INT_MAX || cols > INT_MAX) {
    throw InvalidArgument(fmt::format("matrix extents {}x{} exceed the limit of {} per dimension", rows, cols, INT_MAX));
  }
  const index_t inner = layout == Layout::row_major ? cols : rows;
  if (ld < inner && !(rows == 0 || cols == 0)) {
    throw InvalidArgument(fmt::format("leading dimension {} is smaller than the {} ({}) of a {} {}x{} matrix", ld,
                                      layout == Layout::row_major ? "column count" : "row count", inner,
                                      layout == Layout::row_major ? "row-major" : "column-major", rows, cols));
  }
}

void check_vector_extents(index_t size, index_t stride) {
  if (size < 0) throw InvalidArgument(fmt::format("vector size must be >= 0, got {}", size));
  if (stride < 1) throw InvalidArgument(fmt::format("vector stride must be >= 1, got {}", stride));
}

}  // namespace gpulab::detail
