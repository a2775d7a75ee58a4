// The checker: the out-of-line half of the per-access path (instrumentation/dispatch.hpp). An access
// whose inline tests did not all pass comes here, and every client the launch has on runs its full
// check, in the registry's order; an atomic comes here always (atomics are not instrumented). Also the
// words the checks' reports share.
#include <cstring>

#include <gpulab/sim/detail/engine_abi.hpp>
#include <gpulab/sim/detail/instrumentation/clients.hpp>
#include <gpulab/sim/detail/instrumentation/dispatch.hpp>

#include "sim/checks/report.hpp"
#include "sim/engine/block_run.hpp"
#include "sim/engine/names.hpp"

namespace gpulab::sim::detail {

Text thread_text(const LaunchJob& job, unsigned linear, std::uint64_t block) {
  const dim3 d = job.block;
  const uint3 b = block_coordinates(job.grid, block);
  return Text("thread ({}, {}, {}) of block ({}, {}, {})", linear % d.x, (linear / d.x) % d.y, linear / (d.x * d.y),
              b.x, b.y, b.z);
}

Text describe_buffer(const LaunchJob& job, const Buffer& b) {
  for (std::size_t i = 0; i < job.arg_info.size(); ++i) {
    const auto p = reinterpret_cast<std::uintptr_t>(job.arg_info[i].pointer);
    if (job.arg_info[i].pointer != nullptr && p >= b.begin && p <= b.begin + b.bytes) {
      return Text("device buffer #{} ({} bytes at {:#x}, passed as parameter {})", b.id, b.bytes, b.begin, i + 1);
    }
  }
  return Text("device buffer #{} ({} bytes at {:#x})", b.id, b.bytes, b.begin);
}

void check_access(const void* address, std::size_t bytes, bool write) {
  BlockRun* run = host_thread.block;
  if (run == nullptr || run->aborting) return;
  const unsigned on = host_thread.clients;
  const Access a{reinterpret_cast<std::uintptr_t>(address), bytes, write};
  for_each_client(Clients{}, [&]<class C>() {
    if ((on & C::flag) != 0) C::check_access(*run, a);
  });
}

namespace {

// An atomic load is a read; the kind, scope and order are racecheck's (happens_before.hpp).
void run_atomic_checks(BlockRun* run, const void* address, std::size_t bytes, AtomicKind kind, AtomicScope scope,
                       AtomicOrder order) {
  const unsigned on = host_thread.clients;
  AtomicAccess a;
  a.address = reinterpret_cast<std::uintptr_t>(address);
  a.bytes = bytes;
  a.write = kind != AtomicKind::load;
  a.kind = kind;
  a.scope = scope;
  a.order = order;
  for_each_client(Clients{}, [&]<class C>() {
    if ((on & C::flag) != 0) C::check_atomic(*run, a);
  });
}

ProfileKind profile_kind(AtomicKind kind) {
  switch (kind) {
    case AtomicKind::load: return ProfileKind::load;
    case AtomicKind::store: return ProfileKind::store;
    default: return ProfileKind::atomic;
  }
}

}  // namespace

// Called from the atomic functions, inlined into the kernel: the return address is the atomic's site.
void check_atomic_access(const void* address, std::size_t bytes, AtomicKind kind, AtomicScope scope,
                         AtomicOrder order) {
  BlockRun* run = host_thread.block;
  if (run == nullptr || run->aborting) return;
  profile_access(host_thread, address, bytes, profile_kind(kind), __builtin_return_address(0));
  run_atomic_checks(run, address, bytes, kind, scope, order);
}

void check_fence(AtomicScope scope) {
  BlockRun* run = host_thread.block;
  if (run == nullptr || run->aborting) return;
  const unsigned on = host_thread.clients;
  for_each_client(Clients{}, [&]<class C>() {
    if ((on & C::flag) != 0) C::check_fence(*run, scope);
  });
}

void check_volatile_access(const void* address, std::size_t bytes, bool write) {
  BlockRun* run = host_thread.block;
  if (run == nullptr || run->aborting) return;
  if (host_thread.clients != 0) {
    if (in_device_memory(address)) {
      run_atomic_checks(run, address, bytes, write ? AtomicKind::store : AtomicKind::load, AtomicScope::system,
                        AtomicOrder::relaxed);
    } else {
      check_access(address, bytes, write);
    }
  }
  // After the checks, which end the thread on an access outside any buffer: reading the value is safe.
  if (write) {
    if (host_thread.block_polling) run->poll_progress();
  } else if (bytes <= 8) {
    std::uint64_t value = 0;
    std::memcpy(&value, const_cast<const void*>(address), bytes);
    run->observe_poll(address, value);
  }
}

}  // namespace gpulab::sim::detail
