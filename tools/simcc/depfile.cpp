#include "depfile.hpp"

namespace gpulab::simcc {

std::string make_escaped(std::string_view path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '\t' || c == '#') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

std::string remap_depfile(std::string_view text, const std::map<std::string, std::string>& renames) {
  std::map<std::string, std::string> escaped;  // compared as the file spells them
  for (const auto& [from, to] : renames) escaped.emplace(make_escaped(from), make_escaped(to));
  std::string out;
  std::size_t i = 0;
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (i < text.size()) {
    // Separators (blanks, newlines, backslash-newline continuations) are copied as they are.
    if (blank(text[i]) || (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r'))) {
      out += text[i++];
      continue;
    }
    // A path runs to the next blank that no backslash escapes.
    const std::size_t start = i;
    while (i < text.size() && !blank(text[i])) {
      if (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r')) break;
      if (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == ' ' || text[i + 1] == '\t')) ++i;
      ++i;
    }
    std::string token(text.substr(start, i - start));
    std::string colon;  // a target's ':' is not part of its path
    if (token.size() > 1 && token.back() == ':') {
      token.pop_back();
      colon = ":";
    }
    if (auto it = escaped.find(token); it != escaped.end()) token = it->second;
    out += token + colon;
  }
  return out;
}

}  // namespace gpulab::simcc
