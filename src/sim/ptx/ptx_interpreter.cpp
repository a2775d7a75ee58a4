// The PTX layer's interpreter: runs a parsed asm statement (ptx_program.hpp) as the running simulated
// thread. Registers live in a frame on the thread's stack; memory goes through the simulator's checks
// as an instrumented kernel's accesses do (a plain ld or st is a plain access for memcheck, racecheck
// and initcheck; a volatile, relaxed, acquire or release one, an atom, a red, an atomic access), and the
// warp and block instructions are the engine's collectives, so synccheck and the deadlock reports name
// the asm statement's line. Arithmetic gives the GPU's results: integer wrap-around and saturation as
// PTX defines them, floats rounded once in the instruction's rounding mode, .ftz flushing subnormals,
// f32 NaN results canonical (0x7fffffff), 16-bit floats through the simulator's correctly rounded
// small-float code (cuda_fp16.h's).
#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <thread>

#include <fmt/format.h>

#include <gpulab/sim/cuda/gpulab_small_float.hpp>

#include <gpulab/sim/detail/polls.hpp>

#include "sim/engine/block_run.hpp"
#include "sim/engine/sim_device.hpp"
#include "sim/ptx/ptx_program.hpp"
#include "sim/ptx/ptx_rounding.hpp"
#include "sim/ptx/shared_window.hpp"

namespace gpulab::sim::ptx {

namespace {

using detail::host_thread;
namespace sf = small_float;

constexpr std::uint64_t mask_of(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }
constexpr std::int64_t sign_extend(std::uint64_t v, int bits) {
  if (bits >= 64) return static_cast<std::int64_t>(v);
  const std::uint64_t m = std::uint64_t{1} << (bits - 1);
  v &= mask_of(bits);
  return static_cast<std::int64_t>((v ^ m) - m);
}

float as_f32(std::uint64_t bits) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits)); }
double as_f64(std::uint64_t bits) { return std::bit_cast<double>(bits); }
std::uint64_t bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }
std::uint64_t bits_of(double d) { return std::bit_cast<std::uint64_t>(d); }

bool is_subnormal(float x) { return std::fpclassify(x) == FP_SUBNORMAL; }
float flush(float x, bool ftz) { return ftz && is_subnormal(x) ? std::copysign(0.0f, x) : x; }

// ---- 16-bit floats ----

bool is_bf16(Type t) { return t == Type::bf16 || t == Type::bf16x2; }
bool is_pair(Type t) { return t == Type::f16x2 || t == Type::bf16x2; }
bool is_half_type(Type t) { return t == Type::f16 || t == Type::bf16 || is_pair(t); }

double widen16(std::uint16_t h, bool bf) { return bf ? sf::widen<sf::bfloat16>(h) : sf::widen<sf::binary16>(h); }

// `v` rounded to binary16 or bfloat16 in a rounding mode: to nearest by the simulator's small-float
// code, a directed mode by stepping that result one unit toward the mode where it went the wrong way.
std::uint16_t narrow16(double v, bool bf, Round r) {
  const std::uint16_t n = bf ? sf::round<sf::bfloat16>(v) : sf::round<sf::binary16>(v);
  if (std::isnan(v) || (r != Round::rz && r != Round::rm && r != Round::rp)) return n;
  const double back = widen16(n, bf);
  if (back == v) return n;
  const bool negative = (n & 0x8000) != 0;
  const auto step = [&](bool away) {
    const std::uint16_t magnitude = n & 0x7fff;
    return static_cast<std::uint16_t>((n & 0x8000) | (away ? magnitude + 1 : magnitude - 1));
  };
  switch (r) {
    case Round::rz: return std::fabs(back) > std::fabs(v) ? step(false) : n;
    case Round::rm: return back > v ? step(negative) : n;
    default: return back < v ? step(!negative) : n;
  }
}

bool half_subnormal(std::uint16_t h, bool bf) {
  const std::uint16_t exponent = bf ? 0x7f80 : 0x7c00;
  return (h & exponent) == 0 && (h & ~exponent & 0x7fff) != 0;
}
bool half_nan(std::uint16_t h, bool bf) { return bf ? sf::is_nan<sf::bfloat16>(h) : sf::is_nan<sf::binary16>(h); }

// ---- the frame ----

struct Frame {
  const Program& p;
  std::uint64_t* r;
  bool carry = false;
  unsigned backward_jumps = 0;
};

[[noreturn]] void fault(const Frame& f, const Instr& in, const std::string& why) {
  const std::string what = instruction_context(f.p, in) + ": " + why;
  detail::kernel_abort(what.c_str(), std::source_location{});
}

std::uint32_t linear_thread() {
  return threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
}
std::uint32_t lane_id() { return linear_thread() & 31u; }

unsigned sm_count() {
  const detail::BlockRun* b = host_thread.block;
  if (b == nullptr || b->job == nullptr || b->job->device == nullptr) return 1;
  thread_local const detail::SimDevice* device = nullptr;
  thread_local unsigned count = 1;
  if (device != b->job->device) {
    device = b->job->device;
    count = static_cast<unsigned>(std::max(1, device->properties().multiprocessor_count));
  }
  return count;
}
unsigned sm_id() {
  static std::atomic<unsigned> next{0};
  thread_local const unsigned mine = next.fetch_add(1);
  return mine % sm_count();
}
std::uint64_t steady_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}
std::uint64_t epoch_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}

std::uint64_t special_value(Special s) {
  const std::uint32_t lane = lane_id();
  switch (s) {
    case Special::tid_x: return threadIdx.x;
    case Special::tid_y: return threadIdx.y;
    case Special::tid_z: return threadIdx.z;
    case Special::ntid_x: return blockDim.x;
    case Special::ntid_y: return blockDim.y;
    case Special::ntid_z: return blockDim.z;
    case Special::ctaid_x: return blockIdx.x;
    case Special::ctaid_y: return blockIdx.y;
    case Special::ctaid_z: return blockIdx.z;
    case Special::nctaid_x: return gridDim.x;
    case Special::nctaid_y: return gridDim.y;
    case Special::nctaid_z: return gridDim.z;
    case Special::laneid: return lane;
    case Special::warpid: return linear_thread() >> 5;
    case Special::nwarpid: return 64;  // an sm_90 multiprocessor's warp slots (2048 threads)
    case Special::smid: return sm_id();
    case Special::nsmid: return sm_count();
    case Special::gridid: {
      // Tells the launches running at once apart, as the GPU's grid number does.
      const detail::BlockRun* b = host_thread.block;
      return b == nullptr ? 0 : reinterpret_cast<std::uintptr_t>(b->job);
    }
    case Special::lanemask_eq: return 1u << lane;
    case Special::lanemask_lt: return (1u << lane) - 1u;
    case Special::lanemask_le: return lane == 31 ? 0xffffffffu : (2u << lane) - 1u;
    case Special::lanemask_gt: return lane == 31 ? 0u : ~((2u << lane) - 1u);
    case Special::lanemask_ge: return ~((1u << lane) - 1u);
    // The simulator's clock runs at 1 GHz (timers.hpp): a cycle is a nanosecond of the steady clock.
    case Special::clock: return steady_ns() & 0xffffffffu;
    case Special::clock_hi: return (steady_ns() >> 32) & 0xffffffffu;
    case Special::clock64: return steady_ns();
    case Special::globaltimer: return epoch_ns();
    case Special::globaltimer_lo: return epoch_ns() & 0xffffffffu;
    case Special::globaltimer_hi: return epoch_ns() >> 32;
    case Special::dynamic_smem_size: {
      const detail::BlockRun* b = host_thread.block;
      return b == nullptr || b->job == nullptr ? 0 : b->job->shared_bytes;
    }
  }
  return 0;
}

class Machine {
 public:
  Machine(Frame& f) : f_(f), p_(f.p), r_(f.r) {}

  void run() {
    const std::size_t n = p_.code.size();
    for (std::size_t pc = 0; pc < n;) {
      const Instr& in = p_.code[pc++];
      if (in.guard >= 0 && ((r_[in.guard] != 0) == in.guard_negate)) continue;
      if (in.op == Op::bra) {
        const std::uint32_t target = in.args[0].target;
        if (target < pc) backward_jump();
        pc = target;
        continue;
      }
      step(in);
    }
  }

 private:
  // ---- operands ----
  std::uint64_t raw(const Arg& a) const {
    switch (a.kind) {
      case Arg::Kind::reg: return r_[a.reg];
      case Arg::Kind::imm_int:
      case Arg::Kind::imm_f32:
      case Arg::Kind::imm_f64: return a.bits;
      case Arg::Kind::special: return special_value(a.special);
      default: return 0;
    }
  }
  std::uint64_t u(const Arg& a, int bits) const { return raw(a) & mask_of(bits); }
  std::int64_t s(const Arg& a, int bits) const { return sign_extend(raw(a), bits); }
  bool pred(const Arg& a) const { return (raw(a) != 0) != a.negate; }
  float f32(const Arg& a) const {
    if (a.kind == Arg::Kind::imm_int) return static_cast<float>(static_cast<std::int64_t>(a.bits));
    if (a.kind == Arg::Kind::imm_f64) return static_cast<float>(as_f64(a.bits));
    return as_f32(raw(a));
  }
  double f64(const Arg& a) const {
    if (a.kind == Arg::Kind::imm_int) return static_cast<double>(static_cast<std::int64_t>(a.bits));
    if (a.kind == Arg::Kind::imm_f32) return static_cast<double>(as_f32(a.bits));
    return as_f64(raw(a));
  }
  // A 16-bit float operand (or a pair's 32 bits): literals written as floats are rounded to it.
  std::uint32_t h16(const Arg& a, Type t) const {
    if (!is_pair(t) && (a.kind == Arg::Kind::imm_f32 || a.kind == Arg::Kind::imm_f64)) {
      return narrow16(a.kind == Arg::Kind::imm_f32 ? static_cast<double>(as_f32(a.bits)) : as_f64(a.bits), is_bf16(t), Round::rn);
    }
    return static_cast<std::uint32_t>(raw(a) & (is_pair(t) ? 0xffffffffu : 0xffffu));
  }
  // A value read in a float type, as a double (exact for every type but f64's own).
  double fvalue(const Arg& a, Type t, bool ftz) const {
    switch (t) {
      case Type::f32: return flush(f32(a), ftz);
      case Type::f64: return f64(a);
      case Type::f16:
      case Type::bf16: {
        const std::uint16_t h = static_cast<std::uint16_t>(h16(a, t));
        return ftz && half_subnormal(h, is_bf16(t)) ? std::copysign(0.0, widen16(h, is_bf16(t))) : widen16(h, is_bf16(t));
      }
      default: return f64(a);
    }
  }

  void put(const Arg& d, std::uint64_t v) {
    if (d.kind != Arg::Kind::reg) return;  // _ discards
    const int bits = p_.register_bits[d.reg];
    r_[d.reg] = bits == 1 ? (v != 0 ? 1 : 0) : v & mask_of(bits);
  }
  void put_reg(std::uint16_t reg, std::uint64_t v) {
    if (reg == Program::sink_register) return;
    const int bits = p_.register_bits[reg];
    r_[reg] = bits == 1 ? (v != 0 ? 1 : 0) : v & mask_of(bits);
  }
  // An integer result of type t: truncated to t, then sign- or zero-extended into the register.
  void put_int(const Arg& d, std::uint64_t v, Type t) {
    const int bits = type_bits(t);
    put(d, is_signed(t) ? static_cast<std::uint64_t>(sign_extend(v, bits)) : v & mask_of(bits));
  }
  void put_f32(const Arg& d, float x, const Instr& in) { put(d, finish_f32(x, in)); }

  // .ftz, .sat and the canonical NaN of an f32 result.
  static std::uint32_t finish_f32(float x, const Instr& in) {
    x = flush(x, in.ftz);
    if (in.sat) x = std::isnan(x) ? 0.0f : std::fmin(std::fmax(x, 0.0f), 1.0f);
    if (std::isnan(x)) return 0x7fffffffu;
    return std::bit_cast<std::uint32_t>(x);
  }
  static std::uint64_t finish_f64(double x, const Instr& in) {
    if (in.sat) x = std::isnan(x) ? 0.0 : std::fmin(std::fmax(x, 0.0), 1.0);
    return bits_of(x);
  }
  // .ftz, .sat and .relu of a 16-bit float result.
  static std::uint16_t finish16(std::uint16_t h, bool bf, const Instr& in) {
    if (in.ftz && half_subnormal(h, bf)) h &= 0x8000;
    if (half_nan(h, bf)) return in.sat ? 0 : 0x7fff;
    const double v = widen16(h, bf);
    if (in.sat) {
      if (v < 0 || (v == 0 && (h & 0x8000) != 0)) return 0;
      if (v > 1) return bf ? 0x3f80 : 0x3c00;
    }
    if (in.relu && (h & 0x8000) != 0) return 0;
    return h;
  }

  std::uint16_t vreg(const Arg& v, std::size_t k) const { return p_.vectors[v.first + k]; }

  void backward_jump() {
    // A loop in the asm (a spin on memory) lets the block's other threads run now and then: they
    // may be the ones it waits for.
    if ((++f_.backward_jumps & 1023u) == 0 && !detail::yield_thread()) std::this_thread::yield();
  }

  // ---- one instruction ----
  void step(const Instr& in);
  void mov(const Instr& in);
  void cvt(const Instr& in);
  void integer_add(const Instr& in);
  void integer_mul(const Instr& in);
  void float_arith(const Instr& in);
  void half_arith(const Instr& in);
  void min_max(const Instr& in);
  void compare(const Instr& in);
  void memory(const Instr& in);
  void atomic(const Instr& in);
  void copy_async(const Instr& in);
  void warp(const Instr& in);
  bool compare_values(const Instr& in, const Arg& a, const Arg& b) const;

  // The host pointer of a ld/st/atom/cp.async address in `space`, checked for its alignment.
  void* address(const Instr& in, const Arg& a, Space space, std::size_t bytes, std::size_t align) {
    std::uint64_t v = a.bits;
    if (a.has_base) v += r_[a.reg];
    if (a.has_index) v += r_[a.index];
    void* p = nullptr;
    if (space == Space::shared) {
      p = find_window_pointer(v, bytes);
      if (p == nullptr) {
        fault(f_, in, fmt::format("shared-memory address {:#x} ({} bytes) is outside this block's shared memory (a generic "
                                  "pointer must go through cvta.to.shared or __cvta_generic_to_shared first)",
                                  v, bytes));
      }
    } else {
      p = reinterpret_cast<void*>(static_cast<std::uintptr_t>(v));
    }
    if (align > 1 && reinterpret_cast<std::uintptr_t>(p) % align != 0) {
      fault(f_, in, fmt::format("misaligned address {} for a {}-byte access", p, align));
    }
    return p;
  }

  Frame& f_;
  const Program& p_;
  std::uint64_t* r_;
};

detail::AtomicScope check_scope(Scope s) {
  switch (s) {
    case Scope::cta: return detail::AtomicScope::block;
    case Scope::cluster: return detail::AtomicScope::cluster;
    case Scope::sys: return detail::AtomicScope::system;
    default: return detail::AtomicScope::device;
  }
}
detail::AtomicOrder check_order(Sem s) {
  switch (s) {
    case Sem::acquire: return detail::AtomicOrder::acquire;
    case Sem::release: return detail::AtomicOrder::release;
    case Sem::acq_rel: return detail::AtomicOrder::acq_rel;
    case Sem::sc: return detail::AtomicOrder::seq_cst;
    default: return detail::AtomicOrder::relaxed;
  }
}
int host_order(Sem s) {
  switch (s) {
    case Sem::acquire: return __ATOMIC_ACQUIRE;
    case Sem::release: return __ATOMIC_RELEASE;
    case Sem::acq_rel: return __ATOMIC_ACQ_REL;
    case Sem::sc: return __ATOMIC_SEQ_CST;
    default: return __ATOMIC_RELAXED;
  }
}
int failure_order(Sem s) {
  switch (s) {
    case Sem::acquire:
    case Sem::acq_rel: return __ATOMIC_ACQUIRE;
    case Sem::sc: return __ATOMIC_SEQ_CST;
    default: return __ATOMIC_RELAXED;
  }
}

bool checks_on() { return host_thread.clients != 0 && host_thread.block != nullptr; }

void Machine::step(const Instr& in) {
  const Type t = in.type;
  const int bits = type_bits(t);
  switch (in.op) {
    case Op::mov: return mov(in);
    case Op::cvt: return cvt(in);
    case Op::cvta: {
      const std::uint64_t a = raw(in.args[1]);
      if (in.space != Space::shared) return put_int(in.args[0], a, t);  // global, local, const: generic addresses
      if (in.mode == Mode::to_generic) {
        void* g = find_window_pointer(a, 1);
        if (g == nullptr) fault(f_, in, fmt::format("{:#x} is not an address of this block's shared memory", a));
        return put_int(in.args[0], reinterpret_cast<std::uintptr_t>(g), t);
      }
      const auto w = find_window_address(reinterpret_cast<const void*>(static_cast<std::uintptr_t>(a)));
      if (!w) {
        fault(f_, in, fmt::format("{:#x} is not in this block's shared memory (static __shared__ data or the dynamic shared memory)", a));
      }
      return put_int(in.args[0], *w, t);
    }
    case Op::isspacep: {
      const void* a = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(raw(in.args[1])));
      const bool shared = is_shared_address(a), local = is_local_address(a);
      return put(in.args[0], in.space == Space::shared ? shared : in.space == Space::local ? local : !shared && !local);
    }
    case Op::createpolicy: return put(in.args[0], 0);  // cache policies are ignored: any value will do
    case Op::add:
    case Op::sub:
    case Op::addc:
    case Op::subc:
      if (is_half_type(t)) return half_arith(in);
      if (is_float(t)) return float_arith(in);
      return integer_add(in);
    case Op::mul:
    case Op::mad:
      if (is_half_type(t)) return half_arith(in);
      if (is_float(t)) return float_arith(in);
      return integer_mul(in);
    case Op::madc:
    case Op::mul24:
    case Op::mad24: return integer_mul(in);
    case Op::fma: return is_half_type(t) ? half_arith(in) : float_arith(in);
    case Op::sad: {
      const std::uint64_t d = is_signed(t) ? static_cast<std::uint64_t>(s(in.args[1], bits) > s(in.args[2], bits)
                                                                            ? s(in.args[1], bits) - s(in.args[2], bits)
                                                                            : s(in.args[2], bits) - s(in.args[1], bits))
                                           : (u(in.args[1], bits) > u(in.args[2], bits) ? u(in.args[1], bits) - u(in.args[2], bits)
                                                                                       : u(in.args[2], bits) - u(in.args[1], bits));
      return put_int(in.args[0], d + u(in.args[3], bits), t);
    }
    case Op::div:
    case Op::rem: {
      if (is_float(t)) return float_arith(in);
      if (is_signed(t)) {
        const std::int64_t a = s(in.args[1], bits), b = s(in.args[2], bits);
        const std::int64_t lowest = bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t{1} << (bits - 1));
        std::int64_t d;
        if (b == 0) {
          d = in.op == Op::div ? -1 : a;  // unspecified by PTX: what the GPU gives
        } else if (a == lowest && b == -1) {
          d = in.op == Op::div ? lowest : 0;
        } else {
          d = in.op == Op::div ? a / b : a % b;
        }
        return put_int(in.args[0], static_cast<std::uint64_t>(d), t);
      }
      const std::uint64_t a = u(in.args[1], bits), b = u(in.args[2], bits);
      const std::uint64_t d = b == 0 ? (in.op == Op::div ? mask_of(bits) : a) : (in.op == Op::div ? a / b : a % b);
      return put_int(in.args[0], d, t);
    }
    case Op::abs:
    case Op::neg: {
      if (is_half_type(t)) return half_arith(in);
      if (t == Type::f32) {
        const std::uint32_t x = std::bit_cast<std::uint32_t>(flush(f32(in.args[1]), in.ftz));
        return put(in.args[0], in.op == Op::abs ? x & 0x7fffffffu : x ^ 0x80000000u);
      }
      if (t == Type::f64) {
        const std::uint64_t x = bits_of(f64(in.args[1]));
        return put(in.args[0], in.op == Op::abs ? x & ~(std::uint64_t{1} << 63) : x ^ (std::uint64_t{1} << 63));
      }
      const std::int64_t a = s(in.args[1], bits);
      const std::uint64_t ua = static_cast<std::uint64_t>(a);
      return put_int(in.args[0], in.op == Op::neg ? ~ua + 1 : (a < 0 ? ~ua + 1 : ua), t);
    }
    case Op::min:
    case Op::max: return min_max(in);
    case Op::popc: return put(in.args[0], static_cast<std::uint64_t>(std::popcount(u(in.args[1], bits))));
    case Op::clz: {
      const std::uint64_t a = u(in.args[1], bits);
      return put(in.args[0], static_cast<std::uint64_t>(a == 0 ? bits : std::countl_zero(a) - (64 - bits)));
    }
    case Op::bfind: {
      std::uint64_t a = u(in.args[1], bits);
      if (is_signed(t) && s(in.args[1], bits) < 0) a = ~a & mask_of(bits);  // the most significant non-sign bit
      if (a == 0) return put(in.args[0], 0xffffffffu);
      const unsigned pos = 63u - static_cast<unsigned>(std::countl_zero(a));
      return put(in.args[0], in.shiftamt ? static_cast<unsigned>(bits - 1) - pos : pos);
    }
    case Op::brev: {
      std::uint64_t a = u(in.args[1], bits), d = 0;
      for (int k = 0; k < bits; ++k) d |= ((a >> k) & 1u) << (bits - 1 - k);
      return put(in.args[0], d);
    }
    case Op::bfe: {
      const std::uint64_t a = u(in.args[1], bits);
      const unsigned pos = static_cast<unsigned>(raw(in.args[2]) & 0xff), len = static_cast<unsigned>(raw(in.args[3]) & 0xff);
      const unsigned msb = static_cast<unsigned>(bits - 1);
      const unsigned top = std::min(pos + len - 1, msb);
      const std::uint64_t sbit = (!is_signed(t) || len == 0) ? 0 : (a >> top) & 1u;
      std::uint64_t d = 0;
      for (unsigned k = 0; k <= msb; ++k) {
        const std::uint64_t bit = (k < len && pos + k <= msb) ? (a >> (pos + k)) & 1u : sbit;
        d |= bit << k;
      }
      return put_int(in.args[0], d, t);
    }
    case Op::bfi: {
      const std::uint64_t a = u(in.args[1], bits);
      std::uint64_t f = u(in.args[2], bits);
      const unsigned pos = static_cast<unsigned>(raw(in.args[3]) & 0xff), len = static_cast<unsigned>(raw(in.args[4]) & 0xff);
      for (unsigned k = 0; k < len && pos + k < static_cast<unsigned>(bits); ++k) {
        f = (f & ~(std::uint64_t{1} << (pos + k))) | (((a >> k) & 1u) << (pos + k));
      }
      return put(in.args[0], f);
    }
    case Op::fns: {
      const std::uint32_t mask = static_cast<std::uint32_t>(u(in.args[1], 32));
      const std::uint32_t base = static_cast<std::uint32_t>(u(in.args[2], 32));
      const std::int32_t offset = static_cast<std::int32_t>(s(in.args[3], 32));
      std::uint32_t d = 0xffffffffu;
      if (base <= 31) {
        if (offset == 0) {
          if (((mask >> base) & 1u) != 0) d = base;
        } else {
          const int dir = offset > 0 ? 1 : -1;
          std::int64_t remaining = offset > 0 ? offset : -static_cast<std::int64_t>(offset);
          for (int k = static_cast<int>(base); k >= 0 && k < 32; k += dir) {
            if (((mask >> k) & 1u) != 0 && --remaining == 0) {
              d = static_cast<std::uint32_t>(k);
              break;
            }
          }
        }
      }
      return put(in.args[0], d);
    }
    case Op::and_:
    case Op::or_:
    case Op::xor_: {
      if (t == Type::pred) {
        const bool a = pred(in.args[1]), b = pred(in.args[2]);
        return put(in.args[0], in.op == Op::and_ ? (a && b) : in.op == Op::or_ ? (a || b) : (a != b));
      }
      const std::uint64_t a = u(in.args[1], bits), b = u(in.args[2], bits);
      return put(in.args[0], in.op == Op::and_ ? a & b : in.op == Op::or_ ? a | b : a ^ b);
    }
    case Op::not_:
      if (t == Type::pred) return put(in.args[0], !pred(in.args[1]));
      return put(in.args[0], ~u(in.args[1], bits) & mask_of(bits));
    case Op::cnot: return put(in.args[0], u(in.args[1], bits) == 0 ? 1 : 0);
    case Op::shl: {
      const std::uint64_t n = u(in.args[2], 32);
      return put(in.args[0], n >= static_cast<std::uint64_t>(bits) ? 0 : (u(in.args[1], bits) << n) & mask_of(bits));
    }
    case Op::shr: {
      const std::uint64_t n = u(in.args[2], 32);
      if (is_signed(t)) {
        const std::int64_t a = s(in.args[1], bits);
        return put_int(in.args[0], static_cast<std::uint64_t>(n >= static_cast<std::uint64_t>(bits) ? (a < 0 ? -1 : 0) : a >> n), t);
      }
      return put(in.args[0], n >= static_cast<std::uint64_t>(bits) ? 0 : u(in.args[1], bits) >> n);
    }
    case Op::shf: {
      const std::uint64_t lo = u(in.args[1], 32), hi = u(in.args[2], 32);
      std::uint64_t n = u(in.args[3], 32);
      n = in.wrap ? n & 31u : std::min<std::uint64_t>(n, 32);
      const std::uint64_t both = (hi << 32) | lo;
      return put(in.args[0], in.mode == Mode::l ? ((both << n) >> 32) & 0xffffffffu : (both >> n) & 0xffffffffu);
    }
    case Op::lop3: {
      const std::uint32_t a = static_cast<std::uint32_t>(u(in.args[1], 32)), b = static_cast<std::uint32_t>(u(in.args[2], 32)),
                          c = static_cast<std::uint32_t>(u(in.args[3], 32));
      const unsigned lut = static_cast<unsigned>(raw(in.args[4]) & 0xffu);
      std::uint32_t d = 0;
      for (unsigned k = 0; k < 8; ++k) {
        if (((lut >> k) & 1u) != 0) d |= ((k & 4u) ? a : ~a) & ((k & 2u) ? b : ~b) & ((k & 1u) ? c : ~c);
      }
      return put(in.args[0], d);
    }
    case Op::prmt: {
      const std::uint64_t bytes = (u(in.args[2], 32) << 32) | u(in.args[1], 32);
      const std::uint32_t c = static_cast<std::uint32_t>(u(in.args[3], 32));
      const auto byte = [&](unsigned k) { return static_cast<std::uint32_t>((bytes >> (8 * (k & 7u))) & 0xffu); };
      std::uint32_t d = 0;
      if (in.mode == Mode::none) {
        for (unsigned n = 0; n < 4; ++n) {
          const unsigned sel = (c >> (4 * n)) & 0xfu;
          std::uint32_t b = byte(sel & 7u);
          if ((sel & 8u) != 0) b = (b & 0x80u) != 0 ? 0xffu : 0u;  // replicate the byte's sign
          d |= b << (8 * n);
        }
        return put(in.args[0], d);
      }
      // The modes' byte selections for d.b0 .. d.b3, by c[1:0] (PTX's table).
      static const unsigned char modes[6][4][4] = {
          {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e
          {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e
          {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
          {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl
          {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr
          {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16
      };
      const int m = static_cast<int>(in.mode) - static_cast<int>(Mode::f4e);
      for (unsigned n = 0; n < 4; ++n) d |= byte(modes[m][c & 3u][n]) << (8 * n);
      return put(in.args[0], d);
    }
    case Op::dp4a:
    case Op::dp2a: {
      const std::uint32_t a = static_cast<std::uint32_t>(u(in.args[1], 32)), b = static_cast<std::uint32_t>(u(in.args[2], 32));
      const bool as = is_signed(in.type), bs = is_signed(in.type2);
      std::int64_t sum = (as || bs) ? s(in.args[3], 32) : static_cast<std::int64_t>(u(in.args[3], 32));
      const auto part = [](std::uint32_t v, unsigned k, int width, bool sg) {
        const std::uint64_t x = (v >> (k * static_cast<unsigned>(width))) & mask_of(width);
        return sg ? sign_extend(x, width) : static_cast<std::int64_t>(x);
      };
      if (in.op == Op::dp4a) {
        for (unsigned k = 0; k < 4; ++k) sum += part(a, k, 8, as) * part(b, k, 8, bs);
      } else {
        const unsigned first = in.mode == Mode::hi ? 2 : 0;
        for (unsigned k = 0; k < 2; ++k) sum += part(a, k, 16, as) * part(b, first + k, 8, bs);
      }
      return put(in.args[0], static_cast<std::uint64_t>(sum) & 0xffffffffu);
    }
    case Op::rcp:
    case Op::sqrt:
    case Op::rsqrt:
    case Op::ex2:
    case Op::lg2:
    case Op::sin:
    case Op::cos:
    case Op::tanh: {
      if (t == Type::f64) {
        const double x = f64(in.args[1]);
        const Round rd = in.approx ? Round::rn : in.round;
        double d;
        switch (in.op) {
          case Op::rcp: d = div_rounded(1.0, x, rd); break;
          case Op::sqrt: d = sqrt_rounded(x, rd); break;
          default: d = 1.0 / std::sqrt(x); break;  // rsqrt
        }
        return put(in.args[0], bits_of(d));
      }
      const float x = flush(f32(in.args[1]), in.ftz);
      float d;
      switch (in.op) {
        case Op::rcp: d = in.approx ? static_cast<float>(1.0 / x) : div_rounded(1.0f, x, in.round); break;
        case Op::sqrt: d = in.approx ? std::sqrt(x) : sqrt_rounded(x, in.round); break;
        case Op::rsqrt: d = static_cast<float>(1.0 / std::sqrt(static_cast<double>(x))); break;
        case Op::ex2: d = static_cast<float>(std::exp2(static_cast<double>(x))); break;
        case Op::lg2: d = static_cast<float>(std::log2(static_cast<double>(x))); break;
        case Op::sin: d = static_cast<float>(std::sin(static_cast<double>(x))); break;
        case Op::cos: d = static_cast<float>(std::cos(static_cast<double>(x))); break;
        default: d = static_cast<float>(std::tanh(static_cast<double>(x))); break;
      }
      return put_f32(in.args[0], d, in);
    }
    case Op::testp: {
      const double x = t == Type::f32 ? static_cast<double>(f32(in.args[1])) : f64(in.args[1]);
      const int c = t == Type::f32 ? std::fpclassify(f32(in.args[1])) : std::fpclassify(x);
      bool r = false;
      switch (in.mode) {
        case Mode::finite: r = std::isfinite(x); break;
        case Mode::infinite: r = std::isinf(x); break;
        case Mode::number: r = !std::isnan(x); break;
        case Mode::notanumber: r = std::isnan(x); break;
        case Mode::normal: r = c == FP_NORMAL; break;
        default: r = c == FP_SUBNORMAL; break;
      }
      return put(in.args[0], r);
    }
    case Op::copysign:
      if (t == Type::f32) return put(in.args[0], bits_of(std::copysign(f32(in.args[2]), f32(in.args[1]))));
      return put(in.args[0], bits_of(std::copysign(f64(in.args[2]), f64(in.args[1]))));
    case Op::setp:
    case Op::set: return compare(in);
    case Op::selp: {
      const Arg& chosen = pred(in.args[3]) ? in.args[1] : in.args[2];
      if (t == Type::f32) return put(in.args[0], bits_of(f32(chosen)));
      if (t == Type::f64) return put(in.args[0], bits_of(f64(chosen)));
      return put_int(in.args[0], raw(chosen), t);
    }
    case Op::slct: {
      const bool first = in.type2 == Type::f32 ? flush(f32(in.args[3]), in.ftz) >= 0.0f : s(in.args[3], 32) >= 0;
      const Arg& chosen = first ? in.args[1] : in.args[2];
      if (t == Type::f32) return put(in.args[0], bits_of(f32(chosen)));
      if (t == Type::f64) return put(in.args[0], bits_of(f64(chosen)));
      return put_int(in.args[0], raw(chosen), t);
    }
    case Op::ld:
    case Op::st: return memory(in);
    case Op::atom:
    case Op::red: return atomic(in);
    case Op::cp_async: return copy_async(in);
    case Op::cp_async_commit:
    case Op::cp_async_wait:  // the copies were made when issued
      return;
    case Op::fence:
      if (in.scope == Scope::cta) {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);  // a block's threads share one host thread
      } else {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
      }
      return;
    case Op::prefetch:
    case Op::nop: return;
    case Op::bar_sync: {
      const std::uint64_t id = u(in.args[0], 32);
      const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
      const unsigned whole = (threads + 31u) / 32u * 32u;
      if (id > 15) fault(f_, in, fmt::format("barrier {} does not exist (a block has barriers 0 to 15)", id));
      if (in.args.size() > 1) {
        const std::uint64_t count = u(in.args[1], 32);
        if (count % 32 != 0) fault(f_, in, fmt::format("the thread count {} is not a multiple of the warp size", count));
        if (count != whole) {
          fault(f_, in, fmt::format("barrier {} for {} threads of the block's {}: barriers over a part of the block are not "
                                    "supported by the simulator",
                                    id, count, threads));
        }
      }
      detail::block_barrier(detail::BarrierKind::plain, 0, p_.where);
      return;
    }
    case Op::bar_red: {
      const std::uint64_t id = u(in.args[1], 32);
      if (id > 15) fault(f_, in, fmt::format("barrier {} does not exist (a block has barriers 0 to 15)", id));
      if (in.args.size() == 4) {
        const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
        if (u(in.args[2], 32) != (threads + 31u) / 32u * 32u) {
          fault(f_, in, "barriers over a part of the block are not supported by the simulator");
        }
      }
      const int predicate = pred(in.args.back()) ? 1 : 0;
      const auto kind = in.mode == Mode::popc ? detail::BarrierKind::count
                        : in.mode == Mode::a_and ? detail::BarrierKind::all
                                                 : detail::BarrierKind::any;
      return put(in.args[0], static_cast<std::uint64_t>(detail::block_barrier(kind, predicate, p_.where)));
    }
    case Op::bar_warp_sync:
    case Op::shfl:
    case Op::vote:
    case Op::match:
    case Op::activemask:
    case Op::redux:
    case Op::elect: return warp(in);
    case Op::nanosleep:
      if (u(in.args[0], 32) != 0 && !detail::yield_thread()) std::this_thread::yield();
      return;
    case Op::trap: fault(f_, in, "the trap instruction ended the kernel");
    case Op::brkpt: fault(f_, in, "brkpt with no debugger attached ended the kernel");
    case Op::bra: return;  // handled by run()
  }
}

void Machine::mov(const Instr& in) {
  const Type t = in.type;
  const int bits = type_bits(t);
  const Arg& d = in.args[0];
  const Arg& a = in.args[1];
  if (d.kind == Arg::Kind::vector) {
    const std::uint64_t v = u(a, bits);
    const int w = bits / d.count;
    for (unsigned k = 0; k < d.count; ++k) put_reg(vreg(d, k), (v >> (k * static_cast<unsigned>(w))) & mask_of(w));
    return;
  }
  if (a.kind == Arg::Kind::vector) {
    const int w = bits / a.count;
    std::uint64_t v = 0;
    for (unsigned k = 0; k < a.count; ++k) {
      const std::uint16_t reg = vreg(a, k);
      if (reg != Program::sink_register) v |= (r_[reg] & mask_of(w)) << (k * static_cast<unsigned>(w));
    }
    put(d, v);
    return;
  }
  if (t == Type::pred) return put(d, pred(a));
  if (t == Type::f32) return put(d, bits_of(f32(a)));
  if (t == Type::f64) return put(d, bits_of(f64(a)));
  put_int(d, raw(a), t);
}

void Machine::cvt(const Instr& in) {
  const Type dt = in.type, st = in.type2;
  const Arg& d = in.args[0];
  if (is_pair(dt)) {  // cvt.rn.f16x2.f32 d, a, b: a to the upper half, b to the lower
    const bool bf = dt == Type::bf16x2;
    const auto one = [&](const Arg& x) {
      double v = f32(x);
      std::uint16_t h = narrow16(v, bf, in.round);
      if (in.satfinite && !half_nan(h, bf) && std::isinf(widen16(h, bf))) h = static_cast<std::uint16_t>((h & 0x8000) | (bf ? 0x7f7f : 0x7bff));
      if (in.relu && (h & 0x8000) != 0 && !half_nan(h, bf)) h = 0;
      if (half_nan(h, bf)) h = 0x7fff;
      return static_cast<std::uint64_t>(h);
    };
    put(d, (one(in.args[1]) << 16) | one(in.args[2]));
    return;
  }
  const Arg& a = in.args[1];
  const int dbits = type_bits(dt), sbits = type_bits(st);
  if (!is_float(st) && !is_float(dt)) {
    std::uint64_t v = is_signed(st) ? static_cast<std::uint64_t>(s(a, sbits)) : u(a, sbits);
    if (in.sat) {
      // Clamped to the destination's range, comparing the source value as what it is.
      const bool neg = is_signed(st) && static_cast<std::int64_t>(v) < 0;
      if (is_signed(dt)) {
        const std::int64_t hi = dbits == 64 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << (dbits - 1)) - 1;
        const std::int64_t lo = -hi - 1;
        if (neg) {
          if (static_cast<std::int64_t>(v) < lo) v = static_cast<std::uint64_t>(lo);
        } else if (v > static_cast<std::uint64_t>(hi)) {
          v = static_cast<std::uint64_t>(hi);
        }
      } else if (neg) {
        v = 0;
      } else if (v > mask_of(dbits)) {
        v = mask_of(dbits);
      }
    }
    return put_int(d, v, dt);
  }
  if (is_float(st) && !is_float(dt)) {
    double x = fvalue(a, st, in.ftz);
    if (std::isnan(x)) return put_int(d, 0, dt);
    switch (in.round) {
      case Round::rni: x = std::nearbyint(x); break;
      case Round::rzi: x = std::trunc(x); break;
      case Round::rmi: x = std::floor(x); break;
      default: x = std::ceil(x); break;
    }
    // Float-to-integer conversions saturate to the destination's range.
    if (is_signed(dt)) {
      const double hi = std::ldexp(1.0, dbits - 1);
      std::int64_t v;
      if (x >= hi) {
        v = dbits == 64 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << (dbits - 1)) - 1;
      } else if (x < -hi) {
        v = dbits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t{1} << (dbits - 1));
      } else {
        v = static_cast<std::int64_t>(x);
      }
      return put_int(d, static_cast<std::uint64_t>(v), dt);
    }
    std::uint64_t v;
    if (x <= 0) {
      v = 0;
    } else if (x >= std::ldexp(1.0, dbits)) {
      v = mask_of(dbits);
    } else {
      v = static_cast<std::uint64_t>(x);
    }
    return put_int(d, v, dt);
  }
  if (!is_float(st)) {  // integer to float
    const std::uint64_t v = is_signed(st) ? static_cast<std::uint64_t>(s(a, sbits)) : u(a, sbits);
    if (dt == Type::f32) return put_f32(d, int_to_float_rounded(v, is_signed(st), in.round), in);
    if (dt == Type::f64) return put(d, finish_f64(int_to_double_rounded(v, is_signed(st), in.round), in));
    const double x = is_signed(st) ? static_cast<double>(static_cast<std::int64_t>(v)) : static_cast<double>(v);
    const bool bf = dt == Type::bf16;
    return put(d, finish16(narrow16(x, bf, in.round), bf, in));
  }
  // float to float
  const double x = fvalue(a, st, in.ftz && st == Type::f32);
  const bool integral = in.round == Round::rni || in.round == Round::rzi || in.round == Round::rmi || in.round == Round::rpi;
  const auto to_integral = [&](double v) {
    switch (in.round) {
      case Round::rni: return std::nearbyint(v);
      case Round::rzi: return std::trunc(v);
      case Round::rmi: return std::floor(v);
      case Round::rpi: return std::ceil(v);
      default: return v;
    }
  };
  switch (dt) {
    case Type::f64: return put(d, finish_f64(integral ? to_integral(x) : x, in));
    case Type::f32: {
      if (st == Type::f64) {
        const float y = integral ? static_cast<float>(to_integral(x)) : narrow_rounded(x, in.round);
        return put_f32(d, y, in);
      }
      return put_f32(d, static_cast<float>(integral ? to_integral(x) : x), in);
    }
    case Type::tf32: {
      std::uint32_t b = std::bit_cast<std::uint32_t>(static_cast<float>(x));
      if (std::isnan(x)) {
        b = 0x7fffffffu;
      } else if (!std::isinf(x)) {
        if (in.round == Round::rna) {
          b = (b + 0x1000u) & 0xffffe000u;
        } else if (in.round == Round::rn) {
          b = (b + 0xfffu + ((b >> 13) & 1u)) & 0xffffe000u;
        } else {
          b &= 0xffffe000u;
        }
      }
      return put(d, b);
    }
    default: {
      const bool bf = dt == Type::bf16;
      std::uint16_t h = narrow16(integral ? to_integral(x) : x, bf, integral ? Round::rn : in.round);
      if (in.satfinite && !half_nan(h, bf) && std::isinf(widen16(h, bf))) h = static_cast<std::uint16_t>((h & 0x8000) | (bf ? 0x7f7f : 0x7bff));
      return put(d, finish16(h, bf, in));
    }
  }
}

void Machine::integer_add(const Instr& in) {
  const Type t = in.type;
  const int bits = type_bits(t);
  const std::uint64_t a = u(in.args[1], bits), b = u(in.args[2], bits);
  const bool add = in.op == Op::add || in.op == Op::addc;
  const std::uint64_t carry_in = (in.op == Op::addc || in.op == Op::subc) && f_.carry ? 1 : 0;
  if (in.sat) {  // add.sat.s32, sub.sat.s32
    const std::int64_t x = s(in.args[1], 32), y = s(in.args[2], 32);
    const std::int64_t v = std::clamp<std::int64_t>(add ? x + y : x - y, std::numeric_limits<std::int32_t>::min(),
                                                    std::numeric_limits<std::int32_t>::max());
    return put_int(in.args[0], static_cast<std::uint64_t>(v), t);
  }
  const unsigned __int128 wide_a = a, wide_b = b;
  std::uint64_t d;
  bool carry_out;
  if (add) {
    const unsigned __int128 sum = wide_a + wide_b + carry_in;
    d = static_cast<std::uint64_t>(sum);
    carry_out = ((sum >> bits) & 1u) != 0;
  } else {  // CC.CF holds the borrow: subc computes a - (b + CF)
    d = a - b - carry_in;
    carry_out = wide_a < wide_b + carry_in;
  }
  if (in.cc) f_.carry = carry_out;
  put_int(in.args[0], d, t);
}

void Machine::integer_mul(const Instr& in) {
  const Type t = in.type;
  const int bits = type_bits(t);
  const bool sg = is_signed(t);
  if (in.op == Op::mul24 || in.op == Op::mad24) {
    const std::int64_t a = sg ? sign_extend(raw(in.args[1]), 24) : static_cast<std::int64_t>(raw(in.args[1]) & 0xffffff);
    const std::int64_t b = sg ? sign_extend(raw(in.args[2]), 24) : static_cast<std::int64_t>(raw(in.args[2]) & 0xffffff);
    const std::uint64_t product = static_cast<std::uint64_t>(a * b);
    std::uint64_t d = in.mode == Mode::hi ? (product >> 16) & 0xffffffffu : product & 0xffffffffu;
    if (in.op == Op::mad24) d += u(in.args[3], 32);
    return put_int(in.args[0], d, t);
  }
  // The product at twice the type's width: its low and high halves (and all of it for .wide).
  std::uint64_t low, high;
  if (bits == 64) {
    const unsigned __int128 product =
        sg ? static_cast<unsigned __int128>(static_cast<__int128>(s(in.args[1], 64)) * s(in.args[2], 64))
           : static_cast<unsigned __int128>(u(in.args[1], 64)) * u(in.args[2], 64);
    low = static_cast<std::uint64_t>(product);
    high = static_cast<std::uint64_t>(product >> 64);
  } else {
    const std::uint64_t product = sg ? static_cast<std::uint64_t>(s(in.args[1], bits) * s(in.args[2], bits))
                                     : u(in.args[1], bits) * u(in.args[2], bits);
    if (in.mode == Mode::wide) {
      const Type wide = sg ? (bits == 16 ? Type::s32 : Type::s64) : (bits == 16 ? Type::u32 : Type::u64);
      std::uint64_t d = product;
      if (in.op == Op::mad) d += u(in.args[3], bits * 2);
      return put_int(in.args[0], d, wide);
    }
    low = product & mask_of(bits);
    high = (product >> bits) & mask_of(bits);
  }
  const bool mad = in.op == Op::mad || in.op == Op::madc;
  const std::uint64_t part = in.mode == Mode::hi ? high : low;
  if (!mad) return put_int(in.args[0], part, t);
  if (in.sat) {  // mad.hi.sat.s32
    const std::int64_t v = std::clamp<std::int64_t>(sign_extend(part, 32) + s(in.args[3], 32), std::numeric_limits<std::int32_t>::min(),
                                                    std::numeric_limits<std::int32_t>::max());
    return put_int(in.args[0], static_cast<std::uint64_t>(v), t);
  }
  const std::uint64_t c = u(in.args[3], bits);
  const std::uint64_t carry_in = in.op == Op::madc && f_.carry ? 1 : 0;
  const unsigned __int128 sum = static_cast<unsigned __int128>(part) + c + carry_in;
  if (in.cc) f_.carry = ((sum >> bits) & 1u) != 0;
  put_int(in.args[0], static_cast<std::uint64_t>(sum), t);
}

void Machine::float_arith(const Instr& in) {
  const Round rd = in.round == Round::none ? Round::rn : in.round;
  if (in.type == Type::f64) {
    const double a = f64(in.args[1]);
    const double b = in.args.size() > 2 ? f64(in.args[2]) : 0.0;
    double d;
    switch (in.op) {
      case Op::add: d = add_rounded(a, b, rd); break;
      case Op::sub: d = add_rounded(a, -b, rd); break;
      case Op::mul: d = mul_rounded(a, b, rd); break;
      case Op::div: d = div_rounded(a, b, rd); break;
      default: d = fma_rounded(a, b, f64(in.args[3]), rd); break;  // fma, mad
    }
    return put(in.args[0], finish_f64(d, in));
  }
  const float a = flush(f32(in.args[1]), in.ftz);
  const float b = in.args.size() > 2 ? flush(f32(in.args[2]), in.ftz) : 0.0f;
  float d;
  switch (in.op) {
    case Op::add: d = add_rounded(a, b, rd); break;
    case Op::sub: d = add_rounded(a, -b, rd); break;
    case Op::mul: d = mul_rounded(a, b, rd); break;
    case Op::div:
      // div.approx and div.full are within 2 ulp on a GPU; the correctly rounded quotient is within that.
      d = in.approx ? a / b : div_rounded(a, b, rd);
      break;
    default: d = fma_rounded(a, b, flush(f32(in.args[3]), in.ftz), rd); break;  // fma, mad
  }
  put_f32(in.args[0], d, in);
}

void Machine::half_arith(const Instr& in) {
  const Type t = in.type;
  const bool bf = is_bf16(t);
  const auto one = [&](std::uint16_t a, std::uint16_t b, std::uint16_t c) -> std::uint16_t {
    if (in.ftz) {
      if (half_subnormal(a, bf)) a &= 0x8000;
      if (half_subnormal(b, bf)) b &= 0x8000;
      if (half_subnormal(c, bf)) c &= 0x8000;
    }
    std::uint16_t d;
    switch (in.op) {
      case Op::add: d = bf ? sf::add<sf::bfloat16>(a, b) : sf::add<sf::binary16>(a, b); break;
      case Op::sub: d = bf ? sf::sub<sf::bfloat16>(a, b) : sf::sub<sf::binary16>(a, b); break;
      case Op::mul: d = bf ? sf::mul<sf::bfloat16>(a, b) : sf::mul<sf::binary16>(a, b); break;
      case Op::abs: d = a & 0x7fff; break;
      case Op::neg: d = a ^ 0x8000; break;
      default: d = bf ? sf::fma<sf::bfloat16>(a, b, c) : sf::fma<sf::binary16>(a, b, c); break;  // fma, mad
    }
    if (in.op == Op::abs || in.op == Op::neg) return d;
    return finish16(d, bf, in);
  };
  const std::size_t n = in.args.size();
  const std::uint32_t a = h16(in.args[1], t);
  const std::uint32_t b = n > 2 ? h16(in.args[2], t) : 0;
  const std::uint32_t c = n > 3 ? h16(in.args[3], t) : 0;
  if (!is_pair(t)) return put(in.args[0], one(static_cast<std::uint16_t>(a), static_cast<std::uint16_t>(b), static_cast<std::uint16_t>(c)));
  const std::uint32_t lo = one(static_cast<std::uint16_t>(a), static_cast<std::uint16_t>(b), static_cast<std::uint16_t>(c));
  const std::uint32_t hi = one(static_cast<std::uint16_t>(a >> 16), static_cast<std::uint16_t>(b >> 16), static_cast<std::uint16_t>(c >> 16));
  put(in.args[0], (hi << 16) | lo);
}

void Machine::min_max(const Instr& in) {
  const Type t = in.type;
  const bool is_min = in.op == Op::min;
  if (!is_float(t)) {
    const int bits = type_bits(t);
    std::uint64_t d;
    if (is_signed(t)) {
      const std::int64_t a = s(in.args[1], bits), b = s(in.args[2], bits);
      std::int64_t v = is_min ? std::min(a, b) : std::max(a, b);
      if (in.relu && v < 0) v = 0;
      d = static_cast<std::uint64_t>(v);
    } else {
      const std::uint64_t a = u(in.args[1], bits), b = u(in.args[2], bits);
      d = is_min ? std::min(a, b) : std::max(a, b);
    }
    return put_int(in.args[0], d, t);
  }
  // IEEE minNum/maxNum with -0 below +0: a NaN operand gives the other (.NaN: gives NaN).
  const auto pick = [&](double a, double b, bool& nan_result) {
    nan_result = false;
    const bool an = std::isnan(a), bn = std::isnan(b);
    if (an || bn) {
      if (in.nan || (an && bn)) {
        nan_result = true;
        return 0;
      }
      return an ? 1 : 0;  // the index of the chosen operand
    }
    if (a == b) {
      const bool a_neg = std::signbit(a), b_neg = std::signbit(b);
      return is_min ? (a_neg ? 0 : (b_neg ? 1 : 0)) : (a_neg ? (b_neg ? 0 : 1) : 0);
    }
    return (a < b) == is_min ? 0 : 1;
  };
  bool nan_result = false;
  if (t == Type::f32) {
    const float a = flush(f32(in.args[1]), in.ftz), b = flush(f32(in.args[2]), in.ftz);
    const int which = pick(a, b, nan_result);
    return put(in.args[0], nan_result ? 0x7fffffffu : finish_f32(which == 0 ? a : b, in));
  }
  if (t == Type::f64) {
    const double a = f64(in.args[1]), b = f64(in.args[2]);
    const int which = pick(a, b, nan_result);
    return put(in.args[0], nan_result ? bits_of(std::numeric_limits<double>::quiet_NaN()) : bits_of(which == 0 ? a : b));
  }
  const bool bf = is_bf16(t);
  const auto one = [&](std::uint16_t a, std::uint16_t b) -> std::uint16_t {
    if (in.ftz) {
      if (half_subnormal(a, bf)) a &= 0x8000;
      if (half_subnormal(b, bf)) b &= 0x8000;
    }
    bool nan16 = false;
    const int which = pick(widen16(a, bf), widen16(b, bf), nan16);
    if (nan16) return 0x7fff;
    const std::uint16_t d = which == 0 ? a : b;
    return in.relu && (d & 0x8000) != 0 ? 0 : d;
  };
  const std::uint32_t a = h16(in.args[1], t), b = h16(in.args[2], t);
  if (!is_pair(t)) return put(in.args[0], one(static_cast<std::uint16_t>(a), static_cast<std::uint16_t>(b)));
  put(in.args[0], (static_cast<std::uint32_t>(one(static_cast<std::uint16_t>(a >> 16), static_cast<std::uint16_t>(b >> 16))) << 16) |
                      one(static_cast<std::uint16_t>(a), static_cast<std::uint16_t>(b)));
}

bool Machine::compare_values(const Instr& in, const Arg& a, const Arg& b) const {
  const Type t = in.type;
  if (is_float(t)) {
    const double x = fvalue(a, t, in.ftz), y = fvalue(b, t, in.ftz);
    const bool unordered = std::isnan(x) || std::isnan(y);
    switch (in.cmp) {
      case Cmp::eq: return !unordered && x == y;
      case Cmp::ne: return !unordered && x != y;
      case Cmp::lt: return !unordered && x < y;
      case Cmp::le: return !unordered && x <= y;
      case Cmp::gt: return !unordered && x > y;
      case Cmp::ge: return !unordered && x >= y;
      case Cmp::equ: return unordered || x == y;
      case Cmp::neu: return unordered || x != y;
      case Cmp::ltu: return unordered || x < y;
      case Cmp::leu: return unordered || x <= y;
      case Cmp::gtu: return unordered || x > y;
      case Cmp::geu: return unordered || x >= y;
      case Cmp::num: return !unordered;
      case Cmp::nan: return unordered;
      default: return false;
    }
  }
  const int bits = type_bits(t);
  const std::uint64_t ua = u(a, bits), ub = u(b, bits);
  const std::int64_t sa = s(a, bits), sb = s(b, bits);
  const bool sg = is_signed(t);
  switch (in.cmp) {
    case Cmp::eq: return ua == ub;
    case Cmp::ne: return ua != ub;
    case Cmp::lt: return sg ? sa < sb : ua < ub;
    case Cmp::le: return sg ? sa <= sb : ua <= ub;
    case Cmp::gt: return sg ? sa > sb : ua > ub;
    case Cmp::ge: return sg ? sa >= sb : ua >= ub;
    case Cmp::lo: return ua < ub;
    case Cmp::ls: return ua <= ub;
    case Cmp::hi: return ua > ub;
    case Cmp::hs: return ua >= ub;
    default: return false;
  }
}

void Machine::compare(const Instr& in) {
  const std::size_t dests = in.pair ? 2 : 1;
  const bool r = compare_values(in, in.args[dests], in.args[dests + 1]);
  const auto combine = [&](bool v) {
    if (in.boolop == BoolOp::none) return v;
    const bool c = pred(in.args.back());
    return in.boolop == BoolOp::and_ ? (v && c) : in.boolop == BoolOp::or_ ? (v || c) : (v != c);
  };
  if (in.op == Op::setp) {
    put(in.args[0], combine(r));
    if (in.pair) put(in.args[1], combine(!r));
    return;
  }
  const bool v = combine(r);  // set: 1.0f or all ones
  put(in.args[0], in.type2 == Type::f32 ? (v ? 0x3f800000u : 0u) : (v ? 0xffffffffu : 0u));
}

void Machine::memory(const Instr& in) {
  const bool load = in.op == Op::ld;
  const int bits = type_bits(in.type);
  const std::size_t size = static_cast<std::size_t>(bits / 8), bytes = size * in.vec;
  const Arg& data = load ? in.args[0] : in.args[1];
  void* p = address(in, load ? in.args[1] : in.args[0], in.space, bytes, bytes);
  const bool strong = in.sem != Sem::weak;
  if (checks_on()) {
    if (strong) {
      detail::check_atomic_access(p, bytes, load ? detail::AtomicKind::load : detail::AtomicKind::store,
                                  in.sem == Sem::volatile_ ? detail::AtomicScope::system : check_scope(in.scope), check_order(in.sem));
    } else {
      detail::check_access(p, bytes, !load);
    }
  }
  const int order = host_order(in.sem == Sem::volatile_ ? Sem::relaxed : in.sem);
  if (load) {
    std::uint64_t values[8] = {};
    if (strong) {
      switch (size) {
        case 1: values[0] = __atomic_load_n(static_cast<std::uint8_t*>(p), order); break;
        case 2: values[0] = __atomic_load_n(static_cast<std::uint16_t*>(p), order); break;
        case 4: values[0] = __atomic_load_n(static_cast<std::uint32_t*>(p), order); break;
        default: values[0] = __atomic_load_n(static_cast<std::uint64_t*>(p), order); break;
      }
      detail::poll_observed(p, values[0]);  // ld.volatile, ld.relaxed, ld.acquire: a poll (polls.hpp)
    } else {
      for (unsigned k = 0; k < in.vec; ++k) std::memcpy(&values[k], static_cast<unsigned char*>(p) + k * size, size);
    }
    // ld.s8 and ld.s16 sign-extend into the register; ld.u and ld.b zero-extend.
    const Type element = is_signed(in.type) ? in.type : (bits == 8 ? Type::u8 : bits == 16 ? Type::u16 : bits == 32 ? Type::u32 : Type::u64);
    if (in.vec == 1) {
      put_int(data, values[0], element);
    } else {
      for (unsigned k = 0; k < in.vec; ++k) {
        const std::uint16_t reg = vreg(data, k);
        if (reg == Program::sink_register) continue;
        const int rb = p_.register_bits[reg];
        r_[reg] = (is_signed(in.type) ? static_cast<std::uint64_t>(sign_extend(values[k], bits)) : values[k]) & mask_of(rb);
      }
    }
    return;
  }
  std::uint64_t values[8] = {};
  if (in.vec == 1) {
    values[0] = in.type == Type::f32 && data.kind != Arg::Kind::reg ? bits_of(f32(data))
                : in.type == Type::f64 && data.kind != Arg::Kind::reg ? bits_of(f64(data))
                                                                       : u(data, bits);
  } else {
    for (unsigned k = 0; k < in.vec; ++k) {
      const std::uint16_t reg = vreg(data, k);
      values[k] = reg == Program::sink_register ? 0 : r_[reg] & mask_of(bits);
    }
  }
  if (strong) {
    switch (size) {
      case 1: __atomic_store_n(static_cast<std::uint8_t*>(p), static_cast<std::uint8_t>(values[0]), order); break;
      case 2: __atomic_store_n(static_cast<std::uint16_t*>(p), static_cast<std::uint16_t>(values[0]), order); break;
      case 4: __atomic_store_n(static_cast<std::uint32_t*>(p), static_cast<std::uint32_t>(values[0]), order); break;
      default: __atomic_store_n(static_cast<std::uint64_t*>(p), values[0], order); break;
    }
    detail::note_change();
    return;
  }
  for (unsigned k = 0; k < in.vec; ++k) std::memcpy(static_cast<unsigned char*>(p) + k * size, &values[k], size);
}

// A read-modify-write of `Bits` through compare-and-swap; returns the old bits.
template <class Bits, class F>
Bits update_atomically(Bits* word, int order, int failure, F next) {
  Bits expected = __atomic_load_n(word, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(word, &expected, static_cast<Bits>(next(expected)), true, order, failure)) {
  }
  return expected;
}

void Machine::atomic(const Instr& in) {
  const Type t = in.type;
  const int bits = type_bits(t);
  const std::size_t bytes = static_cast<std::size_t>(bits / 8);
  const bool has_dest = in.op == Op::atom;
  const std::size_t ai = has_dest ? 1 : 0;
  void* p = address(in, in.args[ai], in.space, bytes, bytes);
  if (checks_on()) {
    detail::check_atomic_access(p, bytes, detail::AtomicKind::read_modify_write, check_scope(in.scope), check_order(in.sem));
  }
  const int order = host_order(in.sem), failure = failure_order(in.sem);
  const std::uint64_t b = u(in.args[ai + 1], bits);
  const bool sg = is_signed(t);
  // The new value from the old, for the operations done by compare-and-swap.
  const auto next = [&](std::uint64_t old) -> std::uint64_t {
    switch (in.mode) {
      case Mode::a_add:
        if (t == Type::f32) {
          // atom.add.f32 rounds to nearest and flushes subnormal inputs and results (PTX).
          const float sum = flush(flush(as_f32(old), true) + flush(as_f32(b), true), true);
          return bits_of(sum);
        }
        if (t == Type::f64) return bits_of(as_f64(old) + as_f64(b));
        if (is_half_type(t)) {
          const bool bf = is_bf16(t);
          const auto add16 = [bf](std::uint64_t x, std::uint64_t y) {
            return static_cast<std::uint64_t>(bf ? sf::add<sf::bfloat16>(static_cast<std::uint16_t>(x), static_cast<std::uint16_t>(y))
                                                 : sf::add<sf::binary16>(static_cast<std::uint16_t>(x), static_cast<std::uint16_t>(y)));
          };
          if (!is_pair(t)) return add16(old, b);
          return (add16(old >> 16, b >> 16) << 16) | add16(old & 0xffff, b & 0xffff);
        }
        return old + b;
      case Mode::a_min:
        return sg ? (sign_extend(old, bits) < sign_extend(b, bits) ? old : b) : std::min(old, b);
      case Mode::a_max:
        return sg ? (sign_extend(old, bits) > sign_extend(b, bits) ? old : b) : std::max(old, b);
      case Mode::a_inc: return old >= b ? 0 : old + 1;
      case Mode::a_dec: return (old == 0 || old > b) ? b : old - 1;
      case Mode::a_and: return old & b;
      case Mode::a_or: return old | b;
      case Mode::a_xor: return old ^ b;
      default: return b;  // exch
    }
  };
  std::uint64_t old = 0;
  if (in.mode == Mode::a_cas) {
    const std::uint64_t c = u(in.args[ai + 2], bits);
    switch (bytes) {
      case 2: {
        auto expected = static_cast<std::uint16_t>(b);
        __atomic_compare_exchange_n(static_cast<std::uint16_t*>(p), &expected, static_cast<std::uint16_t>(c), false, order, failure);
        old = expected;
        break;
      }
      case 4: {
        auto expected = static_cast<std::uint32_t>(b);
        __atomic_compare_exchange_n(static_cast<std::uint32_t*>(p), &expected, static_cast<std::uint32_t>(c), false, order, failure);
        old = expected;
        break;
      }
      default: {
        std::uint64_t expected = b;
        __atomic_compare_exchange_n(static_cast<std::uint64_t*>(p), &expected, c, false, order, failure);
        old = expected;
        break;
      }
    }
  } else if (bytes == 4) {
    auto* w = static_cast<std::uint32_t*>(p);
    const auto v = static_cast<std::uint32_t>(b);
    const bool integer = !is_float(t);
    if (integer && in.mode == Mode::a_add) {
      old = __atomic_fetch_add(w, v, order);
    } else if (in.mode == Mode::a_and) {
      old = __atomic_fetch_and(w, v, order);
    } else if (in.mode == Mode::a_or) {
      old = __atomic_fetch_or(w, v, order);
    } else if (in.mode == Mode::a_xor) {
      old = __atomic_fetch_xor(w, v, order);
    } else if (in.mode == Mode::a_exch) {
      old = __atomic_exchange_n(w, v, order);
    } else {
      old = update_atomically(w, order, failure, next);
    }
  } else if (bytes == 8) {
    auto* w = static_cast<std::uint64_t*>(p);
    const bool integer = !is_float(t);
    if (integer && in.mode == Mode::a_add) {
      old = __atomic_fetch_add(w, b, order);
    } else if (in.mode == Mode::a_and) {
      old = __atomic_fetch_and(w, b, order);
    } else if (in.mode == Mode::a_or) {
      old = __atomic_fetch_or(w, b, order);
    } else if (in.mode == Mode::a_xor) {
      old = __atomic_fetch_xor(w, b, order);
    } else if (in.mode == Mode::a_exch) {
      old = __atomic_exchange_n(w, b, order);
    } else {
      old = update_atomically(w, order, failure, next);
    }
  } else {
    old = update_atomically(static_cast<std::uint16_t*>(p), order, failure, next);
  }
  if (has_dest) put_int(in.args[0], old, is_signed(t) ? t : (bits == 16 ? Type::u16 : bits == 32 ? Type::u32 : Type::u64));
  // For forward progress (polls.hpp): the forms CUDA code waits with read memory and leave it as it was.
  const std::uint64_t m = mask_of(bits), was = old & m;
  bool polled = false;
  switch (in.mode) {
    case Mode::a_cas: polled = was != (b & m) || (b & m) == (u(in.args[ai + 2], bits) & m); break;
    case Mode::a_exch: polled = was == (b & m); break;
    case Mode::a_add: polled = !is_float(t) && (b & m) == 0; break;
    case Mode::a_or:
    case Mode::a_xor: polled = (b & m) == 0; break;
    case Mode::a_and: polled = (b & m) == m; break;
    default: break;
  }
  if (polled) {
    detail::poll_observed(p, was);
  } else {
    detail::note_change();
  }
}

void Machine::copy_async(const Instr& in) {
  const std::uint64_t size = u(in.args[2], 32);
  if (size != 4 && size != 8 && size != 16) fault(f_, in, fmt::format("cp-size {} (cp.async copies 4, 8 or 16 bytes)", size));
  std::uint64_t source_bytes = size;
  // The fourth operand is src-size, or the ignore-src predicate; the last may be a cache policy.
  if (in.args.size() - (in.has_policy ? 1 : 0) == 4) {
    if (in.ignore_src_predicate) {
      if (pred(in.args[3])) source_bytes = 0;
    } else {
      source_bytes = u(in.args[3], 32);
    }
  }
  if (source_bytes > size) fault(f_, in, fmt::format("src-size {} is larger than cp-size {}", source_bytes, size));
  void* dst = address(in, in.args[0], Space::shared, size, size);
  void* src = address(in, in.args[1], Space::global, size, size);
  // Done at issue, as the thread: every later wait finds the data there, and the checks see the
  // thread's read of the source and write of the destination.
  if (checks_on()) {
    if (source_bytes > 0) detail::check_access(src, source_bytes, false);
    detail::check_access(dst, size, true);
  }
  if (source_bytes > 0) std::memcpy(dst, src, source_bytes);
  if (source_bytes < size) std::memset(static_cast<unsigned char*>(dst) + source_bytes, 0, size - source_bytes);
}

void Machine::warp(const Instr& in) {
  using detail::WarpOp;
  const auto& where = p_.where;
  switch (in.op) {
    case Op::bar_warp_sync:
      detail::warp_collective(WarpOp::sync, static_cast<unsigned>(u(in.args[0], 32)), 0, 0, 32, where);
      return;
    case Op::activemask: put(in.args[0], detail::active_mask(where)); return;
    case Op::shfl: {
      const std::size_t o = in.pair ? 2 : 1;
      const std::uint64_t a = u(in.args[o], 32);
      const unsigned b = static_cast<unsigned>(u(in.args[o + 1], 32)) & 31u;
      const unsigned c = static_cast<unsigned>(u(in.args[o + 2], 32));
      const unsigned mask = static_cast<unsigned>(u(in.args[o + 3], 32));
      const int lane = static_cast<int>(lane_id());
      const int segmask = static_cast<int>((c >> 8) & 31u), clamp = static_cast<int>(c & 31u);
      const int max_lane = (lane & segmask) | (clamp & ~segmask), min_lane = lane & segmask;
      int j;
      bool valid;
      switch (in.mode) {
        case Mode::up:
          j = lane - static_cast<int>(b);
          valid = j >= max_lane;
          break;
        case Mode::down:
          j = lane + static_cast<int>(b);
          valid = j <= max_lane;
          break;
        case Mode::bfly:
          j = lane ^ static_cast<int>(b);
          valid = j <= max_lane;
          break;
        default:
          j = min_lane | (static_cast<int>(b) & ~segmask);
          valid = j <= max_lane;
          break;
      }
      if (!valid) j = lane;
      // Every lane names the lane it reads: one indexed exchange serves every mode.
      const std::uint64_t v = detail::warp_collective(WarpOp::shfl_idx, mask, a, static_cast<unsigned>(j), 32, where);
      put(in.args[0], v);
      if (in.pair) put(in.args[1], valid);
      return;
    }
    case Op::vote: {
      const unsigned mask = static_cast<unsigned>(u(in.args[2], 32));
      const bool p = pred(in.args[1]);
      switch (in.mode) {
        case Mode::ballot: put(in.args[0], detail::warp_collective(WarpOp::ballot, mask, p, 0, 32, where)); return;
        case Mode::all: put(in.args[0], detail::warp_collective(WarpOp::all, mask, p, 0, 32, where)); return;
        case Mode::any: put(in.args[0], detail::warp_collective(WarpOp::any, mask, p, 0, 32, where)); return;
        default: {
          const bool all = detail::warp_collective(WarpOp::all, mask, p, 0, 32, where) != 0;
          const bool any = detail::warp_collective(WarpOp::any, mask, p, 0, 32, where) != 0;
          put(in.args[0], all || !any);
          return;
        }
      }
    }
    case Op::match: {
      const std::size_t o = in.pair ? 2 : 1;
      const int bits = type_bits(in.type);
      const std::uint64_t a = u(in.args[o], bits);
      const unsigned mask = static_cast<unsigned>(u(in.args[o + 1], 32));
      const auto same = static_cast<unsigned>(detail::warp_collective(WarpOp::match_any, mask, a, 0, 32, where));
      if (in.mode == Mode::any) {
        put(in.args[0], same);
        return;
      }
      const auto present = static_cast<unsigned>(detail::warp_collective(WarpOp::ballot, mask, 1, 0, 32, where));
      const bool all = same == present;
      put(in.args[0], all ? mask : 0u);
      if (in.pair) put(in.args[1], all);
      return;
    }
    case Op::redux: {
      const auto a = static_cast<std::uint32_t>(u(in.args[1], 32));
      const unsigned mask = static_cast<unsigned>(u(in.args[2], 32));
      const Mode mode = in.mode;
      std::uint32_t r = 0;
      if (is_signed(in.type) && (mode == Mode::a_min || mode == Mode::a_max)) {
        const auto pick = [mode](std::int32_t x, std::int32_t y) { return mode == Mode::a_min ? std::min(x, y) : std::max(x, y); };
        r = static_cast<std::uint32_t>(detail::warp_reduce(mask, static_cast<std::int32_t>(a), pick, where));
      } else {
        const auto fold = [mode](std::uint32_t x, std::uint32_t y) -> std::uint32_t {
          switch (mode) {
            case Mode::a_add: return x + y;
            case Mode::a_min: return std::min(x, y);
            case Mode::a_max: return std::max(x, y);
            case Mode::a_and: return x & y;
            case Mode::a_or: return x | y;
            default: return x ^ y;
          }
        };
        r = detail::warp_reduce(mask, a, fold, where);
      }
      put(in.args[0], r);
      return;
    }
    case Op::elect: {
      const unsigned mask = static_cast<unsigned>(u(in.args[2], 32));
      const auto present = static_cast<unsigned>(detail::warp_collective(WarpOp::ballot, mask, 1, 0, 32, where));
      const unsigned leader = present == 0 ? 0u : static_cast<unsigned>(std::countr_zero(present));
      put(in.args[0], leader);
      put(in.args[1], lane_id() == leader);
      return;
    }
    default: return;
  }
}

}  // namespace

void execute(const Program& program, std::uint64_t* slots, std::size_t count) {
  if (!program.error.empty()) detail::kernel_abort(program.error.c_str(), std::source_location{});
  if (count != program.operand_count) {
    const std::string what = fmt::format("inline PTX at {}: {} operands passed for {} described", program.site, count,
                                         program.operand_count);
    detail::kernel_abort(what.c_str(), std::source_location{});
  }
  const std::size_t n = program.register_bits.size();
  constexpr std::size_t small = 96;
  std::uint64_t local[small];
  std::unique_ptr<std::uint64_t[]> large;
  std::uint64_t* r = local;
  if (n > small) {
    large = std::make_unique<std::uint64_t[]>(n);
    r = large.get();
  }
  for (std::size_t i = 0; i < n; ++i) r[i] = i < count ? slots[i] & mask_of(program.register_bits[i]) : 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (program.tied[i] >= 0) r[program.tied[i]] = slots[i];  // an input tied to an output starts in its register
  }
  Frame frame{program, r};
  Machine(frame).run();
  for (std::size_t i = 0; i < count; ++i) {
    if (program.operand_is_output[i]) slots[i] = r[i];
  }
}

}  // namespace gpulab::sim::ptx
