#pragma once
// Source lines of code addresses, for the profiler's per-line counts: each address's module (dladdr),
// then binutils' addr2line on that module, once for all its addresses. Where an access was inlined from
// a header (a view's operator[], an atomic's wrapper, a helper of the kernel's own), the line is the
// innermost one in the kernel's file (the outermost frame's): the line a user can change.
#include <cstdint>
#include <string>
#include <vector>

namespace gpulab::sim::detail {

struct SourceLine {
  std::string file = "?";
  unsigned line = 0;
  std::string function;
};

// The line of the instruction before each return address in `pcs` (a hook's call); "?" and line 0
// where the module has no line tables or addr2line is not there.
std::vector<SourceLine> source_lines(const std::vector<std::uintptr_t>& pcs);

// A kernel's name as its source writes it, with the template arguments of this instantiation
// ("matmulTiled<16>", "naive_matmul<float, 16, 16>"): the function's demangled symbol at `function`,
// without its return type, parameters and anonymous namespace; `fallback` when there is none.
std::string kernel_display_name(const void* function, const std::string& fallback);

}  // namespace gpulab::sim::detail
