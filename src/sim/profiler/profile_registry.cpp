// The profiler's totals per kernel, and everything that reads them (gpulab/sim/profile.hpp): the
// metrics under Nsight Compute's names, per kernel and per source line, the summary printed at exit
// and the JSON of GPULAB_SIM_PROFILE_OUT.
#include "sim/profiler/profile_registry.hpp"

#include <gpulab/sim/profile.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gpulab/error.hpp>
#include <gpulab/sim/detail/profiler/profiler.hpp>

#include "runtime/env.hpp"
#include "sim/engine/device_limits.hpp"
#include "sim/profiler/l2_model.hpp"
#include "sim/profiler/request_shapes.hpp"
#include "sim/profiler/source_lines.hpp"

namespace gpulab::sim {

namespace {

using detail::LaunchCounts;
using detail::LaunchShape;
using detail::ProfileKind;
using detail::ProfileSpace;
using detail::SiteCounts;
using detail::SiteTable;

struct KernelTotals {
  const void* function = nullptr;  // the kernel's code, for its name with template arguments
  std::uint64_t launches = 0;
  std::uint64_t instrumented_launches = 0;
  std::uint64_t blocks = 0;
  std::uint64_t warps = 0;
  LaunchShape last;
  SiteTable sites;
  LaunchCounts counts;
};

// A kernel: its name as launched and its code (one template's instantiations share the name).
using KernelKey = std::pair<std::string, const void*>;

struct Registry {
  std::mutex mutex;
  std::map<KernelKey, KernelTotals> kernels;
  std::vector<KernelKey> order;  // kernels in the order of their first launch
};

Registry& registry() {
  static Registry r;
  return r;
}

struct SectionName {
  std::string_view name;
  unsigned flag;
};
constexpr std::array<SectionName, 5> section_names{{{"global", profile_global},
                                                    {"shared", profile_shared},
                                                    {"dram", profile_dram},
                                                    {"atomics", profile_atomics},
                                                    {"launch", profile_launch}}};

void at_exit();

std::atomic<unsigned>& current_sections() {
  static std::atomic<unsigned> sections{[] {
    const auto text = gpulab::detail::env_value("GPULAB_SIM_PROFILE");
    const unsigned s = text ? parse_profile_sections(*text) : 0u;
    if (s != 0) {
      registry();  // made before the handler is registered, so it outlives it
      std::atexit(at_exit);
    }
    return s;
  }()};
  return sections;
}

// ---- metrics ----

// Nsight Compute's names for a memory space and kind: "global_op_ld", "shared_op_st", ...
const char* op_name(ProfileKind kind) {
  switch (kind) {
    case ProfileKind::load: return "ld";
    case ProfileKind::store: return "st";
    default: return "atom";
  }
}

double ratio(std::uint64_t a, std::uint64_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); }

// The memory metrics of a set of sites (a kernel's, or one line's), of the sections asked for.
void add_memory_metrics(ProfileMetrics& m, const std::vector<std::pair<std::uint64_t, SiteCounts>>& sites,
                        unsigned sections, bool with_zeros) {
  std::map<std::pair<ProfileSpace, ProfileKind>, SiteCounts> by_op;
  for (const auto& [key, c] : sites) {
    by_op[{detail::key_space(key), static_cast<ProfileKind>(detail::key_kind(key))}].add(c);
  }
  const auto put = [&](const std::string& name, double v) {
    if (with_zeros || v != 0) m[name] = v;
  };
  for (ProfileKind kind : {ProfileKind::load, ProfileKind::store, ProfileKind::atomic}) {
    const SiteCounts g = by_op[{ProfileSpace::global, kind}];
    const SiteCounts s = by_op[{ProfileSpace::shared, kind}];
    const std::string op = op_name(kind);
    if ((sections & profile_global) != 0 && (kind != ProfileKind::atomic || g.requests != 0)) {
      put("l1tex__t_requests_pipe_lsu_mem_global_op_" + op + ".sum", static_cast<double>(g.requests));
      put("l1tex__t_sectors_pipe_lsu_mem_global_op_" + op + ".sum", static_cast<double>(g.sectors));
      put("l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_" + op + ".ratio", ratio(g.sectors, g.requests));
      put("l1tex__t_bytes_pipe_lsu_mem_global_op_" + op + ".sum", static_cast<double>(g.sectors * detail::sector_bytes));
      put("gpulab__bytes_requested_mem_global_op_" + op + ".sum", static_cast<double>(g.bytes));
    }
    if ((sections & profile_shared) != 0 && (kind != ProfileKind::atomic || s.requests != 0)) {
      put("smsp__inst_executed_op_shared_" + op + ".sum", static_cast<double>(s.requests));
      if (kind != ProfileKind::atomic) {
        put("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + op + ".sum", static_cast<double>(s.wavefronts));
        put("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + op + ".sum",
            static_cast<double>(s.wavefronts - s.ideal_wavefronts));
      }
    }
  }
  if ((sections & profile_atomics) != 0) {
    SiteCounts atomics;
    atomics.add(by_op[{ProfileSpace::global, ProfileKind::atomic}]);
    atomics.add(by_op[{ProfileSpace::shared, ProfileKind::atomic}]);
    put("gpulab__atomic_operations.sum", static_cast<double>(atomics.lanes));
    put("gpulab__atomic_instructions.sum", static_cast<double>(atomics.requests));
    put("gpulab__atomic_same_address_lanes.sum", static_cast<double>(atomics.same_address));
  }
}

KernelProfile make_profile(const std::string& name, const KernelTotals& t, unsigned sections) {
  KernelProfile p;
  p.name = detail::kernel_display_name(t.function, name);
  p.launches = t.launches;
  p.instrumented = t.instrumented_launches == t.launches;
  ProfileMetrics& m = p.metrics;
  const std::vector<std::pair<std::uint64_t, SiteCounts>> sites(t.sites.begin(), t.sites.end());
  if (t.instrumented_launches != 0) add_memory_metrics(m, sites, sections, true);
  if ((sections & profile_dram) != 0 && t.instrumented_launches != 0) {
    m["dram__bytes_read.sum"] = static_cast<double>(t.counts.dram_read);
    m["dram__bytes_write.sum"] = static_cast<double>(t.counts.dram_write);
  }
  if ((sections & profile_launch) != 0) {
    const LaunchShape& s = t.last;
    m["launch__grid_size"] = static_cast<double>(s.blocks);
    m["launch__block_size"] = static_cast<double>(s.threads_per_block);
    m["launch__shared_mem_per_block_dynamic"] = static_cast<double>(s.dynamic_shared_bytes);
    m["gpulab__blocks_launched.sum"] = static_cast<double>(t.blocks);
    m["gpulab__warps_launched.sum"] = static_cast<double>(t.warps);
    const int warps_per_block = static_cast<int>((s.threads_per_block + 31) / 32);
    const int resident = detail::device_limits::resident_blocks(static_cast<int>(s.threads_per_block), s.dynamic_shared_bytes);
    const int max_warps = detail::device_limits::max_threads_per_multiprocessor / detail::device_limits::warp_size;
    m["sm__maximum_warps_per_active_cycle_pct"] = 100.0 * resident * warps_per_block / max_warps;
    if (t.instrumented_launches != 0) {
      m["gpulab__barriers_executed.sum"] = static_cast<double>(t.counts.barriers);
      m["gpulab__warp_collectives_executed.sum"] = static_cast<double>(t.counts.warp_calls);
      std::uint64_t requests = 0, lanes = 0;
      for (const auto& [key, c] : sites) {
        requests += c.requests;
        lanes += c.lanes;
      }
      m["smsp__thread_inst_executed_per_inst_executed.ratio"] = ratio(lanes, requests);
      if (t.counts.dropped != 0) m["gpulab__profile_dropped_accesses.sum"] = static_cast<double>(t.counts.dropped);
    }
  }
  // Per line: the sites of each line together.
  if (t.instrumented_launches != 0 && (sections & (profile_global | profile_shared | profile_atomics)) != 0) {
    std::vector<std::uintptr_t> pcs;
    for (const auto& [key, c] : sites) pcs.push_back(detail::key_pc(key));
    const auto lines = detail::source_lines(pcs);
    std::map<std::pair<std::string, unsigned>, std::vector<std::pair<std::uint64_t, SiteCounts>>> by_line;
    std::map<std::pair<std::string, unsigned>, std::string> function_of;
    for (std::size_t i = 0; i < sites.size(); ++i) {
      by_line[{lines[i].file, lines[i].line}].push_back(sites[i]);
      function_of.try_emplace({lines[i].file, lines[i].line}, lines[i].function);
    }
    for (const auto& [where, line_sites] : by_line) {
      ProfileLine l;
      l.file = where.first;
      l.line = where.second;
      l.function = function_of[where];
      add_memory_metrics(l.metrics, line_sites, sections, false);
      if (!l.metrics.empty()) p.lines.push_back(std::move(l));
    }
    const auto sectors = [](const ProfileLine& l) {
      double s = 0;
      for (const auto& [name, v] : l.metrics) {
        if (name.starts_with("l1tex__t_sectors_pipe")) s += v;
      }
      return s;
    };
    std::stable_sort(p.lines.begin(), p.lines.end(),
                     [&](const ProfileLine& a, const ProfileLine& b) { return sectors(a) > sectors(b); });
  }
  return p;
}

// ---- the summary ----

std::string short_file(const std::string& file) {
  const auto slash = file.rfind('/');
  return slash == std::string::npos ? file : file.substr(slash + 1);
}

std::string bytes_text(double b) {
  if (b >= 1e9) return fmt::format("{:.2f} GB", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.2f} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.1f} kB", b / 1e3);
  return fmt::format("{:.0f} B", b);
}

void append_summary(std::string& out, const KernelProfile& p, unsigned sections) {
  const ProfileMetrics& m = p.metrics;
  out += fmt::format("gpulab profile: kernel {} ({} launch{}{})\n", p.name, p.launches, p.launches == 1 ? "" : "es",
                     p.instrumented ? "" : "; not compiled with instrumentation: launch counts only");
  if (p.instrumented && (sections & profile_global) != 0) {
    for (const char* op : {"ld", "st", "atom"}) {
      const std::string o = op;
      const double requests = metric_or_zero(m, "l1tex__t_requests_pipe_lsu_mem_global_op_" + o + ".sum");
      if (requests == 0 && o == "atom") continue;
      out += fmt::format("  global {:<6} {:>12.0f} requests {:>13.0f} sectors {:6.2f} sectors/request, {} requested, {} moved\n",
                         o == "ld" ? "loads" : o == "st" ? "stores" : "atoms", requests,
                         metric_or_zero(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_" + o + ".sum"),
                         metric_or_zero(m, "l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_" + o + ".ratio"),
                         bytes_text(metric_or_zero(m, "gpulab__bytes_requested_mem_global_op_" + o + ".sum")),
                         bytes_text(metric_or_zero(m, "l1tex__t_bytes_pipe_lsu_mem_global_op_" + o + ".sum")));
    }
  }
  if (p.instrumented && (sections & profile_shared) != 0) {
    for (const char* op : {"ld", "st"}) {
      const std::string o = op;
      out += fmt::format("  shared {:<6} {:>12.0f} requests {:>13.0f} wavefronts {:>12.0f} bank conflicts\n",
                         o == "ld" ? "loads" : "stores", metric_or_zero(m, "smsp__inst_executed_op_shared_" + o + ".sum"),
                         metric_or_zero(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + o + ".sum"),
                         metric_or_zero(m, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + o + ".sum"));
    }
  }
  if (p.instrumented && (sections & profile_atomics) != 0 && metric_or_zero(m, "gpulab__atomic_operations.sum") != 0) {
    out += fmt::format("  atomics      {:>12.0f} operations in {:.0f} instructions, {:.0f} lanes on an address another lane of the instruction updates\n",
                       metric_or_zero(m, "gpulab__atomic_operations.sum"), metric_or_zero(m, "gpulab__atomic_instructions.sum"),
                       metric_or_zero(m, "gpulab__atomic_same_address_lanes.sum"));
  }
  if (p.instrumented && (sections & profile_dram) != 0) {
    out += fmt::format("  DRAM         {} read, {} written (L2 model: {} MiB, 16-way LRU, 32-byte sectors, cold at each launch)\n",
                       bytes_text(metric_or_zero(m, "dram__bytes_read.sum")), bytes_text(metric_or_zero(m, "dram__bytes_write.sum")),
                       detail::device_limits::l2_cache_bytes >> 20);
  }
  if ((sections & profile_launch) != 0) {
    out += fmt::format("  launch       {:.0f} block(s) of {:.0f} threads, {:.0f} warps in all; theoretical occupancy {:.0f}% "
                       "(from block size and dynamic shared memory; registers unknown)\n",
                       metric_or_zero(m, "gpulab__blocks_launched.sum"), metric_or_zero(m, "launch__block_size"),
                       metric_or_zero(m, "gpulab__warps_launched.sum"), metric_or_zero(m, "sm__maximum_warps_per_active_cycle_pct"));
    if (p.instrumented) {
      out += fmt::format("  execution    {:.0f} barriers and {:.0f} warp-synchronous calls (per warp); {:.1f} of 32 lanes active per memory instruction\n",
                         metric_or_zero(m, "gpulab__barriers_executed.sum"), metric_or_zero(m, "gpulab__warp_collectives_executed.sum"),
                         metric_or_zero(m, "smsp__thread_inst_executed_per_inst_executed.ratio"));
    }
    if (metric_or_zero(m, "gpulab__profile_dropped_accesses.sum") != 0) {
      out += fmt::format("  note         {:.0f} accesses not counted: a warp had more than {} access sites between two barriers\n",
                         metric_or_zero(m, "gpulab__profile_dropped_accesses.sum"), detail::profile_site_slots);
    }
  }
  const auto top = [&](const char* title, const std::vector<std::string>& names, const char* unit) {
    std::vector<std::pair<double, const ProfileLine*>> ranked;
    for (const ProfileLine& l : p.lines) {
      double v = 0;
      for (const std::string& n : names) v += metric_or_zero(l.metrics, n);
      if (v > 0) ranked.emplace_back(v, &l);
    }
    if (ranked.empty()) return;
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    out += fmt::format("  top lines by {}:\n", title);
    for (std::size_t i = 0; i < std::min<std::size_t>(5, ranked.size()); ++i) {
      const ProfileLine& l = *ranked[i].second;
      out += fmt::format("    {:>13.0f} {}  {}:{}\n", ranked[i].first, unit, short_file(l.file), l.line);
    }
  };
  if (p.instrumented && (sections & profile_global) != 0) {
    top("global sectors",
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
         "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"},
        "sectors");
  }
  if (p.instrumented && (sections & profile_shared) != 0) {
    top("shared bank conflicts",
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"},
        "conflicts");
  }
}

// The sections results report: those on, or all of them when the profiler is off (a program reading
// what it profiled in a scope that has ended) or runs the hooks alone.
unsigned reported_sections() {
  const unsigned on = profile_sections() & profile_all;
  return on != 0 ? on : profile_all;
}

void at_exit() {
  try {
    if ((profile_sections() & profile_all) == 0) return;
    const std::string summary = profile_summary();
    if (!summary.empty()) std::fputs(summary.c_str(), stderr);
    if (const auto path = gpulab::detail::env_value("GPULAB_SIM_PROFILE_OUT")) {
      std::ofstream out(*path);
      out << profile_json() << '\n';
      if (!out) std::fprintf(stderr, "gpulab profile: could not write GPULAB_SIM_PROFILE_OUT=%s\n", path->c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpulab profile: %s\n", e.what());
  }
}

}  // namespace

unsigned parse_profile_sections(std::string_view text) {
  unsigned sections = 0;
  for (const std::string& word : gpulab::detail::comma_list_words(text)) {
    if (word == "1" || word == "all" || word == "on" || word == "true" || word == "yes") {
      sections |= profile_all;
    } else if (word == "hooks") {
      sections |= profile_hooks_only;
    } else if (word != "0" && word != "none" && word != "off" && word != "false" && word != "no") {
      const auto named = std::find_if(section_names.begin(), section_names.end(),
                                      [&](const SectionName& s) { return word == s.name; });
      if (named == section_names.end()) {
        throw InvalidArgument(fmt::format("GPULAB_SIM_PROFILE: unknown section '{}' in '{}'; use 1 (all), 0, or a "
                                          "comma list of global, shared, dram, atomics, launch (or hooks: the hooks "
                                          "alone, counting nothing)",
                                          word, text));
      }
      sections |= named->flag;
    }
  }
  return sections;
}

unsigned profile_sections() { return current_sections().load(std::memory_order_relaxed); }
void set_profile_sections(unsigned sections) {
  current_sections().store(sections & (profile_all | profile_hooks_only), std::memory_order_relaxed);
}

std::vector<KernelProfile> profile_results() {
  Registry& r = registry();
  std::vector<std::pair<std::string, KernelTotals>> copy;
  {
    std::lock_guard lock(r.mutex);
    for (const KernelKey& key : r.order) copy.emplace_back(key.first, r.kernels.at(key));
  }
  const unsigned sections = reported_sections();
  std::vector<KernelProfile> out;
  for (const auto& [name, totals] : copy) out.push_back(make_profile(name, totals, sections));
  return out;
}

std::optional<KernelProfile> kernel_profile(std::string_view name) {
  for (KernelProfile& p : profile_results()) {
    if (p.name == name) return std::move(p);
  }
  return std::nullopt;
}

void reset_profile() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.kernels.clear();
  r.order.clear();
}

std::string profile_summary() {
  const unsigned sections = reported_sections();
  std::string out;
  for (const KernelProfile& p : profile_results()) append_summary(out, p, sections);
  return out;
}

std::string profile_json() {
  using nlohmann::json;
  json kernels = json::array();
  for (const KernelProfile& p : profile_results()) {
    json lines = json::array();
    for (const ProfileLine& l : p.lines) {
      lines.push_back({{"file", l.file}, {"line", l.line}, {"function", l.function}, {"metrics", l.metrics}});
    }
    json k = {{"name", p.name}, {"launches", p.launches}, {"instrumented", p.instrumented}, {"metrics", p.metrics},
              {"lines", lines}};
    k["metrics"]["launch__registers_per_thread"] = nullptr;  // the host compiler allocates no GPU registers
    kernels.push_back(std::move(k));
  }
  json model = {{"l2_bytes", detail::device_limits::l2_cache_bytes},
                {"l2_ways", detail::L2Model::ways},
                {"sector_bytes", detail::sector_bytes},
                {"shared_banks", 32},
                {"cold_l2_per_launch", true}};
  return json{{"kernels", kernels}, {"model", model}}.dump(2);
}

}  // namespace gpulab::sim

namespace gpulab::sim::detail {

void profile_launch_started(const std::string& kernel, const void* function, const LaunchShape& shape,
                            bool instrumented) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  const KernelKey key{kernel, function};
  auto [it, fresh] = r.kernels.try_emplace(key);
  if (fresh) r.order.push_back(key);
  KernelTotals& t = it->second;
  if (t.function == nullptr) t.function = function;
  ++t.launches;
  if (instrumented) ++t.instrumented_launches;
  t.blocks += shape.blocks;
  t.warps += shape.blocks * ((shape.threads_per_block + 31) / 32);
  t.last = shape;
}

void profile_launch_counts(const std::string& kernel, const void* function, const SiteTable& sites,
                           const LaunchCounts& counts) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  KernelTotals& t = r.kernels[KernelKey{kernel, function}];
  add_sites(t.sites, sites);
  t.counts.add(counts);
}

}  // namespace gpulab::sim::detail
