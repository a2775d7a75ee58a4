#pragma once
// nvcc's --options-file FILE (-optf FILE): the options written in FILE, as if on the command line.
// CMake's CUDA rules put a target's include directories (and, when a command line grows too long, its
// objects and libraries) in such files, so gpulab-simcc must read them as nvcc does.
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::simcc {

// The options of an options file: separated by blanks and newlines; "..." and '...' group, and a
// backslash outside '...' takes the next character as it is (the quoting CMake writes).
std::vector<std::string> split_options_text(std::string_view text);

// Replaces each `--options-file FILE`, `--options-file=FILE` and `-optf FILE` in args by FILE's
// options, which may name further options files (up to a depth of 16, against a file that names
// itself). On an unreadable file, or a flag without its file, returns false with `error` saying which.
bool expand_options_files(std::vector<std::string>& args, std::string& error);

}  // namespace gpulab::simcc
