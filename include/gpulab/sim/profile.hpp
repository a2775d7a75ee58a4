#pragma once
// The simulator's profiler: what a GPU's hardware counters would count for each kernel, named as Nsight
// Compute names them (docs/simulator.md, "The profiler"). GPULAB_SIM_PROFILE=1 (or a comma list of
// sections: global, shared, dram, atomics, launch) turns it on for the process and prints a summary per
// kernel on stderr at exit; GPULAB_SIM_PROFILE_OUT=file.json also writes them as JSON. A program or
// test may turn it on and read the counts itself. Only kernels compiled with instrumentation (gpulab's
// kernels in a default build, programs built with gpulab-simcc -G) have memory counters.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::sim {

// Sections of the profile, as GPULAB_SIM_PROFILE names them.
enum ProfileSections : unsigned {
  profile_none = 0,
  profile_global = 1u << 0,   // global loads and stores: requests, sectors, bytes
  profile_shared = 1u << 1,   // shared loads and stores: instructions, wavefronts, bank conflicts
  profile_dram = 1u << 2,     // the L2 model's DRAM bytes
  profile_atomics = 1u << 3,  // atomics: operations, instructions, same-address lanes
  profile_launch = 1u << 4,   // blocks, warps, barriers, warp calls, active lanes, occupancy
  profile_all = profile_global | profile_shared | profile_dram | profile_atomics | profile_launch,
  // Alone: the instrumented kernels run with the profiler's hooks and count nothing, which is what the
  // hooks alone cost (gpulab bench --profile reports the split).
  profile_hooks_only = 1u << 5,
};

// "1", "all", "on" (every section), "0", "off", "none", "hooks" (profile_hooks_only), or a comma list of
// section names; throws InvalidArgument naming an unknown word and the accepted ones.
unsigned parse_profile_sections(std::string_view text);

// The sections profiled for launches queued from now on (profile_none: off).
unsigned profile_sections();
void set_profile_sections(unsigned sections);

// The counts of one source line, or of a whole kernel.
using ProfileMetrics = std::map<std::string, double>;

// A metric's value, 0 where it is absent (a section off, a space the kernel never touched).
inline double metric_or_zero(const ProfileMetrics& m, const std::string& name) {
  const auto it = m.find(name);
  return it == m.end() ? 0.0 : it->second;
}

struct ProfileLine {
  std::string file;  // "?" when the build has no line tables
  unsigned line = 0;
  std::string function;
  ProfileMetrics metrics;
};

struct KernelProfile {
  std::string name;  // as the source names it, with this instantiation's template arguments: "matmulTiled<16>"
  std::uint64_t launches = 0;
  bool instrumented = true;  // false: launched without instrumentation, so only the launch section
  ProfileMetrics metrics;
  std::vector<ProfileLine> lines;  // the lines with memory counts, most sectors first
};

// Every kernel profiled since the start or the last reset_profile(), after the launches in flight
// have finished counting (call it after synchronising). Metrics of the sections off are left out.
std::vector<KernelProfile> profile_results();
void reset_profile();
// One kernel's profile by name; nullopt when it was not launched while profiling.
std::optional<KernelProfile> kernel_profile(std::string_view name);

// The summary printed at exit, and the JSON written to GPULAB_SIM_PROFILE_OUT.
std::string profile_summary();
std::string profile_json();

// Profiles a scope (tests), restoring the previous sections at its end.
class ScopedProfile {
 public:
  explicit ScopedProfile(unsigned sections = profile_all) : previous_(profile_sections()) {
    set_profile_sections(sections);
  }
  ~ScopedProfile() { set_profile_sections(previous_); }
  ScopedProfile(const ScopedProfile&) = delete;
  ScopedProfile& operator=(const ScopedProfile&) = delete;

 private:
  unsigned previous_;
};

}  // namespace gpulab::sim
