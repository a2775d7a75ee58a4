#include "runtime/env.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include <gpulab/error.hpp>

namespace gpulab::detail {

std::optional<std::string> env_value(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

bool env_flag(const char* name, bool fallback) {
  auto v = env_value(name);
  if (!v) return fallback;
  std::string s = *v;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (s == "1" || s == "true" || s == "yes" || s == "on") return true;
  if (s == "0" || s == "false" || s == "no" || s == "off") return false;
  throw InvalidArgument(fmt::format("{}='{}': expected 1/0, true/false, yes/no or on/off", name, *v));
}

std::vector<std::string> comma_list_words(std::string_view text) {
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    std::string word;
    for (char c : text.substr(start, end - start)) {
      if (!std::isspace(static_cast<unsigned char>(c))) word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (!word.empty()) words.push_back(std::move(word));
    start = end + 1;
  }
  return words;
}

std::size_t parse_byte_size(std::string_view text, std::string_view what) {
  auto fail = [&] {
    return InvalidArgument(fmt::format("{}: cannot read '{}' as a byte count (examples: 268435456, 256M, 256MiB, 2GiB)",
                                       what, text));
  };
  std::size_t value = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr == begin) throw fail();
  std::string suffix(ptr, end);
  std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::size_t scale = 1;
  if (suffix.empty() || suffix == "b") {
    scale = 1;
  } else if (suffix == "k" || suffix == "kib" || suffix == "kb") {
    scale = std::size_t{1} << 10;
  } else if (suffix == "m" || suffix == "mib" || suffix == "mb") {
    scale = std::size_t{1} << 20;
  } else if (suffix == "g" || suffix == "gib" || suffix == "gb") {
    scale = std::size_t{1} << 30;
  } else {
    throw fail();
  }
  if (value > std::numeric_limits<std::size_t>::max() / scale) throw fail();
  return value * scale;
}

}  // namespace gpulab::detail
