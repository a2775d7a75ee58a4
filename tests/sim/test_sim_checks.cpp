// The simulator's checks: each planted bug is reported as a KernelFault naming the kernel, the block,
// the thread and what happened, and nothing hangs. Each test also runs the bug with the check off,
// where it must still end (a fault or a result, never a hang).
#include <gtest/gtest.h>

#include "sim_test_support.hpp"

namespace gpulab {
namespace {

using namespace sim_testing;

#define EXPECT_CONTAINS(text, part) EXPECT_NE((text).find(part), std::string::npos) << "in: " << (text)

TEST(SimChecks, ParsesComputeSanitizerNames) {
  EXPECT_EQ(sim::parse_checks("memcheck, RACECHECK"), sim::memcheck | sim::racecheck);
  EXPECT_EQ(sim::parse_checks("all"), static_cast<unsigned>(sim::check_all));
  EXPECT_EQ(sim::parse_checks("none"), 0u);
  EXPECT_THROW(sim::parse_checks("memcheck,bogus"), InvalidArgument);
}

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

}  // namespace
}  // namespace gpulab
