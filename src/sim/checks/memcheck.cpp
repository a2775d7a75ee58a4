// memcheck (include/gpulab/sim/detail/checks/memcheck.hpp): the full check of an access its inline
// test did not pass, the pointer arguments of a launch, and the reports.
#include <gpulab/error.hpp>
#include <gpulab/sim/detail/checks/memcheck.hpp>

#include "sim/checks/report.hpp"
#include "sim/engine/block_run.hpp"
#include "sim/engine/sim_device.hpp"

namespace gpulab::sim::detail {

namespace {

[[noreturn]] void report_device_overrun(BlockRun& run, const Access& access) {
  const LaunchJob& job = *run.job;
  const DeviceMemory& memory = job.device->memory();
  const std::uintptr_t a = access.address;
  const Text who = thread_text(run, run.current());
  const auto below = memory.buffer_at_or_below(access.pointer());
  const auto above = memory.buffer_above(access.pointer());
  if (below && a < below->begin + below->bytes + 4096 && (!above || a - (below->begin + below->bytes) <= above->begin - a)) {
    const Text buffer = describe_buffer(job, *below);
    fail(run, Text("memcheck: {} {} {} bytes at {:#x}: out of bounds: offset {} of {}, {} bytes past its end",
                   who.view(), verb(access.write), access.bytes, a, a - below->begin, buffer.view(),
                   a + access.bytes - (below->begin + below->bytes)));
  }
  if (above && above->begin - a <= 4096) {
    const Text buffer = describe_buffer(job, *above);
    fail(run, Text("memcheck: {} {} {} bytes at {:#x}: out of bounds: offset -{} of {}, before its start", who.view(),
                   verb(access.write), access.bytes, a, above->begin - a, buffer.view()));
  }
  fail(run, Text("memcheck: {} {} {} bytes at {:#x}: out of bounds: device memory that belongs to no live buffer "
                 "(freed, or never allocated)",
                 who.view(), verb(access.write), access.bytes, a));
}

void memcheck_access(BlockRun& run, const Access& access) {
  const LaunchJob& job = *run.job;
  const void* p = access.pointer();
  const std::uintptr_t a = access.address;
  if (in_device_memory(p)) {
    if (!job.device->memory().addressable(p, access.bytes)) report_device_overrun(run, access);
    return;
  }
  const auto shared = reinterpret_cast<std::uintptr_t>(run.shared_memory);
  if (a - shared < run.shared_capacity) {
    if (a - shared + access.bytes > job.shared_bytes) {
      fail(run, Text("memcheck: {} {} {} bytes at offset {} of dynamic shared memory, beyond the launch's {} bytes",
                     thread_text(run, run.current()).view(), verb(access.write), access.bytes, a - shared,
                     job.shared_bytes));
    }
    return;
  }
  if (run.stacks.contains(p)) {
    const unsigned mine = run.fiber_mode ? run.threads[run.current()].stack : 0;
    const unsigned theirs = run.stacks.index_of(p);
    if (theirs != mine) {
      unsigned owner = 0;
      while (owner < run.thread_count && run.threads[owner].stack != theirs) ++owner;
      const Text whose = owner < run.thread_count ? thread_text(run, owner) : Text("another thread");
      fail(run, Text("memcheck: {} {} {} bytes at {:#x}, in the local memory (stack) of {}",
                     thread_text(run, run.current()).view(), verb(access.write), access.bytes, a, whose.view()));
    }
    return;
  }
  for (const AddressRange& r : run.tls) {
    if (r.contains(p)) {  // static __shared__ memory
      // The inline test takes this range from now on.
      Memcheck::ThreadState& s = client_state<Memcheck>(host_thread);
      s.valid_base = r.begin;
      s.valid_bytes = r.bytes;
      return;
    }
  }
  if (in_loaded_module(p)) return;  // globals, __constant__ data, literals
  if (job.device->memory().host_registered(p, access.bytes) != 0) return;  // cudaHostRegister'ed
  fail(run, Text("memcheck: {} {} {} bytes at {:#x}, which is host memory, not memory of the sim device (a host "
                 "pointer dereferenced in a kernel?)",
                 thread_text(run, run.current()).view(), verb(access.write), access.bytes, a));
}

}  // namespace

void Memcheck::check_access(BlockRun& run, const Access& a) {
  const HostThreadState& h = host_thread;
  const std::size_t offset = a.address - h.device_base;
  const bool passes = offset < h.device_bytes ? device_access_passes(h, h, a, offset) : host_access_passes(h, h, a);
  if (!passes) memcheck_access(run, a);
}

void Memcheck::check_atomic(BlockRun& run, const Access& a) { memcheck_access(run, a); }

void Memcheck::on_launch_queued(SimDevice& device, LaunchJob& job) {
  if ((job.clients & flag) == 0) return;
  for (std::size_t i = 0; i < job.arg_info.size(); ++i) {
    const auto& arg = job.arg_info[i];
    // A __device__ variable's address (cudaGetSymbolAddress) lies in the program's image.
    if ((arg.is_pointer || arg.has_space) && arg.pointer != nullptr && !device.memory().contains(arg.pointer) &&
        device.memory().host_registered(arg.pointer, 1) == 0 && !in_loaded_module(arg.pointer)) {
      throw KernelFault(job.kernel_name,
                        fmt::format("memcheck: parameter {} ({}) is {:#x}, which is not memory of the sim device "
                                    "(a host pointer passed to a kernel?)",
                                    i + 1, arg.type_name, reinterpret_cast<std::uintptr_t>(arg.pointer)));
    }
  }
}

void Memcheck::on_block_start(BlockRun& run) {
  ThreadState& s = client_state<Memcheck>(host_thread);
  const bool on = (run.job->clients & flag) != 0;
  s.dynamic_base = on ? reinterpret_cast<std::uintptr_t>(run.shared_memory) : 0;
  s.dynamic_bytes = on ? run.job->shared_bytes : 0;
}

}  // namespace gpulab::sim::detail
