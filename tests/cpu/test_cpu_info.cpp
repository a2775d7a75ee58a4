// gpulab::cpu::cpu_info: what the CPU GEMM and bench rely on.
#include <gpulab/cpu/cpu_info.hpp>

#include <algorithm>

#include <gtest/gtest.h>

namespace gpulab::testing {
namespace {

using cpu::Isa;

TEST(CpuInfo, DescribesTheHost) {
  const cpu::CpuInfo& info = cpu::cpu_info();
  EXPECT_GE(info.cores, 1);
  EXPECT_FALSE(info.model_name.empty());
  ASSERT_FALSE(info.isas.empty());
  EXPECT_EQ(info.isas.front(), Isa::generic);
  EXPECT_EQ(info.isas.back(), info.best_isa);
  EXPECT_TRUE(std::is_sorted(info.isas.begin(), info.isas.end()));
  EXPECT_TRUE(info.fma_width_bits == 128 || info.fma_width_bits == 256 || info.fma_width_bits == 512)
      << info.fma_width_bits;
  EXPECT_FALSE(info.fma_width_source.empty());
  EXPECT_GT(info.l1d_bytes, 0u);
  EXPECT_GT(info.l2_bytes, 0u);
  std::cout << info.summary() << "\n";
}

#if defined(__x86_64__)
TEST(CpuInfo, ClockAndPeakAreMeasured) {
  const cpu::CpuInfo& info = cpu::cpu_info();
  // A dependent add a cycle: any x86-64 core of this century runs between 0.8 and 7 GHz.
  EXPECT_GT(info.clock_ghz, 0.8);
  EXPECT_LT(info.clock_ghz, 7.0);
  EXPECT_DOUBLE_EQ(info.peak_gflops(Dtype::float32, 1) * 2, info.peak_gflops(Dtype::float64, 1) * 4);
  EXPECT_DOUBLE_EQ(info.peak_gflops(Dtype::float32, 1) * info.cores, info.peak_gflops(Dtype::float32));
  EXPECT_DOUBLE_EQ(info.flops_per_cycle(Dtype::float32), 2.0 * info.fma_units * info.fma_width_bits / 32);
}

// Where both the family/model table and the timed FMA loop give a width, they agree.
TEST(CpuInfo, MeasuredFmaWidthAgreesWithTheTable) {
  const cpu::CpuInfo& info = cpu::cpu_info();
  if (info.best_isa != Isa::avx512) GTEST_SKIP() << "no AVX-512: the FMA loop is not run";
  ASSERT_TRUE(info.measured_fma_width_bits == 256 || info.measured_fma_width_bits == 512);
  if (info.fma_width_source != "family/model") GTEST_SKIP() << "CPU not in the family/model table";
  EXPECT_EQ(info.measured_fma_width_bits, info.fma_width_bits) << info.summary();
}
#endif

}  // namespace
}  // namespace gpulab::testing
