// The sim device's streams and events (src/sim/engine/streams.hpp): work on one stream runs in order,
// a stream waits for another's event, events time the work between them, and the default stream is
// CUDA's legacy stream 0: a blocking stream is ordered after it, a non-blocking one is not.
#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "sim_test_support.hpp"

namespace gpulab {
namespace {

using namespace sim_testing;

TEST(SimExecution, WorkOnOneStreamRunsInOrder) {
  auto log = filled<int>(1 + 8, 0);
  Kernel<void(int*, int, int)> k("append_after_work");
  Stream s(sim_dev());
  // The early kernels do the most work: out of order they would finish last.
  for (int v = 0; v < 8; ++v) launch(k, LaunchConfig{1, 1, 0, s}, log.data(), v, (8 - v) * 200000);
  s.synchronize();
  EXPECT_EQ(download(log), (std::vector<int>{8, 0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(SimExecution, StreamWaitsForAnEventOfAnotherStream) {
  auto flag = filled<int>(1, 0);
  auto seen = filled<int>(1, -1);
  auto log = filled<int>(1 + 2, 0);
  sim_dev().synchronize();
  Kernel<void(const int*, int*)> wait("wait_for_host");
  Kernel<void(int*, int, int)> append("append_after_work");
  Stream first(sim_dev()), second(sim_dev());
  Event done_waiting(sim_dev());
  launch(wait, LaunchConfig{1, 1, 0, first}, flag.data(), seen.data());
  done_waiting.record(first);
  second.wait(done_waiting);
  launch(append, LaunchConfig{1, 1, 0, second}, log.data(), 5, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(done_waiting.query());
  EXPECT_FALSE(second.query());
  EXPECT_EQ(__atomic_load_n(log.data(), __ATOMIC_ACQUIRE), 0) << "the second stream ran ahead of the event";
  __atomic_store_n(flag.data(), 1, __ATOMIC_RELEASE);
  second.synchronize();
  EXPECT_TRUE(done_waiting.query());
  EXPECT_EQ(download(seen)[0], 1);
  EXPECT_EQ(download(log), (std::vector<int>{1, 5, 0}));
}

TEST(SimExecution, EventsTimeTheWorkBetweenThem) {
  auto log = filled<int>(1 + 1, 0);
  Kernel<void(int*, int, int)> append("append_after_work");
  Stream s(sim_dev());
  Event start(sim_dev()), end(sim_dev());
  start.record(s);
  launch(append, LaunchConfig{1, 1, 0, s}, log.data(), 1, 3000000);
  end.record(s);
  end.synchronize();
  EXPECT_TRUE(end.query());
  const float ms = elapsed_ms(start, end);
  EXPECT_GT(ms, 0.0f);
  EXPECT_LT(ms, 60000.0f);
  EXPECT_EQ(download(log)[0], 1);
}

TEST(SimExecution, ElapsedTimeOfAnUnrecordedEventIsRefused) {
  Event a(sim_dev()), b(sim_dev());
  EXPECT_THROW(elapsed_ms(a, b), InvalidArgument);
}

// The spin budgets of wait_for_flag, in rounds of one atomic read (about 2 ns each with the checks off in
// the optimised build: measured 3.1 s and 72 ms). The long one only runs out when the flag is never set
// while the kernel spins (the test fails then, after those seconds, and does not hang).
constexpr long long long_spin = 1'500'000'000;
constexpr long long short_spin = 35'000'000;

// A non-blocking stream is ordered with neither the default stream nor the blocking streams: its work
// runs while the default stream's kernel is still running. Were it ordered after the default stream,
// set_flag would only run once wait_for_flag had given up, and wait_for_flag would see 0.
TEST(SimExecution, ANonBlockingStreamIsNotOrderedAfterTheDefaultStream) {
  if (sim_dev().properties().multiprocessor_count < 2) {
    GTEST_SKIP() << "needs two host threads in the sim device's block pool, one per kernel; it has "
                 << sim_dev().properties().multiprocessor_count << " (GPULAB_SIM_THREADS, or one per core)";
  }
  sim::ScopedChecks checks(sim::check_none);
  auto flag = filled<int>(1, 0);
  auto saw = filled<int>(1, -1);
  sim_dev().synchronize();  // the fills are done before a non-blocking stream (not ordered after them) starts
  Kernel<void(int*, int*, long long)> wait("wait_for_flag");
  Kernel<void(int*)> set("set_flag");
  const Stream default_stream = Stream::default_for(sim_dev());
  const Stream non_blocking(sim_dev(), StreamMode::non_blocking);
  EXPECT_EQ(non_blocking.mode(), StreamMode::non_blocking);
  launch(wait, LaunchConfig{1, 1, 0, default_stream}, flag.data(), saw.data(), long_spin);
  launch(set, LaunchConfig{1, 1, 0, non_blocking}, flag.data());
  non_blocking.synchronize();
  default_stream.synchronize();
  EXPECT_EQ(download(saw)[0], 1) << "the non-blocking stream's kernel waited for the default stream's";
}

// A blocking stream (the default mode) is ordered after the default stream: its kernel starts when the
// default stream's earlier kernel has ended, so wait_for_flag spins its (short) budget out and sees 0.
TEST(SimExecution, ABlockingStreamIsOrderedAfterTheDefaultStream) {
  sim::ScopedChecks checks(sim::check_none);
  auto flag = filled<int>(1, 0);
  auto saw = filled<int>(1, -1);
  sim_dev().synchronize();
  Kernel<void(int*, int*, long long)> wait("wait_for_flag");
  Kernel<void(int*)> set("set_flag");
  const Stream default_stream = Stream::default_for(sim_dev());
  const Stream blocking(sim_dev());
  EXPECT_EQ(blocking.mode(), StreamMode::blocking);
  launch(wait, LaunchConfig{1, 1, 0, default_stream}, flag.data(), saw.data(), short_spin);
  launch(set, LaunchConfig{1, 1, 0, blocking}, flag.data());
  blocking.synchronize();
  default_stream.synchronize();
  EXPECT_EQ(download(saw)[0], 0) << "the blocking stream's kernel ran while the default stream's was running";
  EXPECT_EQ(download(flag)[0], 1);
}

}  // namespace
}  // namespace gpulab
