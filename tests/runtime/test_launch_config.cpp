#include <gpulab/error.hpp>
#include <gpulab/launch.hpp>

#include <gtest/gtest.h>

#include "runtime/backend.hpp"

namespace {

gpulab::DeviceProperties sm90_like() {
  gpulab::DeviceProperties p;
  p.id = "test";
  p.max_threads_per_block = 1024;
  p.max_block_dim = {1024, 1024, 64};
  p.max_grid_dim = {2147483647, 65535, 65535};
  p.shared_memory_per_block = 48 * 1024;
  p.shared_memory_per_block_optin = 227 * 1024;
  return p;
}

std::string message_of(const gpulab::LaunchConfig& c) {
  try {
    gpulab::detail::validate_launch(sm90_like(), c);
  } catch (const gpulab::InvalidArgument& e) {
    return e.what();
  }
  return {};
}

TEST(LaunchConfig, AcceptsTheGuidesConfiguration) {
  EXPECT_EQ(message_of({gpulab::grid_for(gpulab::Dim3(1024, 1024), gpulab::Dim3(16, 16)), gpulab::Dim3(16, 16)}), "");
  EXPECT_EQ(message_of({gpulab::Dim3(2147483647u), gpulab::Dim3(1024)}), "");
}

TEST(LaunchConfig, NamesTheLimitThatWasExceeded) {
  const std::string too_many = message_of({gpulab::Dim3(1), gpulab::Dim3(64, 32)});
  EXPECT_NE(too_many.find("2048 threads"), std::string::npos) << too_many;
  EXPECT_NE(too_many.find("limit of 1024"), std::string::npos) << too_many;

  const std::string z = message_of({gpulab::Dim3(1), gpulab::Dim3(1, 1, 65)});
  EXPECT_NE(z.find("block.z = 65"), std::string::npos) << z;
  EXPECT_NE(z.find("64"), std::string::npos) << z;

  const std::string grid_y = message_of({gpulab::Dim3(1, 65536), gpulab::Dim3(32)});
  EXPECT_NE(grid_y.find("grid.y = 65536"), std::string::npos) << grid_y;

  const std::string zero = message_of({gpulab::Dim3(0), gpulab::Dim3(32)});
  EXPECT_NE(zero.find("grid.x is 0"), std::string::npos) << zero;

  gpulab::LaunchConfig shared{gpulab::Dim3(1), gpulab::Dim3(32)};
  shared.shared_bytes = 228 * 1024;
  const std::string smem = message_of(shared);
  EXPECT_NE(smem.find("233472 bytes"), std::string::npos) << smem;
}

}  // namespace
