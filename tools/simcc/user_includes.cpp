#include "user_includes.hpp"

#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace gpulab::simcc {

RewriteResult UserIncludeRewriter::rewrite(const fs::path& file, std::string_view source, std::vector<std::string>& messages) {
  int include_errors = 0;
  const fs::path including = fs::absolute(file);
  const IncludeMapper mapper = [&](std::string_view spelled) { return copy_of(including, spelled, messages, include_errors); };
  RewriteResult r = rewrite_cuda_source(source, including.string(), mapper);
  for (const auto& e : r.errors) {
    messages.push_back(file.string() + ":" + std::to_string(e.line) + ": error: gpulab-simcc: " + e.message);
  }
  // The included files' errors are reported above; counted here so the caller fails the build.
  r.errors.resize(r.errors.size() + static_cast<std::size_t>(include_errors), RewriteError{0, "in an included file"});
  return r;
}

std::string UserIncludeRewriter::copy_of(const fs::path& including, std::string_view spelled,
                                         std::vector<std::string>& messages, int& errors) {
  std::error_code ec;
  const fs::path candidate = including.parent_path() / fs::path(std::string(spelled));
  if (!fs::is_regular_file(candidate, ec)) return {};  // found elsewhere (-iquote, -I): left alone
  const fs::path original = fs::weakly_canonical(candidate, ec);
  if (ec) return {};
  if (auto it = copies_.find(original); it != copies_.end()) return it->second.string();
  // The copy keeps the original's absolute path under copies_dir_, so two files of the same name
  // in different folders stay apart.
  const fs::path copy = copies_dir_ / original.relative_path();
  copies_.emplace(original, copy);  // before rewriting it: a file that includes itself stops here
  std::ifstream in(original, std::ios::binary);
  if (!in) {
    messages.push_back(original.string() + ": error: gpulab-simcc: cannot read this included file");
    ++errors;
    return {};
  }
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> own;
  const RewriteResult r = rewrite(original, text.str(), own);
  messages.insert(messages.end(), own.begin(), own.end());
  errors += static_cast<int>(r.errors.size());
  // Written only when it changed, so that build systems do not recompile for nothing.
  std::ifstream old(copy, std::ios::binary);
  std::stringstream previous;
  if (old) previous << old.rdbuf();
  if (!old || previous.str() != r.text) {
    fs::create_directories(copy.parent_path(), ec);
    std::ofstream(copy, std::ios::binary | std::ios::trunc) << r.text;
  }
  return copy.string();
}

}  // namespace gpulab::simcc
