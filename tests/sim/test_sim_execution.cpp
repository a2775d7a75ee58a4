// How the sim device runs work: asynchronous launches, stream order, events, limits, memory.
#include <chrono>
#include <thread>

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

TEST(SimExecution, AllocatingMoreThanTheDeviceHasRaisesOutOfMemory) {
  const MemoryInfo info = sim_dev().memory_info();
  try {
    auto huge = device_array<char>(sim_dev(), static_cast<index_t>(info.total_bytes + 1));
    ADD_FAILURE() << "allocated more than the device's memory";
  } catch (const OutOfMemory& e) {
    EXPECT_EQ(e.total_bytes(), info.total_bytes);
  }
  // Memory is given back: a buffer of a quarter of the device fits twice in a row.
  for (int i = 0; i < 2; ++i) {
    auto quarter = device_array<char>(sim_dev(), static_cast<index_t>(info.total_bytes / 4));
    EXPECT_LE(sim_dev().memory_info().free_bytes, info.free_bytes - info.total_bytes / 4);
  }
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
