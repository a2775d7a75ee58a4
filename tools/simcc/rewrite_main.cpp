// gpulab-simcc-rewrite IN.cu OUT.cpp: the source rewriter of gpulab-simcc on its own, for build systems
// (gpulab_add_sim_executable runs it). Exits 1, with compiler-style messages, on what it cannot rewrite.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "cuda_rewriter.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: gpulab-simcc-rewrite IN.cu OUT.cpp\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "gpulab-simcc-rewrite: cannot read " << argv[1] << "\n";
    return 1;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const gpulab::simcc::RewriteResult r = gpulab::simcc::rewrite_cuda_source(buffer.str(), argv[1]);
  for (const auto& e : r.errors) std::cerr << argv[1] << ":" << e.line << ": error: gpulab-simcc: " << e.message << "\n";
  if (!r.errors.empty()) return 1;
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
