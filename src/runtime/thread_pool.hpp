#pragma once
// A small fork-join pool for host-side parallel loops (the CPU GEMM, and any layer that needs one).
// The calling thread takes part in every loop, so a pool of N threads keeps N - 1 workers.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gpulab::detail {

// The cores this process may run on (its affinity mask), at least 1.
int host_core_count();

class ThreadPool {
 public:
  // `threads` counts the caller: 0 means host_core_count().
  explicit ThreadPool(int threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const noexcept { return static_cast<int>(workers_.size()) + 1; }

  // Runs body(i) for every i in [0, count) on at most min(count, max_threads, size()) threads (0: no
  // limit) and returns when all have finished. The first exception a body throws is rethrown here
  // once every index has finished. A call from inside a body, or while another caller's loop is
  // running, runs its indices in turn on the calling thread rather than wait for busy workers.
  void parallel_for(int count, const std::function<void(int)>& body, int max_threads = 0);

 private:
  struct Loop {
    const std::function<void(int)>* body = nullptr;
    int count = 0;
    int participants = 0;  // workers invited to this loop (the caller is extra)
    std::atomic<int> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
  };

  void worker_main(int worker_index);
  static void run_indices(Loop& loop);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::uint64_t generation_ = 0;  // bumped for each loop handed to the workers
  int unfinished_ = 0;            // invited workers that have not yet finished the current loop
  Loop* loop_ = nullptr;
  bool stopping_ = false;
  std::mutex dispatch_mutex_;  // one loop at a time uses the workers
};

// The process-wide pool, sized to host_core_count(), created on first use.
ThreadPool& host_thread_pool();

}  // namespace gpulab::detail
