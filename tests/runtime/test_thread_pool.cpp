// The host thread pool behind the CPU GEMM (src/runtime/thread_pool.hpp).
#include "runtime/thread_pool.hpp"

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace gpulab::testing {
namespace {

TEST(ThreadPool, RunsEveryIndexOnce) {
  detail::ThreadPool pool(3);
  EXPECT_EQ(pool.size(), 3);
  for (int count : {0, 1, 2, 3, 7, 100}) {
    std::vector<std::atomic<int>> hits(static_cast<std::size_t>(count));
    pool.parallel_for(count, [&](int i) { hits[static_cast<std::size_t>(i)].fetch_add(1); });
    for (int i = 0; i < count; ++i) EXPECT_EQ(hits[static_cast<std::size_t>(i)].load(), 1) << count << " " << i;
  }
}

TEST(ThreadPool, UsesSeveralThreadsAndRespectsTheLimit) {
  detail::ThreadPool pool(2);
  for (int limit : {0, 1}) {
    std::mutex mutex;
    std::set<std::thread::id> seen;
    std::atomic<int> arrived{0};
    pool.parallel_for(
        2,
        [&](int) {
          {
            std::lock_guard lock(mutex);
            seen.insert(std::this_thread::get_id());
          }
          // With two threads, each waits briefly for the other, so both indices do run at once.
          arrived.fetch_add(1);
          for (int spin = 0; spin < 200000 && arrived.load() < 2; ++spin) std::this_thread::yield();
        },
        limit);
    EXPECT_EQ(seen.size(), limit == 1 ? 1u : 2u) << "limit " << limit;
  }
}

TEST(ThreadPool, RethrowsTheFirstExceptionAfterAllIndices) {
  detail::ThreadPool pool(2);
  std::atomic<int> done{0};
  EXPECT_THROW(pool.parallel_for(10,
                                 [&](int i) {
                                   done.fetch_add(1);
                                   if (i == 3) throw std::runtime_error("three");
                                 }),
               std::runtime_error);
  EXPECT_EQ(done.load(), 10);
  // Still usable afterwards.
  std::atomic<int> again{0};
  pool.parallel_for(5, [&](int) { again.fetch_add(1); });
  EXPECT_EQ(again.load(), 5);
}

TEST(ThreadPool, NestedLoopsRunInline) {
  detail::ThreadPool pool(2);
  std::atomic<int> total{0};
  pool.parallel_for(4, [&](int) { pool.parallel_for(3, [&](int) { total.fetch_add(1); }); });
  EXPECT_EQ(total.load(), 12);
}

TEST(ThreadPool, ConcurrentCallersBothFinish) {
  detail::ThreadPool pool(2);
  std::atomic<int> total{0};
  auto work = [&] {
    for (int r = 0; r < 200; ++r) pool.parallel_for(4, [&](int) { total.fetch_add(1); });
  };
  std::thread other(work);
  work();
  other.join();
  EXPECT_EQ(total.load(), 2 * 200 * 4);
}

TEST(ThreadPool, HostPoolHasEveryCore) {
  EXPECT_EQ(detail::host_thread_pool().size(), detail::host_core_count());
  EXPECT_GE(detail::host_core_count(), 1);
}

}  // namespace
}  // namespace gpulab::testing
