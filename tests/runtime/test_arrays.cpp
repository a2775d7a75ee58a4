#include <gpulab/array.hpp>
#include <gpulab/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <utility>

namespace {

using gpulab::DeviceArray;
using gpulab::HostArray;
using gpulab::PinnedArray;

TEST(Arrays, ShapeStridesAndViews) {
  HostArray<float, 2> a(3, 5);
  EXPECT_EQ(a.rows(), 3);
  EXPECT_EQ(a.cols(), 5);
  EXPECT_EQ(a.size(), 15);
  EXPECT_EQ(a.bytes(), 15 * sizeof(float));
  EXPECT_EQ(a.strides()[0], 5);
  EXPECT_EQ(a.strides()[1], 1);
  auto v = a.view();
  EXPECT_EQ(v.rows(), 3);
  EXPECT_EQ(v.cols(), 5);
  EXPECT_EQ(v.ld(), 5);
  EXPECT_EQ(v.space(), gpulab::host_space);
  a(2, 4) = 7.0f;
  EXPECT_EQ(v(2, 4), 7.0f);
  HostArray<int> b(4);
  EXPECT_EQ(b.strides()[0], 1);
  EXPECT_EQ(b.view().size(), 4);
}

TEST(Arrays, MoveTransfersOwnership) {
  DeviceArray<double, 2> a(gpulab::host_device(), {4, 6});
  const double* p = a.data();
  DeviceArray<double, 2> b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is empty
  DeviceArray<double, 2> c;
  c = std::move(b);
  EXPECT_EQ(c.data(), p);
  EXPECT_EQ(c.rows(), 4);
  static_assert(!std::is_copy_constructible_v<DeviceArray<double, 2>>);
}

TEST(Arrays, RoundTripThroughDeviceMemoryOfTheHost) {
  HostArray<std::int32_t> host(1000);
  for (int i = 0; i < 1000; ++i) host[i] = 3 * i - 7;
  auto dev = gpulab::to_device(gpulab::host_device(), host);
  auto back = dev.copy_to_host();
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(back[i], 3 * i - 7);
  PinnedArray<std::int32_t> pinned(1000);
  dev.copy_to_host(pinned);
  EXPECT_EQ(pinned[999], 3 * 999 - 7);
}

TEST(Arrays, FillWritesEveryElement) {
  DeviceArray<float> a(gpulab::host_device(), {33});
  a.fill(1.5f);
  auto h = a.copy_to_host();
  for (float x : h) EXPECT_EQ(x, 1.5f);
  a.fill(std::nanf(""));
  h = a.copy_to_host();
  for (float x : h) EXPECT_TRUE(std::isnan(x));
  a.fill_bytes(0);
  h = a.copy_to_host();
  for (float x : h) EXPECT_EQ(x, 0.0f);
}

TEST(Arrays, ShapeMismatchIsAnInvalidArgument) {
  DeviceArray<float, 2> a(gpulab::host_device(), {3, 4});
  HostArray<float, 2> wrong(4, 3);
  try {
    a.copy_to_host(wrong);
    FAIL() << "expected InvalidArgument";
  } catch (const gpulab::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("3x4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("4x3"), std::string::npos) << e.what();
  }
}

TEST(Arrays, NegativeOrOverflowingShapesAreRefused) {
  EXPECT_THROW((HostArray<float, 2>(-1, 3)), gpulab::InvalidArgument);
  EXPECT_THROW((HostArray<double, 2>(gpulab::index_t{1} << 40, gpulab::index_t{1} << 40)), gpulab::InvalidArgument);
}

TEST(Arrays, AnAllocationThatCannotFitIsOutOfMemory) {
  try {
    DeviceArray<float> huge(gpulab::host_device(), {gpulab::index_t{1} << 58});
    FAIL() << "expected OutOfMemory";
  } catch (const gpulab::OutOfMemory& e) {
    EXPECT_EQ(e.requested(), std::size_t{1} << 60);
    EXPECT_GT(e.total_bytes(), 0u);
  }
}

TEST(Arrays, EmptyArraysAreValid) {
  DeviceArray<float> a(gpulab::host_device(), {0});
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.data(), nullptr);
  auto h = a.copy_to_host();
  EXPECT_EQ(h.size(), 0);
}

}  // namespace
