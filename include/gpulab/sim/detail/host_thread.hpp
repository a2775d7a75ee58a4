#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// Everything simulated kernel code and the simulator share on one host thread: the engine's part
// (engine_state.hpp) and one part per instrumentation client (its ThreadState, in its own header),
// composed here from the registry so that each part stays with the code that owns it.
#include <gpulab/sim/detail/engine_state.hpp>
#include <gpulab/sim/detail/instrumentation/clients.hpp>

namespace gpulab::sim::detail {

struct HostThreadState : EngineThreadState, ClientThreadStates<Clients> {};

extern GPULAB_SIM_TLS HostThreadState host_thread;

// A client's part of this host thread's state.
template <class C>
GPULAB_SIM_HOOK_INLINE typename C::ThreadState& client_state(HostThreadState& h) {
  return h;
}

}  // namespace gpulab::sim::detail
