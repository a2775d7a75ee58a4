#include <gpulab/error.hpp>
#include <gpulab/launch.hpp>
#include <gpulab/view.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

using gpulab::Layout;
using gpulab::matrix_view;

TEST(MatrixView, RowMajorIndexingUsesTheLeadingDimension) {
  std::vector<int> data(3 * 5);
  for (int i = 0; i < 15; ++i) data[i] = i;
  const matrix_view<int> v(data.data(), 3, 4, 5);  // 3x4 inside rows of 5
  EXPECT_EQ(v(0, 0), 0);
  EXPECT_EQ(v(1, 0), 5);
  EXPECT_EQ(v(2, 3), 13);
  EXPECT_EQ(v.row_stride(), 5);
  EXPECT_EQ(v.col_stride(), 1);
}

TEST(MatrixView, TransposeSharesMemoryAndSwapsIndices) {
  std::vector<int> data(2 * 3);
  for (int i = 0; i < 6; ++i) data[i] = 10 * i;
  const matrix_view<int> v(data.data(), 2, 3, 3);
  const matrix_view<int> t = v.transposed();
  EXPECT_EQ(t.rows(), 3);
  EXPECT_EQ(t.cols(), 2);
  EXPECT_EQ(t.layout(), Layout::col_major);
  EXPECT_EQ(t.data(), v.data());
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(t(j, i), v(i, j));
  EXPECT_EQ(t.transposed().layout(), Layout::row_major);
}

TEST(MatrixView, BlockAndConstConversion) {
  std::vector<float> data(4 * 4);
  for (int i = 0; i < 16; ++i) data[i] = static_cast<float>(i);
  const matrix_view<float> v(data.data(), 4, 4, 4);
  const matrix_view<const float> b = v.block(1, 2, 2, 2);
  EXPECT_EQ(b(0, 0), 6.0f);
  EXPECT_EQ(b(1, 1), 11.0f);
  EXPECT_EQ(b.ld(), 4);
}

TEST(MatrixView, MakeMatrixViewRejectsASmallLeadingDimension) {
  std::vector<float> data(16);
  EXPECT_THROW(gpulab::make_matrix_view(data.data(), 4, 4, 3), gpulab::InvalidArgument);
  EXPECT_THROW(gpulab::make_matrix_view(data.data(), -1, 4, 4), gpulab::InvalidArgument);
  try {
    gpulab::make_matrix_view(data.data(), 4, 4, 3);
  } catch (const gpulab::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("leading dimension 3"), std::string::npos) << e.what();
  }
  // Column-major: ld must cover the rows.
  EXPECT_NO_THROW(gpulab::make_matrix_view(data.data(), 4, 2, 4, gpulab::host_space, Layout::col_major));
  EXPECT_THROW(gpulab::make_matrix_view(data.data(), 4, 2, 2, gpulab::host_space, Layout::col_major),
               gpulab::InvalidArgument);
}

TEST(VectorView, StrideAndChecks) {
  std::vector<int> data{0, 1, 2, 3, 4, 5};
  const gpulab::vector_view<int> v(data.data(), 3, 2);
  EXPECT_EQ(v[0], 0);
  EXPECT_EQ(v[2], 4);
  EXPECT_THROW(gpulab::make_vector_view(data.data(), 3, 0), gpulab::InvalidArgument);
}

TEST(GridFor, IsTheGuidesCeilDiv) {
  EXPECT_EQ(gpulab::grid_for(1024, 16), 64u);
  EXPECT_EQ(gpulab::grid_for(1025, 16), 65u);
  EXPECT_EQ(gpulab::grid_for(1, 16), 1u);
  EXPECT_EQ(gpulab::grid_for(0, 16), 0u);
  const gpulab::Dim3 g = gpulab::grid_for(gpulab::Dim3(129, 17), gpulab::Dim3(16, 16));
  EXPECT_EQ(g, gpulab::Dim3(9, 2, 1));
}

}  // namespace
