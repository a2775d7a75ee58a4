#pragma once
// What the host CPU is and what it can do: the model, the cores, the vector ISAs gpulab's CPU GEMM can
// use, the caches its blocking is sized from, and the peak arithmetic rate that bench compares to.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <gpulab/dtype.hpp>

namespace gpulab::cpu {

// The micro-kernel families of the CPU GEMM, from the most portable to the widest.
enum class Isa { generic, avx2, avx512 };

// "generic", "avx2", "avx512".
const char* to_string(Isa isa);
// Accepts the names above (any case); throws InvalidArgument naming the text and the choices.
Isa parse_isa(std::string_view name);

struct CpuInfo {
  std::string vendor;      // "AuthenticAMD", "GenuineIntel"
  std::string model_name;  // the CPUID brand string, e.g. "AMD EPYC 9R14"
  int family = 0;          // CPUID display family and model (AMD Zen 4: family 25, Zen 5: family 26)
  int model = 0;
  std::string microarchitecture;  // "Zen 4", or empty when the family/model is not in gpulab's table
  int cores = 0;                  // cores this process may use
  std::vector<Isa> isas;          // what this CPU and OS can run, generic first
  Isa best_isa = Isa::generic;

  // Width of the FMA datapath, in bits, and how it was found: "family/model" (a table of known cores)
  // or "measured" (a short timed loop of independent 512-bit FMAs, for cores not in the table).
  // Zen 4 executes AVX-512 on 256-bit units, Zen 5 on 512-bit ones; CPUID flags cannot tell them apart.
  int fma_width_bits = 0;
  std::string fma_width_source;
  int fma_units = 2;  // FMA pipes per core
  // What the timed loop says on an AVX-512 CPU (0 where it was not run), whatever the table says: a
  // cross-check of the table.
  int measured_fma_width_bits = 0;

  // Core clock in GHz under a dependent-add loop (1 cycle an add), measured once, with all cores busy.
  double clock_ghz = 0;

  std::size_t l1d_bytes = 0, l2_bytes = 0, l3_bytes = 0;  // per core for L1/L2; L3 as seen by one core

  // Floating-point operations (an FMA counts 2) one core retires per cycle for `dtype`, and the peak in
  // GFLOP/s (GOP/s for int32) on `threads` cores (0: all), at clock_ghz.
  double flops_per_cycle(Dtype dtype) const;
  double peak_gflops(Dtype dtype, int threads = 0) const;

  // One line for `gpulab devices` and bench: "AMD EPYC 9R14 (Zen 4), 2 cores, avx512 (256-bit FMA,
  // family/model), 3.70 GHz".
  std::string summary() const;
};

// Detected on first call (the clock measurement takes a few milliseconds) and cached.
const CpuInfo& cpu_info();

}  // namespace gpulab::cpu
