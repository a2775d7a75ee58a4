#include "sim/profiler/source_lines.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string_view>

#include <fmt/format.h>

namespace gpulab::sim::detail {

namespace {

struct Frame {
  std::string function;
  std::string file;
  unsigned line = 0;
};

bool is_gpulab_header(std::string_view file) { return file.find("/include/gpulab/") != std::string_view::npos; }

// "path/file.cu:42" or "path/file.cu:42 (discriminator 3)"; "??:0" and "??:?" are unknown.
Frame parse_location(std::string function, std::string_view text) {
  Frame f;
  f.function = std::move(function);
  if (const auto d = text.find(" (discriminator"); d != std::string_view::npos) text = text.substr(0, d);
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos) return f;
  const std::string_view file = text.substr(0, colon);
  if (file != "??") f.file = std::string(file);
  for (char c : text.substr(colon + 1)) {
    if (c < '0' || c > '9') break;
    f.line = f.line * 10 + static_cast<unsigned>(c - '0');
  }
  return f;
}

std::string shell_quoted(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// addr2line on one module: per address (offsets within the module's file), its inline chain, innermost
// first.
std::vector<std::vector<Frame>> run_addr2line(const std::string& module, const std::vector<std::uintptr_t>& offsets) {
  std::vector<std::vector<Frame>> out(offsets.size());
  constexpr std::size_t chunk = 256;  // addresses per command line
  for (std::size_t start = 0; start < offsets.size(); start += chunk) {
    std::string cmd = "addr2line -a -f -C -i -e " + shell_quoted(module);
    const std::size_t end = std::min(offsets.size(), start + chunk);
    for (std::size_t i = start; i < end; ++i) cmd += fmt::format(" {:#x}", offsets[i]);
    cmd += " 2>/dev/null";
    FILE* pipe = ::popen(cmd.c_str(), "r");
    if (pipe == nullptr) return out;
    std::vector<std::string> lines;
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
      std::string l(buffer);
      while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
      lines.push_back(std::move(l));
    }
    ::pclose(pipe);
    // Each address: its line "0x...", then pairs of function and location.
    std::size_t at = start;
    bool started = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].starts_with("0x")) {
        if (started) ++at;
        started = true;
        continue;
      }
      if (!started || at >= end || i + 1 >= lines.size()) break;
      out[at].push_back(parse_location(lines[i], lines[i + 1]));
      ++i;
    }
  }
  return out;
}

// The frame a user can act on: the innermost in the kernel's own file (the file of the outermost frame,
// the function the access was inlined into), else the innermost outside gpulab's headers, else the
// innermost. So an access in a helper that the kernel's file includes is given to the kernel's line
// that calls it.
SourceLine chosen_line(const std::vector<Frame>& chain, const char* symbol) {
  SourceLine s;
  if (symbol != nullptr) s.function = symbol;
  const Frame* pick = nullptr;
  if (!chain.empty() && !chain.back().file.empty()) {
    for (const Frame& f : chain) {
      if (f.file == chain.back().file) {
        pick = &f;
        break;
      }
    }
  }
  for (const Frame& f : chain) {
    if (pick != nullptr) break;
    if (!f.file.empty() && !is_gpulab_header(f.file)) pick = &f;
  }
  if (pick == nullptr && !chain.empty()) pick = &chain.front();
  if (pick == nullptr) return s;
  if (!pick->file.empty()) s.file = pick->file;
  s.line = pick->line;
  // The function is the outermost frame's: the kernel (or the function not inlined that holds it).
  if (!chain.back().function.empty() && chain.back().function != "??") s.function = chain.back().function;
  return s;
}

std::string own_executable() {
  char path[4096];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

bool position_independent(const void* base) {
  const auto* header = static_cast<const Elf64_Ehdr*>(base);
  return std::memcmp(header->e_ident, ELFMAG, SELFMAG) == 0 && header->e_type == ET_DYN;
}

}  // namespace

std::vector<SourceLine> source_lines(const std::vector<std::uintptr_t>& pcs) {
  // Never destroyed: the profiler's report at exit runs after the statics made since it was registered
  // are gone.
  static auto* const mutex = new std::mutex;
  static auto* const cache = new std::map<std::uintptr_t, SourceLine>;
  std::map<std::uintptr_t, SourceLine>& known = *cache;
  std::lock_guard lock(*mutex);
  struct Module {
    std::vector<std::uintptr_t> offsets, pcs;
    std::vector<const char*> symbols;
  };
  std::map<std::string, Module> modules;
  for (std::uintptr_t pc : pcs) {
    if (known.contains(pc)) continue;
    Dl_info info{};
    if (pc == 0 || ::dladdr(reinterpret_cast<const void*>(pc - 1), &info) == 0 || info.dli_fbase == nullptr) {
      known[pc] = SourceLine{};
      continue;
    }
    // The program itself may be named as it was started, or not at all (and addr2line's own
    // /proc/self/exe is addr2line).
    std::string file = info.dli_fname != nullptr && info.dli_fname[0] == '/' ? info.dli_fname : own_executable();
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(info.dli_fbase);
    Module& m = modules[file];
    m.offsets.push_back(position_independent(info.dli_fbase) ? pc - 1 - base : pc - 1);
    m.pcs.push_back(pc);
    m.symbols.push_back(info.dli_sname);
  }
  for (auto& [file, m] : modules) {
    const auto chains = run_addr2line(file, m.offsets);
    for (std::size_t i = 0; i < m.pcs.size(); ++i) known[m.pcs[i]] = chosen_line(chains[i], m.symbols[i]);
  }
  std::vector<SourceLine> out;
  out.reserve(pcs.size());
  for (std::uintptr_t pc : pcs) out.push_back(known[pc]);
  return out;
}

std::string kernel_display_name(const void* function, const std::string& fallback) {
  if (function == nullptr) return fallback;
  const auto lines = source_lines({reinterpret_cast<std::uintptr_t>(function) + 1});
  std::string name = lines.front().function;
  // "void ns::k<16>(float const*, int)": drop the parameter list (the last balanced parentheses) ...
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        name.resize(i);
        break;
      }
    }
  }
  // ... the anonymous namespace gpulab's kernel files put kernels in ...
  const std::string_view anon = "(anonymous namespace)::";
  for (std::size_t at; (at = name.find(anon)) != std::string::npos;) name.erase(at, anon.size());
  // ... and the return type: what precedes the last space outside template brackets.
  int angle = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++angle;
    if (name[i] == '>') --angle;
    if (name[i] == ' ' && angle == 0) start = i + 1;
  }
  name = name.substr(start);
  if (name.empty() || name.find("??") != std::string::npos) return fallback;
  return name;
}

}  // namespace gpulab::sim::detail
