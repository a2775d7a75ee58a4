// The sim device's limits (src/sim/engine/device_limits.hpp): its properties are an sm_90 GPU's, a
// launch over a limit is refused naming it, and the opt-in raises the dynamic shared-memory limit.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim_test_support.hpp"

namespace gpulab {
namespace {

using namespace sim_testing;

TEST(SimExecution, PropertiesAreThoseOfAnSm90Device) {
  const DeviceProperties& p = sim_dev().properties();
  EXPECT_EQ(p.id, "sim");
  EXPECT_EQ(p.compute_major, 9);
  EXPECT_EQ(p.warp_size, 32);
  EXPECT_EQ(p.max_threads_per_block, 1024);
  EXPECT_EQ(p.shared_memory_per_block, 48u * 1024);
  EXPECT_EQ(p.shared_memory_per_block_optin, 227u * 1024);
  EXPECT_EQ(p.max_grid_dim[0], 2147483647);
  EXPECT_EQ(p.max_grid_dim[1], 65535);
  EXPECT_GE(p.multiprocessor_count, 1);
  EXPECT_GT(p.total_memory, 0u);
}

TEST(SimExecution, LaunchOverTheLimitsIsRefusedNamingTheLimit) {
  auto out = filled<int>(2048, 0);
  Kernel<void(const int*, int*)> k("reverse_in_shared");
  Stream s(sim_dev());
  try {
    launch(k, LaunchConfig{1, 2048, 0, s}, out.data(), out.data());
    ADD_FAILURE() << "a block of 2048 threads was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("1024"), std::string::npos) << e.what();
  }
  try {
    launch(k, LaunchConfig{1, 32, 64 * 1024, s}, out.data(), out.data());
    ADD_FAILURE() << "64 KiB of dynamic shared memory were accepted without opting in";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("49152"), std::string::npos) << e.what();
  }
  EXPECT_THROW(set_max_dynamic_shared_bytes(k.record(), 300 * 1024), InvalidArgument);
}

TEST(SimExecution, OptInRaisesTheDynamicSharedLimit) {
  const int n = 1024;
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i) values[i] = 3 * i + 1;
  auto in = upload(values);
  auto out = filled<int>(n, -1);
  Kernel<void(const int*, int*)> k("reverse_in_shared");
  set_max_dynamic_shared_bytes(k.record(), 100 * 1024);
  Stream s(sim_dev());
  launch(k, LaunchConfig{1, n, 100 * 1024, s}, in.data(), out.data());
  s.synchronize();
  const auto got = download(out);
  for (int t = 0; t < n; ++t) ASSERT_EQ(got[t], values[n - 1 - t]);
  set_max_dynamic_shared_bytes(k.record(), 48 * 1024);
}

}  // namespace
}  // namespace gpulab
