// A launch that cannot end normally ends cleanly, reported as a KernelFault and never hung, with or
// without checks: a deadlock between a warp call and a barrier, an exception thrown in one thread.
#include <gtest/gtest.h>

#include "sim_test_support.hpp"

namespace gpulab {
namespace {

using namespace sim_testing;

TEST(SimChecks, ADeadlockIsReportedNotHung) {
  sim::ScopedChecks checks(sim::check_none);
  auto out = filled<int>(1, 0);
  Kernel<void(int*)> k("warp_barrier_deadlock");
  Stream s(sim_dev());
  const std::string msg = fault_message([&] {
    launch(k, LaunchConfig{1, 32, 0, s}, out.data());
    s.synchronize();
  });
  EXPECT_CONTAINS(msg, "warp_barrier_deadlock");
  EXPECT_CONTAINS(msg, "deadlock");
  EXPECT_CONTAINS(msg, "__shfl_sync");
  EXPECT_CONTAINS(msg, "__syncthreads");
}

TEST(SimChecks, AnExceptionInOneThreadEndsTheLaunchCleanly) {
  auto out = filled<int>(4 * 64, 0);
  Kernel<void(int*)> k("throws_in_thread");
  Stream s(sim_dev());
  const std::string msg = fault_message([&] {
    launch(k, LaunchConfig{4, 64, 0, s}, out.data());
    s.synchronize();
  });
  EXPECT_CONTAINS(msg, "throws_in_thread");
  EXPECT_CONTAINS(msg, "thread (9, 0, 0) of block (2, 0, 0)");
  EXPECT_CONTAINS(msg, "planted failure");
  // The device still works.
  auto again = filled<int>(64, 0);
  Kernel<void(int*, int)> rounds("barrier_rounds");
  launch(rounds, LaunchConfig{1, 64, 0, s}, again.data(), 2);
  s.synchronize();
  EXPECT_EQ(download(again)[0], 1);
}

}  // namespace
}  // namespace gpulab
