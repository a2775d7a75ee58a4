#pragma once
// Reading gpulab's environment variables (GPULAB_LOG, GPULAB_LAUNCH_BLOCKING, GPULAB_SIM_*), with one
// parser for each kind of value so every variable accepts the same spellings.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::detail {

// The variable's value, or nullopt when unset or empty.
std::optional<std::string> env_value(const char* name);
// "1", "true", "yes", "on" (any case) are true; "0", "false", "no", "off" false; anything else throws
// InvalidArgument naming the variable and the value.
bool env_flag(const char* name, bool fallback = false);
// A byte count: "268435456", "256M", "256MiB", "1G", "512K", "2GiB" (K/M/G mean KiB/MiB/GiB).
// Throws InvalidArgument naming `what` and the text.
std::size_t parse_byte_size(std::string_view text, std::string_view what);
// The words of a comma list ("memcheck, RaceCheck" -> memcheck, racecheck): lower case, without
// blanks, empty words left out.
std::vector<std::string> comma_list_words(std::string_view text);

}  // namespace gpulab::detail
