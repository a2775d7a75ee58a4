// Floating-point operations in a rounding mode (ptx_rounding.hpp). Compiled with -frounding-math, and
// each operation reads its operands from and writes its result to volatile objects inside the scope
// that sets the mode, so the compiler can neither fold it nor move it out of that scope.
#include "sim/ptx/ptx_rounding.hpp"

#include <cfenv>
#include <cmath>

namespace gpulab::sim::ptx {

namespace {

int host_mode(Round r) {
  switch (r) {
    case Round::rz: return FE_TOWARDZERO;
    case Round::rm: return FE_DOWNWARD;
    case Round::rp: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}

bool directed(Round r) { return r == Round::rz || r == Round::rm || r == Round::rp; }

class ScopedRounding {
 public:
  explicit ScopedRounding(Round r) : old_(std::fegetround()) { std::fesetround(host_mode(r)); }
  ~ScopedRounding() { std::fesetround(old_); }
  ScopedRounding(const ScopedRounding&) = delete;
  ScopedRounding& operator=(const ScopedRounding&) = delete;

 private:
  int old_;
};

template <class T, class F>
T in_mode(Round r, F op) {
  if (!directed(r)) return op();
  volatile T result;
  {
    ScopedRounding mode(r);
    result = op();
  }
  return result;
}

}  // namespace

float add_rounded(float a, float b, Round r) {
  volatile float x = a, y = b;
  return in_mode<float>(r, [&] { return x + y; });
}
float mul_rounded(float a, float b, Round r) {
  volatile float x = a, y = b;
  return in_mode<float>(r, [&] { return x * y; });
}
float div_rounded(float a, float b, Round r) {
  volatile float x = a, y = b;
  return in_mode<float>(r, [&] { return x / y; });
}
float fma_rounded(float a, float b, float c, Round r) {
  volatile float x = a, y = b, z = c;
  return in_mode<float>(r, [&] { return std::fma(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)); });
}
float sqrt_rounded(float a, Round r) {
  volatile float x = a;
  return in_mode<float>(r, [&] { return std::sqrt(static_cast<float>(x)); });
}
double add_rounded(double a, double b, Round r) {
  volatile double x = a, y = b;
  return in_mode<double>(r, [&] { return x + y; });
}
double mul_rounded(double a, double b, Round r) {
  volatile double x = a, y = b;
  return in_mode<double>(r, [&] { return x * y; });
}
double div_rounded(double a, double b, Round r) {
  volatile double x = a, y = b;
  return in_mode<double>(r, [&] { return x / y; });
}
double fma_rounded(double a, double b, double c, Round r) {
  volatile double x = a, y = b, z = c;
  return in_mode<double>(r, [&] { return std::fma(static_cast<double>(x), static_cast<double>(y), static_cast<double>(z)); });
}
double sqrt_rounded(double a, Round r) {
  volatile double x = a;
  return in_mode<double>(r, [&] { return std::sqrt(static_cast<double>(x)); });
}
float narrow_rounded(double a, Round r) {
  volatile double x = a;
  return in_mode<float>(r, [&] { return static_cast<float>(x); });
}
float int_to_float_rounded(std::uint64_t bits, bool is_signed, Round r) {
  volatile std::uint64_t v = bits;
  return in_mode<float>(r, [&] {
    return is_signed ? static_cast<float>(static_cast<std::int64_t>(v)) : static_cast<float>(static_cast<std::uint64_t>(v));
  });
}
double int_to_double_rounded(std::uint64_t bits, bool is_signed, Round r) {
  volatile std::uint64_t v = bits;
  return in_mode<double>(r, [&] {
    return is_signed ? static_cast<double>(static_cast<std::int64_t>(v)) : static_cast<double>(static_cast<std::uint64_t>(v));
  });
}

}  // namespace gpulab::sim::ptx
