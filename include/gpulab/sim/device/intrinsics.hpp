#pragma once
// CUDA's bit and integer intrinsics and its global min/max overloads for code compiled for the
// simulator (part of <gpulab/sim/device_runtime.hpp>), with CUDA's results. Reinterpretations and
// conversions are in type_conversions.hpp, the math library in math_functions.hpp.
#include <cmath>
#include <cstdint>

#include <gpulab/sim/device/type_conversions.hpp>

// ---- bit intrinsics ----------------------------------------------------------------------------------------
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
         __brev(static_cast<unsigned>(x >> 32));
}
inline unsigned short __nv_bswap16(unsigned short x) { return __builtin_bswap16(x); }
inline unsigned __nv_bswap32(unsigned x) { return __builtin_bswap32(x); }
inline unsigned long long __nv_bswap64(unsigned long long x) { return __builtin_bswap64(x); }

// The bytes of y:x (x bytes 0-3, y bytes 4-7) picked by the low three bits of each selector nibble.
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const std::uint64_t bytes = (static_cast<std::uint64_t>(y) << 32) | x;
  unsigned r = 0;
  for (unsigned n = 0; n < 4; ++n) {
    const unsigned pick = (s >> (4 * n)) & 7u;
    r |= static_cast<unsigned>((bytes >> (8 * pick)) & 0xffu) << (8 * n);
  }
  return r;
}
// hi:lo shifted left by shift mod 32 (_l) or by min(shift, 32) (_lc); the upper word.
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  const std::uint64_t v = ((static_cast<std::uint64_t>(hi) << 32) | lo) << (shift & 31u);
  return static_cast<unsigned>(v >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned n = shift < 32u ? shift : 32u;
  const std::uint64_t v = ((static_cast<std::uint64_t>(hi) << 32) | lo) << n;
  return static_cast<unsigned>(v >> 32);
}
// hi:lo shifted right by shift mod 32 (_r) or by min(shift, 32) (_rc); the lower word.
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  return static_cast<unsigned>(((static_cast<std::uint64_t>(hi) << 32) | lo) >> (shift & 31u));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned n = shift < 32u ? shift : 32u;
  return static_cast<unsigned>(((static_cast<std::uint64_t>(hi) << 32) | lo) >> n);
}
// The position of the offset-th set bit of mask counting from bit base, toward the most significant
// bit for a positive offset and toward the least for a negative one; offset 0 asks whether bit base is
// set. 0xffffffff when there is none (PTX's fns).
inline unsigned __fns(unsigned mask, unsigned base, int offset) {
  if (base > 31u) return 0xffffffffu;
  if (offset == 0) return ((mask >> base) & 1u) != 0 ? base : 0xffffffffu;
  const int step = offset > 0 ? 1 : -1;
  long long remaining = offset > 0 ? offset : -static_cast<long long>(offset);
  for (int pos = static_cast<int>(base); pos >= 0 && pos < 32; pos += step) {
    if (((mask >> pos) & 1u) != 0 && --remaining == 0) return static_cast<unsigned>(pos);
  }
  return 0xffffffffu;
}

// ---- integer arithmetic --------------------------------------------------------------------------------------
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline long long __mul64hi(long long x, long long y) {
  return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
// The low 32 bits of the product of the low 24 bits of x and y (signed 24-bit values for __mul24).
inline int __mul24(int x, int y) {
  const auto low24 = [](int v) {
    return static_cast<long long>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v) << 8) >> 8);
  };
  return static_cast<int>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(low24(x) * low24(y))));
}
inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
// |x - y| + z, the difference taken without overflow (the sum wraps in 32 bits as the device's does).
inline unsigned __sad(int x, int y, unsigned z) {
  const long long d = static_cast<long long>(x) - y;
  return static_cast<unsigned>(d < 0 ? -d : d) + z;
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
// Halving adds without overflow of the sum: (x + y) >> 1 and (x + y + 1) >> 1.
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
inline unsigned __uhadd(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned __urhadd(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}

// CUDA's global min/max overloads (integer ones compare in the type of the arguments).
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a < b ? b : a; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a < b ? b : a; }
inline unsigned min(int a, unsigned b) { return min(static_cast<unsigned>(a), b); }
inline unsigned min(unsigned a, int b) { return min(a, static_cast<unsigned>(b)); }
inline unsigned max(int a, unsigned b) { return max(static_cast<unsigned>(a), b); }
inline unsigned max(unsigned a, int b) { return max(a, static_cast<unsigned>(b)); }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a < b ? b : a; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a < b ? b : a; }
inline long min(long a, long b) { return a < b ? a : b; }
inline long max(long a, long b) { return a < b ? b : a; }
inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
inline unsigned long max(unsigned long a, unsigned long b) { return a < b ? b : a; }
inline unsigned long min(long a, unsigned long b) { return min(static_cast<unsigned long>(a), b); }
inline unsigned long min(unsigned long a, long b) { return min(a, static_cast<unsigned long>(b)); }
inline unsigned long max(long a, unsigned long b) { return max(static_cast<unsigned long>(a), b); }
inline unsigned long max(unsigned long a, long b) { return max(a, static_cast<unsigned long>(b)); }
inline unsigned long long min(long long a, unsigned long long b) { return min(static_cast<unsigned long long>(a), b); }
inline unsigned long long min(unsigned long long a, long long b) { return min(a, static_cast<unsigned long long>(b)); }
inline unsigned long long max(long long a, unsigned long long b) { return max(static_cast<unsigned long long>(a), b); }
inline unsigned long long max(unsigned long long a, long long b) { return max(a, static_cast<unsigned long long>(b)); }
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double min(float a, double b) { return std::fmin(static_cast<double>(a), b); }
inline double min(double a, float b) { return std::fmin(a, static_cast<double>(b)); }
inline double max(float a, double b) { return std::fmax(static_cast<double>(a), b); }
inline double max(double a, float b) { return std::fmax(a, static_cast<double>(b)); }
inline unsigned umin(unsigned a, unsigned b) { return min(a, b); }
inline unsigned umax(unsigned a, unsigned b) { return max(a, b); }
inline long long llmin(long long a, long long b) { return min(a, b); }
inline long long llmax(long long a, long long b) { return max(a, b); }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return min(a, b); }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return max(a, b); }
