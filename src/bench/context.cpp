// The context of a bench run: what it ran on and how gpulab was built, so that a figure can be
// reproduced or explained (a peer's speed depends on OPENBLAS_CORETYPE; a kernel's on the driver).
#include <cstdlib>
#include <ctime>
#include <thread>

#include <fmt/format.h>

#include <gpulab/bench/bench.hpp>
#include <gpulab/cpu/cpu_info.hpp>
#include <gpulab/error.hpp>
#include <gpulab/sim/checks.hpp>
#include <gpulab/sim/profile.hpp>

#include "runtime/build_commit.hpp"

#ifndef GPULAB_BUILD_TYPE
#define GPULAB_BUILD_TYPE "unknown"
#endif
#ifndef GPULAB_CXX_FLAGS
#define GPULAB_CXX_FLAGS ""
#endif
#ifndef GPULAB_CXX_COMPILER
#define GPULAB_CXX_COMPILER "unknown"
#endif
#ifndef GPULAB_VERSION
#define GPULAB_VERSION "unknown"
#endif

namespace gpulab::bench {

namespace {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string device_detail(const Device& d) {
  const DeviceProperties& p = d.properties();
  switch (d.kind()) {
    case DeviceKind::cuda:
      return fmt::format("sm_{}{}, {} SMs, {:.0f} MHz, {:.1f} GiB", p.compute_major, p.compute_minor,
                         p.multiprocessor_count, p.clock_khz / 1e3,
                         static_cast<double>(p.total_memory) / (1u << 30));
    case DeviceKind::sim:
      return fmt::format("simulates sm_{}{} on {} host threads: CPU time, not GPU performance", p.compute_major,
                         p.compute_minor, p.multiprocessor_count);
    case DeviceKind::host:
      return cpu::cpu_info().summary();
  }
  return {};
}

}  // namespace

BenchContext collect_context(const BenchConfig& config, const std::vector<Device>& devices) {
  BenchContext ctx;
  const ComputeType type = compute_type_of(config.dtype);
  for (const Device& d : devices) {
    DeviceSummary s;
    s.id = d.id();
    s.name = d.properties().name;
    s.detail = device_detail(d);
    s.peak_gflops = device_peak_gflops(d, type, config.threads);
    ctx.devices.push_back(std::move(s));
  }
  const CudaStatus cuda = cuda_status();
  ctx.driver = cuda.built_with_cuda ? format_cuda_version(cuda.driver_version) : "none (built without CUDA)";
  if (cuda.built_with_cuda && !cuda.usable() && !cuda.error_name.empty()) ctx.driver += " (" + cuda.error_name + ")";
  ctx.runtime = cuda.built_with_cuda ? "CUDA " + format_cuda_version(cuda.runtime_version) : "none";
  ctx.compiler = GPULAB_CXX_COMPILER;
#ifdef GPULAB_CUDA_COMPILER
  ctx.compiler += std::string(", ") + GPULAB_CUDA_COMPILER;
#endif
  ctx.flags = GPULAB_CXX_FLAGS;
#ifdef GPULAB_CUDA_FLAGS
  ctx.flags += std::string("; nvcc ") + GPULAB_CUDA_FLAGS;
#endif
  ctx.build_type = GPULAB_BUILD_TYPE;
  ctx.commit = gpulab::detail::build_commit;
  ctx.version = GPULAB_VERSION;
  ctx.date = utc_now();
  ctx.host = cpu::cpu_info().summary();
  ctx.threads = config.threads;
  ctx.hardware_threads = static_cast<int>(std::thread::hardware_concurrency());
  for (const char* name : {"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                           "GPULAB_CPU_ISA", "CUDA_VISIBLE_DEVICES", "GPULAB_LAUNCH_BLOCKING", "GPULAB_SIM_THREADS",
                           "GPULAB_SIM_CHECK", "GPULAB_SIM_PROFILE"}) {
    const char* value = std::getenv(name);
    ctx.environment.emplace_back(name, value ? value : "");
  }
  // Off unless GPULAB_SIM_CHECK asks for them: the simulator's figures are then the plain kernels'.
  ctx.sim_checks = sim::enabled_checks() != sim::check_none;
  ctx.sim_profile = sim::profile_sections() != sim::profile_none;
  ctx.profile = config.profile;
  if (config.profile) ctx.estimate_gpu = std::string(find_gpu_spec(config.estimate_gpu).name);
  ctx.command = config.command;
  ctx.dtype = to_string(config.dtype);
  ctx.seed = config.seed;
  ctx.repeat = config.repeat;
  ctx.warmup = config.warmup;
  ctx.warmup_ms = config.warmup_ms;
  for (unsigned checks : config.sim_check_sets) ctx.sim_check_sets.push_back(sim::format_checks(checks));
  ctx.time_budget_ms = config.time_budget_ms;
  ctx.include_transfers = config.include_transfers;
  ctx.streams = config.streams;
  return ctx;
}

}  // namespace gpulab::bench
