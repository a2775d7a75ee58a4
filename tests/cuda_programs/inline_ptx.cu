// Inline PTX as CUDA code writes it: integer, bit, comparison, floating-point and conversion
// instructions, 16-bit floats, predication, branches, scopes and every operand form (outputs, "+r",
// "=&r", "n" immediates, 16-, 32- and 64-bit and float registers), each
// checked against a plain C++ reference on random inputs (plus NaN, infinities, signed zeros and
// subnormals for the float instructions), over a grid whose size is no multiple of the block's.
// Memory, atomics, warp and block instructions are inline_ptx_memory.cu's.
#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

typedef unsigned long long u64;
typedef long long s64;

constexpr int kN = 1000;
constexpr int kBlock = 96;
constexpr int kIntResults = 104;
constexpr int kFloatResults = 101;

__device__ __forceinline__ unsigned lo32(u64 v) { return static_cast<unsigned>(v); }
__device__ __forceinline__ unsigned hi32(u64 v) { return static_cast<unsigned>(v >> 32); }

// ---- integer and bit instructions ----------------------------------------------------------------------------

__global__ void integerPtx(const unsigned* xs, const unsigned* ys, const unsigned* zs, unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned a = xs[i], b = ys[i], c = zs[i];
  const int sa = static_cast<int>(a), sb = static_cast<int>(b);
  const unsigned bu = b | 1u;                          // a divisor that is never 0
  const int bs = static_cast<int>(b | 1u) == -1 ? 3 : static_cast<int>(b | 1u);  // nor -1
  const u64 wa = (static_cast<u64>(a) << 32) | b, wb = (static_cast<u64>(c) << 32) | a;
  unsigned* o = out + static_cast<size_t>(i) * kIntResults;
  unsigned r, r2;
  u64 w;
  asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[0] = r;
  asm("sub.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(sb));
  o[1] = r;
  asm("mul.lo.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[2] = r;
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[3] = r;
  asm("mul.hi.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(sb));
  o[4] = r;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(w) : "r"(a), "r"(b));
  o[5] = lo32(w);
  o[6] = hi32(w);
  asm("mul.wide.s32 %0, %1, %2;" : "=l"(w) : "r"(sa), "r"(sb));
  o[7] = lo32(w);
  o[8] = hi32(w);
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[9] = r;
  asm("mad.hi.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(sa), "r"(sb), "r"(c));
  o[10] = r;
  asm("div.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(bu));
  o[11] = r;
  asm("rem.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(bs));
  o[12] = r;
  asm("div.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(bs));
  o[13] = r;
  asm("abs.s32 %0, %1;" : "=r"(r) : "r"(sa));
  o[14] = r;
  asm("neg.s32 %0, %1;" : "=r"(r) : "r"(sa));
  o[15] = r;
  asm("min.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(sb));
  o[16] = r;
  asm("max.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[17] = r;
  asm("sad.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[18] = r;
  asm("add.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(sb));
  o[19] = r;
  asm("sub.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(sb));
  o[20] = r;
  asm("mul24.lo.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[21] = r;
  asm("mul24.hi.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(sb));
  o[22] = r;
  asm("mad24.lo.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(sa), "r"(sb), "r"(c));
  o[23] = r;
  // Multi-word arithmetic through the carry flag: (a:b) + (c:a) and (a:b) - (c:a).
  asm("add.cc.u32 %0, %2, %4;\n\taddc.u32 %1, %3, %5;" : "=r"(r), "=r"(r2) : "r"(b), "r"(a), "r"(a), "r"(c));
  o[24] = r;
  o[25] = r2;
  asm("sub.cc.u32 %0, %2, %4;\n\tsubc.u32 %1, %3, %5;" : "=r"(r), "=r"(r2) : "r"(b), "r"(a), "r"(a), "r"(c));
  o[26] = r;
  o[27] = r2;
  asm("add.u64 %0, %1, %2;" : "=l"(w) : "l"(wa), "l"(wb));
  o[28] = lo32(w);
  o[29] = hi32(w);
  asm("mul.hi.u64 %0, %1, %2;" : "=l"(w) : "l"(wa), "l"(wb));
  o[30] = lo32(w);
  o[31] = hi32(w);
  asm("div.u64 %0, %1, %2;" : "=l"(w) : "l"(wa), "l"(wb | 1u));
  o[32] = lo32(w);
  o[33] = hi32(w);
  asm("rem.s64 %0, %1, %2;" : "=l"(w) : "l"(static_cast<s64>(wa)), "l"(static_cast<s64>(wb >> 3) | 1));
  o[34] = lo32(w);
  o[35] = hi32(w);
  asm("min.s64 %0, %1, %2;" : "=l"(w) : "l"(static_cast<s64>(wa)), "l"(static_cast<s64>(wb)));
  o[36] = lo32(w);
  o[37] = hi32(w);
  // The 64-bit a * b + c from 32-bit multiply-adds with carry.
  asm("mad.lo.cc.u32 %0, %2, %3, %4;\n\tmadc.hi.u32 %1, %2, %3, 0;" : "=&r"(r), "=r"(r2) : "r"(a), "r"(b), "r"(c));
  o[38] = r;
  o[39] = r2;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b % 40u), "r"(c % 40u));
  o[40] = r;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(sa), "r"(b % 40u), "r"(c % 40u));
  o[41] = r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c % 40u), "r"((c >> 8) % 40u));
  o[42] = r;
  asm("brev.b32 %0, %1;" : "=r"(r) : "r"(a));
  o[43] = r;
  asm("popc.b32 %0, %1;" : "=r"(r) : "r"(a));
  o[44] = r;
  asm("clz.b32 %0, %1;" : "=r"(r) : "r"(a >> (c & 31u)));
  o[45] = r;
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(a >> (c & 31u)));
  o[46] = r;
  asm("bfind.s32 %0, %1;" : "=r"(r) : "r"(sa >> (c & 31u)));
  o[47] = r;
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(b >> (c & 31u)));
  o[48] = r;
  asm("fns.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(c % 32u), "r"(static_cast<int>(b % 11u) - 5));
  o[49] = r;
  asm("and.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[50] = r;
  asm("or.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[51] = r;
  asm("xor.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[52] = r;
  asm("not.b32 %0, %1;" : "=r"(r) : "r"(a));
  o[53] = r;
  asm("cnot.b32 %0, %1;" : "=r"(r) : "r"(a & b & 1u));
  o[54] = r;
  asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(c % 40u));
  o[55] = r;
  asm("shr.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(c % 40u));
  o[56] = r;
  asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(c % 40u));
  o[57] = r;
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[58] = r;
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c % 64u));
  o[59] = r;
  asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c % 64u));
  o[60] = r;
  asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[61] = r;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[62] = r;
  asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[63] = r;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c), "n"(0xca));
  o[64] = r;
  asm("lop3.b32 %0, %1, %2, %3, 0x1e;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[65] = r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[66] = r;
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[67] = r;
  asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[68] = r;
  asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[69] = r;
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[70] = r;
  asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[71] = r;
  asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[72] = r;
  asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[73] = r;
  asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[74] = r;
  asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[75] = r;
  asm("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[76] = r;
  asm("dp2a.hi.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  o[77] = r;
  asm("popc.b64 %0, %1;" : "=r"(r) : "l"(wa));
  o[78] = r;
  asm("clz.b64 %0, %1;" : "=r"(r) : "l"(wa >> (c & 63u)));
  o[79] = r;
  asm("brev.b64 %0, %1;" : "=l"(w) : "l"(wa));
  o[80] = lo32(w);
  o[81] = hi32(w);
  // Sixteen comparisons of one block, one bit each, through a scratch predicate and register.
  asm("{\n\t"
      ".reg .pred p;\n\t"
      ".reg .u32 t;\n\t"
      "mov.u32 %0, 0;\n\t"
      "setp.eq.s32 p, %1, %2;  selp.u32 t, 1, 0, p;    or.b32 %0, %0, t;\n\t"
      "setp.ne.s32 p, %1, %2;  selp.u32 t, 2, 0, p;    or.b32 %0, %0, t;\n\t"
      "setp.lt.s32 p, %1, %2;  selp.u32 t, 4, 0, p;    or.b32 %0, %0, t;\n\t"
      "setp.le.s32 p, %1, %3;  selp.u32 t, 8, 0, p;    or.b32 %0, %0, t;\n\t"
      "setp.gt.s32 p, %1, %2;  selp.u32 t, 16, 0, p;   or.b32 %0, %0, t;\n\t"
      "setp.ge.s32 p, %1, %3;  selp.u32 t, 32, 0, p;   or.b32 %0, %0, t;\n\t"
      "setp.lo.u32 p, %1, %2;  selp.u32 t, 64, 0, p;   or.b32 %0, %0, t;\n\t"
      "setp.ls.u32 p, %1, %3;  selp.u32 t, 128, 0, p;  or.b32 %0, %0, t;\n\t"
      "setp.hi.u32 p, %1, %2;  selp.u32 t, 256, 0, p;  or.b32 %0, %0, t;\n\t"
      "setp.hs.u32 p, %1, %3;  selp.u32 t, 512, 0, p;  or.b32 %0, %0, t;\n\t"
      "setp.lt.u32 p, %1, %2;  selp.u32 t, 1024, 0, p; or.b32 %0, %0, t;\n\t"
      "setp.eq.b32 p, %1, %3;  selp.u32 t, 2048, 0, p; or.b32 %0, %0, t;\n\t"
      "setp.gt.u16 p, %4, %5;  selp.u32 t, 4096, 0, p; or.b32 %0, %0, t;\n\t"
      "setp.lt.s16 p, %4, %5;  selp.u32 t, 8192, 0, p; or.b32 %0, %0, t;\n\t"
      "setp.ne.s64 p, %6, %7;  selp.u32 t, 16384, 0, p; or.b32 %0, %0, t;\n\t"
      "setp.lt.u64 p, %6, %7;  selp.u32 t, 32768, 0, p; or.b32 %0, %0, t;\n\t"
      "}"
      : "=&r"(r)
      : "r"(sa), "r"(sb), "r"((c & 1u) ? sa : sb), "h"(static_cast<unsigned short>(a)),
        "h"(static_cast<unsigned short>(b)), "l"(wa), "l"(wb));
  o[82] = r;
  asm("set.lt.u32.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(sb));
  o[83] = r;
  asm("set.hs.u32.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  o[84] = r;
  // setp's combining forms and its second, complementary predicate.
  asm("{\n\t"
      ".reg .pred p, q, c;\n\t"
      "setp.ne.u32 c, %3, 0;\n\t"
      "setp.lt.and.u32 p|q, %1, %2, c;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t"
      "@q or.b32 %0, %0, 2;\n\t"
      "setp.gt.or.s32 p|q, %1, %2, !c;\n\t"
      "@p or.b32 %0, %0, 4;\n\t"
      "@q or.b32 %0, %0, 8;\n\t"
      "setp.eq.xor.u32 p, %1, %2, c;\n\t"
      "@!p or.b32 %0, %0, 16;\n\t"
      "}"
      : "=&r"(r)
      : "r"(a), "r"(b), "r"(c & 1u));
  o[85] = r;
  asm("slct.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(static_cast<int>(c)));
  o[86] = r;
  unsigned short h;
  asm("mul.lo.u16 %0, %1, %2;" : "=h"(h) : "h"(static_cast<unsigned short>(a)), "h"(static_cast<unsigned short>(b)));
  o[87] = h;
  asm("add.s16 %0, %1, %2;" : "=h"(h) : "h"(static_cast<unsigned short>(a)), "h"(static_cast<unsigned short>(c)));
  o[88] = h;
  asm("cvt.s8.s32 %0, %1;" : "=r"(r) : "r"(sa));
  o[89] = r;
  asm("cvt.sat.s8.s32 %0, %1;" : "=r"(r) : "r"(sa >> (c & 31u)));
  o[90] = r;
  asm("cvt.sat.u8.s32 %0, %1;" : "=r"(r) : "r"(sa >> (c & 31u)));
  o[91] = r;
  asm("cvt.u16.u32 %0, %1;" : "=h"(h) : "r"(a));
  o[92] = h;
  asm("cvt.s32.s16 %0, %1;" : "=r"(r) : "h"(static_cast<unsigned short>(b)));
  o[93] = r;
  asm("cvt.sat.s32.s64 %0, %1;" : "=r"(r) : "l"(static_cast<s64>(wa) >> (c & 63u)));
  o[94] = r;
  asm("cvt.sat.u32.s64 %0, %1;" : "=r"(r) : "l"(static_cast<s64>(wb) >> (c & 63u)));
  o[95] = r;
  // Predicated instructions, and a guard from an input.
  asm("{\n\t.reg .pred odd;\n\t"
      "and.b32 %0, %1, 1;\n\t"
      "setp.eq.u32 odd, %0, 1;\n\t"
      "mov.u32 %0, %2;\n\t"
      "@odd add.u32 %0, %0, %3;\n\t"
      "@!odd sub.u32 %0, %0, %3;\n\t}"
      : "=&r"(r)
      : "r"(a), "r"(b), "r"(c));
  o[96] = r;
  // A loop: the set bits of a, counted one at a time (labels made unique by %=).
  r2 = a;
  asm("{\n\t.reg .u32 v;\n\t.reg .pred more;\n\t"
      "mov.u32 %0, 0;\n\t"
      "mov.u32 v, %1;\n"
      "$L_loop%=:\n\t"
      "setp.ne.u32 more, v, 0;\n\t"
      "@!more bra $L_done%=;\n\t"
      "add.u32 %0, %0, 1;\n\t"
      "sub.u32 %1, v, 1;\n\t"
      "and.b32 v, v, %1;\n\t"
      "bra.uni $L_loop%=;\n"
      "$L_done%=:\n\t}"
      : "=&r"(r), "+r"(r2));
  o[97] = r;
  // Nested scopes: the inner x hides the outer one.
  asm("{\n\t.reg .u32 x;\n\t"
      "mov.u32 x, %1;\n\t"
      "{\n\t.reg .u32 x;\n\tmov.u32 x, %2;\n\tshl.b32 x, x, 1;\n\tmov.u32 %0, x;\n\t}\n\t"
      "add.u32 %0, %0, x;\n\t}"
      : "=r"(r)
      : "r"(a), "r"(b));
  o[98] = r;
  // In-out operands and an immediate.
  r = a;
  r2 = b;
  asm("add.u32 %0, %0, %2;\n\tmul.lo.u32 %1, %1, %1;" : "+r"(r), "+r"(r2) : "r"(c));
  o[99] = r ^ r2;
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "n"(12345));
  o[100] = r;
  asm(".reg .u32 t<3>;\n\tmov.u32 t0, %1;\n\tmov.u32 t1, %2;\n\tsub.u32 t2, t0, t1;\n\tmov.u32 %0, t2;" : "=r"(r) : "r"(a), "r"(c));
  o[101] = r;
  // Packing and unpacking with mov: a 64-bit register from two 32-bit ones, 16-bit halves of a 32-bit one.
  asm("{\n\t.reg .b32 lo, hi;\n\t.reg .b64 v;\n\t"
      "mov.b64 v, {%1, %2};\n\t"
      "shr.b64 v, v, 8;\n\t"
      "mov.b64 {lo, hi}, v;\n\t"
      "xor.b32 %0, lo, hi;\n\t}"
      : "=r"(r)
      : "r"(a), "r"(b));
  o[102] = r;
  unsigned short h0, h1;
  asm("mov.b32 {%0, %1}, %2;" : "=h"(h0), "=h"(h1) : "r"(a));
  asm("mov.b32 %0, {%1, %2};" : "=r"(r) : "h"(h1), "h"(h0));
  o[103] = r;
}

// The same operations in plain C++.
static unsigned umulhi(unsigned a, unsigned b) { return static_cast<unsigned>((static_cast<u64>(a) * b) >> 32); }
static unsigned brev32(unsigned x) {
  unsigned r = 0;
  for (int k = 0; k < 32; ++k) r |= ((x >> k) & 1u) << (31 - k);
  return r;
}
static int popcount64(u64 x) {
  int n = 0;
  for (; x != 0; x &= x - 1) ++n;
  return n;
}
static unsigned clz64(u64 x) {
  unsigned n = 0;
  for (int k = 63; k >= 0 && ((x >> k) & 1u) == 0; --k) ++n;
  return n;
}
static unsigned msb(u64 x) {
  for (int k = 63; k >= 0; --k) {
    if ((x >> k) & 1u) return static_cast<unsigned>(k);
  }
  return 0xffffffffu;
}
static unsigned bit_extract(unsigned a, unsigned pos, unsigned len, bool sign) {
  unsigned d = 0;
  const unsigned top = std::min(pos + len - 1, 31u);
  const unsigned sbit = (!sign || len == 0) ? 0 : (a >> top) & 1u;
  for (unsigned k = 0; k < 32; ++k) d |= ((k < len && pos + k <= 31) ? (a >> (pos + k)) & 1u : sbit) << k;
  return d;
}
static unsigned bit_insert(unsigned a, unsigned base, unsigned pos, unsigned len) {
  for (unsigned k = 0; k < len && pos + k < 32; ++k) base = (base & ~(1u << (pos + k))) | (((a >> k) & 1u) << (pos + k));
  return base;
}
static unsigned find_nth_set(unsigned mask, unsigned base, int offset) {
  if (offset == 0) return ((mask >> base) & 1u) ? base : 0xffffffffu;
  const int step = offset > 0 ? 1 : -1;
  int left = offset > 0 ? offset : -offset;
  for (int k = static_cast<int>(base); k >= 0 && k < 32; k += step) {
    if (((mask >> k) & 1u) && --left == 0) return static_cast<unsigned>(k);
  }
  return 0xffffffffu;
}
static unsigned funnel(unsigned lo, unsigned hi, unsigned n, bool left) {
  const u64 v = (static_cast<u64>(hi) << 32) | lo;
  return left ? static_cast<unsigned>((v << n) >> 32) : static_cast<unsigned>(v >> n);
}
static unsigned lut3(unsigned a, unsigned b, unsigned c, unsigned lut) {
  unsigned d = 0;
  for (int k = 0; k < 32; ++k) {
    const unsigned idx = (((a >> k) & 1u) << 2) | (((b >> k) & 1u) << 1) | ((c >> k) & 1u);
    d |= ((lut >> idx) & 1u) << k;
  }
  return d;
}
static unsigned byte_of(unsigned a, unsigned b, unsigned k) {
  const u64 v = (static_cast<u64>(b) << 32) | a;
  return static_cast<unsigned>((v >> (8 * (k & 7u))) & 0xffu);
}
static unsigned permute(unsigned a, unsigned b, unsigned c) {
  unsigned d = 0;
  for (unsigned n = 0; n < 4; ++n) {
    const unsigned sel = (c >> (4 * n)) & 15u;
    unsigned v = byte_of(a, b, sel);
    if (sel & 8u) v = (v & 0x80u) ? 0xffu : 0u;
    d |= v << (8 * n);
  }
  return d;
}
// PTX's table of the prmt modes: the source byte of d.b3, d.b2, d.b1, d.b0 for each value of c[1:0].
static unsigned permute_mode(unsigned a, unsigned b, unsigned c, const char* table) {
  // table: 4 groups of 4 digits, "b3b2b1b0" for c[1:0] = 0, 1, 2, 3
  const char* g = table + 5 * (c & 3u);
  unsigned d = 0;
  for (unsigned n = 0; n < 4; ++n) d |= byte_of(a, b, static_cast<unsigned>(g[3 - n] - '0')) << (8 * n);
  return d;
}
static int sx(unsigned v, int bits) {
  const unsigned m = 1u << (bits - 1);
  v &= (bits == 32 ? 0xffffffffu : ((1u << bits) - 1u));
  return static_cast<int>((v ^ m) - m);
}
static unsigned dot4(unsigned a, unsigned b, unsigned c, bool as, bool bs) {
  long long sum = (as || bs) ? static_cast<int>(c) : static_cast<long long>(c);
  for (int k = 0; k < 4; ++k) {
    const long long x = as ? sx(a >> (8 * k), 8) : static_cast<long long>((a >> (8 * k)) & 0xffu);
    const long long y = bs ? sx(b >> (8 * k), 8) : static_cast<long long>((b >> (8 * k)) & 0xffu);
    sum += x * y;
  }
  return static_cast<unsigned>(sum);
}
static unsigned dot2(unsigned a, unsigned b, unsigned c, bool hi, bool sg) {
  long long sum = sg ? static_cast<int>(c) : static_cast<long long>(c);
  for (int k = 0; k < 2; ++k) {
    const long long x = sg ? sx(a >> (16 * k), 16) : static_cast<long long>((a >> (16 * k)) & 0xffffu);
    const unsigned byte = (b >> (8 * (k + (hi ? 2 : 0)))) & 0xffu;
    const long long y = sg ? sx(byte, 8) : static_cast<long long>(byte);
    sum += x * y;
  }
  return static_cast<unsigned>(sum);
}
static int saturate32(long long v) {
  return static_cast<int>(std::min<long long>(std::max<long long>(v, -2147483648LL), 2147483647LL));
}

static void integerReference(unsigned a, unsigned b, unsigned c, unsigned* o) {
  const int sa = static_cast<int>(a), sb = static_cast<int>(b);
  const unsigned bu = b | 1u;
  const int bs = static_cast<int>(b | 1u) == -1 ? 3 : static_cast<int>(b | 1u);
  const u64 wa = (static_cast<u64>(a) << 32) | b, wb = (static_cast<u64>(c) << 32) | a;
  u64 w;
  o[0] = a + b;
  o[1] = static_cast<unsigned>(static_cast<long long>(sa) - sb);
  o[2] = a * b;
  o[3] = umulhi(a, b);
  o[4] = static_cast<unsigned>((static_cast<long long>(sa) * sb) >> 32);
  w = static_cast<u64>(a) * b;
  o[5] = static_cast<unsigned>(w);
  o[6] = static_cast<unsigned>(w >> 32);
  w = static_cast<u64>(static_cast<long long>(sa) * sb);
  o[7] = static_cast<unsigned>(w);
  o[8] = static_cast<unsigned>(w >> 32);
  o[9] = a * b + c;
  o[10] = static_cast<unsigned>((static_cast<long long>(sa) * sb) >> 32) + c;
  o[11] = a / bu;
  o[12] = static_cast<unsigned>(sa == -2147483647 - 1 && bs == -1 ? 0 : sa % bs);
  o[13] = static_cast<unsigned>(sa / bs);
  o[14] = sa < 0 ? 0u - a : a;
  o[15] = 0u - a;
  o[16] = static_cast<unsigned>(std::min(sa, sb));
  o[17] = std::max(a, b);
  o[18] = (a > b ? a - b : b - a) + c;
  o[19] = static_cast<unsigned>(saturate32(static_cast<long long>(sa) + sb));
  o[20] = static_cast<unsigned>(saturate32(static_cast<long long>(sa) - sb));
  o[21] = (a & 0xffffffu) * (b & 0xffffffu);
  o[22] = static_cast<unsigned>((static_cast<long long>(sx(a, 24)) * sx(b, 24)) >> 16);
  o[23] = static_cast<unsigned>(static_cast<long long>(sx(a, 24)) * sx(b, 24)) + c;
  const u64 x = (static_cast<u64>(a) << 32) | b, y = (static_cast<u64>(c) << 32) | a;
  o[24] = static_cast<unsigned>(x + y);
  o[25] = static_cast<unsigned>((x + y) >> 32);
  o[26] = static_cast<unsigned>(x - y);
  o[27] = static_cast<unsigned>((x - y) >> 32);
  o[28] = static_cast<unsigned>(wa + wb);
  o[29] = static_cast<unsigned>((wa + wb) >> 32);
  w = static_cast<u64>((static_cast<unsigned __int128>(wa) * wb) >> 64);
  o[30] = static_cast<unsigned>(w);
  o[31] = static_cast<unsigned>(w >> 32);
  w = wa / (wb | 1u);
  o[32] = static_cast<unsigned>(w);
  o[33] = static_cast<unsigned>(w >> 32);
  w = static_cast<u64>(static_cast<s64>(wa) % (static_cast<s64>(wb >> 3) | 1));
  o[34] = static_cast<unsigned>(w);
  o[35] = static_cast<unsigned>(w >> 32);
  w = static_cast<u64>(std::min(static_cast<s64>(wa), static_cast<s64>(wb)));
  o[36] = static_cast<unsigned>(w);
  o[37] = static_cast<unsigned>(w >> 32);
  w = static_cast<u64>(a) * b + c;
  o[38] = static_cast<unsigned>(w);
  o[39] = static_cast<unsigned>(w >> 32);
  o[40] = bit_extract(a, b % 40u, c % 40u, false);
  o[41] = bit_extract(a, b % 40u, c % 40u, true);
  o[42] = bit_insert(a, b, c % 40u, (c >> 8) % 40u);
  o[43] = brev32(a);
  o[44] = static_cast<unsigned>(popcount64(a));
  o[45] = clz64(a >> (c & 31u)) - 32;
  o[46] = msb(a >> (c & 31u));
  {
    const int v = sa >> (c & 31u);
    o[47] = msb(static_cast<unsigned>(v < 0 ? ~v : v));
  }
  {
    const unsigned m = msb(b >> (c & 31u));
    o[48] = m == 0xffffffffu ? m : 31 - m;
  }
  o[49] = find_nth_set(a, c % 32u, static_cast<int>(b % 11u) - 5);
  o[50] = a & b;
  o[51] = a | b;
  o[52] = a ^ b;
  o[53] = ~a;
  o[54] = (a & b & 1u) == 0 ? 1u : 0u;
  o[55] = c % 40u >= 32 ? 0 : a << (c % 40u);
  o[56] = c % 40u >= 32 ? 0 : a >> (c % 40u);
  o[57] = static_cast<unsigned>(c % 40u >= 32 ? (sa < 0 ? -1 : 0) : sa >> (c % 40u));
  o[58] = funnel(a, b, c & 31u, true);
  o[59] = funnel(a, b, std::min(c % 64u, 32u), false);
  o[60] = funnel(a, b, std::min(c % 64u, 32u), true);
  o[61] = funnel(a, b, c & 31u, false);
  o[62] = lut3(a, b, c, 0x96);
  o[63] = lut3(a, b, c, 0xe8);
  o[64] = lut3(a, b, c, 0xca);
  o[65] = lut3(a, b, c, 0x1e);
  o[66] = permute(a, b, c);
  o[67] = permute_mode(a, b, c, "3210 4321 5432 6543");
  o[68] = permute_mode(a, b, c, "5670 6701 7012 0123");
  o[69] = permute_mode(a, b, c, "0000 1111 2222 3333");
  o[70] = permute_mode(a, b, c, "3210 3211 3222 3333");
  o[71] = permute_mode(a, b, c, "0000 1110 2210 3210");
  o[72] = permute_mode(a, b, c, "1010 3232 1010 3232");
  o[73] = dot4(a, b, c, false, false);
  o[74] = dot4(a, b, c, true, true);
  o[75] = dot4(a, b, c, true, false);
  o[76] = dot2(a, b, c, false, true);
  o[77] = dot2(a, b, c, true, false);
  o[78] = static_cast<unsigned>(popcount64(wa));
  o[79] = clz64(wa >> (c & 63u));
  {
    u64 rv = 0;
    for (int k = 0; k < 64; ++k) rv |= ((wa >> k) & 1u) << (63 - k);
    o[80] = static_cast<unsigned>(rv);
    o[81] = static_cast<unsigned>(rv >> 32);
  }
  {
    const int sc = (c & 1u) ? sa : sb;
    const unsigned uc = static_cast<unsigned>(sc);
    const unsigned short ha = static_cast<unsigned short>(a), hb = static_cast<unsigned short>(b);
    unsigned m = 0;
    m |= (sa == sb) ? 1u : 0u;
    m |= (sa != sb) ? 2u : 0u;
    m |= (sa < sb) ? 4u : 0u;
    m |= (sa <= sc) ? 8u : 0u;
    m |= (sa > sb) ? 16u : 0u;
    m |= (sa >= sc) ? 32u : 0u;
    m |= (a < b) ? 64u : 0u;
    m |= (a <= uc) ? 128u : 0u;
    m |= (a > b) ? 256u : 0u;
    m |= (a >= uc) ? 512u : 0u;
    m |= (a < b) ? 1024u : 0u;
    m |= (a == uc) ? 2048u : 0u;
    m |= (ha > hb) ? 4096u : 0u;
    m |= (static_cast<short>(ha) < static_cast<short>(hb)) ? 8192u : 0u;
    m |= (wa != wb) ? 16384u : 0u;
    m |= (wa < wb) ? 32768u : 0u;
    o[82] = m;
  }
  o[83] = sa < sb ? 0xffffffffu : 0u;
  o[84] = a >= b ? 0xffffffffu : 0u;
  {
    const bool cp = (c & 1u) != 0;
    const bool lt = a < b;
    unsigned m = (lt && cp) ? 1u : 0u;
    m |= (!lt && cp) ? 2u : 0u;
    const bool gt = sa > sb;
    m |= (gt || !cp) ? 4u : 0u;
    m |= (!gt || !cp) ? 8u : 0u;
    m |= ((a == b) != cp) ? 0u : 16u;
    o[85] = m;
  }
  o[86] = static_cast<int>(c) >= 0 ? a : b;
  o[87] = static_cast<unsigned short>(a * b);
  o[88] = static_cast<unsigned short>(a + c);
  o[89] = static_cast<unsigned>(static_cast<int>(static_cast<signed char>(a)));
  {
    const int v = sa >> (c & 31u);
    o[90] = static_cast<unsigned>(std::min(std::max(v, -128), 127));
    o[91] = static_cast<unsigned>(std::min(std::max(v, 0), 255));
  }
  o[92] = a & 0xffffu;
  o[93] = static_cast<unsigned>(static_cast<int>(static_cast<short>(b)));
  {
    const s64 v = static_cast<s64>(wa) >> (c & 63u);
    o[94] = static_cast<unsigned>(static_cast<int>(std::min<s64>(std::max<s64>(v, -2147483648LL), 2147483647LL)));
    const s64 v2 = static_cast<s64>(wb) >> (c & 63u);
    o[95] = static_cast<unsigned>(std::min<s64>(std::max<s64>(v2, 0), 4294967295LL));
  }
  o[96] = (a & 1u) ? b + c : b - c;
  o[97] = static_cast<unsigned>(popcount64(a));
  o[98] = a + (b << 1);
  o[99] = (a + c) ^ (b * b);
  o[100] = a * b + 12345u;
  o[101] = a - c;
  {
    const u64 v = ((static_cast<u64>(b) << 32) | a) >> 8;
    o[102] = static_cast<unsigned>(v) ^ static_cast<unsigned>(v >> 32);
  }
  o[103] = (a >> 16) | (a << 16);
}

// ---- floating point and conversions -------------------------------------------------------------------------

struct FloatIn {
  float x, y, z;         // any values, specials included
  float px, py;          // positive, well scaled: for the approximate functions
  double dx, dy, dz;     // doubles, specials included
  int si;                // an integer
  unsigned ui;
  long long sl;
  unsigned long long ul;
  unsigned short h0, h1, h2;    // binary16 values in +-[1/16, 8]
  unsigned short b0, b1, b2;    // bfloat16 values in +-[1/16, 8]
};

__device__ __forceinline__ unsigned fbits(float f) { return __float_as_uint(f); }
// A double's words, any NaN read as one: a GPU's NaN payloads are not the host's.
__host__ __device__ __forceinline__ unsigned high_word(double d) {
  unsigned long long u;
  memcpy(&u, &d, 8);
  return d != d ? 0x7ff80000u : static_cast<unsigned>(u >> 32);
}
__host__ __device__ __forceinline__ unsigned low_word(double d) {
  unsigned long long u;
  memcpy(&u, &d, 8);
  return d != d ? 0u : static_cast<unsigned>(u);
}

__global__ void floatPtx(const FloatIn* in, unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const FloatIn v = in[i];
  const float x = v.x, y = v.y, z = v.z;
  const double dx = v.dx, dy = v.dy, dz = v.dz;
  unsigned* o = out + static_cast<size_t>(i) * kFloatResults;
  float f;
  double d;
  unsigned r;
  unsigned short h;
  asm("add.rn.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[0] = fbits(f);
  asm("add.rz.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[1] = fbits(f);
  asm("add.rm.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[2] = fbits(f);
  asm("add.rp.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[3] = fbits(f);
  asm("sub.rn.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[4] = fbits(f);
  asm("mul.rn.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[5] = fbits(f);
  asm("mul.rz.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[6] = fbits(f);
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(f) : "f"(x), "f"(y), "f"(z));
  o[7] = fbits(f);
  asm("fma.rz.f32 %0, %1, %2, %3;" : "=f"(f) : "f"(x), "f"(y), "f"(z));
  o[8] = fbits(f);
  asm("div.rn.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[9] = fbits(f);
  asm("div.rp.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[10] = fbits(f);
  asm("sqrt.rn.f32 %0, %1;" : "=f"(f) : "f"(fabsf(x)));
  o[11] = fbits(f);
  asm("rcp.rn.f32 %0, %1;" : "=f"(f) : "f"(x));
  o[12] = fbits(f);
  asm("min.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[13] = fbits(f);
  asm("max.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[14] = fbits(f);
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[15] = fbits(f);
  asm("abs.f32 %0, %1;" : "=f"(f) : "f"(x));
  o[16] = fbits(f);
  asm("neg.f32 %0, %1;" : "=f"(f) : "f"(x));
  o[17] = fbits(f);
  asm("add.ftz.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[18] = fbits(f);
  asm("mul.sat.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[19] = fbits(f);
  asm("add.f32 %0, %1, %2;" : "=f"(f) : "f"(y), "f"(z));
  o[20] = fbits(f);
  asm("mad.rn.f32 %0, %1, %2, %3;" : "=f"(f) : "f"(z), "f"(y), "f"(x));
  o[21] = fbits(f);
  asm("copysign.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[22] = fbits(f);
  asm("{\n\t.reg .pred p;\n\t.reg .u32 t;\n\t"
      "mov.u32 %0, 0;\n\t"
      "testp.finite.f32 p, %1;     selp.u32 t, 1, 0, p;  or.b32 %0, %0, t;\n\t"
      "testp.infinite.f32 p, %1;   selp.u32 t, 2, 0, p;  or.b32 %0, %0, t;\n\t"
      "testp.number.f32 p, %1;     selp.u32 t, 4, 0, p;  or.b32 %0, %0, t;\n\t"
      "testp.notanumber.f32 p, %1; selp.u32 t, 8, 0, p;  or.b32 %0, %0, t;\n\t"
      "testp.normal.f32 p, %1;     selp.u32 t, 16, 0, p; or.b32 %0, %0, t;\n\t"
      "testp.subnormal.f32 p, %1;  selp.u32 t, 32, 0, p; or.b32 %0, %0, t;\n\t}"
      : "=&r"(r)
      : "f"(x));
  o[23] = r;
  asm("{\n\t.reg .pred p;\n\t.reg .u32 t;\n\t"
      "mov.u32 %0, 0;\n\t"
      "setp.eq.f32 p, %1, %2;  selp.u32 t, 1, 0, p;     or.b32 %0, %0, t;\n\t"
      "setp.ne.f32 p, %1, %2;  selp.u32 t, 2, 0, p;     or.b32 %0, %0, t;\n\t"
      "setp.lt.f32 p, %1, %2;  selp.u32 t, 4, 0, p;     or.b32 %0, %0, t;\n\t"
      "setp.le.f32 p, %1, %2;  selp.u32 t, 8, 0, p;     or.b32 %0, %0, t;\n\t"
      "setp.gt.f32 p, %1, %2;  selp.u32 t, 16, 0, p;    or.b32 %0, %0, t;\n\t"
      "setp.ge.f32 p, %1, %2;  selp.u32 t, 32, 0, p;    or.b32 %0, %0, t;\n\t"
      "setp.equ.f32 p, %1, %2; selp.u32 t, 64, 0, p;    or.b32 %0, %0, t;\n\t"
      "setp.neu.f32 p, %1, %2; selp.u32 t, 128, 0, p;   or.b32 %0, %0, t;\n\t"
      "setp.ltu.f32 p, %1, %2; selp.u32 t, 256, 0, p;   or.b32 %0, %0, t;\n\t"
      "setp.leu.f32 p, %1, %2; selp.u32 t, 512, 0, p;   or.b32 %0, %0, t;\n\t"
      "setp.gtu.f32 p, %1, %2; selp.u32 t, 1024, 0, p;  or.b32 %0, %0, t;\n\t"
      "setp.geu.f32 p, %1, %2; selp.u32 t, 2048, 0, p;  or.b32 %0, %0, t;\n\t"
      "setp.num.f32 p, %1, %2; selp.u32 t, 4096, 0, p;  or.b32 %0, %0, t;\n\t"
      "setp.nan.f32 p, %1, %2; selp.u32 t, 8192, 0, p;  or.b32 %0, %0, t;\n\t"
      "setp.lt.f64 p, %3, %4;  selp.u32 t, 16384, 0, p; or.b32 %0, %0, t;\n\t"
      "setp.geu.f64 p, %3, %4; selp.u32 t, 32768, 0, p; or.b32 %0, %0, t;\n\t}"
      : "=&r"(r)
      : "f"(x), "f"(y), "d"(dx), "d"(dy));
  o[24] = r;
  asm("set.gt.f32.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y));
  o[25] = fbits(f);
  asm("{\n\t.reg .pred p;\n\tsetp.lt.f32 p, %1, %2;\n\tselp.f32 %0, %1, %3, p;\n\t}" : "=f"(f) : "f"(x), "f"(y), "f"(z));
  o[26] = fbits(f);
  asm("slct.f32.f32 %0, %1, %2, %3;" : "=f"(f) : "f"(x), "f"(y), "f"(z));
  o[27] = fbits(f);
  const float px = v.px, py = v.py;
  asm("rcp.approx.f32 %0, %1;" : "=f"(f) : "f"(px));
  o[28] = fbits(f);
  asm("sqrt.approx.f32 %0, %1;" : "=f"(f) : "f"(px));
  o[29] = fbits(f);
  asm("rsqrt.approx.f32 %0, %1;" : "=f"(f) : "f"(px));
  o[30] = fbits(f);
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(f) : "f"(py));
  o[31] = fbits(f);
  asm("lg2.approx.f32 %0, %1;" : "=f"(f) : "f"(px));
  o[32] = fbits(f);
  asm("sin.approx.f32 %0, %1;" : "=f"(f) : "f"(py));
  o[33] = fbits(f);
  asm("cos.approx.f32 %0, %1;" : "=f"(f) : "f"(py));
  o[34] = fbits(f);
  asm("tanh.approx.f32 %0, %1;" : "=f"(f) : "f"(py));
  o[35] = fbits(f);
  asm("div.approx.f32 %0, %1, %2;" : "=f"(f) : "f"(py), "f"(px));
  o[36] = fbits(f);
  asm("div.full.f32 %0, %1, %2;" : "=f"(f) : "f"(py), "f"(px));
  o[37] = fbits(f);
  asm("add.rn.f64 %0, %1, %2;" : "=d"(d) : "d"(dx), "d"(dy));
  o[38] = high_word(d);
  asm("add.rz.f64 %0, %1, %2;" : "=d"(d) : "d"(dx), "d"(dy));
  o[39] = low_word(d);
  asm("mul.rm.f64 %0, %1, %2;" : "=d"(d) : "d"(dx), "d"(dy));
  o[40] = low_word(d);
  asm("fma.rn.f64 %0, %1, %2, %3;" : "=d"(d) : "d"(dx), "d"(dy), "d"(dz));
  o[41] = low_word(d);
  asm("div.rn.f64 %0, %1, %2;" : "=d"(d) : "d"(dx), "d"(dy));
  o[42] = low_word(d);
  asm("sqrt.rn.f64 %0, %1;" : "=d"(d) : "d"(fabs(dx)));
  o[43] = low_word(d);
  asm("rcp.rn.f64 %0, %1;" : "=d"(d) : "d"(dx));
  o[44] = low_word(d);
  asm("min.f64 %0, %1, %2;" : "=d"(d) : "d"(dx), "d"(dy));
  o[45] = high_word(d);
  asm("max.f64 %0, %1, %2;" : "=d"(d) : "d"(dx), "d"(dy));
  o[46] = high_word(d);
  asm("neg.f64 %0, %1;" : "=d"(d) : "d"(dx));
  o[47] = high_word(d);
  asm("abs.f64 %0, %1;" : "=d"(d) : "d"(dx));
  o[48] = high_word(d);
  asm("sub.rp.f64 %0, %1, %2;" : "=d"(d) : "d"(dx), "d"(dz));
  o[49] = low_word(d);
  asm("add.rm.f64 %0, %1, %2;" : "=d"(d) : "d"(dy), "d"(dz));
  o[50] = low_word(d);
  int si;
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(si) : "f"(x));
  o[51] = static_cast<unsigned>(si);
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(si) : "f"(x));
  o[52] = static_cast<unsigned>(si);
  asm("cvt.rmi.s32.f32 %0, %1;" : "=r"(si) : "f"(x));
  o[53] = static_cast<unsigned>(si);
  asm("cvt.rpi.u32.f32 %0, %1;" : "=r"(r) : "f"(x));
  o[54] = r;
  long long sl;
  unsigned long long ul;
  asm("cvt.rni.s64.f64 %0, %1;" : "=l"(sl) : "d"(dx));
  o[55] = static_cast<unsigned>(sl >> 16);
  asm("cvt.rzi.u64.f64 %0, %1;" : "=l"(ul) : "d"(dx));
  o[56] = static_cast<unsigned>(ul >> 20);
  asm("cvt.rn.f32.s32 %0, %1;" : "=f"(f) : "r"(v.si));
  o[57] = fbits(f);
  asm("cvt.rz.f32.u32 %0, %1;" : "=f"(f) : "r"(v.ui));
  o[58] = fbits(f);
  asm("cvt.rm.f32.s64 %0, %1;" : "=f"(f) : "l"(v.sl));
  o[59] = fbits(f);
  asm("cvt.rp.f32.u64 %0, %1;" : "=f"(f) : "l"(v.ul));
  o[60] = fbits(f);
  asm("cvt.rn.f32.f64 %0, %1;" : "=f"(f) : "d"(dx));
  o[61] = fbits(f);
  asm("cvt.rz.f32.f64 %0, %1;" : "=f"(f) : "d"(dx));
  o[62] = fbits(f);
  asm("cvt.rm.f32.f64 %0, %1;" : "=f"(f) : "d"(dy));
  o[63] = fbits(f);
  asm("cvt.rp.f32.f64 %0, %1;" : "=f"(f) : "d"(dy));
  o[64] = fbits(f);
  asm("cvt.f64.f32 %0, %1;" : "=d"(d) : "f"(x));
  o[65] = low_word(d);
  o[66] = high_word(d);
  asm("cvt.rn.f64.s64 %0, %1;" : "=d"(d) : "l"(v.sl));
  o[67] = low_word(d);
  o[68] = high_word(d);
  asm("cvt.rni.f32.f32 %0, %1;" : "=f"(f) : "f"(x));
  o[69] = fbits(f);
  asm("cvt.rzi.f32.f32 %0, %1;" : "=f"(f) : "f"(x));
  o[70] = fbits(f);
  asm("cvt.rmi.f32.f32 %0, %1;" : "=f"(f) : "f"(x));
  o[71] = fbits(f);
  asm("cvt.rpi.f32.f32 %0, %1;" : "=f"(f) : "f"(x));
  o[72] = fbits(f);
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
  o[73] = h;
  asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
  o[74] = h;
  asm("cvt.rm.f16.f32 %0, %1;" : "=h"(h) : "f"(y));
  o[75] = h;
  asm("cvt.rp.f16.f32 %0, %1;" : "=h"(h) : "f"(y));
  o[76] = h;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v.h0));
  o[77] = fbits(f);
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(x), "f"(y));
  o[78] = r;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(x));
  o[79] = h;
  asm("cvt.rz.bf16.f32 %0, %1;" : "=h"(h) : "f"(y));
  o[80] = h;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(z), "f"(x));
  o[81] = r;
  asm("cvt.f32.bf16 %0, %1;" : "=f"(f) : "h"(v.b0));
  o[82] = fbits(f);
  asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(dz));
  o[83] = h;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  o[84] = r;
  asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(y), "f"(z));
  o[85] = r;
  asm("cvt.sat.f32.f32 %0, %1;" : "=f"(f) : "f"(z));
  o[86] = fbits(f);
  // 16-bit floats in 'h' registers, pairs in 'r' registers.
  const unsigned h01 = (static_cast<unsigned>(v.h1) << 16) | v.h0, h12 = (static_cast<unsigned>(v.h2) << 16) | v.h1;
  const unsigned b01 = (static_cast<unsigned>(v.b1) << 16) | v.b0, b12 = (static_cast<unsigned>(v.b2) << 16) | v.b1;
  asm("add.f16 %0, %1, %2;" : "=h"(h) : "h"(v.h0), "h"(v.h1));
  o[87] = h;
  asm("sub.f16x2 %0, %1, %2;" : "=r"(r) : "r"(h01), "r"(h12));
  o[88] = r;
  asm("mul.f16 %0, %1, %2;" : "=h"(h) : "h"(v.h0), "h"(v.h2));
  o[89] = h;
  asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(h) : "h"(v.h0), "h"(v.h1), "h"(v.h2));
  o[90] = h;
  asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(h01), "r"(h12), "r"(h01));
  o[91] = r;
  asm("min.f16 %0, %1, %2;" : "=h"(h) : "h"(v.h0), "h"(v.h1));
  o[92] = h;
  asm("max.f16x2 %0, %1, %2;" : "=r"(r) : "r"(h01), "r"(h12));
  o[93] = r;
  asm("add.bf16 %0, %1, %2;" : "=h"(h) : "h"(v.b0), "h"(v.b1));
  o[94] = h;
  asm("mul.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(b01), "r"(b12));
  o[95] = r;
  asm("fma.rn.bf16 %0, %1, %2, %3;" : "=h"(h) : "h"(v.b0), "h"(v.b1), "h"(v.b2));
  o[96] = h;
  asm("neg.f16 %0, %1;" : "=h"(h) : "h"(v.h0));
  o[97] = h;
  asm("abs.bf16 %0, %1;" : "=h"(h) : "h"(v.b1));
  o[98] = h;
  asm("add.sat.f16 %0, %1, %2;" : "=h"(h) : "h"(v.h0), "h"(v.h2));
  o[99] = h;
  asm("fma.rn.relu.f16 %0, %1, %2, %3;" : "=h"(h) : "h"(v.h0), "h"(v.h1), "h"(v.h2));
  o[100] = h;
}

// ---- references for the float instructions -----------------------------------------------------------------

static unsigned bits(float f) {
  unsigned u;
  std::memcpy(&u, &f, 4);
  return u;
}
static float from_bits(unsigned u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// f32 and f64 operations in a rounding mode, by the host's FPU switched to it.
template <class T, class F>
static T in_mode(int mode, F op) {
  const int old = std::fegetround();
  std::fesetround(mode);
  volatile T r = op();
  std::fesetround(old);
  return r;
}
static float add_m(float a, float b, int m) {
  return in_mode<float>(m, [&] {
    volatile float x = a, y = b;
    return x + y;
  });
}
static float mul_m(float a, float b, int m) {
  return in_mode<float>(m, [&] {
    volatile float x = a, y = b;
    return x * y;
  });
}
static float div_m(float a, float b, int m) {
  return in_mode<float>(m, [&] {
    volatile float x = a, y = b;
    return x / y;
  });
}
static float fma_m(float a, float b, float c, int m) {
  return in_mode<float>(m, [&] {
    volatile float x = a, y = b, z = c;
    return std::fmaf(x, y, z);
  });
}
static double add_md(double a, double b, int m) {
  return in_mode<double>(m, [&] {
    volatile double x = a, y = b;
    return x + y;
  });
}
static double mul_md(double a, double b, int m) {
  return in_mode<double>(m, [&] {
    volatile double x = a, y = b;
    return x * y;
  });
}
static float narrow_m(double a, int m) {
  return in_mode<float>(m, [&] {
    volatile double x = a;
    return static_cast<float>(x);
  });
}
template <class I>
static float int_to_float_m(I v, int m) {
  return in_mode<float>(m, [&] {
    volatile I x = v;
    return static_cast<float>(x);
  });
}
static float flushed(float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; }
// PTX's min and max: a NaN operand gives the other; -0 is below +0.
static float fmin_ptx(float a, float b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
static float fmax_ptx(float a, float b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
static double dmin_ptx(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
static double dmax_ptx(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
// Float to integer, PTX's way: NaN is 0, out-of-range values saturate.
template <class I>
static I to_int(double v, double (*round)(double)) {
  if (std::isnan(v)) return 0;
  const double r = round(v);
  if (r <= static_cast<double>(std::numeric_limits<I>::lowest())) return std::numeric_limits<I>::lowest();
  if (r >= std::ldexp(1.0, std::numeric_limits<I>::digits)) return std::numeric_limits<I>::max();
  return static_cast<I>(r);
}
static double nearest_even(double v) { return std::nearbyint(v); }
static double toward_zero(double v) { return std::trunc(v); }
static double down(double v) { return std::floor(v); }
static double up(double v) { return std::ceil(v); }

// 16-bit floats by a table of every finite value of the format: a value rounds to one of its two
// neighbours in the table, chosen by the rounding mode.
struct SmallFormat {
  int exponent_bits, fraction_bits;
  std::vector<double> magnitudes;  // every finite non-negative value, ascending; index = its bits
  double decode(unsigned short b) const {
    const int e = (b >> fraction_bits) & ((1 << exponent_bits) - 1);
    const unsigned frac = b & ((1u << fraction_bits) - 1);
    const int bias = (1 << (exponent_bits - 1)) - 1;
    double m;
    if (e == (1 << exponent_bits) - 1) {
      m = frac != 0 ? NAN : INFINITY;
    } else if (e == 0) {
      m = std::ldexp(static_cast<double>(frac), 1 - bias - fraction_bits);
    } else {
      m = std::ldexp(static_cast<double>(frac | (1u << fraction_bits)), e - bias - fraction_bits);
    }
    return (b & 0x8000) ? -m : m;
  }
  SmallFormat(int e, int f) : exponent_bits(e), fraction_bits(f) {
    const unsigned infinity = ((1u << e) - 1) << f;
    for (unsigned b = 0; b < infinity; ++b) magnitudes.push_back(decode(static_cast<unsigned short>(b)));
  }
  // mode: 0 nearest even, 1 toward zero, 2 down, 3 up
  unsigned short round(double v, int mode) const {
    if (std::isnan(v)) return 0x7fff;
    const unsigned short sign = std::signbit(v) ? 0x8000 : 0;
    const double m = std::fabs(v);
    const unsigned short infinity = static_cast<unsigned short>(((1u << exponent_bits) - 1) << fraction_bits);
    if (std::isinf(m)) return sign | infinity;
    const std::size_t hi = static_cast<std::size_t>(std::lower_bound(magnitudes.begin(), magnitudes.end(), m) - magnitudes.begin());
    if (hi < magnitudes.size() && magnitudes[hi] == m) return static_cast<unsigned short>(sign | hi);
    const std::size_t lo = hi - 1;  // m > 0 here, and magnitudes[0] == 0
    const bool away_is_up = sign == 0;
    const bool to_lo = mode == 1 || (mode == 2 && away_is_up) || (mode == 3 && !away_is_up);
    if (mode == 0) {
      const double upper = hi < magnitudes.size() ? magnitudes[hi] : 2 * magnitudes.back() - magnitudes[magnitudes.size() - 2];
      const double mid = (magnitudes[lo] + upper) / 2;
      const bool lower = m < mid || (m == mid && (lo & 1) == 0);
      if (lower) return static_cast<unsigned short>(sign | lo);
      return static_cast<unsigned short>(sign | (hi < magnitudes.size() ? hi : infinity));
    }
    if (to_lo) return static_cast<unsigned short>(sign | lo);
    return static_cast<unsigned short>(sign | (hi < magnitudes.size() ? hi : infinity));
  }
};

static void floatReference(const FloatIn& v, const SmallFormat& half, const SmallFormat& bf16, unsigned* o) {
  const float x = v.x, y = v.y, z = v.z;
  const double dx = v.dx, dy = v.dy, dz = v.dz;
  o[0] = bits(add_m(x, y, FE_TONEAREST));
  o[1] = bits(add_m(x, y, FE_TOWARDZERO));
  o[2] = bits(add_m(x, y, FE_DOWNWARD));
  o[3] = bits(add_m(x, y, FE_UPWARD));
  o[4] = bits(add_m(x, -y, FE_TONEAREST));
  o[5] = bits(mul_m(x, y, FE_TONEAREST));
  o[6] = bits(mul_m(x, y, FE_TOWARDZERO));
  o[7] = bits(fma_m(x, y, z, FE_TONEAREST));
  o[8] = bits(fma_m(x, y, z, FE_TOWARDZERO));
  o[9] = bits(div_m(x, y, FE_TONEAREST));
  o[10] = bits(div_m(x, y, FE_UPWARD));
  o[11] = bits(std::sqrt(std::fabs(x)));
  o[12] = bits(div_m(1.0f, x, FE_TONEAREST));
  o[13] = bits(fmin_ptx(x, y));
  o[14] = bits(fmax_ptx(x, y));
  o[15] = std::isnan(x) || std::isnan(y) ? 0x7fffffffu : bits(fmin_ptx(x, y));
  o[16] = bits(x) & 0x7fffffffu;
  o[17] = bits(x) ^ 0x80000000u;
  o[18] = bits(flushed(flushed(x) + flushed(y)));
  {
    const float p = x * y;
    o[19] = bits(std::isnan(p) ? 0.0f : std::fmin(std::fmax(p, 0.0f), 1.0f));
  }
  o[20] = bits(y + z);
  o[21] = bits(std::fmaf(z, y, x));
  o[22] = bits(std::copysign(y, x));
  {
    const int c = std::fpclassify(x);
    unsigned m = 0;
    m |= std::isfinite(x) ? 1u : 0u;
    m |= std::isinf(x) ? 2u : 0u;
    m |= !std::isnan(x) ? 4u : 0u;
    m |= std::isnan(x) ? 8u : 0u;
    m |= c == FP_NORMAL ? 16u : 0u;
    m |= c == FP_SUBNORMAL ? 32u : 0u;
    o[23] = m;
  }
  {
    const bool u = std::isnan(x) || std::isnan(y);
    unsigned m = 0;
    m |= (!u && x == y) ? 1u : 0u;
    m |= (!u && x != y) ? 2u : 0u;
    m |= (!u && x < y) ? 4u : 0u;
    m |= (!u && x <= y) ? 8u : 0u;
    m |= (!u && x > y) ? 16u : 0u;
    m |= (!u && x >= y) ? 32u : 0u;
    m |= (u || x == y) ? 64u : 0u;
    m |= (u || x != y) ? 128u : 0u;
    m |= (u || x < y) ? 256u : 0u;
    m |= (u || x <= y) ? 512u : 0u;
    m |= (u || x > y) ? 1024u : 0u;
    m |= (u || x >= y) ? 2048u : 0u;
    m |= !u ? 4096u : 0u;
    m |= u ? 8192u : 0u;
    const bool du = std::isnan(dx) || std::isnan(dy);
    m |= (!du && dx < dy) ? 16384u : 0u;
    m |= (du || dx >= dy) ? 32768u : 0u;
    o[24] = m;
  }
  o[25] = (!std::isnan(x) && !std::isnan(y) && x > y) ? bits(1.0f) : 0u;
  o[26] = bits((!std::isnan(x) && !std::isnan(y) && x < y) ? x : z);
  o[27] = bits(z >= 0.0f ? x : y);
  const double px = v.px, py = v.py;
  o[28] = bits(static_cast<float>(1.0 / px));
  o[29] = bits(static_cast<float>(std::sqrt(px)));
  o[30] = bits(static_cast<float>(1.0 / std::sqrt(px)));
  o[31] = bits(static_cast<float>(std::exp2(py)));
  o[32] = bits(static_cast<float>(std::log2(px)));
  o[33] = bits(static_cast<float>(std::sin(py)));
  o[34] = bits(static_cast<float>(std::cos(py)));
  o[35] = bits(static_cast<float>(std::tanh(py)));
  o[36] = bits(static_cast<float>(py / px));
  o[37] = bits(static_cast<float>(py / px));
  o[38] = high_word(dx + dy);
  o[39] = low_word(add_md(dx, dy, FE_TOWARDZERO));
  o[40] = low_word(mul_md(dx, dy, FE_DOWNWARD));
  o[41] = low_word(std::fma(dx, dy, dz));
  o[42] = low_word(dx / dy);
  o[43] = low_word(std::sqrt(std::fabs(dx)));
  o[44] = low_word(1.0 / dx);
  o[45] = high_word(dmin_ptx(dx, dy));
  o[46] = high_word(dmax_ptx(dx, dy));
  o[47] = high_word(-dx);
  o[48] = high_word(std::fabs(dx));
  o[49] = low_word(add_md(dx, -dz, FE_UPWARD));
  o[50] = low_word(add_md(dy, dz, FE_DOWNWARD));
  o[51] = static_cast<unsigned>(to_int<int>(x, nearest_even));
  o[52] = static_cast<unsigned>(to_int<int>(x, toward_zero));
  o[53] = static_cast<unsigned>(to_int<int>(x, down));
  o[54] = to_int<unsigned>(x, up);
  o[55] = static_cast<unsigned>(to_int<long long>(dx, nearest_even) >> 16);
  o[56] = static_cast<unsigned>(to_int<unsigned long long>(dx, toward_zero) >> 20);
  o[57] = bits(int_to_float_m(v.si, FE_TONEAREST));
  o[58] = bits(int_to_float_m(v.ui, FE_TOWARDZERO));
  o[59] = bits(int_to_float_m(v.sl, FE_DOWNWARD));
  o[60] = bits(int_to_float_m(v.ul, FE_UPWARD));
  o[61] = bits(narrow_m(dx, FE_TONEAREST));
  o[62] = bits(narrow_m(dx, FE_TOWARDZERO));
  o[63] = bits(narrow_m(dy, FE_DOWNWARD));
  o[64] = bits(narrow_m(dy, FE_UPWARD));
  o[65] = low_word(static_cast<double>(x));
  o[66] = high_word(static_cast<double>(x));
  o[67] = low_word(static_cast<double>(v.sl));
  o[68] = high_word(static_cast<double>(v.sl));
  o[69] = bits(std::nearbyint(x));
  o[70] = bits(std::trunc(x));
  o[71] = bits(std::floor(x));
  o[72] = bits(std::ceil(x));
  o[73] = half.round(x, 0);
  o[74] = half.round(x, 1);
  o[75] = half.round(y, 2);
  o[76] = half.round(y, 3);
  o[77] = bits(static_cast<float>(half.decode(v.h0)));
  o[78] = (static_cast<unsigned>(half.round(x, 0)) << 16) | half.round(y, 0);
  o[79] = bf16.round(x, 0);
  o[80] = bf16.round(y, 1);
  o[81] = (static_cast<unsigned>(bf16.round(z, 0)) << 16) | bf16.round(x, 0);
  o[82] = bits(static_cast<float>(bf16.decode(v.b0)));
  o[83] = half.round(dz, 0);
  {
    unsigned b = bits(x);
    if (std::isnan(x)) {
      b = 0x7fffffffu;
    } else if (!std::isinf(x)) {
      b = (b + 0x1000u) & 0xffffe000u;
    }
    o[84] = b;
  }
  {
    const auto relu = [&](float f) -> unsigned {
      const unsigned short hb = half.round(f, 0);
      return std::isnan(f) ? 0x7fffu : ((hb & 0x8000) ? 0u : hb);
    };
    o[85] = (relu(y) << 16) | relu(z);
  }
  o[86] = bits(std::isnan(z) ? 0.0f : std::fmin(std::fmax(z, 0.0f), 1.0f));
  const double h0 = half.decode(v.h0), h1 = half.decode(v.h1), h2 = half.decode(v.h2);
  const double g0 = bf16.decode(v.b0), g1 = bf16.decode(v.b1), g2 = bf16.decode(v.b2);
  const auto hmin = [](double a, double b) { return a == b ? (std::signbit(a) ? a : b) : (a < b ? a : b); };
  const auto hmax = [](double a, double b) { return a == b ? (std::signbit(a) ? b : a) : (a > b ? a : b); };
  o[87] = half.round(h0 + h1, 0);
  o[88] = (static_cast<unsigned>(half.round(h1 - h2, 0)) << 16) | half.round(h0 - h1, 0);
  o[89] = half.round(h0 * h2, 0);
  o[90] = half.round(h0 * h1 + h2, 0);
  o[91] = (static_cast<unsigned>(half.round(h1 * h2 + h1, 0)) << 16) | half.round(h0 * h1 + h0, 0);
  o[92] = half.round(hmin(h0, h1), 0);
  o[93] = (static_cast<unsigned>(half.round(hmax(h1, h2), 0)) << 16) | half.round(hmax(h0, h1), 0);
  o[94] = bf16.round(g0 + g1, 0);
  o[95] = (static_cast<unsigned>(bf16.round(g1 * g2, 0)) << 16) | bf16.round(g0 * g1, 0);
  o[96] = bf16.round(g0 * g1 + g2, 0);
  o[97] = v.h0 ^ 0x8000u;
  o[98] = v.b1 & 0x7fffu;
  {
    const double s = h0 + h2;
    o[99] = s <= 0 ? 0u : (s >= 1 ? 0x3c00u : half.round(s, 0));
  }
  {
    const unsigned short f16 = half.round(h0 * h1 + h2, 0);
    o[100] = (f16 & 0x8000) ? 0u : f16;
  }
}

// How each float result is compared: bit for bit, except that a NaN matches any NaN of its format
// (a GPU's NaN payloads need not be the host's) and the approximate functions match within the
// GPU's error bounds.
enum class Kind { exact, f32, approx, f16, bf16, f16x2, bf16x2 };
static Kind float_result_kind(int k) {
  if (k >= 28 && k <= 37) return Kind::approx;
  if (k <= 27 || (k >= 57 && k <= 64) || (k >= 69 && k <= 72) || k == 77 || k == 82 || k == 86) return Kind::f32;
  switch (k) {
    case 73: case 74: case 75: case 76: case 83: case 87: case 89: case 90: case 92: case 97: case 99: case 100:
      return Kind::f16;
    case 79: case 80: case 94: case 96: case 98: return Kind::bf16;
    case 78: case 85: case 88: case 91: case 93: return Kind::f16x2;
    case 81: case 95: return Kind::bf16x2;
    default: return Kind::exact;
  }
}
static bool nan16(unsigned h, bool bf) {
  return bf ? ((h & 0x7f80u) == 0x7f80u && (h & 0x7fu) != 0) : ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0);
}
static bool same16(unsigned got, unsigned want, bool bf) {
  return nan16(want, bf) ? nan16(got, bf) : got == want;
}
static bool float_result_matches(int k, unsigned got, unsigned want) {
  switch (float_result_kind(k)) {
    case Kind::approx: {
      const double g = from_bits(got), w = from_bits(want);
      const double tolerance = k == 35 ? 1.0 / 1024 : (k == 33 || k == 34) ? 1e-6 : 1.0 / (1 << 20);
      return std::fabs(g - w) <= tolerance * std::max(1.0, std::fabs(w));
    }
    case Kind::f32: return std::isnan(from_bits(want)) ? std::isnan(from_bits(got)) : got == want;
    case Kind::f16: return same16(got & 0xffffu, want, false) && (got >> 16) == 0;
    case Kind::bf16: return same16(got & 0xffffu, want, true) && (got >> 16) == 0;
    case Kind::f16x2: return same16(got & 0xffffu, want & 0xffffu, false) && same16(got >> 16, want >> 16, false);
    case Kind::bf16x2: return same16(got & 0xffffu, want & 0xffffu, true) && same16(got >> 16, want >> 16, true);
    default: return got == want;
  }
}

// ---- what the simulator refuses ------------------------------------------------------------------------------

#if defined(GPULAB_SIM)
#include <source_location>

// Statements the simulator's PTX layer cannot run are refused when parsed (their first run reports the
// refusal as a fault of the kernel), with a message naming the instruction and the statement's line.
static int checkRefusals() {
  struct Case {
    const char* text;
    const char* operands;
    const char* expect;
  };
  const Case cases[] = {
      {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%0,%0,%0}, {%1,%1,%1,%1}, {%1,%1}, {%0,%0,%0,%0};", "+f,r",
       "tensor-core instructions"},
      {"wgmma.fence.sync.aligned;", "", "tensor-core instructions"},
      {"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %0, %0, %0}, [%1];", "=r,r", "tensor-core instructions"},
      {"mbarrier.init.shared.b64 [%0], 1;", "r", "mbarrier"},
      {"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%0];", "r,l", "bulk"},
      {"foo.bar.u32 %0, %0;", "+r", "`foo` is not a PTX instruction"},
      {"exit;", nullptr, "exit in inline PTX"},
      {"mov.u32 %0, %%total_smem_size;", "=r", "%total_smem_size"},
      {"add.u32 %0, %1;", "=r,r", "expected 3 operands"},
      {"bra NOWHERE;", "", "no label NOWHERE"},
      {"ld.param.u32 %0, [%1];", "=r,l", ".param"},
      {"vadd.u32.u32.u32 %0, %0, %0;", "+r", "video instructions"},
      {"bar.arrive 1, 64;", "", "bar.arrive"},
      {"shfl.idx.b32 %0, %0, 0, 0x1f;", "+r", "use shfl.sync"},
      {"mov.u32 %0, %5;", "=r", "the statement has 1 operand"},
      {"add.u32 %0, %0, %r1;", "+r", "`%%name`"},
  };
  int failures = 0;
  for (const Case& c : cases) {
    const auto& program = gpulab::sim::ptx::parse_program(c.text, c.operands, std::source_location::current());
    const char* why = gpulab::sim::ptx::program_refusal(program);
    if (why == nullptr || std::strstr(why, c.expect) == nullptr || std::strstr(why, "inline_ptx.cu:") == nullptr) {
      std::printf("FAIL refusal of `%s`: %s (expected it to name %s)\n", c.text, why == nullptr ? "accepted" : why, c.expect);
      ++failures;
    }
  }
  return failures;
}
#endif

// ---- the program --------------------------------------------------------------------------------------------

int main() {
  std::mt19937 rng(20260112);
  const int n = kN;
  int failures = 0;

  // Integers.
  std::vector<unsigned> xs(n), ys(n), zs(n);
  for (int i = 0; i < n; ++i) {
    xs[i] = rng();
    ys[i] = rng();
    zs[i] = rng();
    if (i % 13 == 0) ys[i] = xs[i];  // equal operands for the comparisons
    if (i % 29 == 0) xs[i] = 0x80000000u;  // INT_MIN for abs, neg and saturation
  }
  unsigned *dx = nullptr, *dy = nullptr, *dz = nullptr, *dout = nullptr;
  CHECK(cudaMalloc(&dx, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dy, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dz, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dout, static_cast<size_t>(n) * kIntResults * sizeof(unsigned)));
  CHECK(cudaMemcpy(dx, xs.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, ys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dz, zs.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  integerPtx<<<(n + kBlock - 1) / kBlock, kBlock>>>(dx, dy, dz, dout, n);
  CHECK(cudaGetLastError());
  std::vector<unsigned> got(static_cast<size_t>(n) * kIntResults);
  CHECK(cudaMemcpy(got.data(), dout, got.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    unsigned want[kIntResults];
    integerReference(xs[i], ys[i], zs[i], want);
    for (int k = 0; k < kIntResults; ++k) {
      if (got[static_cast<size_t>(i) * kIntResults + k] != want[k] && ++failures <= 20) {
        std::printf("FAIL integer result %d, element %d (a=%#x b=%#x c=%#x): got %#x, expected %#x\n", k, i, xs[i], ys[i],
                    zs[i], got[static_cast<size_t>(i) * kIntResults + k], want[k]);
      }
    }
  }

  // Floats.
  const SmallFormat half(5, 10), bf16(8, 7);
  std::uniform_real_distribution<float> wide(-1000.0f, 1000.0f), unit(-1.0f, 1.0f), positive(0.001f, 1000.0f), small(-3.0f, 3.0f);
  std::uniform_real_distribution<double> dwide(-1e6, 1e6);
  std::uniform_real_distribution<float> sixteen(0.0625f, 8.0f);
  const float specials[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 1e-40f, -3e-39f, 3.0e38f, 2.5f, -2.5f, 0.5f, 65520.0f, 1e-8f};
  const double dspecials[] = {NAN, INFINITY, -0.0, 1e-310, 4.5, -4.5, 1e300, -3e19};
  std::vector<FloatIn> fin(n);
  for (int i = 0; i < n; ++i) {
    FloatIn& v = fin[i];
    v.x = wide(rng) * (i % 3 == 0 ? 1e-3f : 1.0f);
    v.y = wide(rng) * (i % 5 == 0 ? 1e5f : 1.0f);
    v.z = unit(rng);
    if (i % 7 == 0) v.x = specials[(i / 7) % 13];
    if (i % 11 == 0) v.y = specials[(i / 11 + 4) % 13];
    if (i % 17 == 0) v.z = specials[(i / 17 + 2) % 13];
    v.px = positive(rng);
    v.py = small(rng);
    v.dx = dwide(rng);
    v.dy = dwide(rng) * 1e-3;
    v.dz = dwide(rng) * 1e-7;
    if (i % 9 == 0) v.dx = dspecials[(i / 9) % 8];
    if (i % 23 == 0) v.dy = dspecials[(i / 23 + 3) % 8];
    v.si = static_cast<int>(rng());
    v.ui = rng();
    v.sl = static_cast<long long>((static_cast<unsigned long long>(rng()) << 32) | rng()) >> (rng() % 40);
    v.ul = ((static_cast<unsigned long long>(rng()) << 32) | rng()) >> (rng() % 40);
    const auto h16 = [&](const SmallFormat& fmt) {
      const float f = sixteen(rng) * ((rng() & 1) ? -1.0f : 1.0f);
      return fmt.round(f, 0);
    };
    v.h0 = h16(half);
    v.h1 = h16(half);
    v.h2 = h16(half);
    v.b0 = h16(bf16);
    v.b1 = h16(bf16);
    v.b2 = h16(bf16);
  }
  FloatIn* dfin = nullptr;
  unsigned* dfout = nullptr;
  CHECK(cudaMalloc(&dfin, n * sizeof(FloatIn)));
  CHECK(cudaMalloc(&dfout, static_cast<size_t>(n) * kFloatResults * sizeof(unsigned)));
  CHECK(cudaMemcpy(dfin, fin.data(), n * sizeof(FloatIn), cudaMemcpyHostToDevice));
  floatPtx<<<(n + kBlock - 1) / kBlock, kBlock>>>(dfin, dfout, n);
  CHECK(cudaGetLastError());
  std::vector<unsigned> fgot(static_cast<size_t>(n) * kFloatResults);
  CHECK(cudaMemcpy(fgot.data(), dfout, fgot.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    unsigned want[kFloatResults];
    floatReference(fin[i], half, bf16, want);
    for (int k = 0; k < kFloatResults; ++k) {
      const unsigned g = fgot[static_cast<size_t>(i) * kFloatResults + k];
      if (!float_result_matches(k, g, want[k]) && ++failures <= 40) {
        std::printf("FAIL float result %d, element %d (x=%a y=%a z=%a dx=%a dy=%a): got %#x, expected %#x\n", k, i, fin[i].x,
                    fin[i].y, fin[i].z, fin[i].dx, fin[i].dy, g, want[k]);
      }
    }
  }

#if defined(GPULAB_SIM)
  failures += checkRefusals();
#endif

  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dz));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dfin));
  CHECK(cudaFree(dfout));
  if (failures != 0) {
    std::printf("FAILED: %d results differ\n", failures);
    return 1;
  }
  std::printf("PASSED: inline PTX integer, bit, comparison, float and conversion instructions\n");
  return 0;
}
