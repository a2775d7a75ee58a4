#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// The registry of instrumentation clients (client.hpp): every client the simulator has, in the order in
// which they see each access and each engine event. Adding a check is its home (a header in checks/
// and its source in src/sim/checks/) and a line here.
//
// The order matters where one client's verdict rests on another's: initcheck marks only bytes memcheck
// finds live, and racecheck settles a device word only in an access that memcheck and initcheck passed
// before it, so that a settled read passes all three at once (Racecheck::device_access_vouches). The
// profiler, last, is not a check: the hooks give it every access before the checks see it.
#include <gpulab/sim/checks.hpp>
#include <gpulab/sim/detail/checks/initcheck.hpp>
#include <gpulab/sim/detail/checks/memcheck.hpp>
#include <gpulab/sim/detail/checks/racecheck.hpp>
#include <gpulab/sim/detail/checks/synccheck.hpp>
#include <gpulab/sim/detail/instrumentation/client.hpp>
#include <gpulab/sim/detail/profiler/profiler.hpp>

namespace gpulab::sim::detail {

using Clients = ClientList<Memcheck, Initcheck, Racecheck, Synccheck, Profiler>;

template <class C>
struct client_needs_instrumentation {
  static constexpr bool value = C::needs_instrumentation;
};
template <class C>
struct client_is_any {
  static constexpr bool value = true;
};
template <class C>
struct client_is_check {
  static constexpr bool value = C::is_check;
};

// Every client's flag, the checks' (GPULAB_SIM_CHECK), and those that need a kernel's instrumented
// compilation.
inline constexpr unsigned all_clients = flags_where<client_is_any>(Clients{});
inline constexpr unsigned check_clients = flags_where<client_is_check>(Clients{});
inline constexpr unsigned instrumented_clients = flags_where<client_needs_instrumentation>(Clients{});

static_assert(check_clients == gpulab::sim::check_all, "gpulab::sim::check_all names every registered check");
static_assert([]<class... C>(ClientList<C...>) { return (0u + ... + __builtin_popcount(C::flag)); }(Clients{}) ==
                  static_cast<unsigned>(__builtin_popcount(all_clients)),
              "each client has one flag of its own");

}  // namespace gpulab::sim::detail
