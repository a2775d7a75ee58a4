#pragma once
// Dependency files (nvcc's -MD/-MMD -MF FILE -MT TARGET) for build systems. The host compiler writes
// them, but for a .cu file it compiles the rewritten copy (and the rewritten copies of the user files
// the .cu includes, user_includes.hpp), which live in a temporary folder. A build system must instead
// see the user's own files, so each copy's path in the file is replaced by its original's.
#include <map>
#include <string>
#include <string_view>

namespace gpulab::simcc {

// A path as GNU make (and gcc's depfiles, which Ninja and CMake read) write it: blanks and '#' take a
// backslash, '$' is doubled.
std::string make_escaped(std::string_view path);

// `text` (Make syntax, as gcc -MD writes it) with every path that is a key of `renames` (unescaped
// paths: rewritten copy -> original) replaced by its value. Whole paths only: a copy's path that is a
// prefix of another path is left in that other path. Targets (`x:`, also -MP's phony ones) included.
std::string remap_depfile(std::string_view text, const std::map<std::string, std::string>& renames);

}  // namespace gpulab::simcc
