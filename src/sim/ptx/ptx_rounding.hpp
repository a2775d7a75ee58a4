#pragma once
// IEEE 754 operations of float and double in a chosen rounding mode (PTX's .rn, .rz, .rm, .rp), done
// by the host's floating-point unit switched to that mode for the one operation, so that each result
// is rounded once, exactly as the GPU rounds it. To nearest (Round::rn or none) needs no switch.
#include <cstdint>

#include "sim/ptx/ptx_program.hpp"

namespace gpulab::sim::ptx {

float add_rounded(float a, float b, Round r);
float mul_rounded(float a, float b, Round r);
float div_rounded(float a, float b, Round r);
float fma_rounded(float a, float b, float c, Round r);
float sqrt_rounded(float a, Round r);
double add_rounded(double a, double b, Round r);
double mul_rounded(double a, double b, Round r);
double div_rounded(double a, double b, Round r);
double fma_rounded(double a, double b, double c, Round r);
double sqrt_rounded(double a, Round r);
// Conversions that may be inexact: double to float, integers to float and double.
float narrow_rounded(double a, Round r);
float int_to_float_rounded(std::uint64_t bits, bool is_signed, Round r);
double int_to_double_rounded(std::uint64_t bits, bool is_signed, Round r);

}  // namespace gpulab::sim::ptx
