#pragma once
// The PTX layer's form of one inline asm statement: what ptx_parser.cpp makes of its text once, and
// what ptx_interpreter.cpp runs for each simulated thread that executes it. Registers are numbered:
// the statement's operands first (%0, %1, ... are registers 0, 1, ...), then the registers its .reg
// declarations make, each a 64-bit slot of a frame (a predicate holds 0 or 1).
#include <cstdint>
#include <source_location>
#include <string>
#include <vector>

#include <gpulab/sim/device/inline_ptx.hpp>

namespace gpulab::sim::ptx {

enum class Type : std::uint8_t {
  none, pred,
  b8, b16, b32, b64, b128,
  u8, u16, u32, u64,
  s8, s16, s32, s64,
  f16, f16x2, bf16, bf16x2, tf32, f32, f64,
};
// Inline: the interpreter asks for them in every instruction.
constexpr int type_bits(Type t) {
  switch (t) {
    case Type::pred: return 1;
    case Type::b8:
    case Type::u8:
    case Type::s8: return 8;
    case Type::b16:
    case Type::u16:
    case Type::s16:
    case Type::f16:
    case Type::bf16: return 16;
    case Type::b32:
    case Type::u32:
    case Type::s32:
    case Type::f32:
    case Type::f16x2:
    case Type::bf16x2:
    case Type::tf32: return 32;
    case Type::b64:
    case Type::u64:
    case Type::s64:
    case Type::f64: return 64;
    case Type::b128: return 128;
    default: return 0;
  }
}
constexpr bool is_signed(Type t) { return t == Type::s8 || t == Type::s16 || t == Type::s32 || t == Type::s64; }
// f16, f16x2, bf16, bf16x2, tf32, f32, f64
constexpr bool is_float(Type t) {
  return t == Type::f16 || t == Type::f16x2 || t == Type::bf16 || t == Type::bf16x2 || t == Type::tf32 || t == Type::f32 ||
         t == Type::f64;
}
const char* type_name(Type t);

enum class Space : std::uint8_t { generic, global, shared, local, constant };
// Rounding modifiers: to nearest even, toward zero, down, up; nearest away from zero (tf32); and the
// integer roundings of float-to-int and float-to-float-integral conversions.
enum class Round : std::uint8_t { none, rn, rz, rm, rp, rna, rni, rzi, rmi, rpi };
enum class Sem : std::uint8_t { weak, relaxed, acquire, release, acq_rel, sc, volatile_ };
enum class Scope : std::uint8_t { none, cta, cluster, gpu, sys };
enum class Cmp : std::uint8_t { eq, ne, lt, le, gt, ge, lo, ls, hi, hs, equ, neu, ltu, leu, gtu, geu, num, nan };
enum class BoolOp : std::uint8_t { none, and_, or_, xor_ };

enum class Special : std::uint8_t {
  tid_x, tid_y, tid_z, ntid_x, ntid_y, ntid_z, ctaid_x, ctaid_y, ctaid_z, nctaid_x, nctaid_y, nctaid_z,
  laneid, warpid, nwarpid, smid, nsmid, gridid,
  lanemask_eq, lanemask_lt, lanemask_le, lanemask_gt, lanemask_ge,
  clock, clock_hi, clock64, globaltimer, globaltimer_lo, globaltimer_hi, dynamic_smem_size,
};

enum class Op : std::uint8_t {
  // data movement and conversion
  mov, cvt, cvta, isspacep, createpolicy,
  // integer and bit
  add, sub, addc, subc, mul, mad, madc, mul24, mad24, sad, div, rem, abs, neg, min, max, popc, clz, bfind,
  brev, bfe, bfi, fns, and_, or_, xor_, not_, cnot, shl, shr, shf, lop3, prmt, dp4a, dp2a,
  // floating point (add, sub, mul, mad, div, abs, neg, min, max above take float types too)
  fma, rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh, testp, copysign,
  // comparison and selection
  setp, set, selp, slct,
  // memory
  ld, st, atom, red, cp_async, cp_async_commit, cp_async_wait, fence, prefetch,
  // block and warp
  bar_sync, bar_red, bar_warp_sync, shfl, vote, match, activemask, redux, elect,
  // control and misc
  bra, nanosleep, trap, brkpt, nop,
};

struct Arg {
  enum class Kind : std::uint8_t {
    none,
    reg,       // a register (an operand or a .reg)
    imm_int,   // an integer literal: bits is the two's complement value
    imm_f32,   // 0fXXXXXXXX: bits is the float's
    imm_f64,   // 0dXXXXXXXXXXXXXXXX or a decimal literal: bits is the double's
    special,   // %laneid, %tid.x, ...
    vector,    // {a, b, ...}: elements in Program::vectors[first, first + count)
    address,   // [base + offset]
    label,     // a branch target: `target` is an instruction index
    sink,      // _
  };
  Kind kind = Kind::none;
  bool negate = false;  // !p, for a predicate source
  Special special{};
  std::uint16_t reg = 0;  // reg; address: the base register when has_base
  bool has_base = false;  // address: a register base; else the address is `bits` alone
  bool has_index = false; // address: a second register added (an "n" or register operand)
  std::uint16_t index = 0;
  std::uint16_t first = 0, count = 0;  // vector
  std::uint32_t target = 0;            // label
  std::uint64_t bits = 0;              // immediates; address: the constant offset
};

// What some instructions name beyond their types, by instruction (see the parser).
enum class Mode : std::uint8_t {
  none,
  lo, hi, wide,                           // mul, mad, mul24, mad24, dp2a
  up, down, bfly, idx,                    // shfl
  all, any, uni, ballot,                  // vote; match.any / match.all
  a_add, a_min, a_max, a_inc, a_dec, a_and, a_or, a_xor, a_exch, a_cas,  // atom, red, redux, bar.red
  popc,                                   // bar.red.popc
  f4e, b4e, rc8, ecl, ecr, rc16,          // prmt
  l, r,                                   // shf direction
  finite, infinite, number, notanumber, normal, subnormal,  // testp
  to_generic,                             // cvta (window to generic) as against cvta.to
  wait_all,                               // cp.async.wait_all
};

struct Instr {
  Op op = Op::nop;
  Type type = Type::none, type2 = Type::none;  // cvt, set, slct, dp4a: destination then source
  Round round = Round::none;
  Space space = Space::generic;
  Sem sem = Sem::weak;
  Scope scope = Scope::none;
  Cmp cmp = Cmp::eq;
  BoolOp boolop = BoolOp::none;
  Mode mode = Mode::none;
  std::uint8_t vec = 1;    // .v2, .v4
  bool ftz = false, sat = false, approx = false, cc = false, relu = false, nan = false, wrap = false,
       shiftamt = false, satfinite = false, ignore_src_predicate = false;
  bool pair = false;
  bool has_policy = false;  // a last operand that is a cache policy (.L2::cache_hint)        // the first operand is d|p: args[0] and args[1]
  std::int16_t guard = -1;  // @p: the predicate register; -1 for none
  bool guard_negate = false;
  std::vector<Arg> args;
  std::uint32_t text = 0;  // index into Program::texts
};

class Program {
 public:
  std::string error;  // non-empty: the statement is refused, for this reason
  std::source_location where;
  std::string site;  // "file:line" of the asm statement
  unsigned operand_count = 0;
  std::vector<std::uint8_t> operand_bits;  // each operand's register width
  std::vector<bool> operand_is_output;
  std::vector<int> tied;  // for each operand, the output an input is tied to, or -1
  std::vector<std::uint8_t> register_bits;  // every register's width (operands first), 1 for .pred
  std::vector<std::string> register_names;
  std::vector<std::uint16_t> vectors;  // elements of vector operands: a register, or sink_register
  std::vector<Instr> code;
  std::vector<std::string> texts;  // each instruction as written, for messages
  bool has_backward_branch = false;

  static constexpr std::uint16_t sink_register = 0xffff;
};

// "inline PTX at file:line, `statement`: " for messages about one instruction.
std::string instruction_context(const Program& p, const Instr& in);

}  // namespace gpulab::sim::ptx
