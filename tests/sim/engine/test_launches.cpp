// How the sim device runs a launch: asynchronously (launch returns while the kernel runs), and a
// grid of many blocks spread over every host thread of the block pool (src/sim/engine/block_pool.hpp).
#include <gtest/gtest.h>

#include "sim_test_support.hpp"

namespace gpulab {
namespace {

using namespace sim_testing;

TEST(SimExecution, LaunchReturnsBeforeTheKernelEnds) {
  auto flag = filled<int>(1, 0);
  auto seen = filled<int>(1, -1);
  sim_dev().synchronize();  // the fills are done before the host writes the flag itself
  Kernel<void(const int*, int*)> k("wait_for_host");
  Stream s(sim_dev());
  launch(k, LaunchConfig{1, 1, 0, s}, flag.data(), seen.data());
  // Had launch waited for the kernel, the kernel would have given up waiting for this store.
  EXPECT_FALSE(s.query());
  __atomic_store_n(flag.data(), 1, __ATOMIC_RELEASE);
  s.synchronize();
  EXPECT_TRUE(s.query());
  EXPECT_EQ(download(seen)[0], 1);
}

TEST(SimExecution, ManyBlocksOnEveryHostThread) {
  const int blocks = 500, n = 64;
  auto out = filled<int>(blocks * n, -1);
  Kernel<void(int*, int)> k("barrier_rounds");
  Stream s(sim_dev());
  launch(k, LaunchConfig{blocks, n, 0, s}, out.data(), 2);
  s.synchronize();
  const auto got = download(out);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < n; ++t) ASSERT_EQ(got[b * n + t], ((t + 1) % n) + 2 * b) << b << " " << t;
}

}  // namespace
}  // namespace gpulab
