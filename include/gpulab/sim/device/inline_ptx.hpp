#pragma once
// Inline PTX (`asm("..." : outputs : inputs : clobbers)` in device code) for code compiled for the
// simulator (part of <gpulab/sim/device_runtime.hpp>).
//
// The host compiler cannot assemble PTX, so gpulab-simcc's rewriter (tools/simcc/cuda_rewriter.cpp)
// turns each asm statement whose text is PTX into a call of ptx::run with the statement's program and
// its operands:
//
//   asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
//     ->  ::gpulab::sim::ptx::run(GPULAB_PTX_PROGRAM("mov.u32 %0, %%laneid;", "=r"), ::gpulab::sim::ptx::out<'r'>(lane));
//
// The program is parsed once per asm statement (a function-local static) by libgpulab's PTX layer
// (src/sim/ptx), which then interprets it for each simulated thread that runs the statement: registers
// in a small frame, memory through the simulator's checks (memcheck, racecheck and initcheck see every
// ld, st, atom and cp.async), warp and block instructions through the engine's collectives. What the
// layer does not support fails the build: the rewriter asks the same parser about every statement whose
// text it can read (sim/ptx/ptx_statement_check.hpp) and puts a call the host compiler refuses in its
// place. A statement whose text a macro makes is refused when it first runs, naming the instruction
// and the asm statement's file and line, as a fault of the kernel.
//
// Operands travel as 64-bit slots: a constraint letter gives the register's width (h 16, r 32, l 64,
// f float, d double, c/b 8, n an immediate), the C++ value is converted to it (integers by value,
// other types of the register's size by their bits) and outputs are converted back.
//
// Also here: CUDA's address-space conversions (__cvta_generic_to_shared and the like), which inline
// PTX needs to name shared memory, and __isShared/__isGlobal/__isLocal.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

namespace gpulab::sim::ptx {

// A parsed asm statement (src/sim/ptx/ptx_program.hpp): its instructions, or the reason it is refused.
class Program;

// Parses the asm statement's text. `operands` lists its operands in order, comma-separated, as their
// constraints were written ("=r", "+l", "=&r", "r", "n", or a digit for an input tied to that output),
// each optionally followed by "[name]" for a symbolic operand name; null for a basic asm statement (no
// operands, no colons), whose text has no `%` escapes. Never fails: a program that does not parse
// holds the reason, which it reports when it runs. The program lives as long as the process.
const Program& parse_program(const char* text, const char* operands, const std::source_location& where);

// Why `program` is refused (the message its first run reports, naming the instruction and the asm
// statement's file and line), or null for a program that runs.
const char* program_refusal(const Program& program);

// Runs `program` as the running simulated thread; slots[i] holds operand i's bits (inputs on entry,
// outputs on return). Faults the kernel (never returns) on a refused program or a fault of its own.
void execute(const Program& program, std::uint64_t* slots, std::size_t count);

// The shared-memory window of inline PTX: a 32-bit address for each byte of this block's shared
// memory (static __shared__ arrays and the dynamic shared memory), preserving the low 12 bits of the
// generic address. Faults the kernel for an address that is not shared memory.
std::uint32_t shared_window_address(const void* generic);
void* shared_window_pointer(std::uint64_t window_address);
bool is_shared_address(const void* generic);
// Whether `generic` lies in a simulated thread's stack (PTX's local state space).
bool is_local_address(const void* generic);

// ---- operands ----------------------------------------------------------------------------------------------
template <char C>
inline constexpr int constraint_bits = C == 'h' ? 16
                                       : (C == 'r' || C == 'f') ? 32
                                       : (C == 'l' || C == 'd' || C == 'n') ? 64
                                       : (C == 'c' || C == 'b') ? 8
                                                                : 0;

constexpr std::uint64_t low_bits(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }

// The slot of a C++ value passed with constraint C.
template <char C, class T>
inline std::uint64_t to_slot(const T& value) {
  constexpr int bits = constraint_bits<C>;
  static_assert(bits != 0, "inline PTX: unknown constraint letter (h, r, l, f, d, n, c and b are supported)");
  if constexpr (std::is_pointer_v<T> || std::is_null_pointer_v<T>) {
    static_assert(bits == 64, "inline PTX: a pointer operand needs the \"l\" constraint");
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(value));
  } else if constexpr (C == 'f' && std::is_arithmetic_v<T>) {
    const float f = static_cast<float>(value);
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  } else if constexpr (C == 'd' && std::is_arithmetic_v<T>) {
    const double d = static_cast<double>(value);
    std::uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
  } else if constexpr (std::is_enum_v<T>) {
    return to_slot<C>(static_cast<std::underlying_type_t<T>>(value));
  } else if constexpr (std::is_integral_v<T>) {
    // By value: a signed value keeps its sign in a wider register (then the register's width).
    const auto wide = std::is_signed_v<T> ? static_cast<std::uint64_t>(static_cast<std::int64_t>(value))
                                          : static_cast<std::uint64_t>(value);
    return wide & low_bits(bits);
  } else {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) * 8 == bits,
                  "inline PTX: an operand that is not an integer or a pointer must have the register's size");
    std::uint64_t b = 0;
    std::memcpy(&b, &value, sizeof(T));
    return b;
  }
}

// Writes an output slot back to its C++ lvalue.
template <char C, class T>
inline void from_slot(std::uint64_t slot, T& target) {
  constexpr int bits = constraint_bits<C>;
  static_assert(bits != 0 && C != 'n', "inline PTX: an output needs a register constraint (h, r, l, f, d, c, b)");
  if constexpr (std::is_pointer_v<T>) {
    static_assert(bits == 64, "inline PTX: a pointer operand needs the \"l\" constraint");
    target = reinterpret_cast<T>(static_cast<std::uintptr_t>(slot));
  } else if constexpr (C == 'f' && std::is_arithmetic_v<T>) {
    float f;
    const auto b = static_cast<std::uint32_t>(slot);
    std::memcpy(&f, &b, 4);
    target = static_cast<T>(f);
  } else if constexpr (C == 'd' && std::is_arithmetic_v<T>) {
    double d;
    std::memcpy(&d, &slot, 8);
    target = static_cast<T>(d);
  } else if constexpr (std::is_enum_v<T>) {
    std::underlying_type_t<T> v;
    from_slot<C>(slot, v);
    target = static_cast<T>(v);
  } else if constexpr (std::is_integral_v<T>) {
    std::uint64_t v = slot & low_bits(bits);
    if constexpr (std::is_signed_v<T>) {
      if (bits < 64 && ((v >> (bits - 1)) & 1) != 0) v |= ~low_bits(bits);  // the register's sign
    }
    target = static_cast<T>(v);
  } else {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) * 8 == bits,
                  "inline PTX: an operand that is not an integer or a pointer must have the register's size");
    std::memcpy(&target, &slot, sizeof(T));
  }
}

// "=r"(x) and "=&r"(x): written by the statement.
template <char C, class T>
struct Output {
  T* target;
};
// "+r"(x): read and written.
template <char C, class T>
struct InOut {
  T* target;
};
// "r"(x): read.
template <char C, class T>
struct Input {
  T value;
};

template <char C, class T>
inline Output<C, T> out(T& target) {
  return {&target};
}
template <char C, class T>
inline InOut<C, T> inout(T& target) {
  return {&target};
}
template <char C, class T>
inline Input<C, std::decay_t<T>> in(T&& value) {
  return {value};
}

template <char C, class T>
inline std::uint64_t initial_slot(const Output<C, T>&) {
  return 0;
}
template <char C, class T>
inline std::uint64_t initial_slot(const InOut<C, T>& o) {
  return to_slot<C>(*o.target);
}
template <char C, class T>
inline std::uint64_t initial_slot(const Input<C, T>& i) {
  return to_slot<C>(i.value);
}
template <char C, class T>
inline void write_back(const Output<C, T>& o, std::uint64_t slot) {
  from_slot<C>(slot, *o.target);
}
template <char C, class T>
inline void write_back(const InOut<C, T>& o, std::uint64_t slot) {
  from_slot<C>(slot, *o.target);
}
template <char C, class T>
inline void write_back(const Input<C, T>&, std::uint64_t) {}

// One asm statement: operands into slots, the program, the outputs back. The compiler fences stand for
// `volatile` and the "memory" clobber (the call into libgpulab is opaque to the compiler anyway).
template <class... Operands>
inline void run(const Program& program, const Operands&... operands) {
  std::uint64_t slots[sizeof...(Operands) + 1] = {};
  std::size_t i = 0;
  ((slots[i++] = initial_slot(operands)), ...);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  execute(program, slots, sizeof...(Operands));
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  i = 0;
  ((write_back(operands, slots[i++])), ...);
}

}  // namespace gpulab::sim::ptx

// The parsed program of one asm statement, parsed the first time the statement runs.
#define GPULAB_PTX_PROGRAM(text, operands)                                                                   \
  ([]() -> const ::gpulab::sim::ptx::Program& {                                                              \
    static const ::gpulab::sim::ptx::Program& gpulab_ptx_program =                                           \
        ::gpulab::sim::ptx::parse_program(text, operands, ::std::source_location::current());                \
    return gpulab_ptx_program;                                                                               \
  }())

// ---- CUDA's address-space conversions ------------------------------------------------------------------------
inline std::size_t __cvta_generic_to_shared(const void* p) { return gpulab::sim::ptx::shared_window_address(p); }
inline void* __cvta_shared_to_generic(std::size_t a) { return gpulab::sim::ptx::shared_window_pointer(a); }
// Global and local memory are addressed by their generic addresses in the simulator.
inline std::size_t __cvta_generic_to_global(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
inline void* __cvta_global_to_generic(std::size_t a) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(a)); }
inline std::size_t __cvta_generic_to_local(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
inline void* __cvta_local_to_generic(std::size_t a) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(a)); }
inline unsigned __isShared(const void* p) { return gpulab::sim::ptx::is_shared_address(p) ? 1u : 0u; }
inline unsigned __isLocal(const void* p) { return gpulab::sim::ptx::is_local_address(p) ? 1u : 0u; }
inline unsigned __isGlobal(const void* p) {
  return !gpulab::sim::ptx::is_shared_address(p) && !gpulab::sim::ptx::is_local_address(p) ? 1u : 0u;
}
