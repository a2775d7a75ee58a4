#include <gpulab/sim/checks.hpp>

#include <atomic>
#include <cctype>

#include <gpulab/error.hpp>

#include <fmt/format.h>

#include "runtime/env.hpp"

namespace gpulab::sim {

namespace {

struct Named {
  const char* name;
  unsigned flag;
};
constexpr Named names[] = {{"memcheck", memcheck}, {"racecheck", racecheck}, {"initcheck", initcheck},
                           {"synccheck", synccheck}, {"all", check_all}, {"none", check_none}};

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
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    std::string word;
    for (char c : text.substr(start, end - start)) {
      if (!std::isspace(static_cast<unsigned char>(c))) word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (!word.empty()) {
      bool known = false;
      for (const Named& n : names) {
        if (word == n.name) {
          checks |= n.flag;
          known = true;
        }
      }
      if (!known) {
        throw InvalidArgument(fmt::format("GPULAB_SIM_CHECK: unknown check '{}' in '{}'; use a comma list of memcheck, "
                                          "racecheck, initcheck, synccheck, or all, or none",
                                          word, text));
      }
    }
    start = end + 1;
  }
  return checks;
}

std::string format_checks(unsigned checks) {
  std::string out;
  for (const Named& n : names) {
    if (n.flag == 0 || n.flag == check_all || (checks & n.flag) == 0) continue;
    // Appended in two steps: g++ 12 -O3 warns falsely (-Wrestrict) on `"," + std::string(...)`.
    if (!out.empty()) out += ',';
    out += n.name;
  }
  return out.empty() ? "none" : out;
}

unsigned enabled_checks() { return current_checks().load(std::memory_order_relaxed); }
void set_enabled_checks(unsigned checks) { current_checks().store(checks & check_all, std::memory_order_relaxed); }

}  // namespace gpulab::sim
