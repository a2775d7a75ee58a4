#include "sim/engine/block_pool.hpp"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <exception>

#include <fmt/format.h>

#include <gpulab/error.hpp>

#include "runtime/env.hpp"
#include "runtime/thread_pool.hpp"
#include "sim/engine/block_run.hpp"

namespace gpulab::sim::detail {

int BlockPool::configured_threads() {
  if (auto text = gpulab::detail::env_value("GPULAB_SIM_THREADS")) {
    char* end = nullptr;
    const long n = std::strtol(text->c_str(), &end, 10);
    if (end == text->c_str() || *end != '\0' || n < 1 || n > 4096) {
      throw InvalidArgument(fmt::format("GPULAB_SIM_THREADS={}: expected a number of host threads from 1 to 4096", *text));
    }
    return static_cast<int>(n);
  }
  return gpulab::detail::host_core_count();
}

BlockPool::BlockPool(int threads) {
  // One thread per allowed CPU, each bound to its CPU: left to the scheduler, two of them sometimes
  // shared a core for whole launches while the other idled (on the 2-core test machine, in 2 of 12
  // runs 1 to 7 of the 10 launches took twice as long; bound, none in 12 runs). More threads than
  // CPUs (GPULAB_SIM_THREADS) are left unbound.
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
    }
  }
  const bool bind = threads <= static_cast<int>(cpus.size());
  for (int i = 0; i < threads; ++i) {
    const int cpu = bind ? cpus[static_cast<std::size_t>(i)] : -1;
    threads_.emplace_back([this, cpu] {
      if (cpu >= 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        sched_setaffinity(0, sizeof one, &one);  // a failure leaves the thread unbound: no harm
      }
      worker_main();
    });
  }
}

BlockPool::~BlockPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
  {
    std::lock_guard lock(helper_mutex_);
    helpers_stopping_ = true;
  }
  helper_wake_.notify_all();
  for (auto& t : helpers_) t.join();
}

void BlockPool::admit_one_more(const std::shared_ptr<LaunchJob>& job) {
  std::lock_guard lock(helper_mutex_);
  if (helpers_stopping_) return;
  helper_jobs_.push_back(job);
  // Each job queued is taken by one idle helper; make one when every idle one is spoken for.
  if (idle_helpers_ >= helper_jobs_.size()) {
    helper_wake_.notify_one();
  } else {
    helpers_.emplace_back([this] { helper_main(); });
  }
}

void BlockPool::helper_main() {
  BlockRun& run = this_thread_block_run();
  for (;;) {
    std::shared_ptr<LaunchJob> job;
    {
      std::unique_lock lock(helper_mutex_);
      ++idle_helpers_;
      helper_wake_.wait(lock, [&] { return helpers_stopping_ || !helper_jobs_.empty(); });
      --idle_helpers_;
      if (helper_jobs_.empty()) return;
      job = std::move(helper_jobs_.front());
      helper_jobs_.pop_front();
    }
    run_blocks(*job, run);
  }
}

void BlockPool::run_blocks(LaunchJob& job, BlockRun& run) {
  for (;;) {
    const std::uint64_t b = job.next_block.fetch_add(1);
    if (b >= job.block_count) return;
    if (!job.cancelled.load(std::memory_order_relaxed)) {
      try {
        run.run(job, b);
      } catch (const std::exception& e) {
        job.report(fmt::format("the simulator could not run block {}: {}", b, e.what()));
      }
    }
    if (job.finished_blocks.fetch_add(1) + 1 == job.block_count) {
      std::lock_guard lock(job.mutex);
      job.finished.notify_all();
    }
  }
}

void BlockPool::run(const std::shared_ptr<LaunchJob>& job) {
  if (job->block_count == 0) return;
  if (job->grid_barrier != nullptr) {
    resident_.run(job, job->block_count);
    return;
  }
  job->pool = this;
  job->self = job;
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(job);
  }
  wake_.notify_all();
  std::unique_lock lock(job->mutex);
  job->finished.wait(lock, [&] { return job->finished_blocks.load() == job->block_count; });
}

void BlockPool::worker_main() {
  BlockRun& run = this_thread_block_run();
  for (;;) {
    std::shared_ptr<LaunchJob> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      job = jobs_.front();
    }
    run_blocks(*job, run);
    std::lock_guard lock(mutex_);
    const auto it = std::find(jobs_.begin(), jobs_.end(), job);
    if (it != jobs_.end()) jobs_.erase(it);
  }
}

}  // namespace gpulab::sim::detail
