// The barrier's fast mode (include/gpulab/sim/detail/fast_barrier.hpp): after a few rounds of plain
// barriers a block runs its barriers as bare hops from thread to thread, keeping no thread states.
// Whatever comes next (warp calls, a counting barrier, exits, a failure, a deadlock) the engine must
// take over with the states rebuilt exactly: results, unwinding and reports are checked here.
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim_test_support.hpp"

namespace gpulab {
namespace {

using namespace sim_testing;

// fast_rounds in sim_kernels.cu, on the host: each round every thread adds its neighbour's total.
std::vector<int> fast_rounds(int n, int rounds) {
  std::vector<int> acc(n);
  for (int t = 0; t < n; ++t) acc[t] = t;
  for (int r = 0; r < rounds; ++r) {
    std::vector<int> next(n);
    for (int t = 0; t < n; ++t) next[t] = acc[t] + acc[(t + 1) % n];
    acc = next;
  }
  return acc;
}

TEST(SimFastBarrier, WarpCallsAndACountingBarrierAfterFastRounds) {
  sim::ScopedChecks checks(sim::check_none);
  const int blocks = 3, rounds = 7;
  for (int n : {256, 160}) {
    auto out = filled<int>(blocks * 3 * n, -1);
    Kernel<void(int*, int)> k("fast_mode_then_warp_calls");
    Stream s(sim_dev());
    // One block per launch writes out[0, 3n): the blocks write the same values, so launch them apart.
    for (int b = 0; b < blocks; ++b) launch(k, LaunchConfig{1, n, 0, s}, out.data() + b * 3 * n, rounds);
    s.synchronize();
    const auto got = download(out);
    const auto acc = fast_rounds(n, rounds);
    int odd = 0;
    for (int v : acc) odd += v % 2 != 0 ? 1 : 0;
    for (int b = 0; b < blocks; ++b) {
      const int* o = got.data() + b * 3 * n;
      for (int t = 0; t < n; ++t) {
        int warp_sum = 0;
        for (int l = t / 32 * 32; l < t / 32 * 32 + 32; ++l) warp_sum += acc[l];
        ASSERT_EQ(o[t], warp_sum) << "n " << n << " thread " << t;
        ASSERT_EQ(o[n + t], odd) << "n " << n << " thread " << t;
        ASSERT_EQ(o[2 * n + t], acc[(t + 1) % n]) << "n " << n << " thread " << t;
      }
    }
  }
}

TEST(SimFastBarrier, ThreadsThatExitLeaveTheOthersTheirBarriers) {
  sim::ScopedChecks checks(sim::check_none);
  const int n = 200, rounds = 6;
  auto out = filled<int>(2 * n, -1);
  Kernel<void(int*, int)> k("fast_mode_then_exits");
  Stream s(sim_dev());
  launch(k, LaunchConfig{1, n, 0, s}, out.data(), rounds);
  s.synchronize();
  const auto got = download(out);
  const auto acc = fast_rounds(n, rounds);
  for (int t = 0; t < n; ++t) {
    ASSERT_EQ(got[t], acc[t]) << "thread " << t;
    ASSERT_EQ(got[n + t], t % 2 == 0 ? acc[(t + 2) % n] + 2 : -1) << "thread " << t;
  }
}

// The failing thread is in the middle of a round: the threads before it wait at the next barrier, the
// ones after it at the last one. All are unwound (their destructors run) and none passes the barrier.
TEST(SimFastBarrier, AFailureUnwindsEveryWaitingThread) {
  sim::ScopedChecks checks(sim::check_none);
  const int n = 128;
  for (int thrower : {0, 77, n - 1}) {
    auto out = filled<int>(2, 0);
    Kernel<void(int*, int, int)> k("fast_mode_then_throw");
    Stream s(sim_dev());
    const std::string msg = fault_message([&] {
      launch(k, LaunchConfig{1, n, 0, s}, out.data(), 5, thrower);
      s.synchronize();
    });
    EXPECT_CONTAINS(msg, "fast_mode_then_throw");
    EXPECT_CONTAINS(msg, "thread (" + std::to_string(thrower) + ", 0, 0) of block (0, 0, 0)");
    EXPECT_CONTAINS(msg, "planted failure after fast barriers");
    const auto got = download(out);
    EXPECT_EQ(got[0], 0) << "a thread passed the barrier; thrower " << thrower;
    EXPECT_EQ(got[1], n) << "threads unwound; thrower " << thrower;
  }
  // The host thread's engine is clean afterwards.
  auto again = filled<int>(64, 0);
  Kernel<void(int*, int)> rounds("barrier_rounds");
  Stream s(sim_dev());
  launch(rounds, LaunchConfig{1, 64, 0, s}, again.data(), 3);
  s.synchronize();
  EXPECT_EQ(download(again)[0], 3);
}

// Threads 0 to 4 wait at a barrier they reached in fast mode; the report still names where.
TEST(SimFastBarrier, ADeadlockAfterFastRoundsIsReportedWithTheWaitingSites) {
  sim::ScopedChecks checks(sim::check_none);
  auto out = filled<int>(1, 0);
  Kernel<void(int*, int)> k("fast_mode_then_deadlock");
  Stream s(sim_dev());
  const std::string msg = fault_message([&] {
    launch(k, LaunchConfig{1, 64, 0, s}, out.data(), 4);
    s.synchronize();
  });
  EXPECT_CONTAINS(msg, "deadlock");
  // The site named for thread 0 is the line of the barrier it waits at, not one of the fast rounds'.
  const std::string waits = "thread (0, 0, 0) of block (0, 0, 0) waits at __syncthreads (";
  const auto at = msg.find(waits);
  ASSERT_NE(at, std::string::npos) << msg;
  const auto site = msg.substr(at + waits.size(), msg.find(')', at + waits.size()) - at - waits.size());
  const auto colon = site.rfind(':');
  ASSERT_NE(colon, std::string::npos) << site;
  std::ifstream source(site.substr(0, colon));
  ASSERT_TRUE(source) << site;
  std::string line;
  for (int i = std::stoi(site.substr(colon + 1)); i > 0; --i) std::getline(source, line);
  EXPECT_CONTAINS(line, "the barrier of the deadlock");
}

// The checks keep fast mode: what they find after fast rounds is still found, and named.
TEST(SimFastBarrier, ChecksFindWhatHappensAfterFastRounds) {
  Stream s(sim_dev());
  {
    sim::ScopedChecks checks(sim::racecheck);
    auto out = filled<int>(1, 0);
    Kernel<void(int*, int)> k("fast_mode_then_race");
    const std::string msg = fault_message([&] {
      launch(k, LaunchConfig{1, 256, 0, s}, out.data(), 4);
      s.synchronize();
    });
    EXPECT_CONTAINS(msg, "write-after-read");
    EXPECT_CONTAINS(msg, "thread (3, 0, 0) of block (0, 0, 0) read");
    EXPECT_CONTAINS(msg, "thread (200, 0, 0) of block (0, 0, 0) wrote");
  }
  {
    sim::ScopedChecks checks(sim::memcheck);
    const int n = 128;
    auto out = filled<int>(n, 0);
    Kernel<void(int*, int)> k("fast_mode_then_overrun");
    const std::string msg = fault_message([&] {
      launch(k, LaunchConfig{1, n, 0, s}, out.data(), 4);
      s.synchronize();
    });
    EXPECT_CONTAINS(msg, "memcheck");
    EXPECT_CONTAINS(msg, "thread (100, 0, 0) of block (0, 0, 0) wrote 4 bytes");
    EXPECT_CONTAINS(msg, "offset " + std::to_string(n * 4));
  }
  {
    sim::ScopedChecks checks(sim::synccheck);
    const int n = 96;
    auto out = filled<int>(n, 0);
    Kernel<void(int*, int)> k("fast_mode_then_divergent_barrier");
    const std::string msg = fault_message([&] {
      launch(k, LaunchConfig{1, n, 0, s}, out.data(), 4);
      s.synchronize();
    });
    EXPECT_CONTAINS(msg, "synccheck: divergent __syncthreads");
    EXPECT_CONTAINS(msg, "thread (48, 0, 0) of block (0, 0, 0) waits at");
    EXPECT_CONTAINS(msg, "thread (0, 0, 0) of block (0, 0, 0) waits at");
  }
  // A correct kernel with many barriers, warp calls and a counting barrier: no finding under any check.
  for (unsigned c : {unsigned{sim::racecheck}, unsigned{sim::memcheck}, unsigned{sim::synccheck},
                     unsigned{sim::check_all}}) {
    sim::ScopedChecks checks(c);
    const int n = 256, rounds = 6;
    auto out = filled<int>(3 * n, -1);
    Kernel<void(int*, int)> k("fast_mode_then_warp_calls");
    launch(k, LaunchConfig{1, n, 0, s}, out.data(), rounds);
    s.synchronize();
    EXPECT_EQ(download(out)[2 * n], fast_rounds(n, rounds)[1]) << sim::format_checks(c);
  }
}

}  // namespace
}  // namespace gpulab
