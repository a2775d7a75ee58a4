#pragma once
// GPULAB_LOG=debug writes one line per launch and per allocation to stderr; GPULAB_LOG=info only
// notable events. Off by default. The level is read once.
#include <string_view>

#include <fmt/format.h>

namespace gpulab::detail {

enum class LogLevel { off = 0, info = 1, debug = 2 };

LogLevel log_level() noexcept;
void log_line(LogLevel level, std::string_view text);

template <class... Args>
void log_debug(fmt::format_string<Args...> format, Args&&... args) {
  if (log_level() >= LogLevel::debug) log_line(LogLevel::debug, fmt::format(format, std::forward<Args>(args)...));
}
template <class... Args>
void log_info(fmt::format_string<Args...> format, Args&&... args) {
  if (log_level() >= LogLevel::info) log_line(LogLevel::info, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace gpulab::detail
