#include <gpulab/cpu/cpu_info.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include <gpulab/error.hpp>

#include "cpu/cpu_probe.hpp"
#include "runtime/thread_pool.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace gpulab::cpu {

const char* to_string(Isa isa) {
  switch (isa) {
    case Isa::generic: return "generic";
    case Isa::avx2: return "avx2";
    case Isa::avx512: return "avx512";
  }
  return "unknown";
}

Isa parse_isa(std::string_view name) {
  std::string s(name);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (s == "generic") return Isa::generic;
  if (s == "avx2") return Isa::avx2;
  if (s == "avx512") return Isa::avx512;
  throw InvalidArgument(fmt::format("unknown CPU ISA '{}': expected avx512, avx2 or generic", name));
}

namespace {

// "32K", "1024K", "32M" as sysfs writes cache sizes.
std::size_t parse_cache_size(const std::string& text) {
  std::size_t value = 0;
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) value = value * 10 + (text[i++] - '0');
  if (i < text.size()) {
    const char unit = static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
    if (unit == 'K') value <<= 10;
    if (unit == 'M') value <<= 20;
    if (unit == 'G') value <<= 30;
  }
  return value;
}

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

void read_caches(CpuInfo& info) {
  for (int index = 0; index < 16; ++index) {
    const std::string dir = fmt::format("/sys/devices/system/cpu/cpu0/cache/index{}/", index);
    const std::string level = read_line(dir + "level");
    if (level.empty()) break;
    const std::string type = read_line(dir + "type");
    const std::size_t size = parse_cache_size(read_line(dir + "size"));
    if (level == "1" && type == "Data") info.l1d_bytes = size;
    if (level == "2" && type != "Instruction") info.l2_bytes = size;
    if (level == "3" && type != "Instruction") info.l3_bytes = size;
  }
}

#if defined(__x86_64__)
void read_cpuid(CpuInfo& info) {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
    char vendor[13] = {};
    std::copy_n(reinterpret_cast<const char*>(&ebx), 4, vendor);
    std::copy_n(reinterpret_cast<const char*>(&edx), 4, vendor + 4);
    std::copy_n(reinterpret_cast<const char*>(&ecx), 4, vendor + 8);
    info.vendor = vendor;
  }
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
    const int base_family = static_cast<int>((eax >> 8) & 0xF);
    const int base_model = static_cast<int>((eax >> 4) & 0xF);
    info.family = base_family == 0xF ? base_family + static_cast<int>((eax >> 20) & 0xFF) : base_family;
    info.model = (base_family == 0xF || base_family == 0x6) ? base_model | static_cast<int>(((eax >> 16) & 0xF) << 4)
                                                           : base_model;
  }
  unsigned max_ext = __get_cpuid_max(0x80000000u, nullptr);
  if (max_ext >= 0x80000004u) {
    char brand[49] = {};
    for (unsigned leaf = 0; leaf < 3; ++leaf) {
      unsigned r[4] = {};
      __get_cpuid(0x80000002u + leaf, &r[0], &r[1], &r[2], &r[3]);
      std::copy_n(reinterpret_cast<const char*>(r), 16, brand + 16 * leaf);
    }
    std::string name = brand;
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    info.model_name = name;
  }
  __builtin_cpu_init();
  info.isas.push_back(Isa::generic);
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    info.isas.push_back(Isa::avx2);
    if (__builtin_cpu_supports("avx512f")) info.isas.push_back(Isa::avx512);
  }
}

// AMD cores whose FMA width is known from family and model. Returns 0 when not in the table.
int known_fma_width(const CpuInfo& info, std::string& microarchitecture) {
  if (info.vendor != "AuthenticAMD") return 0;
  const int f = info.family, m = info.model;
  if (f == 0x17) {
    microarchitecture = m < 0x30 ? "Zen/Zen+" : "Zen 2";
    return m < 0x30 ? 128 : 256;
  }
  if (f == 0x19) {
    const bool zen4 = (m >= 0x10 && m <= 0x1F) || (m >= 0x60 && m <= 0x7F) || (m >= 0xA0 && m <= 0xAF);
    microarchitecture = zen4 ? "Zen 4" : "Zen 3";
    return 256;  // Zen 4 runs AVX-512 as two halves on its 256-bit units
  }
  if (f == 0x1A && (m <= 0x1F || (m >= 0x40 && m <= 0x4F))) {
    microarchitecture = "Zen 5";  // Turin and Granite Ridge: full 512-bit datapath
    return 512;
  }
  return 0;
}

// Cycles of a chain of dependent register-to-register adds: one cycle each on every x86-64 core, so
// cycles / time = clock. The addend is a register, not an immediate: Intel cores from Golden Cove on
// fold chains of add-immediate at rename, and such a chain measured 8-17 "GHz" on an Emerald Rapids.
double measure_clock_ghz() {
  constexpr long iterations = 100000;
  double best = 0;
  for (int run = 0; run < 5; ++run) {
    unsigned long x = 0;
    const unsigned long one = 1;
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < iterations; ++i) {
      asm volatile(".rept 32\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(one));
    }
    const auto t1 = std::chrono::steady_clock::now();
    const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
    if (ns > 0) best = std::max(best, 32.0 * static_cast<double>(iterations) / ns);
  }
  return best;
}

double measure_avx512_fma_per_ns() {
  constexpr long iterations = 100000;
  double best = 0;
  volatile float sink = 0;
  for (int run = 0; run < 5; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    sink = sink + detail::run_avx512_fma_loop(iterations);
    const auto t1 = std::chrono::steady_clock::now();
    const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
    if (ns > 0) best = std::max(best, 16.0 * static_cast<double>(iterations) / ns);
  }
  return best;
}
#endif

CpuInfo detect() {
  CpuInfo info;
  info.cores = gpulab::detail::host_core_count();
  read_caches(info);
#if defined(__x86_64__)
  read_cpuid(info);
  info.clock_ghz = measure_clock_ghz();
  info.best_isa = info.isas.back();
  if (info.best_isa == Isa::avx512 && info.clock_ghz > 0) {
    // 512-bit FMAs a cycle over two pipes: about 1 means 256-bit units, about 2 means 512-bit ones.
    const double per_cycle = measure_avx512_fma_per_ns() / info.clock_ghz;
    info.measured_fma_width_bits = per_cycle > 1.5 ? 512 : 256;
  }
  if (const int width = known_fma_width(info, info.microarchitecture); width != 0) {
    info.fma_width_bits = width;
    info.fma_width_source = "family/model";
  } else if (info.measured_fma_width_bits != 0) {
    info.fma_width_bits = info.measured_fma_width_bits;
    info.fma_width_source = "measured";
  } else {
    info.fma_width_bits = info.best_isa == Isa::avx2 ? 256 : 128;
    info.fma_width_source = "ISA";
  }
#else
  info.isas = {Isa::generic};
  info.fma_width_bits = 128;
  info.fma_width_source = "assumed";
#endif
  if (info.model_name.empty()) info.model_name = "unknown CPU";
  return info;
}

}  // namespace

double CpuInfo::flops_per_cycle(Dtype dtype) const {
  // int32 has no fused multiply-add; counting a multiply and an add per lane as float32 does makes its
  // figure an upper bound.
  const int bits = dtype == Dtype::float64 ? 64 : 32;
  return 2.0 * fma_units * (static_cast<double>(fma_width_bits) / bits);
}

double CpuInfo::peak_gflops(Dtype dtype, int threads) const {
  const int used = threads > 0 ? std::min(threads, cores) : cores;
  return flops_per_cycle(dtype) * clock_ghz * used;
}

std::string CpuInfo::summary() const {
  const std::string arch = microarchitecture.empty() ? "" : fmt::format(" ({})", microarchitecture);
  return fmt::format("{}{}, {} cores, {} ({}-bit FMA, {}), {:.2f} GHz", model_name, arch, cores, to_string(best_isa),
                     fma_width_bits, fma_width_source, clock_ghz);
}

const CpuInfo& cpu_info() {
  static const CpuInfo info = detect();
  return info;
}

}  // namespace gpulab::cpu
