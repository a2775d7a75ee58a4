// memcheck (src/sim/checks/memcheck.cpp): out-of-bounds and host-memory accesses, through raw
// pointers, kernel parameters, another thread's stack and dynamic shared memory, each reported as a
// KernelFault naming the kernel, the block, the thread and what happened.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim_test_support.hpp"

namespace gpulab {
namespace {

using namespace sim_testing;

TEST(SimChecks, MemcheckReportsAnOutOfBoundsWriteThroughARawPointer) {
  sim::ScopedChecks checks(sim::memcheck);
  const int n = 100;
  auto a = filled<int>(n, 0);
  Kernel<void(int*, int)> k("planted_oob_write");
  Stream s(sim_dev());
  const std::string msg = fault_message([&] {
    launch(k, LaunchConfig{2, 64, 0, s}, a.data(), n);
    s.synchronize();
  });
  EXPECT_CONTAINS(msg, "planted_oob_write");
  EXPECT_CONTAINS(msg, "memcheck");
  EXPECT_CONTAINS(msg, "thread (3, 0, 0) of block (1, 0, 0)");
  EXPECT_CONTAINS(msg, "wrote 4 bytes");
  EXPECT_CONTAINS(msg, "offset 400 of device buffer");
  EXPECT_CONTAINS(msg, "400 bytes");
  EXPECT_CONTAINS(msg, "parameter 1");
  // The stream is usable afterwards.
  launch(k, LaunchConfig{1, 1, 0, s}, a.data(), 0);
  s.synchronize();
}

TEST(SimChecks, MemcheckReportsAHostPointerDereferencedInAKernel) {
  sim::ScopedChecks checks(sim::memcheck);
  static int host_value = 0;
  std::vector<int> heap(4, 3);
  int* planted = heap.data();
  auto table = upload(std::vector<int*>{planted});
  auto out = filled<int>(1, 0);
  Kernel<void(int* const*, int*)> k("follow_pointer");
  Stream s(sim_dev());
  const std::string msg = fault_message([&] {
    launch(k, LaunchConfig{1, 1, 0, s}, table.data(), out.data());
    s.synchronize();
  });
  EXPECT_CONTAINS(msg, "follow_pointer");
  EXPECT_CONTAINS(msg, "thread (0, 0, 0) of block (0, 0, 0)");
  EXPECT_CONTAINS(msg, "host memory");
  (void)host_value;
}

// A thread's own stack (locals indexed at run time) passes memcheck, decided inline; another thread's
// local memory, reached through a pointer it published, is reported naming both threads.
TEST(SimChecks, MemcheckAllowsAThreadsOwnStackAndReportsAnothers) {
  sim::ScopedChecks checks(sim::memcheck);
  std::vector<int> in(48);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i * 3 + 1);
  auto d_in = upload(in);
  auto out = filled<int>(48, -1);
  Stream s(sim_dev());
  launch(Kernel<void(const int*, int*)>("local_array_sum"), LaunchConfig{1, 48, 0, s}, d_in.data(), out.data());
  s.synchronize();
  const std::vector<int> sums = download(out);
  for (std::size_t t = 0; t < in.size(); ++t) EXPECT_EQ(sums[t], 16 * in[t] + 120) << "thread " << t;

  auto values = filled<int>(64, 0);
  const std::string msg = fault_message([&] {
    launch(Kernel<void(int*)>("read_neighbours_local"), LaunchConfig{1, 64, 0, s}, values.data());
    s.synchronize();
  });
  EXPECT_CONTAINS(msg, "read_neighbours_local");
  EXPECT_CONTAINS(msg, "memcheck");
  EXPECT_CONTAINS(msg, "thread (0, 0, 0) of block (0, 0, 0) read 4 bytes");
  EXPECT_CONTAINS(msg, "in the local memory (stack) of thread (1, 0, 0)");
}

TEST(SimChecks, MemcheckReportsAHostPointerArgumentAtLaunch) {
  sim::ScopedChecks checks(sim::memcheck);
  std::vector<int> host(32, 1);
  auto out = filled<int>(32, 0);
  Kernel<void(const int*, int*)> k("copy_ints");
  Stream s(sim_dev());
  const std::string msg = fault_message([&] { launch(k, LaunchConfig{1, 32, 0, s}, host.data(), out.data()); });
  EXPECT_CONTAINS(msg, "copy_ints");
  EXPECT_CONTAINS(msg, "parameter 1");
}

TEST(SimChecks, MemcheckReportsAnOverrunOfDynamicSharedMemory) {
  sim::ScopedChecks checks(sim::memcheck);
  auto out = filled<int>(65, 0);
  Kernel<void(int*)> k("dynamic_shared_overrun");
  Stream s(sim_dev());
  const std::string msg = fault_message([&] {
    launch(k, LaunchConfig{1, 65, 64 * sizeof(int), s}, out.data());
    s.synchronize();
  });
  EXPECT_CONTAINS(msg, "thread (64, 0, 0) of block (0, 0, 0)");
  EXPECT_CONTAINS(msg, "offset 256 of dynamic shared memory");
}

}  // namespace
}  // namespace gpulab
