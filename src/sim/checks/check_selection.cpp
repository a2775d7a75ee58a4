// Which checks are on: GPULAB_SIM_CHECK, its parsing, and the set a program or test chooses between
// launches. The names are the registered clients' own (instrumentation/clients.hpp).
#include <gpulab/sim/checks.hpp>

#include <array>
#include <atomic>
#include <string_view>

#include <fmt/format.h>

#include <gpulab/error.hpp>
#include <gpulab/sim/detail/instrumentation/clients.hpp>

#include "runtime/env.hpp"

namespace gpulab::sim {

namespace {

struct Named {
  std::string_view name;
  unsigned flag;
};
// Every registered check by its name, then the two words that name sets (the profiler is no check).
template <class... C>
constexpr std::size_t check_count(detail::ClientList<C...>) {
  return (std::size_t{0} + ... + (C::is_check ? 1 : 0));
}
constexpr auto names = []<class... C>(detail::ClientList<C...>) {
  std::array<Named, check_count(detail::Clients{}) + 2> out{};
  std::size_t i = 0;
  ((C::is_check ? void(out[i++] = Named{C::name, C::flag}) : void()), ...);
  out[i++] = Named{"all", detail::check_clients};
  out[i] = Named{"none", 0u};
  return out;
}(detail::Clients{});

// "memcheck, racecheck, initcheck, synccheck, or all, or none".
std::string accepted_words() {
  std::string out;
  for (const Named& n : names) {
    if (n.flag == 0 || n.flag == detail::check_clients) continue;
    if (!out.empty()) out += ", ";
    out += n.name;
  }
  return out + ", or all, or none";
}

std::atomic<unsigned>& current_checks() {
  static std::atomic<unsigned> checks{[] {
    const auto text = gpulab::detail::env_value("GPULAB_SIM_CHECK");
    return text ? parse_checks(*text) : 0u;
  }()};
  return checks;
}

}  // namespace

unsigned parse_checks(std::string_view text) {
  unsigned checks = 0;
  for (const std::string& word : gpulab::detail::comma_list_words(text)) {
    bool known = false;
    for (const Named& n : names) {
      if (word == n.name) {
        checks |= n.flag;
        known = true;
      }
    }
    if (!known) {
      throw InvalidArgument(fmt::format("GPULAB_SIM_CHECK: unknown check '{}' in '{}'; use a comma list of {}", word,
                                        text, accepted_words()));
    }
  }
  return checks;
}

std::string format_checks(unsigned checks) {
  std::string out;
  for (const Named& n : names) {
    if (n.flag == 0 || n.flag == detail::check_clients || (checks & n.flag) == 0) continue;
    // Appended in two steps: g++ 12 -O3 warns falsely (-Wrestrict) on `"," + std::string(...)`.
    if (!out.empty()) out += ',';
    out += n.name;
  }
  return out.empty() ? "none" : out;
}

unsigned enabled_checks() { return current_checks().load(std::memory_order_relaxed); }
void set_enabled_checks(unsigned checks) {
  current_checks().store(checks & detail::check_clients, std::memory_order_relaxed);
}

unsigned checks_needing_instrumentation() { return detail::instrumented_clients & detail::check_clients; }

}  // namespace gpulab::sim
