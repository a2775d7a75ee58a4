#include "runtime/log.hpp"

#include <cstdio>
#include <mutex>
#include <string>

#include "runtime/env.hpp"

namespace gpulab::detail {

LogLevel log_level() noexcept {
  static const LogLevel level = [] {
    const auto v = env_value("GPULAB_LOG");
    if (!v) return LogLevel::off;
    if (*v == "debug" || *v == "2") return LogLevel::debug;
    if (*v == "info" || *v == "1") return LogLevel::info;
    if (*v != "off" && *v != "0") {
      std::fprintf(stderr, "gpulab: GPULAB_LOG='%s' is not one of off, info, debug; logging stays off\n", v->c_str());
    }
    return LogLevel::off;
  }();
  return level;
}

void log_line(LogLevel level, std::string_view text) {
  static std::mutex mutex;
  const std::lock_guard lock(mutex);
  std::fprintf(stderr, "gpulab[%s] %.*s\n", level == LogLevel::debug ? "debug" : "info", static_cast<int>(text.size()),
               text.data());
}

}  // namespace gpulab::detail
