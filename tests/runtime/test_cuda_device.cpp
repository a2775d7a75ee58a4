// Needs a CUDA GPU: labelled `gpu`, skipped with the reason elsewhere.
#include <gpulab/array.hpp>
#include <gpulab/device.hpp>
#include <gpulab/error.hpp>
#include <gpulab/stream.hpp>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

TEST(CudaDevice, PropertiesAreThoseOfARealGpu) {
  GPULAB_REQUIRE_GPU();
  const gpulab::Device d = gpulab::cuda_device(0);
  const auto& p = d.properties();
  EXPECT_EQ(p.warp_size, 32);
  EXPECT_GE(p.compute_major, 7);
  EXPECT_GT(p.multiprocessor_count, 0);
  EXPECT_GE(p.shared_memory_per_block_optin, p.shared_memory_per_block);
  EXPECT_GT(d.memory_info().total_bytes, d.memory_info().free_bytes / 2);
}

TEST(CudaDevice, AsyncRoundTripOnAStream) {
  GPULAB_REQUIRE_GPU();
  const gpulab::Device d = gpulab::cuda_device(0);
  gpulab::Stream s(d);
  const std::size_t n = 1 << 20;
  gpulab::PinnedArray<float> h(static_cast<gpulab::index_t>(n)), back(static_cast<gpulab::index_t>(n));
  const auto v = gpulab::testing::random_vector<float>(n, gpulab::testing::fresh_seed());
  for (std::size_t i = 0; i < n; ++i) h[static_cast<gpulab::index_t>(i)] = v[i];
  auto dev = gpulab::device_array<float>(d, static_cast<gpulab::index_t>(n));
  dev.copy_from(h, s);
  gpulab::Event start(d), end(d);
  start.record(s);
  dev.copy_to_host(back, s);
  end.record(s);
  s.synchronize();
  EXPECT_GE(gpulab::elapsed_ms(start, end), 0.0f);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(back[static_cast<gpulab::index_t>(i)], v[i]);
}

TEST(CudaDevice, TooLargeAnAllocationIsOutOfMemory) {
  GPULAB_REQUIRE_GPU();
  const gpulab::Device d = gpulab::cuda_device(0);
  const auto total = d.memory_info().total_bytes;
  try {
    auto a = gpulab::device_array<char>(d, static_cast<gpulab::index_t>(total * 2));
    FAIL() << "expected OutOfMemory";
  } catch (const gpulab::OutOfMemory& e) {
    EXPECT_EQ(e.requested(), total * 2);
    EXPECT_EQ(e.total_bytes(), total);
  }
}

}  // namespace
