#pragma once
// The user files a .cu includes (`#include "kernels.cuh"`, found next to the including file) may hold
// launches and extern __shared__ too, so each is rewritten like the .cu itself, into a copy under one
// folder; the including file then includes the copy. Each copy starts with #line naming the original,
// so diagnostics and gdb name the user's file:line. Files found only through -I, and <...> includes,
// are left as they are (toolkit and library headers hold no launches).
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cuda_rewriter.hpp"

namespace gpulab::simcc {

class UserIncludeRewriter {
 public:
  explicit UserIncludeRewriter(std::filesystem::path copies_dir) : copies_dir_(std::move(copies_dir)) {}

  // Rewrites `source`, the content of `file`, and every user file it includes, recursively. Errors
  // are compiler-style lines (file:line: error: ...) in `messages`; the result's errors count them all.
  RewriteResult rewrite(const std::filesystem::path& file, std::string_view source, std::vector<std::string>& messages);

  // The originals read for the copies (for a build system's depfile).
  const std::map<std::filesystem::path, std::filesystem::path>& copies() const { return copies_; }

 private:
  std::string copy_of(const std::filesystem::path& including, std::string_view spelled, std::vector<std::string>& messages,
                      int& errors);

  std::filesystem::path copies_dir_;
  std::map<std::filesystem::path, std::filesystem::path> copies_;  // original -> rewritten copy
};

}  // namespace gpulab::simcc
