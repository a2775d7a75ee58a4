#include <gpulab/error.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Errors, CudaErrorNamesCodeCallAndPlace) {
  const gpulab::CudaError e(2, "cudaErrorMemoryAllocation", "out of memory", "cudaMalloc(&p, n)", "x.cpp", 42);
  EXPECT_EQ(e.code(), 2);
  EXPECT_TRUE(contains(e.what(), "cudaMalloc(&p, n)"));
  EXPECT_TRUE(contains(e.what(), "cudaErrorMemoryAllocation"));
  EXPECT_TRUE(contains(e.what(), "x.cpp:42"));
  const gpulab::Error& base = e;  // one hierarchy
  EXPECT_TRUE(contains(base.what(), "out of memory"));
}

TEST(Errors, OutOfMemorySaysRequestedFreeAndTotal) {
  const gpulab::OutOfMemory e("cuda:0", 3ull << 30, 1ull << 30, 2ull << 30);
  EXPECT_EQ(e.requested(), 3ull << 30);
  EXPECT_TRUE(contains(e.what(), "cuda:0"));
  EXPECT_TRUE(contains(e.what(), "3.00 GiB"));
  EXPECT_TRUE(contains(e.what(), "1.00 GiB"));
  EXPECT_TRUE(contains(e.what(), "2.00 GiB"));
  EXPECT_TRUE(contains(e.what(), "smaller"));
}

TEST(Errors, DriverErrorGivesBothVersionsAndTheFix) {
  const gpulab::DriverError none(0, 13000, "no driver");
  EXPECT_TRUE(contains(none.what(), "none"));
  EXPECT_TRUE(contains(none.what(), "13.0"));
  EXPECT_TRUE(contains(none.what(), "install the NVIDIA driver"));
  const gpulab::DriverError old(12040, 13000, "old driver");
  EXPECT_TRUE(contains(old.what(), "12.4"));
  EXPECT_TRUE(contains(old.what(), "update the NVIDIA driver"));
}

TEST(Errors, KernelFaultNamesTheKernel) {
  const gpulab::KernelFault e("tiled_matmul<float>", "illegal address");
  EXPECT_EQ(e.kernel(), "tiled_matmul<float>");
  EXPECT_TRUE(contains(e.what(), "tiled_matmul<float>"));
}

TEST(Errors, FormatsBytesAndVersions) {
  EXPECT_EQ(gpulab::format_bytes(512), "512 bytes");
  EXPECT_EQ(gpulab::format_bytes(1536), "1.50 KiB (1536 bytes)");
  EXPECT_EQ(gpulab::format_cuda_version(13000), "13.0");
  EXPECT_EQ(gpulab::format_cuda_version(12040), "12.4");
  EXPECT_EQ(gpulab::format_cuda_version(0), "none");
}

}  // namespace
