// initcheck (src/sim/checks/initcheck.cpp): a read of device memory never written is reported. Turned
// on between launches, it takes as written what it did not watch: buffers copied or filled while it
// was off, and every buffer that existed when a kernel ran with it off; a buffer nothing can have
// written is still reported. The device is the process's: each test makes its own buffers, whatever
// the tests before it did.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim_test_support.hpp"

namespace gpulab {
namespace {

using namespace sim_testing;

// Reads 32 ints of `in` with copy_ints under initcheck alone; the fault's text, or "" without one.
std::string read_under_initcheck(const DeviceArray<int>& in) {
  sim::ScopedChecks checks(sim::initcheck);
  auto out = device_array<int>(sim_dev(), 32);  // only written
  Kernel<void(const int*, int*)> k("copy_ints");
  Stream s(sim_dev());
  return fault_message([&] {
    launch(k, LaunchConfig{1, 32, 0, s}, in.data(), out.data());
    s.synchronize();
  });
}

std::vector<int> some_values() {
  std::vector<int> v(32);
  for (int i = 0; i < 32; ++i) v[i] = 5 * i - 7;
  return v;
}

// A buffer allocated and never written, and another copied into, both with initcheck off and no kernel
// launched in between: the first is reported, the second is not. "" when so, or what went wrong.
std::string never_written_after_unwatched_copies() {
  std::string wrong;
  sim::ScopedChecks off(sim::check_none);
  auto never = device_array<int>(sim_dev(), 32);
  auto copied = upload(some_values());
  auto filled_in = device_array<int>(sim_dev(), 32);
  filled_in.fill(1);
  sim_dev().synchronize();
  if (const std::string msg = read_under_initcheck(copied); !msg.empty()) wrong += "copied reported: " + msg + "\n";
  if (const std::string msg = read_under_initcheck(filled_in); !msg.empty()) wrong += "filled reported: " + msg + "\n";
  const std::string msg = read_under_initcheck(never);
  if (msg.find("initcheck") == std::string::npos || msg.find("offset 0 of device buffer") == std::string::npos) {
    wrong += "the never-written buffer's read gave '" + msg + "'\n";
  }
  return wrong;
}

TEST(SimChecks, InitcheckReportsAReadOfMemoryNeverWritten) {
  sim::ScopedChecks checks(sim::initcheck);
  auto in = device_array<int>(sim_dev(), 32);  // never written
  auto out = filled<int>(32, 0);
  Kernel<void(const int*, int*)> k("copy_ints");
  Stream s(sim_dev());
  const std::string msg = fault_message([&] {
    launch(k, LaunchConfig{1, 32, 0, s}, in.data(), out.data());
    s.synchronize();
  });
  EXPECT_CONTAINS(msg, "initcheck");
  EXPECT_CONTAINS(msg, "thread (0, 0, 0) of block (0, 0, 0)");
  EXPECT_CONTAINS(msg, "offset 0 of device buffer");
  // Written first, it is clean.
  in.fill(3);
  EXPECT_EQ(fault_message([&] {
              launch(k, LaunchConfig{1, 32, 0, s}, in.data(), out.data());
              s.synchronize();
            }),
            "");
}

// Data copied in while initcheck was off counts as written once it is on: turning initcheck on between
// launches reports nothing that came in unwatched.
TEST(SimChecks, InitcheckTakesABufferCopiedWhileItWasOffAsWritten) {
  DeviceArray<int> in;
  {
    sim::ScopedChecks off(sim::check_none);
    in = upload(some_values());
  }
  EXPECT_EQ(read_under_initcheck(in), "");
  EXPECT_EQ(download(in), some_values());
}

// Copies and fills while initcheck is off are no reason to take a buffer nobody wrote as written.
TEST(SimChecks, InitcheckReportsANeverWrittenBufferAfterUnwatchedCopies) {
  EXPECT_EQ(never_written_after_unwatched_copies(), "");
}

// The same before initcheck was ever on in the process (before it keeps any marks): run in a process of
// its own, which gtest's threadsafe death-test style starts afresh for this test alone, so that no
// other test has turned initcheck on or launched a kernel before.
TEST(SimChecks, InitcheckReportsANeverWrittenBufferAllocatedBeforeItWasEverOn) {
  if (sim::enabled_checks() != sim::check_none) {
    GTEST_SKIP() << "GPULAB_SIM_CHECK=" << sim::format_checks(sim::enabled_checks())
                 << " turns checks on for the whole process, before any buffer exists";
  }
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        const std::string wrong = never_written_after_unwatched_copies();
        std::fputs(wrong.empty() ? "as expected\n" : wrong.c_str(), stderr);
        std::fflush(stderr);
        std::_Exit(wrong.empty() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "as expected");
}

// A kernel launched with initcheck off may have written any buffer that existed then: those count as
// written, while a buffer allocated after it and never written is still reported.
TEST(SimChecks, InitcheckTakesTheBuffersOfAnUncheckedLaunchAsWrittenAndNoLaterOnes) {
  sim::ScopedChecks off(sim::check_none);
  auto before = device_array<int>(sim_dev(), 32);  // never written by anything
  {
    auto in = upload(some_values());
    auto out = device_array<int>(sim_dev(), 32);
    Stream s(sim_dev());
    launch(Kernel<void(const int*, int*)>("copy_ints"), LaunchConfig{1, 32, 0, s}, in.data(), out.data());
    s.synchronize();  // the unchecked launch has started (and ended)
  }
  auto after = device_array<int>(sim_dev(), 32);  // allocated after it, never written
  EXPECT_EQ(read_under_initcheck(before), "");
  const std::string msg = read_under_initcheck(after);
  EXPECT_CONTAINS(msg, "initcheck");
  EXPECT_CONTAINS(msg, "offset 0 of device buffer");
}

}  // namespace
}  // namespace gpulab
