#include <gpulab/bench/options.hpp>

#include <algorithm>
#include <charconv>
#include <string>

#include <fmt/format.h>

#include <gpulab/error.hpp>
#include <gpulab/sim/checks.hpp>

namespace gpulab::bench {

namespace {

std::vector<std::string_view> split_list(std::string_view text, std::string_view what) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string_view::npos ? text.size() : comma;
    std::string_view part = text.substr(start, end - start);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
    if (part.empty()) throw InvalidArgument(fmt::format("{} '{}': an empty item in the list", what, text));
    parts.push_back(part);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return parts;
}

constexpr int max_extent = 65536;

int parse_extent(std::string_view item, std::string_view whole) {
  int value = 0;
  const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
  if (ec != std::errc{} || ptr != item.data() + item.size()) {
    throw InvalidArgument(fmt::format("--sizes '{}': '{}' is not a size (expected n or MxNxK, e.g. 1024,129x127x131)",
                                      whole, item));
  }
  if (value < 1 || value > max_extent) {
    throw InvalidArgument(fmt::format("--sizes '{}': {} is outside [1, {}]", whole, value, max_extent));
  }
  return value;
}

}  // namespace

std::vector<MatmulShape> parse_shapes(std::string_view text) {
  std::vector<MatmulShape> shapes;
  for (std::string_view item : split_list(text, "--sizes")) {
    std::vector<int> extents;
    std::size_t start = 0;
    while (true) {
      const std::size_t x = item.find_first_of("xX", start);
      extents.push_back(parse_extent(item.substr(start, x == std::string_view::npos ? item.npos : x - start), text));
      if (x == std::string_view::npos) break;
      start = x + 1;
    }
    if (extents.size() == 1) {
      shapes.push_back({extents[0], extents[0], extents[0]});
    } else if (extents.size() == 3) {
      shapes.push_back({extents[0], extents[1], extents[2]});
    } else {
      throw InvalidArgument(
          fmt::format("--sizes '{}': '{}' has {} extents (expected n or MxNxK)", text, item, extents.size()));
    }
  }
  return shapes;
}

std::vector<Device> parse_device_list(std::string_view text) {
  std::vector<Device> out;
  for (std::string_view item : split_list(text, "--device")) {
    const Device d = parse_device(item);
    if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  }
  return out;
}

std::vector<const MatmulImpl*> parse_impl_list(std::string_view text) {
  std::vector<const MatmulImpl*> out;
  for (std::string_view item : split_list(text, "--impls")) {
    const MatmulImpl* impl = find_matmul(item);
    if (impl == nullptr) {
      std::string known;
      for (const MatmulImpl* i : matmul_impls()) known += (known.empty() ? "" : ", ") + i->name;
      throw InvalidArgument(fmt::format("--impls: unknown implementation '{}' (known: {})", item, known));
    }
    if (std::find(out.begin(), out.end(), impl) == out.end()) out.push_back(impl);
  }
  return out;
}

std::vector<unsigned> parse_sim_check_sets(std::string_view text) {
  std::vector<unsigned> out;
  for (std::string_view item : split_list(text, "--sim-checks")) {
    std::string words(item);
    std::replace(words.begin(), words.end(), '+', ',');
    unsigned checks = 0;
    try {
      checks = sim::parse_checks(words);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(fmt::format("--sim-checks '{}': {}", text, e.what()));
    }
    if (checks == sim::check_none) {
      throw InvalidArgument(fmt::format("--sim-checks '{}': '{}' checks nothing, and the unchecked run is always "
                                        "timed beside the sets (e.g. memcheck,racecheck,memcheck+racecheck,all)",
                                        text, item));
    }
    if (std::find(out.begin(), out.end(), checks) == out.end()) out.push_back(checks);
  }
  return out;
}

}  // namespace gpulab::bench
