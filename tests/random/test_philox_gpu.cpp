// Philox on a CUDA device gives the host's bits (label gpu: skipped without a usable GPU).
#include <gtest/gtest.h>

#include "philox_draw.hpp"
#include "test_support.hpp"

namespace {

using gpulab::testing::DeviceDraw;
using gpulab::testing::draw_on;
using gpulab::testing::expect_same_as_host;

TEST(PhiloxAcrossDevicesGpu, CudaKernelGivesTheHostsBits) {
  GPULAB_REQUIRE_GPU();
  const std::uint64_t seed = gpulab::testing::fresh_seed();
  SCOPED_TRACE(seed);
  const DeviceDraw d = draw_on(gpulab::cuda_device(0), seed, 7, 1 << 16);
  expect_same_as_host(d, seed, 7);
}

}  // namespace
