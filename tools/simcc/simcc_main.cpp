// gpulab-simcc: builds an unmodified CUDA program for gpulab's CPU simulator, taking nvcc's common
// flags. Each .cu file is rewritten (cuda_rewriter.hpp) and compiled by the host compiler against the
// simulator's shadow CUDA headers; the program is linked with libgpulab. -G adds the instrumentation
// that GPULAB_SIM_CHECK=memcheck,racecheck,initcheck need. Architecture flags are ignored with a note.
//
// It also stands in for nvcc as CMake's CUDA compiler (-DCMAKE_CUDA_COMPILER=gpulab-simcc): --version
// and -v answer in nvcc's form what CMake's CUDA support reads (see print_version and
// print_layout_lines), and the flags CMake's NVIDIA rules pass are taken (--options-file, -MD -MF,
// -dlink, -forward-unknown-to-host-compiler, ...).
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cuda_rewriter.hpp"
#include "depfile.hpp"
#include "options_file.hpp"
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
  -I DIR, -isystem DIR, -include FILE, -D X, -U X, -O N, -g, -std=c++NN, -l LIB, -L DIR, -w, -W...,
  -f..., -m..., -shared
  -G               instrument kernels for GPULAB_SIM_CHECK=memcheck|racecheck|initcheck|synccheck
  -Xcompiler A,B   pass A and B to the host compiler (also -Xcompiler=A,B, --compiler-options)
  -Xlinker A,B     pass A and B to the linker
  -ccbin PATH      the host C++ compiler (or the folder holding it) instead of the one gpulab was built with
  -MD, -MMD, -MF FILE, -MT TARGET, -MP   write a Make-syntax dependency file while compiling, naming the
                   user's own files (default FILE: the object's name with .d)
  --options-file FILE, -optf FILE   read more options from FILE
  -forward-unknown-to-host-compiler   pass options it does not know to the host compiler (else refused)
  --keep, --keep-dir DIR   keep the rewritten sources (in DIR, default .)
  -dlink           nvcc's device link step: writes an empty object, since device code is host code here
                   and links as host code
  -arch, -gencode, --gpu-architecture, -code, -lineinfo, --use_fast_math, --expt-relaxed-constexpr,
  --extended-lambda, -rdc=true|false, -Xptxas, -Xnvlink, -maxrregcount, -cudart: ignored (noted on stderr);
  -dc is -c; -lcudart, -lcudart_static, -lcudadevrt, -lcuda: ignored
  -ptx, -cubin, -fatbin, -M, -MM, -E: refused (no device code is made; use -MD for dependencies)
  --version, -V    the version, in nvcc's form (for build systems that identify nvcc by it)
  -v               print the layout and the commands run, in nvcc's `#$ ` form
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

// CUDA's libraries the simulator implements: -l<name> links gpulab's own library instead.
const char* simulated_library(const std::string& lib) {
  if (lib == "cublas" || lib == "cublas_static") return "gpulab_cublas";
  if (lib == "cublasLt" || lib == "cublasLt_static") return "gpulab_cublas";  // cuBLASLt lives in it too
  if (lib == "curand" || lib == "curand_static") return "gpulab_curand";
  if (lib == "cufft" || lib == "cufft_static") return "gpulab_cufft";
  return nullptr;
}

// CUDA's libraries it does not: refused by name at the link, rather than linking the toolkit's copy,
// which would fail at its first call without a GPU.
const char* refused_library(const std::string& lib) {
  static constexpr const char* names[] = {"cufftw", "cusparse", "cusolver", "cusolverMg",
                                          "nvrtc", "nvJitLink", "nvjpeg", "cufile", "nccl", "cudnn", "nvblas",
                                          "nvgraph", "cupti"};
  std::string base = lib;
  if (base.ends_with("_static")) base.resize(base.size() - 7);
  for (const char* n : names) {
    if (base == n) return "this CUDA library is not simulated (the simulator provides -lcublas, -lcurand and -lcufft)";
  }
  if (base.starts_with("npp")) return "NPP is not simulated (the simulator provides -lcublas, -lcurand and -lcufft)";
  return nullptr;
}

struct Layout {
  std::string include_dir;  // holds gpulab/
  std::string lib_dir;      // holds libgpulab
  std::string toolkit_dir;  // what build systems are told is the CUDA toolkit (tools/simcc/CMakeLists.txt)
};

// Installed beside `gpulab` (bin/ with include/ and lib/ next to it), or run from the build tree.
Layout find_layout(const std::string& argv0) {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) exe = fs::absolute(argv0);
  const fs::path prefix = exe.parent_path().parent_path();
  const fs::path installed_include = prefix / GPULAB_SIMCC_INSTALL_INCLUDEDIR;
  if (fs::exists(installed_include / "gpulab/sim/cuda/cuda_runtime.h") &&
      !fs::exists(prefix / "CMakeCache.txt")) {
    const fs::path lib = prefix / GPULAB_SIMCC_INSTALL_LIBDIR;
    return {installed_include.string(), lib.string(), (lib / GPULAB_SIMCC_TOOLKIT_NAME).string()};
  }
  return {GPULAB_SIMCC_SOURCE_INCLUDE, GPULAB_SIMCC_BUILD_LIBDIR, GPULAB_SIMCC_BUILD_TOOLKIT};
}

// An argument as a shell reads it back: nvcc's `-v` lines are shell commands, and CMake finds the
// link line by looking for the LIBRARIES line's text in it, so both are written by this one function.
std::string quoted(const std::string& a) {
  if (!a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+@%^-") ==
                        std::string::npos) {
    return a;
  }
  std::string out = "\"";
  for (char c : a) {
    if (c == '"' || c == '\\' || c == '$' || c == '`') out += '\\';
    out += c;
  }
  return out + '"';
}

std::string joined(const std::vector<std::string>& args) {
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : " ") + quoted(a);
  return out;
}

int run(const std::vector<std::string>& argv, bool verbose) {
  if (verbose) std::cerr << "#$ " << joined(argv) << '\n';
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

// The CUDA version gpulab-simcc answers with: that of the CUDA API the simulator's headers declare
// (CUDART_VERSION in include/gpulab/sim/cuda/driver_types.h, read by tools/simcc/CMakeLists.txt). No
// NVIDIA build corresponds to it, so the build number is 0.
constexpr int cuda_major = GPULAB_SIMCC_CUDA_VERSION / 1000;
constexpr int cuda_minor = GPULAB_SIMCC_CUDA_VERSION % 1000 / 10;
constexpr int cuda_build = 0;

// nvcc --version. CMake tells nvcc from other CUDA compilers by the text "nvcc: NVIDIA (R) Cuda
// compiler driver" in it (CMakeDetermineCUDACompiler.cmake) and reads the version from "V<x.y.z>";
// then it uses its NVIDIA rules, which are the flags this driver takes. So the text holds both, but in
// sentences that say what this is: gpulab-simcc, which stands in for nvcc, and no NVIDIA tool.
void print_version() {
  std::cout << "gpulab-simcc: the simulator's drop-in for nvcc: NVIDIA (R) Cuda compiler driver\n"
            << "gpulab-simcc " << GPULAB_SIMCC_GPULAB_VERSION
            << " (gpulab): builds CUDA programs for gpulab's CPU simulator, not for NVIDIA GPUs\n"
            << "Cuda compilation tools, release " << cuda_major << '.' << cuda_minor << ", V" << cuda_major << '.'
            << cuda_minor << '.' << cuda_build << " (the CUDA API of the simulator's headers; no NVIDIA compiler is run)\n"
            << "Host compiler: " << GPULAB_SIMCC_CXX << '\n';
}

// What nvcc -v prints before its commands, which CMake reads to learn the toolkit: TOP (the toolkit
// root, for FindCUDAToolkit; other build tools read _TARGET_DIR_ under it), NVVMIR_LIBRARY_DIR (CMake requires one that ends in nvvm/libdevice),
// INCLUDES and SYSTEM_INCLUDES (the toolkit's header folders), LIBRARIES (the text of the link line,
// whose -L and -l CMake then passes when it links with the host compiler itself), and "-arch
// compute_NN" (the default CUDA architecture). Each line is true of this driver: the folders are
// gpulab's, LIBRARIES is what it links (see runtime_link_args), the architecture that of the sim device.
void print_layout_lines(const Layout& layout, const std::vector<std::string>& runtime_link_args) {
  std::cerr << "#$ _GPULAB_SIMCC_=gpulab-simcc " << GPULAB_SIMCC_GPULAB_VERSION
            << ": kernels are host code here, compiled by the host compiler for gpulab's CPU simulator\n"
            << "#$ TOP=" << layout.toolkit_dir << '\n'
            << "#$ _TARGET_DIR_=\n"  // the target's folder under TOP: TOP itself (its include/ is the headers)
            << "#$ NVVMIR_LIBRARY_DIR=" << layout.toolkit_dir << "/nvvm/libdevice\n"
            << "#$ INCLUDES=" << quoted("-I" + layout.include_dir) << '\n'
            << "#$ SYSTEM_INCLUDES=" << quoted("-isystem") << ' ' << quoted(layout.include_dir + "/gpulab/sim/cuda")
            << (std::string_view(GPULAB_SIMCC_CCCL_INCLUDE).empty() ? "" : " -isystem " + quoted(GPULAB_SIMCC_CCCL_INCLUDE))
            << '\n'
            << "#$ LIBRARIES=" << joined(runtime_link_args) << '\n'
            << "#$ _DEVICE_=-arch compute_90: the sim device (compute capability 9.0); no PTX or cubin is made\n";
}

// nvcc's own warning names, which the host compiler does not know.
const std::set<std::string, std::less<>> nvcc_only_warnings = {
    "-Wno-deprecated-gpu-targets", "-Wdefault-stream-launch", "-Wmissing-launch-bounds", "-Wext-lambda-captures-this",
    "-Wno-default-stream-launch", "-Wno-missing-launch-bounds"};
const std::set<std::string, std::less<>> werror_kinds = {"all-warnings",          "cross-execution-space-call",
                                                         "reorder",               "default-stream-launch",
                                                         "missing-launch-bounds", "ext-lambda-captures-this",
                                                         "deprecated-declarations"};

struct DependencyFile {
  bool enabled = false;
  bool user_headers_only = false;  // -MMD
  bool phony_targets = false;      // -MP
  std::string file, target;
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  {
    std::string error;
    if (!gpulab::simcc::expand_options_files(args, error)) {
      std::cerr << "gpulab-simcc: " << error << '\n';
      return 2;
    }
  }
  std::vector<std::string> inputs, compile_flags, link_flags;
  std::vector<std::string> input_languages;  // -x in force for each input ("" for by suffix)
  std::vector<std::string> cuda_macros;      // the macros nvcc defines for .cu files alone
  std::string output, std_flag = "-std=c++20", c_std_flag, opt_flag, forced_language, keep_dir = ".";
  std::string cxx = GPULAB_SIMCC_CXX;
  bool compile_only = false, checked = false, verbose = false, debug = false, device_link = false, shared = false,
       keep = false, forward_unknown = false;
  DependencyFile deps;

  // Global in nvcc, wherever it is written (CMake writes it first).
  for (const auto& a : args) {
    if (a == "-forward-unknown-to-host-compiler" || a == "--forward-unknown-to-host-compiler" ||
        a == "-forward-unknown-to-host-linker" || a == "--forward-unknown-to-host-linker") {
      forward_unknown = true;
    }
  }
  const int count = static_cast<int>(args.size());
  auto value = [&](int& i, std::string_view flag) -> std::string {
    const std::string& a = args[i];
    if (a.size() > flag.size()) return a.substr(a[flag.size()] == '=' ? flag.size() + 1 : flag.size());
    if (i + 1 >= count) {
      std::cerr << "gpulab-simcc: " << flag << " needs a value\n";
      std::exit(2);
    }
    return args[++i];
  };

  for (int i = 0; i < count; ++i) {
    const std::string a = args[i];
    if (a == "-h" || a == "--help") {
      std::cout << usage;
      return 0;
    } else if (a == "--version" || a == "-V") {
      print_version();
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
    } else if (a == "-isystem" || a.starts_with("-isystem=") || a == "--system-include" ||
               a.starts_with("--system-include=")) {
      compile_flags.insert(compile_flags.end(), {"-isystem", value(i, a.starts_with("--") ? "--system-include" : "-isystem")});
    } else if (a == "-include" || a == "--pre-include" || a.starts_with("--pre-include=")) {
      compile_flags.insert(compile_flags.end(), {"-include", value(i, a.starts_with("--") ? "--pre-include" : "-include")});
    } else if (a.starts_with("-I")) {
      compile_flags.push_back("-I" + value(i, "-I"));
    } else if (a.starts_with("-D")) {
      compile_flags.push_back("-D" + value(i, "-D"));
    } else if (a.starts_with("-U")) {
      compile_flags.push_back("-U" + value(i, "-U"));
    } else if (a.starts_with("-O")) {
      opt_flag = a;
    } else if (a.starts_with("-std") || a.starts_with("--std")) {
      const std::string flag = a.starts_with("--") ? "--std" : "-std";
      const std::string v = value(i, flag);
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
      if (lib == "cudadevrt") {
        // CMake's link lines name it whenever a runtime library is chosen, so it is not refused here.
        note("-lcudadevrt is ignored: the simulator has no device runtime; a launch from device code ends its "
             "kernel at run time with a message naming it");
      } else if (lib == "cudart" || lib == "cudart_static" || lib == "cuda") {
        note("-l" + lib + " is ignored: the simulator provides the CUDA runtime API");
      } else if (const char* own = simulated_library(lib)) {
        link_flags.push_back(std::string("-l") + own);  // never the toolkit's: it needs a GPU
      } else if (const char* why = refused_library(lib)) {
        std::cerr << "gpulab-simcc: -l" << lib << ": " << why << "\n";
        return 2;
      } else {
        link_flags.push_back("-l" + lib);
      }
    } else if (a == "-Xcompiler" || a.starts_with("-Xcompiler=") || a == "--compiler-options" ||
               a.starts_with("--compiler-options=")) {
      for (auto& f : split_list(value(i, a.starts_with("--") ? "--compiler-options" : "-Xcompiler"), ',')) {
        compile_flags.push_back(f);
      }
    } else if (a == "-Xlinker" || a.starts_with("-Xlinker=") || a == "--linker-options" ||
               a.starts_with("--linker-options=")) {
      for (auto& f : split_list(value(i, a.starts_with("--") ? "--linker-options" : "-Xlinker"), ',')) {
        link_flags.push_back("-Wl," + f);
      }
    } else if (a == "-ccbin" || a.starts_with("-ccbin=") || a == "--compiler-bindir" ||
               a.starts_with("--compiler-bindir=")) {
      const std::string v = value(i, a.starts_with("--") ? "--compiler-bindir" : "-ccbin");
      // nvcc takes the compiler or the folder holding it; a folder means the C++ compiler gpulab was
      // built with, by name, from there.
      std::error_code ec;
      cxx = fs::is_directory(v, ec) ? (fs::path(v) / fs::path(GPULAB_SIMCC_CXX).filename()).string() : v;
    } else if (a == "-MD" || a == "--generate-dependencies-with-compile") {
      deps.enabled = true;
    } else if (a == "-MMD" || a == "--generate-nonsystem-dependencies-with-compile") {
      deps.enabled = true;
      deps.user_headers_only = true;
    } else if (a == "-MP" || a == "--generate-dependency-targets") {
      deps.phony_targets = true;
    } else if (a.starts_with("-MF") || a == "--dependency-output" || a.starts_with("--dependency-output=")) {
      deps.file = value(i, a.starts_with("--") ? "--dependency-output" : "-MF");
    } else if (a.starts_with("-MT") || a == "--dependency-target-name" || a.starts_with("--dependency-target-name=")) {
      deps.target = value(i, a.starts_with("--") ? "--dependency-target-name" : "-MT");
    } else if (a == "-M" || a == "-MM" || a == "--generate-dependencies" || a == "--generate-nonsystem-dependencies" ||
               a == "-E" || a == "--preprocess") {
      std::cerr << "gpulab-simcc: " << a << " (preprocessing only) is not supported: it would show the rewritten "
                << "source; use -MD/-MMD with -c for dependencies\n";
      return 2;
    } else if (a == "-ptx" || a == "--ptx" || a == "-cubin" || a == "--cubin" || a == "-fatbin" || a == "--fatbin" ||
               a == "-optix-ir" || a == "--optix-ir" || a == "-dlto") {
      std::cerr << "gpulab-simcc: " << a << " is not supported: the simulator runs kernels as host code, so no "
                << "device code (PTX, cubin, fatbin, LTO IR) is made\n";
      return 2;
    } else if (a == "--keep" || a == "-keep") {
      keep = true;
    } else if (a == "--keep-dir" || a.starts_with("--keep-dir=") || a == "-keep-dir") {
      keep_dir = value(i, a.starts_with("--") ? "--keep-dir" : "-keep-dir");
    } else if (a == "-forward-unknown-to-host-compiler" || a == "--forward-unknown-to-host-compiler" ||
               a == "-forward-unknown-to-host-linker" || a == "--forward-unknown-to-host-linker") {
      // Taken above.
    } else if (a == "-shared" || a == "--shared") {
      shared = true;
    } else if (a == "-arch" || a.starts_with("-arch=") || a == "--gpu-architecture" || a.starts_with("--gpu-architecture=") ||
               a == "-code" || a.starts_with("-code=") || a == "-gencode" || a.starts_with("-gencode=") ||
               a == "--generate-code" || a.starts_with("--generate-code=") || a == "--gpu-code" ||
               a.starts_with("--gpu-code=")) {
      const std::string flag = a.substr(0, a.find('='));
      const std::string v = value(i, flag);
      note("ignoring " + flag + " " + v + ": the simulator runs kernels as host code (an sm_90-like device)");
    } else if (a == "-Xptxas" || a.starts_with("-Xptxas=") || a == "--ptxas-options" || a.starts_with("--ptxas-options=") ||
               a == "-Xnvlink" || a.starts_with("-Xnvlink=") || a == "--nvlink-options" ||
               a.starts_with("--nvlink-options=") || a == "-maxrregcount" || a.starts_with("-maxrregcount=") ||
               a == "--maxrregcount" || a.starts_with("--maxrregcount=") || a == "-cudart" || a.starts_with("-cudart=") ||
               a == "--cudart" || a.starts_with("--cudart=") || a == "-t" || a == "--threads" ||
               a.starts_with("--threads=")) {
      const std::string flag = a.substr(0, a.find('='));
      const std::string v = value(i, flag);
      note("ignoring " + flag + " " + v + " (no device compiler, device linker or CUDA runtime choice here)");
    } else if (a == "-lineinfo" || a == "--generate-line-info" || a == "--use_fast_math" || a == "-use_fast_math" ||
               a == "--extended-lambda" || a == "--expt-extended-lambda" || a == "-extended-lambda" ||
               a == "-expt-extended-lambda" || a == "-rdc=false" || a == "--relocatable-device-code=false" ||
               a.starts_with("-ftz=") || a.starts_with("--ftz=") || a.starts_with("-prec-div=") ||
               a.starts_with("--prec-div=") || a.starts_with("-prec-sqrt=") || a.starts_with("--prec-sqrt=") ||
               a.starts_with("-fmad=") || a.starts_with("--fmad=") || a == "-res-usage" || a == "--resource-usage" ||
               nvcc_only_warnings.contains(a)) {
      if (a == "--extended-lambda" || a == "--expt-extended-lambda" || a == "-extended-lambda" || a == "-expt-extended-lambda") {
        cuda_macros.push_back("-D__CUDACC_EXTENDED_LAMBDA__=1");
      }
      note("ignoring " + a + " (no effect in the simulator)");
    } else if (a == "--expt-relaxed-constexpr" || a == "-expt-relaxed-constexpr") {
      // Host and device functions are all host functions here, so constexpr ones already mix freely.
      cuda_macros.push_back("-D__CUDACC_RELAXED_CONSTEXPR__=1");
      note("ignoring " + a + " (no effect in the simulator)");
    } else if (a == "-rdc=true" || a == "--relocatable-device-code=true" || a == "-rdc" || a == "--relocatable-device-code") {
      // Kernels are host code here: device functions in other files link as host functions do.
      bool on = true;
      if (a == "-rdc" || a == "--relocatable-device-code") {
        const std::string v = value(i, a);
        if (v != "true" && v != "false") {
          std::cerr << "gpulab-simcc: " << a << " takes true or false\n";
          return 2;
        }
        on = v == "true";
      }
      if (on) cuda_macros.push_back("-D__CUDACC_RDC__=1");
      note("ignoring " + a + ": device code is host code here, so it always links across files");
    } else if (a == "-dc" || a == "--device-c") {
      compile_only = true;  // nvcc's -dc is -rdc=true -c
      cuda_macros.push_back("-D__CUDACC_RDC__=1");
      note(a + " is -c here: device code is host code, so it always links across files");
    } else if (a == "-dlink" || a == "--device-link") {
      device_link = true;
    } else if (a == "-Werror" || a == "--Werror" || a.starts_with("--Werror=") || a.starts_with("-Werror=")) {
      // nvcc's -Werror takes kinds (all-warnings, reorder, ...); the host compiler's takes none.
      const bool spelled_with_kinds = a.find('=') != std::string::npos;
      const bool next_is_kinds = !spelled_with_kinds && i + 1 < count && !split_list(args[i + 1], ',').empty() &&
                                 [&] {
                                   for (const auto& k : split_list(args[i + 1], ',')) {
                                     if (!werror_kinds.contains(k)) return false;
                                   }
                                   return true;
                                 }();
      if (!spelled_with_kinds && !next_is_kinds) {
        compile_flags.push_back("-Werror");
      } else {
        const std::string kinds = spelled_with_kinds ? a.substr(a.find('=') + 1) : args[++i];
        for (const auto& k : split_list(kinds, ',')) {
          if (k == "all-warnings") {
            compile_flags.push_back("-Werror");
          } else if (k == "reorder" || k == "deprecated-declarations") {
            compile_flags.push_back("-Werror=" + k);
          } else if (werror_kinds.contains(k)) {
            note("ignoring -Werror " + k + " (nvcc's own warning; no such warning in the simulator)");
          } else {
            // -Werror=format and the like: the host compiler's.
            compile_flags.push_back("-Werror=" + k);
          }
        }
      }
    } else if (a == "-w" || a.starts_with("-W") || (a.starts_with("-f") && a != "-forward-unknown-to-host-compiler") ||
               a.starts_with("-m") || a == "-pthread") {
      compile_flags.push_back(a);
      if (a.starts_with("-f") || a == "-pthread") link_flags.push_back(a);
    } else if (!a.empty() && a[0] == '-' && a.size() > 1) {
      if (!forward_unknown) {
        std::cerr << "gpulab-simcc: unsupported option " << a << " (see gpulab-simcc --help)\n";
        return 2;
      }
      // As nvcc does: the option goes to the host compiler, for compiling and for linking; a value in
      // the next argument is not taken with it.
      compile_flags.push_back(a);
      link_flags.push_back(a);
    } else {
      inputs.push_back(a);
      input_languages.push_back(forced_language);
    }
  }

  const Layout layout = find_layout(argv[0]);
  // Linked into every program: the simulator's CUDA runtime API and libgpulab, found at run time
  // through the rpath. These are also the LIBRARIES of -v, for build systems that link themselves.
  const std::vector<std::string> runtime_link_args = {"-L" + layout.lib_dir, "-L" + layout.toolkit_dir + "/lib",
                                                      "-Wl,-rpath," + layout.lib_dir, "-lgpulab_cudart", "-lgpulab",
                                                      "-pthread"};
  if (verbose) print_layout_lines(layout, runtime_link_args);

  if (inputs.empty()) {
    std::cerr << "gpulab-simcc: no input files\n" << usage;
    return 2;
  }
  if (device_link) {
    // nvcc -dlink links the device code of relocatable objects into one more object for the host link.
    // Device code is host code here and was linked with the host code already, so that object is
    // empty; it is still made, because build systems (CMake's CUDA_SEPARABLE_COMPILATION) link it.
    const std::string object = output.empty() ? "a_dlink.o" : output;
    note("-dlink: device code is host code here and links as host code; " + object + " is an empty object");
    return run({cxx, "-x", "c++", "-c", "/dev/null", "-o", object}, verbose);
  }
  if (compile_only && !output.empty() && inputs.size() > 1) {
    std::cerr << "gpulab-simcc: -c with -o takes one input file\n";
    return 2;
  }

  std::vector<std::string> base = {cxx, std_flag, "-DGPULAB_SIM=1", "-isystem",
                                   layout.include_dir + "/gpulab/sim/cuda", "-I", layout.include_dir,
                                   "-Wno-unknown-pragmas", "-pthread"};
  // CCCL (libcu++, Thrust, CUB) after the shadow headers, which defer to it or stand in for it
  // (include/gpulab/sim/cuda/gpulab_cccl_config.hpp).
  if (!std::string_view(GPULAB_SIMCC_CCCL_INCLUDE).empty()) base.insert(base.begin() + 5, {"-isystem", GPULAB_SIMCC_CCCL_INCLUDE});
  // nvcc's macros for every input it hands the host compiler (.cu, .cpp and .c alike): the version of
  // the CUDA API, and the architecture list of the code (the sim device's, whatever -arch says).
  // __CUDACC__ is for .cu files alone (gpulab's own headers put GPULAB_SIM before __CUDACC__), and so
  // is __CUDA_ARCH__, which the rewritten file defines after cuda_runtime.h (cuda_rewriter.cpp).
  const std::vector<std::string> nvcc_macros = {
      "-D__NVCC__=1",
      "-D__CUDACC_VER_MAJOR__=" + std::to_string(cuda_major),
      "-D__CUDACC_VER_MINOR__=" + std::to_string(cuda_minor),
      "-D__CUDACC_VER_BUILD__=" + std::to_string(cuda_build),
      "-D__CUDA_API_VER_MAJOR__=" + std::to_string(cuda_major),
      "-D__CUDA_API_VER_MINOR__=" + std::to_string(cuda_minor),
      "-D__CUDA_ARCH_LIST__=900"};
  cuda_macros.insert(cuda_macros.begin(), "-D__CUDACC__=1");
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
    cmd.insert(cmd.end(), nvcc_macros.begin(), nvcc_macros.end());
    if (cuda) cmd.insert(cmd.end(), cuda_macros.begin(), cuda_macros.end());
    // The rewritten file lives elsewhere: #include "x.h" must still find the .cu's neighbours first.
    if (cuda) cmd.insert(cmd.end(), {"-iquote", fs::absolute(in).parent_path().string()});
    if (cuda && checked) {
      for (auto& f : split_list(GPULAB_SIMCC_CHECKED_FLAGS, ';')) cmd.push_back(f);
    }
    cmd.insert(cmd.end(), compile_flags.begin(), compile_flags.end());
    // The dependency file: the host compiler's, written beside the copies, then with the copies'
    // paths replaced by the user's files (depfile.hpp). Its default name is nvcc's: the object's, .d.
    std::string depfile, host_depfile;
    if (deps.enabled) {
      depfile = !deps.file.empty() ? deps.file
                                   : (compile_only ? fs::path(object).replace_extension(".d")
                                                   : fs::path(in).filename().replace_extension(".d"))
                                         .string();
      host_depfile = (tmpdir / (std::to_string(n) + ".d")).string();
      cmd.insert(cmd.end(), {deps.user_headers_only ? "-MMD" : "-MD", "-MF", host_depfile, "-MT",
                             !deps.target.empty() ? deps.target
                             : compile_only        ? object
                                                   : (output.empty() ? "a.out" : output)});
      if (deps.phony_targets) cmd.push_back("-MP");
    }
    cmd.insert(cmd.end(), {"-x", language == Language::c ? "c" : "c++", "-c", source, "-o", object});
    if ((status = run(cmd, verbose)) != 0) break;
    if (deps.enabled) {
      std::map<std::string, std::string> renames = {{source, in}};
      for (const auto& [original, copy] : includes.copies()) renames.emplace(copy.string(), original.string());
      std::ifstream host(host_depfile, std::ios::binary);
      std::stringstream text;
      text << host.rdbuf();
      std::ofstream out(depfile, std::ios::binary | std::ios::trunc);
      out << gpulab::simcc::remap_depfile(text.str(), renames);
      if (!host || !out) {
        std::cerr << "gpulab-simcc: cannot write the dependency file " << depfile << '\n';
        status = 1;
        break;
      }
    }
    objects.push_back(object);
  }
  if (status == 0 && !compile_only) {
    std::vector<std::string> cmd = {cxx};
    if (shared) cmd.push_back("-shared");
    cmd.insert(cmd.end(), {"-o", output.empty() ? "a.out" : output});
    for (auto& f : split_list(GPULAB_SIMCC_BUILD_FLAGS, ';')) {
      if (f.starts_with("-fsanitize")) cmd.push_back(f);
    }
    cmd.insert(cmd.end(), objects.begin(), objects.end());
    cmd.insert(cmd.end(), link_flags.begin(), link_flags.end());
    cmd.insert(cmd.end(), runtime_link_args.begin(), runtime_link_args.end());
    status = run(cmd, verbose);
  }
  std::error_code ec;
  if (keep) {
    // nvcc's --keep: the intermediate files, here the rewritten sources (and, when linking, the objects).
    fs::create_directories(keep_dir, ec);
    fs::copy(tmpdir, keep_dir, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
    if (ec) std::cerr << "gpulab-simcc: --keep: cannot copy " << tmpdir.string() << " to " << keep_dir << ": " << ec.message() << '\n';
  }
  fs::remove_all(tmpdir, ec);
  return status;
}
