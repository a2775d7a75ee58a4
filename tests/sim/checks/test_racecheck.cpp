// racecheck (src/sim/checks/racecheck/) end to end: planted races on shared and global memory are
// reported naming both threads, and ordered accesses, atomics and correct kernels give no finding.
// The shadows on their own are tested in racecheck/test_global_shadow.cpp and
// racecheck/test_shared_inline.cpp.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim_test_support.hpp"

namespace gpulab {
namespace {

using namespace sim_testing;

TEST(SimChecks, RacecheckReportsAPlantedSharedMemoryRaceNamingBothThreads) {
  sim::ScopedChecks checks(sim::racecheck);
  auto out = filled<int>(1, 0);
  Stream s(sim_dev());
  {
    Kernel<void(int*)> k("planted_shared_race");
    const std::string msg = fault_message([&] {
      launch(k, LaunchConfig{1, 64, 0, s}, out.data());
      s.synchronize();
    });
    EXPECT_CONTAINS(msg, "planted_shared_race");
    EXPECT_CONTAINS(msg, "racecheck");
    EXPECT_CONTAINS(msg, "read-after-write");
    EXPECT_CONTAINS(msg, "thread (2, 0, 0) of block (0, 0, 0) wrote");
    EXPECT_CONTAINS(msg, "thread (40, 0, 0) of block (0, 0, 0) read");
    EXPECT_CONTAINS(msg, "__shared__");
  }
  {
    // The reader runs first in the simulator's order: still a race.
    Kernel<void(int*)> k("planted_shared_race_reader_first");
    const std::string msg = fault_message([&] {
      launch(k, LaunchConfig{1, 64, 0, s}, out.data());
      s.synchronize();
    });
    EXPECT_CONTAINS(msg, "write-after-read");
    EXPECT_CONTAINS(msg, "thread (1, 0, 0) of block (0, 0, 0) read");
    EXPECT_CONTAINS(msg, "thread (50, 0, 0) of block (0, 0, 0) wrote");
  }
  {
    Kernel<void(int*)> k("planted_warp_race");
    auto wide = filled<int>(32, 0);
    const std::string msg = fault_message([&] {
      launch(k, LaunchConfig{1, 32, 0, s}, wide.data());
      s.synchronize();
    });
    EXPECT_CONTAINS(msg, "racecheck");
    EXPECT_CONTAINS(msg, "of block (0, 0, 0)");
  }
}

// racecheck keeps a cell per shared word while a word is only accessed whole, and per byte from the
// first access to part of it: the state carries over, and bytes written by different threads are no race.
TEST(SimChecks, RacecheckTracksSharedWordsAccessedWholeAndInBytes) {
  sim::ScopedChecks checks(sim::racecheck);
  Stream s(sim_dev());
  auto out = filled<int>(1, 0);
  Kernel<void(int*, int)> k("mixed_width_shared");
  const auto run = [&](int mode) {
    return fault_message([&] {
      launch(k, LaunchConfig{1, 64, 0, s}, out.data(), mode);
      s.synchronize();
    });
  };
  std::string msg = run(0);
  EXPECT_CONTAINS(msg, "read-after-write");
  EXPECT_CONTAINS(msg, "thread (0, 0, 0) of block (0, 0, 0) wrote");
  EXPECT_CONTAINS(msg, "thread (40, 0, 0) of block (0, 0, 0) read");
  EXPECT_EQ(run(1), "");
  EXPECT_EQ(download(out)[0], 7 | 9 << 8);
  msg = run(2);  // byte 0 comes first: thread 1's write (same warp as thread 2, no __syncwarp)
  EXPECT_CONTAINS(msg, "read-after-write");
  EXPECT_CONTAINS(msg, "thread (1, 0, 0) of block (0, 0, 0) wrote");
  EXPECT_CONTAINS(msg, "thread (2, 0, 0) of block (0, 0, 0) read");
}

TEST(SimChecks, RacecheckReportsGlobalMemoryRacesInABlockAndAcrossBlocks) {
  sim::ScopedChecks checks(sim::racecheck);
  Stream s(sim_dev());
  {
    auto slots = filled<int>(2 * 64, 0);
    auto out = filled<int>(2 * 64, 0);
    Kernel<void(int*, int*, int)> k("global_neighbour_exchange");
    const std::string msg = fault_message([&] {
      launch(k, LaunchConfig{2, 64, 0, s}, slots.data(), out.data(), 0);
      s.synchronize();
    });
    EXPECT_CONTAINS(msg, "global_neighbour_exchange");
    EXPECT_CONTAINS(msg, "racecheck");
    EXPECT_CONTAINS(msg, "hazard on global memory");
    EXPECT_CONTAINS(msg, "no __syncthreads between them");
  }
  {
    auto slots = filled<int>(5, 0);
    auto out = filled<int>(5, 0);
    Kernel<void(int*, int*)> k("global_race_across_blocks");
    const std::string msg = fault_message([&] {
      launch(k, LaunchConfig{5, 32, 0, s}, slots.data(), out.data());
      s.synchronize();
    });
    EXPECT_CONTAINS(msg, "global_race_across_blocks");
    // Which pair of blocks is reported first depends on how the host threads interleave them.
    EXPECT_CONTAINS(msg, "hazard on global memory, offset ");
    EXPECT_CONTAINS(msg, " of device buffer #");
    EXPECT_CONTAINS(msg, "thread (0, 0, 0) of block (");
    EXPECT_CONTAINS(msg, "threads of different blocks are not ordered within a launch");
  }
}

TEST(SimChecks, RacecheckRecordsABlocksReadsAfreshAfterABarrier) {
  sim::ScopedChecks checks(sim::racecheck | sim::memcheck | sim::initcheck);
  Stream s(sim_dev());
  auto word = filled<int>(1, 3);
  auto out = filled<int>(64, 0);
  Kernel<void(int*, int*, int, int, int)> k("global_reads_then_write");
  EXPECT_EQ(fault_message([&] {
              launch(k, LaunchConfig{1, 64, 0, s}, word.data(), out.data(), 1, 0, 0);
              s.synchronize();
            }),
            "");
  EXPECT_EQ(download(out)[63], 6);
  const std::string msg = fault_message([&] {
    launch(k, LaunchConfig{1, 64, 0, s}, word.data(), out.data(), 0, 0, 0);
    s.synchronize();
  });
  EXPECT_CONTAINS(msg, "write-after-read hazard on global memory, offset 0");
  EXPECT_CONTAINS(msg, "thread (40, 0, 0) of block (0, 0, 0) wrote it");
  EXPECT_CONTAINS(msg, "no __syncthreads between them");
}

TEST(SimChecks, RacecheckAcceptsOrderedGlobalAccessesAndAtomics) {
  sim::ScopedChecks checks(sim::racecheck | sim::memcheck);
  Stream s(sim_dev());
  auto slots = filled<int>(3 * 96, 0);
  auto out = filled<int>(3 * 96, 0);
  Kernel<void(int*, int*, int)> exchange("global_neighbour_exchange");
  EXPECT_EQ(fault_message([&] {
              launch(exchange, LaunchConfig{3, 96, 0, s}, slots.data(), out.data(), 1);
              s.synchronize();
            }),
            "");
  const auto got = download(out);
  for (int i = 0; i < 3 * 96; ++i) EXPECT_EQ(got[i], i / 96 * 96 + (i % 96 + 1) % 96) << i;
  // A second launch over the same memory is ordered after the first: no finding from its accesses.
  EXPECT_EQ(fault_message([&] {
              launch(exchange, LaunchConfig{3, 96, 0, s}, slots.data(), out.data(), 1);
              s.synchronize();
            }),
            "");
  auto count = filled<int>(1, 0);
  Kernel<void(int*)> atomics("global_atomic_count");
  EXPECT_EQ(fault_message([&] {
              launch(atomics, LaunchConfig{7, 64, 0, s}, count.data());
              s.synchronize();
            }),
            "");
  EXPECT_EQ(download(count), std::vector<int>{7 * 64});
}

TEST(SimChecks, RacecheckFindsNothingInCorrectKernels) {
  sim::ScopedChecks checks(sim::racecheck | sim::memcheck | sim::synccheck);
  Stream s(sim_dev());
  {
    const int n = 37;
    std::vector<float> a(n * n), b(n * n);
    for (int i = 0; i < n * n; ++i) {
      a[i] = static_cast<float>(i % 7) - 3.0f;
      b[i] = static_cast<float>(i % 5) - 2.0f;
    }
    auto da = upload(a), db = upload(b);
    auto dc = filled<float>(n * n, 0.0f);
    Kernel<void(const float*, const float*, float*, int)> k("tiled_matmul");
    EXPECT_EQ(fault_message([&] {
                launch(k, LaunchConfig{grid_for(Dim3(n, n), Dim3(16, 16)), Dim3(16, 16), 0, s}, da.data(),
                       db.data(), dc.data(), n);
                s.synchronize();
              }),
              "");
  }
  {
    std::vector<int> v(2 * 128, 1);
    auto in = upload(v);
    auto out = filled<int>(2, 0);
    Kernel<void(const int*, int*)> k("shared_warp_reduce");
    EXPECT_EQ(fault_message([&] {
                launch(k, LaunchConfig{2, 128, 0, s}, in.data(), out.data());
                s.synchronize();
              }),
              "");
    EXPECT_EQ(download(out), (std::vector<int>{128, 128}));
  }
  {
    std::vector<int> v(3 * 64);
    for (int i = 0; i < 3 * 64; ++i) v[i] = i;
    auto in = upload(v);
    auto out = filled<int>(3 * 64, 0);
    Kernel<void(const int*, int*)> k("reverse_in_shared");
    EXPECT_EQ(fault_message([&] {
                launch(k, LaunchConfig{3, 64, 64 * sizeof(int), s}, in.data(), out.data());
                s.synchronize();
              }),
              "");
  }
}

}  // namespace
}  // namespace gpulab
