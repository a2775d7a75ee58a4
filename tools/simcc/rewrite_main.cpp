// gpulab-simcc-rewrite IN.cu OUT.cpp [DEPFILE]: the source rewriter of gpulab-simcc on its own, for build
// systems (gpulab_add_sim_executable runs it). The user files IN.cu includes are rewritten into
// OUT.cpp.includes/ (user_includes.hpp); DEPFILE, in Make syntax, names them so that editing one reruns
// it. Exits 1, with compiler-style messages, on what it cannot rewrite.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cuda_rewriter.hpp"
#include "user_includes.hpp"

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::cerr << "usage: gpulab-simcc-rewrite IN.cu OUT.cpp [DEPFILE]\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "gpulab-simcc-rewrite: cannot read " << argv[1] << "\n";
    return 1;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  gpulab::simcc::UserIncludeRewriter includes(std::string(argv[2]) + ".includes");
  std::vector<std::string> messages;
  const gpulab::simcc::RewriteResult r = includes.rewrite(argv[1], buffer.str(), messages);
  for (const auto& m : messages) std::cerr << m << "\n";
  if (!r.errors.empty()) return 1;
  if (argc == 4) {
    std::ofstream dep(argv[3], std::ios::binary | std::ios::trunc);
    auto escaped = [](const std::string& path) {
      std::string out;
      for (char c : path) {
        if (c == ' ' || c == '#') out += '\\';
        if (c == '$') out += '$';
        out += c;
      }
      return out;
    };
    dep << escaped(argv[2]) << ":";
    for (const auto& [original, copy] : includes.copies()) dep << " " << escaped(original.string());
    dep << "\n";
  }
  // Written only when it changed, so that build systems do not recompile for nothing.
  {
    std::ifstream old(argv[2], std::ios::binary);
    std::stringstream previous;
    if (old) previous << old.rdbuf();
    if (old && previous.str() == r.text) return 0;
  }
  // The output's folder may not exist yet (a build system need not make it).
  const std::filesystem::path target(argv[2]);
  std::error_code ignored;
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ignored);
  std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
  out << r.text;
  if (!out) {
    std::cerr << "gpulab-simcc-rewrite: cannot write " << argv[2] << "\n";
    return 1;
  }
  return 0;
}
