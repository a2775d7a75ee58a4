#include "runtime/thread_pool.hpp"

#include <sched.h>

#include <algorithm>

namespace gpulab::detail {

namespace {
// Set while a thread runs a body, so that a nested parallel_for runs inline instead of waiting for
// workers that are busy running its parent.
thread_local bool inside_parallel_for = false;
}  // namespace

int host_core_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

ThreadPool::ThreadPool(int threads) {
  const int total = threads > 0 ? threads : host_core_count();
  workers_.reserve(static_cast<std::size_t>(total - 1));
  for (int w = 0; w < total - 1; ++w) workers_.emplace_back([this, w] { worker_main(w); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::run_indices(Loop& loop) {
  const bool was_inside = inside_parallel_for;
  inside_parallel_for = true;
  for (int i = loop.next.fetch_add(1, std::memory_order_relaxed); i < loop.count;
       i = loop.next.fetch_add(1, std::memory_order_relaxed)) {
    try {
      (*loop.body)(i);
    } catch (...) {
      std::lock_guard lock(loop.error_mutex);
      if (!loop.error) loop.error = std::current_exception();
    }
  }
  inside_parallel_for = was_inside;
}

void ThreadPool::worker_main(int worker_index) {
  std::uint64_t seen = 0;
  for (;;) {
    Loop* loop = nullptr;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      // Workers beyond the loop's thread limit sit this one out.
      if (loop_ != nullptr && worker_index < loop_->participants) loop = loop_;
    }
    if (loop == nullptr) continue;
    run_indices(*loop);
    {
      std::lock_guard lock(mutex_);
      if (--unfinished_ == 0) done_.notify_one();
    }
  }
}

void ThreadPool::parallel_for(int count, const std::function<void(int)>& body, int max_threads) {
  if (count <= 0) return;
  int threads = std::min(count, size());
  if (max_threads > 0) threads = std::min(threads, max_threads);

  Loop loop;
  loop.body = &body;
  loop.count = count;

  std::unique_lock dispatch(dispatch_mutex_, std::defer_lock);
  if (threads <= 1 || inside_parallel_for || !dispatch.try_lock()) {
    run_indices(loop);
  } else {
    loop.participants = threads - 1;
    {
      std::lock_guard lock(mutex_);
      loop_ = &loop;
      unfinished_ = loop.participants;
      ++generation_;
    }
    wake_.notify_all();
    run_indices(loop);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return unfinished_ == 0; });
    loop_ = nullptr;
  }
  if (loop.error) std::rethrow_exception(loop.error);
}

ThreadPool& host_thread_pool() {
  static ThreadPool pool;
  return pool;
}

}  // namespace gpulab::detail
