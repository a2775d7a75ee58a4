#include "options_file.hpp"

#include <fstream>
#include <sstream>

namespace gpulab::simcc {

std::vector<std::string> split_options_text(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  bool in_token = false;
  char quote = 0;  // the quote character of an open "..." or '...'
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < text.size() &&
                 (text[i + 1] == '"' || text[i + 1] == '\\')) {
        cur += text[++i];
      } else {
        cur += c;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_token = true;  // "" is an (empty) option of its own
    } else if (c == '\\' && i + 1 < text.size()) {
      cur += text[++i];
      in_token = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_token) out.push_back(cur);
      cur.clear();
      in_token = false;
    } else {
      cur += c;
      in_token = true;
    }
  }
  if (in_token) out.push_back(cur);
  return out;
}

namespace {

bool expand(std::vector<std::string>& args, std::string& error, int depth) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string file;
    if (a == "--options-file" || a == "-optf") {
      if (i + 1 >= args.size()) {
        error = a + " needs a file";
        return false;
      }
      file = args[++i];
    } else if (a.starts_with("--options-file=")) {
      file = a.substr(sizeof("--options-file=") - 1);
    } else {
      out.push_back(a);
      continue;
    }
    if (depth >= 16) {
      error = "options file " + file + " is nested more than 16 deep (does it name itself?)";
      return false;
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      error = "cannot read the options file " + file;
      return false;
    }
    std::stringstream text;
    text << in.rdbuf();
    std::vector<std::string> inner = split_options_text(text.str());
    if (!expand(inner, error, depth + 1)) return false;
    out.insert(out.end(), inner.begin(), inner.end());
  }
  args = std::move(out);
  return true;
}

}  // namespace

bool expand_options_files(std::vector<std::string>& args, std::string& error) { return expand(args, error, 0); }

}  // namespace gpulab::simcc
