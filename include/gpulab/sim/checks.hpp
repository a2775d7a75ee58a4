#pragma once
// The simulator's checks (compute-sanitizer's names). GPULAB_SIM_CHECK sets them for the process
// ("memcheck,racecheck", "all", "none"); a program or test may change them between launches. A launch
// uses the set in force when it was queued.
#include <string>
#include <string_view>

namespace gpulab::sim {

enum CheckFlags : unsigned {
  check_none = 0,
  memcheck = 1u << 0,   // out-of-bounds and host-memory accesses (instrumented kernels)
  racecheck = 1u << 1,  // shared-memory races between barriers (instrumented kernels)
  initcheck = 1u << 2,  // reads of device memory never written (instrumented kernels)
  synccheck = 1u << 3,  // divergent barriers and warp-synchronous calls
  check_all = memcheck | racecheck | initcheck | synccheck,
};
// Each check is an instrumentation client of the simulator, registered with its name in
// gpulab/sim/detail/instrumentation/clients.hpp; these are their flags.

// Parses "memcheck,racecheck", "all", "none" (case-insensitive); throws InvalidArgument naming the
// unknown word and the accepted ones.
unsigned parse_checks(std::string_view text);
std::string format_checks(unsigned checks);

// The checks that need a kernel's instrumented compilation (memcheck, racecheck, initcheck).
unsigned checks_needing_instrumentation();

// The checks for launches queued from now on.
unsigned enabled_checks();
void set_enabled_checks(unsigned checks);

// Sets the checks for a scope (tests), restoring the previous set at its end.
class ScopedChecks {
 public:
  explicit ScopedChecks(unsigned checks) : previous_(enabled_checks()) { set_enabled_checks(checks); }
  ~ScopedChecks() { set_enabled_checks(previous_); }
  ScopedChecks(const ScopedChecks&) = delete;
  ScopedChecks& operator=(const ScopedChecks&) = delete;

 private:
  unsigned previous_;
};

}  // namespace gpulab::sim
