// gpulab-simcc: builds an unmodified CUDA program for gpulab's CPU simulator, taking nvcc's common
// flags. Each .cu file is rewritten (cuda_rewriter.hpp) and compiled by the host compiler against the
// simulator's shadow CUDA headers; the program is linked with libgpulab. -G adds the instrumentation
// that GPULAB_SIM_CHECK=memcheck,racecheck,initcheck need. Architecture flags are ignored with a note.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cuda_rewriter.hpp"
#include "user_includes.hpp"
#include "simcc_config.hpp"

namespace fs = std::filesystem;

namespace {

constexpr std::string_view usage = R"(usage: gpulab-simcc [options] file.cu... [-o program]
Builds a CUDA program for gpulab's CPU simulator (the `sim` device).
  -o FILE          output file
  -c               compile only: each input gives its .o (one input with -o)
  -x cu|c|c++|none the language of the inputs that follow (default: by suffix: .cu CUDA, .c C,
                   .cpp/.cc/.cxx C++ without the CUDA rewrite)
  --default-stream legacy|per-thread   per-thread defines CUDA_API_PER_THREAD_DEFAULT_STREAM
  -I DIR, -D X, -U X, -O N, -g, -std=c++NN, -l LIB, -L DIR, -w, -W..., -f..., -m...
  -G               instrument kernels for GPULAB_SIM_CHECK=memcheck|racecheck|initcheck|synccheck
  -Xcompiler A,B   pass A and B to the host compiler
  -arch, -gencode, --gpu-architecture, -code, -lineinfo, --use_fast_math, --expt-relaxed-constexpr,
  --extended-lambda, -rdc=true|false: ignored (noted on stderr); -dc is -c; -lcudart, -lcuda: ignored
  -v               print the commands run
)";

std::vector<std::string> split_list(std::string_view text, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (c == sep) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

struct Layout {
  std::string include_dir;  // holds gpulab/
  std::string lib_dir;      // holds libgpulab
};

// Installed beside `gpulab` (bin/ with include/ and lib/ next to it), or run from the build tree.
Layout find_layout(const char* argv0) {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) exe = fs::absolute(argv0);
  const fs::path prefix = exe.parent_path().parent_path();
  const fs::path installed_include = prefix / GPULAB_SIMCC_INSTALL_INCLUDEDIR;
  if (fs::exists(installed_include / "gpulab/sim/cuda/cuda_runtime.h") &&
      !fs::exists(prefix / "CMakeCache.txt")) {
    return {installed_include.string(), (prefix / GPULAB_SIMCC_INSTALL_LIBDIR).string()};
  }
  return {GPULAB_SIMCC_SOURCE_INCLUDE, GPULAB_SIMCC_BUILD_LIBDIR};
}

int run(const std::vector<std::string>& argv, bool verbose) {
  if (verbose) {
    for (const auto& a : argv) std::cerr << a << ' ';
    std::cerr << '\n';
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    std::cerr << "gpulab-simcc: fork failed: " << std::strerror(errno) << '\n';
    return 1;
  }
  if (pid == 0) {
    execvp(args[0], args.data());
    std::cerr << "gpulab-simcc: cannot run " << args[0] << ": " << std::strerror(errno) << '\n';
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 1;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// How an input is compiled, as nvcc decides by its suffix (or by -x).
enum class Language { object, c, cxx, cuda };

Language language_of(std::string_view f, std::string_view forced) {
  if (forced == "cu") return Language::cuda;
  if (forced == "c++") return Language::cxx;
  if (forced == "c") return Language::c;
  if (ends_with(f, ".cu")) return Language::cuda;
  if (ends_with(f, ".c")) return Language::c;
  if (ends_with(f, ".cpp") || ends_with(f, ".cc") || ends_with(f, ".cxx") || ends_with(f, ".C") || ends_with(f, ".c++")) {
    return Language::cxx;
  }
  return Language::object;
}

void note(const std::string& what) { std::cerr << "gpulab-simcc: note: " << what << '\n'; }

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> inputs, compile_flags, link_flags;
  std::vector<std::string> input_languages;  // -x in force for each input ("" for by suffix)
  std::string output, std_flag = "-std=c++20", c_std_flag, opt_flag, forced_language;
  bool compile_only = false, checked = false, verbose = false, debug = false;

  auto value = [&](int& i, std::string_view flag) -> std::string {
    const std::string a = argv[i];
    if (a.size() > flag.size()) return a.substr(a.size() > flag.size() && a[flag.size()] == '=' ? flag.size() + 1 : flag.size());
    if (i + 1 >= argc) {
      std::cerr << "gpulab-simcc: " << flag << " needs a value\n";
      std::exit(2);
    }
    return argv[++i];
  };

  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::cout << usage;
      return 0;
    } else if (a == "-o" || a == "--output-file") {
      output = value(i, a);
    } else if (a == "-c" || a == "--compile") {
      compile_only = true;
    } else if (a == "-G" || a == "--device-debug") {
      checked = true;
    } else if (a == "-g" || a == "--debug") {
      debug = true;
    } else if (a == "-v" || a == "--verbose") {
      verbose = true;
    } else if (a.starts_with("-I")) {
      compile_flags.push_back("-I" + value(i, "-I"));
    } else if (a.starts_with("-D")) {
      compile_flags.push_back("-D" + value(i, "-D"));
    } else if (a.starts_with("-U")) {
      compile_flags.push_back("-U" + value(i, "-U"));
    } else if (a.starts_with("-O")) {
      opt_flag = a;
    } else if (a.starts_with("-std")) {
      const std::string v = a.starts_with("-std=") ? a.substr(5) : value(i, "-std");
      if ((v.starts_with("c") && !v.starts_with("c++")) || (v.starts_with("gnu") && !v.starts_with("gnu++"))) {
        c_std_flag = "-std=" + v;  // for the .c inputs (gcc's -std=c11 and the like)
      } else if (v == "c++20" || v == "c++2a" || v == "gnu++20" || v == "c++23" || v == "c++2b" || v == "gnu++23") {
        std_flag = "-std=" + v;
      } else {
        note("-std=" + v + " is raised to -std=c++20: the simulator's headers need C++20");
      }
    } else if (a == "-x" || a == "--x") {
      const std::string v = value(i, a);
      if (v != "cu" && v != "c" && v != "c++" && v != "none") {
        std::cerr << "gpulab-simcc: -x " << v << " is not a language it compiles (cu, c, c++, none)\n";
        return 2;
      }
      forced_language = v == "none" ? "" : v;
    } else if (a == "--default-stream" || a.starts_with("--default-stream=") || a == "-default-stream") {
      const std::string v = value(i, a.starts_with("--") ? "--default-stream" : "-default-stream");
      if (v == "per-thread") {
        // nvcc's own macro for it; the runtime's headers read it as CUDA's do.
        compile_flags.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
      } else if (v != "legacy" && v != "null") {
        std::cerr << "gpulab-simcc: --default-stream " << v << " is not legacy, null or per-thread\n";
        return 2;
      }
    } else if (a.starts_with("-L")) {
      link_flags.push_back("-L" + value(i, "-L"));
    } else if (a.starts_with("-l") && a != "-lineinfo") {
      const std::string lib = value(i, "-l");
      if (lib == "cudart" || lib == "cudart_static" || lib == "cuda") {
        note("-l" + lib + " is ignored: the simulator provides the CUDA runtime API");
      } else {
        link_flags.push_back("-l" + lib);
      }
    } else if (a == "-Xcompiler" || a.starts_with("-Xcompiler=") || a == "--compiler-options") {
      for (auto& f : split_list(value(i, a.starts_with("--") ? "--compiler-options" : "-Xcompiler"), ',')) {
        compile_flags.push_back(f);
      }
    } else if (a == "-Xlinker" || a.starts_with("-Xlinker=")) {
      for (auto& f : split_list(value(i, "-Xlinker"), ',')) link_flags.push_back("-Wl," + f);
    } else if (a == "-arch" || a.starts_with("-arch=") || a == "--gpu-architecture" || a.starts_with("--gpu-architecture=") ||
               a == "-code" || a.starts_with("-code=") || a == "-gencode" || a.starts_with("-gencode=") ||
               a == "--generate-code" || a.starts_with("--generate-code=")) {
      const std::string flag = a.substr(0, a.find('='));
      const std::string v = value(i, flag);
      note("ignoring " + flag + " " + v + ": the simulator runs kernels as host code (an sm_90-like device)");
    } else if (a == "-lineinfo" || a == "--generate-line-info" || a == "--use_fast_math" || a == "-use_fast_math" ||
               a == "--expt-relaxed-constexpr" || a == "--extended-lambda" || a == "--expt-extended-lambda" ||
               a == "-rdc=false" || a == "--relocatable-device-code=false") {
      note("ignoring " + a + " (no effect in the simulator)");
    } else if (a == "-rdc=true" || a == "--relocatable-device-code=true" || a == "-rdc" || a == "--relocatable-device-code") {
      // Kernels are host code here: device functions in other files link as host functions do.
      if (a == "-rdc" || a == "--relocatable-device-code") {
        const std::string v = value(i, a);
        if (v != "true" && v != "false") {
          std::cerr << "gpulab-simcc: " << a << " takes true or false\n";
          return 2;
        }
      }
      note("ignoring " + a + ": device code is host code here, so it always links across files");
    } else if (a == "-dc" || a == "--device-c") {
      compile_only = true;  // nvcc's -dc is -rdc=true -c
      note(a + " is -c here: device code is host code, so it always links across files");
    } else if (a == "-dlink" || a == "--device-link") {
      std::cerr << "gpulab-simcc: " << a << " (a separate device link step) is not needed: link the objects "
                << "with gpulab-simcc, which links device code as host code\n";
      return 2;
    } else if (a == "-w" || a.starts_with("-W") || a.starts_with("-f") || a.starts_with("-m") || a == "-pthread") {
      compile_flags.push_back(a);
      if (a.starts_with("-f") || a == "-pthread") link_flags.push_back(a);
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << "gpulab-simcc: unsupported option " << a << " (see gpulab-simcc --help)\n";
      return 2;
    } else {
      inputs.push_back(a);
      input_languages.push_back(forced_language);
    }
  }
  if (inputs.empty()) {
    std::cerr << "gpulab-simcc: no input files\n" << usage;
    return 2;
  }
  if (compile_only && !output.empty() && inputs.size() > 1) {
    std::cerr << "gpulab-simcc: -c with -o takes one input file\n";
    return 2;
  }

  const Layout layout = find_layout(argv[0]);
  std::vector<std::string> base = {GPULAB_SIMCC_CXX, std_flag, "-DGPULAB_SIM=1", "-isystem",
                                   layout.include_dir + "/gpulab/sim/cuda", "-I", layout.include_dir,
                                   "-Wno-unknown-pragmas", "-pthread"};
  for (auto& f : split_list(GPULAB_SIMCC_BUILD_FLAGS, ';')) base.push_back(f);
  if (debug || checked) base.push_back("-g");
  base.push_back(!opt_flag.empty() ? opt_flag : (checked ? "-O1" : "-O2"));
  if (checked) {
    base.push_back("-DGPULAB_SIM_CHECKED=1");
  }

  char tmpl[] = "/tmp/gpulab-simcc-XXXXXX";
  const char* tmp = mkdtemp(tmpl);
  if (tmp == nullptr) {
    std::cerr << "gpulab-simcc: cannot create a temporary directory: " << std::strerror(errno) << '\n';
    return 1;
  }
  const fs::path tmpdir(tmp);
  int status = 0;
  std::vector<std::string> objects;
  int n = 0;
  // One copy per included user file, shared by all inputs (user_includes.hpp).
  gpulab::simcc::UserIncludeRewriter includes(tmpdir / "includes");
  for (std::size_t input = 0; input < inputs.size(); ++input) {
    const std::string& in = inputs[input];
    const Language language = language_of(in, input_languages[input]);
    if (language == Language::object) {
      if (compile_only) {
        std::cerr << "gpulab-simcc: " << in << ": -c compiles sources (.cu, .c, .cpp, .cc, .cxx); this is not one\n";
        status = 2;
        break;
      }
      objects.push_back(in);  // objects and libraries go to the link
      continue;
    }
    std::string source = in;
    const bool cuda = language == Language::cuda;
    if (cuda) {
      std::ifstream file(in, std::ios::binary);
      if (!file) {
        std::cerr << "gpulab-simcc: cannot read " << in << '\n';
        status = 1;
        break;
      }
      std::stringstream text;
      text << file.rdbuf();
      std::vector<std::string> messages;
      const auto r = includes.rewrite(in, text.str(), messages);
      for (const auto& m : messages) std::cerr << m << '\n';
      if (!r.errors.empty()) {
        status = 1;
        break;
      }
      source = (tmpdir / (std::to_string(n) + "-" + fs::path(in).filename().string() + ".cpp")).string();
      std::ofstream(source, std::ios::binary) << r.text;
    }
    const std::string object = compile_only && !output.empty()
                                   ? output
                                   : compile_only ? fs::path(in).stem().string() + ".o"
                                                  : (tmpdir / (std::to_string(n) + ".o")).string();
    ++n;
    std::vector<std::string> cmd = base;
    if (language == Language::c) {
      // C host code is compiled as C, as nvcc hands it to the host C compiler: the C++-only flags of
      // `base` are replaced; the runtime API has C linkage (cuda_runtime.h's C branch).
      cmd = {GPULAB_SIMCC_CC, "-DGPULAB_SIM=1", "-isystem", layout.include_dir + "/gpulab/sim/cuda", "-I",
             layout.include_dir, "-Wno-unknown-pragmas", "-pthread"};
      if (!c_std_flag.empty()) cmd.push_back(c_std_flag);
      for (auto& f : split_list(GPULAB_SIMCC_BUILD_FLAGS, ';')) cmd.push_back(f);
      if (debug || checked) cmd.push_back("-g");
      cmd.push_back(!opt_flag.empty() ? opt_flag : "-O2");
    }
    // The rewritten file lives elsewhere: #include "x.h" must still find the .cu's neighbours first.
    if (cuda) cmd.insert(cmd.end(), {"-iquote", fs::absolute(in).parent_path().string()});
    if (cuda && checked) {
      for (auto& f : split_list(GPULAB_SIMCC_CHECKED_FLAGS, ';')) cmd.push_back(f);
    }
    cmd.insert(cmd.end(), compile_flags.begin(), compile_flags.end());
    cmd.insert(cmd.end(), {"-x", language == Language::c ? "c" : "c++", "-c", source, "-o", object});
    if ((status = run(cmd, verbose)) != 0) break;
    objects.push_back(object);
  }
  if (status == 0 && !compile_only) {
    std::vector<std::string> cmd = {GPULAB_SIMCC_CXX, "-o", output.empty() ? "a.out" : output};
    for (auto& f : split_list(GPULAB_SIMCC_BUILD_FLAGS, ';')) {
      if (f.starts_with("-fsanitize")) cmd.push_back(f);
    }
    cmd.insert(cmd.end(), objects.begin(), objects.end());
    cmd.insert(cmd.end(), link_flags.begin(), link_flags.end());
    cmd.insert(cmd.end(), {"-L" + layout.lib_dir, "-Wl,-rpath," + layout.lib_dir, "-lgpulab_cudart", "-lgpulab", "-pthread"});
    status = run(cmd, verbose);
  }
  std::error_code ec;
  fs::remove_all(tmpdir, ec);
  return status;
}
