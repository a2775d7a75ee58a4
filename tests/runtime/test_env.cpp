#include <gpulab/error.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

#include "runtime/env.hpp"

namespace {

using gpulab::detail::parse_byte_size;

TEST(Env, ByteSizesTakeBinarySuffixes) {
  EXPECT_EQ(parse_byte_size("268435456", "x"), 268435456u);
  EXPECT_EQ(parse_byte_size("256M", "x"), 256u << 20);
  EXPECT_EQ(parse_byte_size("256MiB", "x"), 256u << 20);
  EXPECT_EQ(parse_byte_size("2GiB", "x"), 2ull << 30);
  EXPECT_EQ(parse_byte_size("512k", "x"), 512u << 10);
}

TEST(Env, BadByteSizesNameTheVariable) {
  for (const char* bad : {"", "MiB", "12XB", "-5", "99999999999999999999G"}) {
    try {
      parse_byte_size(bad, "GPULAB_SIM_MEMORY");
      FAIL() << bad;
    } catch (const gpulab::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("GPULAB_SIM_MEMORY"), std::string::npos);
    }
  }
}

TEST(Env, FlagsAcceptTheUsualSpellings) {
  ::setenv("GPULAB_TEST_FLAG", "Yes", 1);
  EXPECT_TRUE(gpulab::detail::env_flag("GPULAB_TEST_FLAG"));
  ::setenv("GPULAB_TEST_FLAG", "0", 1);
  EXPECT_FALSE(gpulab::detail::env_flag("GPULAB_TEST_FLAG", true));
  ::setenv("GPULAB_TEST_FLAG", "maybe", 1);
  EXPECT_THROW(gpulab::detail::env_flag("GPULAB_TEST_FLAG"), gpulab::InvalidArgument);
  ::unsetenv("GPULAB_TEST_FLAG");
  EXPECT_TRUE(gpulab::detail::env_flag("GPULAB_TEST_FLAG", true));
}

}  // namespace
