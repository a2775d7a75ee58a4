// synccheck (src/sim/checks/synccheck.cpp): divergent barriers and a thread that exited before a
// barrier are reported; without synccheck the same kernels still end, as on a GPU.
#include <gtest/gtest.h>

#include "sim_test_support.hpp"

namespace gpulab {
namespace {

using namespace sim_testing;

TEST(SimChecks, SynccheckReportsDivergentBarriers) {
  sim::ScopedChecks checks(sim::synccheck);
  auto out = filled<int>(64, 0);
  Kernel<void(int*)> k("divergent_barrier");
  Stream s(sim_dev());
  const std::string msg = fault_message([&] {
    launch(k, LaunchConfig{1, 64, 0, s}, out.data());
    s.synchronize();
  });
  EXPECT_CONTAINS(msg, "divergent_barrier");
  EXPECT_CONTAINS(msg, "synccheck");
  EXPECT_CONTAINS(msg, "thread (32, 0, 0) of block (0, 0, 0)");
  EXPECT_CONTAINS(msg, "thread (0, 0, 0) of block (0, 0, 0)");
  EXPECT_CONTAINS(msg, "sim_kernels.cu");
}

TEST(SimChecks, SynccheckReportsAThreadThatExitedBeforeABarrier) {
  sim::ScopedChecks checks(sim::synccheck);
  auto out = filled<int>(32, 0);
  Kernel<void(int*)> k("exit_before_barrier");
  Stream s(sim_dev());
  const std::string msg = fault_message([&] {
    launch(k, LaunchConfig{1, 32, 0, s}, out.data());
    s.synchronize();
  });
  EXPECT_CONTAINS(msg, "exit_before_barrier");
  EXPECT_CONTAINS(msg, "thread (5, 0, 0) of block (0, 0, 0) exited");
}

TEST(SimChecks, WithoutSynccheckDivergentBarriersStillEnd) {
  sim::ScopedChecks checks(sim::check_none);
  Stream s(sim_dev());
  {
    auto out = filled<int>(64, 0);
    Kernel<void(int*)> k("divergent_barrier");
    launch(k, LaunchConfig{1, 64, 0, s}, out.data());
    s.synchronize();  // as on a GPU, the two barriers count as one
    const auto got = download(out);
    EXPECT_EQ(got[0], 1);
    EXPECT_EQ(got[63], 2);
  }
  {
    auto out = filled<int>(32, 0);
    Kernel<void(int*)> k("exit_before_barrier");
    launch(k, LaunchConfig{1, 32, 0, s}, out.data());
    s.synchronize();
    EXPECT_EQ(download(out)[31], 1);
  }
}

}  // namespace
}  // namespace gpulab
