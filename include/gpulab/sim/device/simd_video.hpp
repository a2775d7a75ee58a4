#pragma once
// CUDA's SIMD video intrinsics (__vadd4, __vabsdiffu2, __vcmpgts4, __vsetltu2, __vsads4, ...), the DPX
// functions of sm_90 (__vimax3_s32, __viaddmax_s16x2_relu, __vibmin_u32, ...) and the dot products
// __dp4a / __dp2a_lo / __dp2a_hi for code compiled for the simulator (part of
// <gpulab/sim/device_runtime.hpp>). A 32-bit word holds two halfword lanes (the ...2 forms) or four byte
// lanes (the ...4 forms); each lane is computed on its own, as the hardware does.
#include <cstdint>

#include <gpulab/sim/vector_types.hpp>

namespace gpulab::sim::simd {

// One lane's value, read both ways.
struct Lane {
  long long u;  // as unsigned
  long long s;  // as signed
};

template <unsigned Lanes>
struct Layout {
  static constexpr unsigned bits = 32 / Lanes;
  static constexpr unsigned mask = (1u << bits) - 1u;
  static constexpr long long smin = -(1ll << (bits - 1));
  static constexpr long long smax = (1ll << (bits - 1)) - 1;
  static constexpr long long umax = (1ll << bits) - 1;
  static Lane lane(unsigned word, unsigned i) {
    const long long u = (word >> (i * bits)) & mask;
    return {u, u > smax ? u - (1ll << bits) : u};
  }
};

// Applies op(lane of a, lane of b, lane of c) to every lane; each result is truncated to its lane.
template <unsigned Lanes, class Op>
inline unsigned per_lane(unsigned a, unsigned b, unsigned c, Op op) {
  using L = Layout<Lanes>;
  unsigned r = 0;
  for (unsigned i = 0; i < Lanes; ++i) {
    const long long v = op(L::lane(a, i), L::lane(b, i), L::lane(c, i));
    r |= (static_cast<unsigned>(v) & L::mask) << (i * L::bits);
  }
  return r;
}
template <unsigned Lanes, class Op>
inline unsigned per_lane(unsigned a, unsigned b, Op op) {
  return per_lane<Lanes>(a, b, 0u, [&](Lane x, Lane y, Lane) { return op(x, y); });
}
template <unsigned Lanes>
inline long long saturate_signed(long long v) {
  return v < Layout<Lanes>::smin ? Layout<Lanes>::smin : (v > Layout<Lanes>::smax ? Layout<Lanes>::smax : v);
}
template <unsigned Lanes>
inline long long saturate_unsigned(long long v) {
  return v < 0 ? 0 : (v > Layout<Lanes>::umax ? Layout<Lanes>::umax : v);
}
inline long long abs_of(long long v) { return v < 0 ? -v : v; }
inline long long max_of(long long a, long long b) { return a < b ? b : a; }
inline long long min_of(long long a, long long b) { return a < b ? a : b; }
// Signed rounded average: half away from zero, (a + b + (a + b >= 0)) >> 1 (PTX's vavrg).
inline long long rounded_average(long long a, long long b) {
  const long long sum = a + b;
  return (sum + (sum >= 0 ? 1 : 0)) >> 1;
}

}  // namespace gpulab::sim::simd

// The lane-wise forms of one operation, 2 and 4 lanes, from an expression of the lanes x and y.
#define GPULAB_SIM_SIMD_BINARY(name, expression)                                                        \
  inline unsigned name##2(unsigned a, unsigned b) {                                                     \
    using namespace gpulab::sim::simd;                                                                  \
    constexpr unsigned lanes = 2;                                                                       \
    return per_lane<lanes>(a, b, [](Lane x, Lane y) -> long long { (void)lanes; return expression; });  \
  }                                                                                                     \
  inline unsigned name##4(unsigned a, unsigned b) {                                                     \
    using namespace gpulab::sim::simd;                                                                  \
    constexpr unsigned lanes = 4;                                                                       \
    return per_lane<lanes>(a, b, [](Lane x, Lane y) -> long long { (void)lanes; return expression; });  \
  }
#define GPULAB_SIM_SIMD_UNARY(name, expression)                                                         \
  inline unsigned name##2(unsigned a) {                                                                 \
    using namespace gpulab::sim::simd;                                                                  \
    constexpr unsigned lanes = 2;                                                                       \
    return per_lane<lanes>(a, 0u, [](Lane x, Lane) -> long long { (void)lanes; return expression; });   \
  }                                                                                                     \
  inline unsigned name##4(unsigned a) {                                                                 \
    using namespace gpulab::sim::simd;                                                                  \
    constexpr unsigned lanes = 4;                                                                       \
    return per_lane<lanes>(a, 0u, [](Lane x, Lane) -> long long { (void)lanes; return expression; });   \
  }

GPULAB_SIM_SIMD_UNARY(__vabs, abs_of(x.s))
GPULAB_SIM_SIMD_UNARY(__vabsss, saturate_signed<lanes>(abs_of(x.s)))
GPULAB_SIM_SIMD_UNARY(__vneg, -x.s)
GPULAB_SIM_SIMD_UNARY(__vnegss, saturate_signed<lanes>(-x.s))
GPULAB_SIM_SIMD_BINARY(__vabsdiffs, abs_of(x.s - y.s))
GPULAB_SIM_SIMD_BINARY(__vabsdiffu, abs_of(x.u - y.u))
GPULAB_SIM_SIMD_BINARY(__vadd, x.u + y.u)
GPULAB_SIM_SIMD_BINARY(__vaddss, saturate_signed<lanes>(x.s + y.s))
GPULAB_SIM_SIMD_BINARY(__vaddus, saturate_unsigned<lanes>(x.u + y.u))
GPULAB_SIM_SIMD_BINARY(__vsub, x.u - y.u)
GPULAB_SIM_SIMD_BINARY(__vsubss, saturate_signed<lanes>(x.s - y.s))
GPULAB_SIM_SIMD_BINARY(__vsubus, saturate_unsigned<lanes>(x.u - y.u))
GPULAB_SIM_SIMD_BINARY(__vavgs, rounded_average(x.s, y.s))
GPULAB_SIM_SIMD_BINARY(__vavgu, (x.u + y.u + 1) >> 1)
GPULAB_SIM_SIMD_BINARY(__vhaddu, (x.u + y.u) >> 1)
GPULAB_SIM_SIMD_BINARY(__vmaxs, max_of(x.s, y.s))
GPULAB_SIM_SIMD_BINARY(__vmaxu, max_of(x.u, y.u))
GPULAB_SIM_SIMD_BINARY(__vmins, min_of(x.s, y.s))
GPULAB_SIM_SIMD_BINARY(__vminu, min_of(x.u, y.u))
// Comparisons: __vcmp* gives an all-ones lane where it holds, __vset* a lane of 1.
GPULAB_SIM_SIMD_BINARY(__vcmpeq, x.u == y.u ? -1 : 0)
GPULAB_SIM_SIMD_BINARY(__vcmpne, x.u != y.u ? -1 : 0)
GPULAB_SIM_SIMD_BINARY(__vcmpges, x.s >= y.s ? -1 : 0)
GPULAB_SIM_SIMD_BINARY(__vcmpgeu, x.u >= y.u ? -1 : 0)
GPULAB_SIM_SIMD_BINARY(__vcmpgts, x.s > y.s ? -1 : 0)
GPULAB_SIM_SIMD_BINARY(__vcmpgtu, x.u > y.u ? -1 : 0)
GPULAB_SIM_SIMD_BINARY(__vcmples, x.s <= y.s ? -1 : 0)
GPULAB_SIM_SIMD_BINARY(__vcmpleu, x.u <= y.u ? -1 : 0)
GPULAB_SIM_SIMD_BINARY(__vcmplts, x.s < y.s ? -1 : 0)
GPULAB_SIM_SIMD_BINARY(__vcmpltu, x.u < y.u ? -1 : 0)
GPULAB_SIM_SIMD_BINARY(__vseteq, x.u == y.u ? 1 : 0)
GPULAB_SIM_SIMD_BINARY(__vsetne, x.u != y.u ? 1 : 0)
GPULAB_SIM_SIMD_BINARY(__vsetges, x.s >= y.s ? 1 : 0)
GPULAB_SIM_SIMD_BINARY(__vsetgeu, x.u >= y.u ? 1 : 0)
GPULAB_SIM_SIMD_BINARY(__vsetgts, x.s > y.s ? 1 : 0)
GPULAB_SIM_SIMD_BINARY(__vsetgtu, x.u > y.u ? 1 : 0)
GPULAB_SIM_SIMD_BINARY(__vsetles, x.s <= y.s ? 1 : 0)
GPULAB_SIM_SIMD_BINARY(__vsetleu, x.u <= y.u ? 1 : 0)
GPULAB_SIM_SIMD_BINARY(__vsetlts, x.s < y.s ? 1 : 0)
GPULAB_SIM_SIMD_BINARY(__vsetltu, x.u < y.u ? 1 : 0)
#undef GPULAB_SIM_SIMD_BINARY
#undef GPULAB_SIM_SIMD_UNARY

// Sums of absolute differences over the lanes.
inline unsigned __vsads2(unsigned a, unsigned b) {
  using namespace gpulab::sim::simd;
  return static_cast<unsigned>(abs_of(Layout<2>::lane(a, 0).s - Layout<2>::lane(b, 0).s) +
                               abs_of(Layout<2>::lane(a, 1).s - Layout<2>::lane(b, 1).s));
}
inline unsigned __vsadu2(unsigned a, unsigned b) {
  using namespace gpulab::sim::simd;
  return static_cast<unsigned>(abs_of(Layout<2>::lane(a, 0).u - Layout<2>::lane(b, 0).u) +
                               abs_of(Layout<2>::lane(a, 1).u - Layout<2>::lane(b, 1).u));
}
inline unsigned __vsads4(unsigned a, unsigned b) {
  using namespace gpulab::sim::simd;
  long long sum = 0;
  for (unsigned i = 0; i < 4; ++i) sum += abs_of(Layout<4>::lane(a, i).s - Layout<4>::lane(b, i).s);
  return static_cast<unsigned>(sum);
}
inline unsigned __vsadu4(unsigned a, unsigned b) {
  using namespace gpulab::sim::simd;
  long long sum = 0;
  for (unsigned i = 0; i < 4; ++i) sum += abs_of(Layout<4>::lane(a, i).u - Layout<4>::lane(b, i).u);
  return static_cast<unsigned>(sum);
}

// ---- DPX (sm_90): three-way and fused add-then-max/min, with ReLU (a floor at 0) ----------------------
#define GPULAB_SIM_DPX3(name, expression)                                                                  \
  inline unsigned name##_s16x2(unsigned a, unsigned b, unsigned c) {                                       \
    using namespace gpulab::sim::simd;                                                                     \
    return per_lane<2>(a, b, c, [](Lane x, Lane y, Lane z) -> long long {                                  \
      const long long p = x.s, q = y.s, r = z.s;                                                           \
      return expression;                                                                                   \
    });                                                                                                    \
  }                                                                                                        \
  inline unsigned name##_u16x2(unsigned a, unsigned b, unsigned c) {                                       \
    using namespace gpulab::sim::simd;                                                                     \
    return per_lane<2>(a, b, c, [](Lane x, Lane y, Lane z) -> long long {                                  \
      const long long p = x.u, q = y.u, r = z.u;                                                           \
      return expression;                                                                                   \
    });                                                                                                    \
  }                                                                                                        \
  inline int name##_s32(int a, int b, int c) {                                                             \
    using gpulab::sim::simd::max_of, gpulab::sim::simd::min_of;                                            \
    const long long p = a, q = b, r = c;                                                                   \
    return static_cast<int>(static_cast<std::uint32_t>(expression));                                       \
  }                                                                                                        \
  inline unsigned name##_u32(unsigned a, unsigned b, unsigned c) {                                         \
    using gpulab::sim::simd::max_of, gpulab::sim::simd::min_of;                                            \
    const long long p = a, q = b, r = c;                                                                   \
    return static_cast<unsigned>(expression);                                                              \
  }
#define GPULAB_SIM_DPX3_RELU(name, expression)                                                             \
  inline unsigned name##_s16x2_relu(unsigned a, unsigned b, unsigned c) {                                  \
    using namespace gpulab::sim::simd;                                                                     \
    return per_lane<2>(a, b, c, [](Lane x, Lane y, Lane z) -> long long {                                  \
      const long long p = x.s, q = y.s, r = z.s;                                                           \
      return max_of(expression, 0);                                                                        \
    });                                                                                                    \
  }                                                                                                        \
  inline int name##_s32_relu(int a, int b, int c) {                                                        \
    using gpulab::sim::simd::max_of, gpulab::sim::simd::min_of;                                            \
    const long long p = a, q = b, r = c;                                                                   \
    return static_cast<int>(max_of(static_cast<std::int32_t>(static_cast<std::uint32_t>(expression)), 0)); \
  }

// The sum in __viaddmax/__viaddmin wraps in its lane before the comparison, as the 16/32-bit add does.
namespace gpulab::sim::simd {
inline long long wrap16s(long long v) { return static_cast<std::int16_t>(static_cast<std::uint16_t>(v)); }
inline long long wrap16u(long long v) { return static_cast<std::uint16_t>(v); }
inline long long wrap32s(long long v) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(v)); }
inline long long wrap32u(long long v) { return static_cast<std::uint32_t>(v); }
}  // namespace gpulab::sim::simd

GPULAB_SIM_DPX3(__vimax3, max_of(max_of(p, q), r))
GPULAB_SIM_DPX3(__vimin3, min_of(min_of(p, q), r))
GPULAB_SIM_DPX3_RELU(__vimax3, max_of(max_of(p, q), r))
GPULAB_SIM_DPX3_RELU(__vimin3, min_of(min_of(p, q), r))
#undef GPULAB_SIM_DPX3
#undef GPULAB_SIM_DPX3_RELU

inline unsigned __viaddmax_s16x2(unsigned a, unsigned b, unsigned c) {
  using namespace gpulab::sim::simd;
  return per_lane<2>(a, b, c, [](Lane x, Lane y, Lane z) { return max_of(wrap16s(x.s + y.s), z.s); });
}
inline unsigned __viaddmax_s16x2_relu(unsigned a, unsigned b, unsigned c) {
  using namespace gpulab::sim::simd;
  return per_lane<2>(a, b, c, [](Lane x, Lane y, Lane z) { return max_of(max_of(wrap16s(x.s + y.s), z.s), 0); });
}
inline unsigned __viaddmax_u16x2(unsigned a, unsigned b, unsigned c) {
  using namespace gpulab::sim::simd;
  return per_lane<2>(a, b, c, [](Lane x, Lane y, Lane z) { return max_of(wrap16u(x.u + y.u), z.u); });
}
inline unsigned __viaddmin_s16x2(unsigned a, unsigned b, unsigned c) {
  using namespace gpulab::sim::simd;
  return per_lane<2>(a, b, c, [](Lane x, Lane y, Lane z) { return min_of(wrap16s(x.s + y.s), z.s); });
}
inline unsigned __viaddmin_s16x2_relu(unsigned a, unsigned b, unsigned c) {
  using namespace gpulab::sim::simd;
  return per_lane<2>(a, b, c, [](Lane x, Lane y, Lane z) { return max_of(min_of(wrap16s(x.s + y.s), z.s), 0); });
}
inline unsigned __viaddmin_u16x2(unsigned a, unsigned b, unsigned c) {
  using namespace gpulab::sim::simd;
  return per_lane<2>(a, b, c, [](Lane x, Lane y, Lane z) { return min_of(wrap16u(x.u + y.u), z.u); });
}
inline int __viaddmax_s32(int a, int b, int c) {
  using namespace gpulab::sim::simd;
  return static_cast<int>(max_of(wrap32s(static_cast<long long>(a) + b), c));
}
inline int __viaddmax_s32_relu(int a, int b, int c) {
  using namespace gpulab::sim::simd;
  return static_cast<int>(max_of(max_of(wrap32s(static_cast<long long>(a) + b), c), 0));
}
inline unsigned __viaddmax_u32(unsigned a, unsigned b, unsigned c) {
  using namespace gpulab::sim::simd;
  return static_cast<unsigned>(max_of(wrap32u(static_cast<long long>(a) + b), c));
}
inline int __viaddmin_s32(int a, int b, int c) {
  using namespace gpulab::sim::simd;
  return static_cast<int>(min_of(wrap32s(static_cast<long long>(a) + b), c));
}
inline int __viaddmin_s32_relu(int a, int b, int c) {
  using namespace gpulab::sim::simd;
  return static_cast<int>(max_of(min_of(wrap32s(static_cast<long long>(a) + b), c), 0));
}
inline unsigned __viaddmin_u32(unsigned a, unsigned b, unsigned c) {
  using namespace gpulab::sim::simd;
  return static_cast<unsigned>(min_of(wrap32u(static_cast<long long>(a) + b), c));
}
inline unsigned __vimax_s16x2_relu(unsigned a, unsigned b) {
  using namespace gpulab::sim::simd;
  return per_lane<2>(a, b, [](Lane x, Lane y) { return max_of(max_of(x.s, y.s), 0); });
}
inline unsigned __vimin_s16x2_relu(unsigned a, unsigned b) {
  using namespace gpulab::sim::simd;
  return per_lane<2>(a, b, [](Lane x, Lane y) { return max_of(min_of(x.s, y.s), 0); });
}
inline int __vimax_s32_relu(int a, int b) { return a < b ? (b > 0 ? b : 0) : (a > 0 ? a : 0); }
inline int __vimin_s32_relu(int a, int b) {
  const int m = a < b ? a : b;
  return m > 0 ? m : 0;
}
// max/min that also say which operand won: pred = (a >= b) for max, (a <= b) for min, per lane.
inline int __vibmax_s32(int a, int b, bool* const pred) {
  *pred = a >= b;
  return a >= b ? a : b;
}
inline unsigned __vibmax_u32(unsigned a, unsigned b, bool* const pred) {
  *pred = a >= b;
  return a >= b ? a : b;
}
inline int __vibmin_s32(int a, int b, bool* const pred) {
  *pred = a <= b;
  return a <= b ? a : b;
}
inline unsigned __vibmin_u32(unsigned a, unsigned b, bool* const pred) {
  *pred = a <= b;
  return a <= b ? a : b;
}
namespace gpulab::sim::simd {
template <bool Signed, bool Max>
inline unsigned pick_halves(unsigned a, unsigned b, bool* pred_hi, bool* pred_lo) {
  unsigned r = 0;
  for (unsigned i = 0; i < 2; ++i) {
    const Lane x = Layout<2>::lane(a, i), y = Layout<2>::lane(b, i);
    const long long p = Signed ? x.s : x.u, q = Signed ? y.s : y.u;
    const bool first = Max ? p >= q : p <= q;
    *(i == 0 ? pred_lo : pred_hi) = first;
    r |= (static_cast<unsigned>(first ? p : q) & 0xffffu) << (16 * i);
  }
  return r;
}
}  // namespace gpulab::sim::simd
inline unsigned __vibmax_s16x2(unsigned a, unsigned b, bool* const pred_hi, bool* const pred_lo) {
  return gpulab::sim::simd::pick_halves<true, true>(a, b, pred_hi, pred_lo);
}
inline unsigned __vibmax_u16x2(unsigned a, unsigned b, bool* const pred_hi, bool* const pred_lo) {
  return gpulab::sim::simd::pick_halves<false, true>(a, b, pred_hi, pred_lo);
}
inline unsigned __vibmin_s16x2(unsigned a, unsigned b, bool* const pred_hi, bool* const pred_lo) {
  return gpulab::sim::simd::pick_halves<true, false>(a, b, pred_hi, pred_lo);
}
inline unsigned __vibmin_u16x2(unsigned a, unsigned b, bool* const pred_hi, bool* const pred_lo) {
  return gpulab::sim::simd::pick_halves<false, false>(a, b, pred_hi, pred_lo);
}

// ---- dot products (sm_61): four byte or two halfword products added to c, in 32 bits ------------------
namespace gpulab::sim::simd {
template <bool SignedA, bool SignedB>
inline long long dot4(unsigned a, unsigned b) {
  long long sum = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const Lane x = Layout<4>::lane(a, i), y = Layout<4>::lane(b, i);
    sum += (SignedA ? x.s : x.u) * (SignedB ? y.s : y.u);
  }
  return sum;
}
// a's two halfwords times two of b's bytes: the low pair (_lo) or the high pair (_hi).
template <bool SignedA, bool SignedB>
inline long long dot2(unsigned a, unsigned b, bool high) {
  long long sum = 0;
  for (unsigned i = 0; i < 2; ++i) {
    const Lane x = Layout<2>::lane(a, i), y = Layout<4>::lane(b, i + (high ? 2 : 0));
    sum += (SignedA ? x.s : x.u) * (SignedB ? y.s : y.u);
  }
  return sum;
}
inline unsigned bytes_of(char4 v) {
  return static_cast<unsigned char>(v.x) | static_cast<unsigned>(static_cast<unsigned char>(v.y)) << 8 |
         static_cast<unsigned>(static_cast<unsigned char>(v.z)) << 16 | static_cast<unsigned>(static_cast<unsigned char>(v.w)) << 24;
}
inline unsigned bytes_of(uchar4 v) {
  return v.x | static_cast<unsigned>(v.y) << 8 | static_cast<unsigned>(v.z) << 16 | static_cast<unsigned>(v.w) << 24;
}
inline unsigned halves_of(short2 v) { return static_cast<unsigned short>(v.x) | static_cast<unsigned>(static_cast<unsigned short>(v.y)) << 16; }
inline unsigned halves_of(ushort2 v) { return v.x | static_cast<unsigned>(v.y) << 16; }
inline int wrap(long long v, int c) { return static_cast<int>(static_cast<std::uint32_t>(v + c)); }
inline unsigned wrap(long long v, unsigned c) { return static_cast<unsigned>(static_cast<std::uint64_t>(v) + c); }
}  // namespace gpulab::sim::simd

inline int __dp4a(int srcA, int srcB, int c) {
  return gpulab::sim::simd::wrap(gpulab::sim::simd::dot4<true, true>(static_cast<unsigned>(srcA), static_cast<unsigned>(srcB)), c);
}
inline unsigned __dp4a(unsigned srcA, unsigned srcB, unsigned c) {
  return gpulab::sim::simd::wrap(gpulab::sim::simd::dot4<false, false>(srcA, srcB), c);
}
inline int __dp4a(char4 srcA, char4 srcB, int c) {
  using namespace gpulab::sim::simd;
  return wrap(dot4<true, true>(bytes_of(srcA), bytes_of(srcB)), c);
}
inline unsigned __dp4a(uchar4 srcA, uchar4 srcB, unsigned c) {
  using namespace gpulab::sim::simd;
  return wrap(dot4<false, false>(bytes_of(srcA), bytes_of(srcB)), c);
}
#define GPULAB_SIM_DP2A(name, high)                                                                         \
  inline int name(int srcA, int srcB, int c) {                                                              \
    using namespace gpulab::sim::simd;                                                                      \
    return wrap(dot2<true, true>(static_cast<unsigned>(srcA), static_cast<unsigned>(srcB), high), c);        \
  }                                                                                                         \
  inline unsigned name(unsigned srcA, unsigned srcB, unsigned c) {                                          \
    using namespace gpulab::sim::simd;                                                                      \
    return wrap(dot2<false, false>(srcA, srcB, high), c);                                                   \
  }                                                                                                         \
  inline int name(short2 srcA, char4 srcB, int c) {                                                         \
    using namespace gpulab::sim::simd;                                                                      \
    return wrap(dot2<true, true>(halves_of(srcA), bytes_of(srcB), high), c);                                \
  }                                                                                                         \
  inline unsigned name(ushort2 srcA, uchar4 srcB, unsigned c) {                                             \
    using namespace gpulab::sim::simd;                                                                      \
    return wrap(dot2<false, false>(halves_of(srcA), bytes_of(srcB), high), c);                              \
  }
GPULAB_SIM_DP2A(__dp2a_lo, false)
GPULAB_SIM_DP2A(__dp2a_hi, true)
#undef GPULAB_SIM_DP2A
