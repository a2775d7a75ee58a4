// Inline PTX that touches memory or other threads: ld and st in every state space and width, vectors,
// cache hints and memory orders; the shared-memory window (cvta, __cvta_generic_to_shared) over static
// and dynamic shared memory; atom and red of every operation on global and shared memory; cp.async with
// zero fill; fences; block barriers and their reductions; the warp instructions (shfl.sync in every mode
// and segment width, vote, match, redux, activemask, elect); the special registers; and a spin loop on
// a flag another warp sets. Checked against plain C++ on random inputs, on a grid whose size is no
// multiple of the block's; run under every check of the simulator, which must find nothing.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

typedef unsigned long long u64;

constexpr int kN = 1000;
constexpr int kBlock = 96;
constexpr int kMemResults = 40;
constexpr int kWarpResults = 32;

// ---- loads and stores ---------------------------------------------------------------------------------------

__global__ void loadsAndStores(const unsigned char* bytes, const unsigned short* halves, const unsigned* words,
                               const u64* longs, const float4* quads, unsigned* out, unsigned char* bytes_out,
                               unsigned short* halves_out, uint4* quads_out, float2* pairs_out, unsigned* flags, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned* o = out + static_cast<size_t>(i) * kMemResults;
  unsigned r, r2, r3, r4;
  u64 w;
  float f0, f1, f2, f3;
  asm("ld.global.u8 %0, [%1];" : "=r"(r) : "l"(bytes + i));
  o[0] = r;
  asm("ld.global.s8 %0, [%1];" : "=r"(r) : "l"(bytes + i));
  o[1] = r;
  unsigned short h;
  asm("ld.global.nc.u16 %0, [%1];" : "=h"(h) : "l"(halves + i));
  o[2] = h;
  asm("ld.global.s16 %0, [%1];" : "=r"(r) : "l"(halves + i));
  o[3] = r;
  asm("ld.global.u32 %0, [%1];" : "=r"(r) : "l"(words + i));
  o[4] = r;
  asm("ld.global.ca.u32 %0, [%1+4];" : "=r"(r) : "l"(words + i));
  o[5] = r;
  asm("ld.global.cg.u32 %0, [%1];" : "=r"(r) : "l"(words + i));
  o[6] = r;
  asm("ld.global.cs.b32 %0, [%1];" : "=r"(r) : "l"(words + i));
  o[7] = r;
  asm("ld.global.nc.L1::no_allocate.b32 %0, [%1];" : "=r"(r) : "l"(words + i));
  o[8] = r;
  asm("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(r), "=r"(r2) : "l"(words + 2 * (i / 2)));
  o[9] = r ^ (r2 << 1);
  asm("ld.global.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(f0), "=f"(f1), "=f"(f2), "=f"(f3) : "l"(quads + i));
  o[10] = __float_as_uint(f0) ^ (__float_as_uint(f1) << 1) ^ (__float_as_uint(f2) << 2) ^ (__float_as_uint(f3) << 3);
  asm("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(r), "=r"(r2), "=r"(r3), "=r"(r4) : "l"(quads + i));
  o[11] = r + r2 + r3 + r4;
  asm("ld.global.u64 %0, [%1];" : "=l"(w) : "l"(longs + i));
  o[12] = static_cast<unsigned>(w >> 17);
  asm("ld.volatile.global.u32 %0, [%1];" : "=r"(r) : "l"(words + i));
  o[13] = r;
  asm("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(r) : "l"(words + i));
  o[14] = r;
  asm("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(r) : "l"(words + i));
  o[15] = r;
  asm("ld.u32 %0, [%1];" : "=r"(r) : "l"(words + i));  // a generic address
  o[16] = r;
  asm("{\n\t.reg .b64 policy;\n\t"
      "createpolicy.fractional.L2::evict_last.b64 policy, 1.0;\n\t"
      "ld.global.L2::cache_hint.b32 %0, [%1], policy;\n\t}"
      : "=r"(r)
      : "l"(words + i));
  o[17] = r;
  asm("ld.global.L2::128B.u32 %0, [%1];" : "=r"(r) : "l"(words + i));
  o[18] = r;
  asm volatile("prefetch.global.L2 [%0];\n\tprefetchu.L1 [%0];\n\tprefetch.global.L2::evict_last [%0];" ::"l"(words + i));
  // Stores of every width, and ordered ones.
  asm volatile("st.global.u8 [%0], %1;" ::"l"(bytes_out + i), "r"(static_cast<unsigned>(i * 7)) : "memory");
  asm volatile("st.global.b16 [%0], %1;" ::"l"(halves_out + i), "h"(static_cast<unsigned short>(i * 13)) : "memory");
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(quads_out + i), "r"(i), "r"(i + 1), "r"(i * 2),
               "r"(i ^ 5)
               : "memory");
  asm volatile("st.global.v2.f32 [%0], {%1, %2};" ::"l"(pairs_out + i), "f"(i * 0.5f), "f"(-1.0f * i) : "memory");
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flags + 4 * i), "r"(i + 100) : "memory");
  asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(flags + 4 * i + 1), "r"(i + 200) : "memory");
  asm volatile("st.volatile.global.u32 [%0], %1;" ::"l"(flags + 4 * i + 2), "r"(i + 300) : "memory");
  asm volatile("st.global.wb.u32 [%0], %1;\n\tst.global.cs.u32 [%0+0], %2;" ::"l"(flags + 4 * i + 3), "r"(0), "r"(i + 400)
               : "memory");
  // Local memory: a thread's own array, through the local window.
  unsigned local[4] = {static_cast<unsigned>(i), 2u, 3u, 4u};
  asm volatile("{\n\t.reg .u64 p;\n\t.reg .u32 v;\n\t"
               "cvta.to.local.u64 p, %1;\n\t"
               "ld.local.u32 v, [p+4];\n\t"
               "st.local.u32 [p+8], v;\n\t"
               "ld.local.u32 %0, [p];\n\t}"
               : "=r"(r)
               : "l"(local)
               : "memory");
  o[19] = r + local[2] * 1000;
  // Fences of every scope.
  asm volatile("fence.acq_rel.gpu;\n\tfence.sc.sys;\n\tfence.acq_rel.cta;\n\tmembar.cta;\n\tmembar.gl;\n\tmembar.sys;\n\t"
               "fence.proxy.async;" ::
                   : "memory");
  // isspacep and the address predicates.
  asm("{\n\t.reg .pred p;\n\t"
      "isspacep.global p, %1;  selp.u32 %0, 1, 0, p;\n\t"
      "isspacep.local p, %2;   @p or.b32 %0, %0, 2;\n\t"
      "isspacep.shared p, %1;  @p or.b32 %0, %0, 4;\n\t}"
      : "=r"(r)
      : "l"(words + i), "l"(local));
  o[20] = r | (__isGlobal(words + i) << 3) | (__isLocal(local) << 4) | (__isShared(words) << 5);
}

static void loadsReference(int i, const std::vector<unsigned char>& bytes, const std::vector<unsigned short>& halves,
                           const std::vector<unsigned>& words, const std::vector<u64>& longs,
                           const std::vector<float>& quads, unsigned* o) {
  o[0] = bytes[i];
  o[1] = static_cast<unsigned>(static_cast<int>(static_cast<signed char>(bytes[i])));
  o[2] = halves[i];
  o[3] = static_cast<unsigned>(static_cast<int>(static_cast<short>(halves[i])));
  o[4] = words[i];
  o[5] = words[i + 1];
  o[6] = o[7] = o[8] = words[i];
  o[9] = words[2 * (i / 2)] ^ (words[2 * (i / 2) + 1] << 1);
  const float* q = &quads[4 * static_cast<size_t>(i)];
  unsigned qw[4];
  std::memcpy(qw, q, 16);
  o[10] = qw[0] ^ (qw[1] << 1) ^ (qw[2] << 2) ^ (qw[3] << 3);
  o[11] = qw[0] + qw[1] + qw[2] + qw[3];
  o[12] = static_cast<unsigned>(longs[i] >> 17);
  o[13] = o[14] = o[15] = o[16] = o[17] = o[18] = words[i];
  o[19] = static_cast<unsigned>(i) + 2000u;
  o[20] = 1u | 2u | 8u | 16u;
}

// ---- shared memory, barriers, cp.async ------------------------------------------------------------------------

__global__ void sharedAndBarriers(const unsigned* words, unsigned* out, int n) {
  __shared__ unsigned tile[kBlock];
  __shared__ __align__(16) unsigned quad_tile[kBlock * 4];
  __shared__ unsigned counter;
  __shared__ __align__(16) unsigned copies[kBlock * 8];
  extern __shared__ unsigned dynamic_words[];
  const unsigned t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned value = words[min(i, n - 1)];
  unsigned r, r2;
  if (t == 0) counter = 0;
  // A static array through the window: 32-bit addresses from cvta.to.shared, and from __cvta_generic_to_shared.
  unsigned base;
  asm("{\n\t.reg .u64 t;\n\tcvta.to.shared.u64 t, %1;\n\tcvt.u32.u64 %0, t;\n\t}" : "=r"(base) : "l"(tile));
  asm volatile("st.shared.u32 [%0], %1;" ::"r"(base + 4 * t), "r"(value) : "memory");
  const unsigned quad_address = static_cast<unsigned>(__cvta_generic_to_shared(&quad_tile[4 * t]));
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(quad_address), "r"(t), "r"(value), "r"(t * 3), "r"(~t)
               : "memory");
  // The dynamic shared memory through a 64-bit window address, and back to a generic pointer.
  u64 dyn;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(dyn) : "l"(dynamic_words));
  asm volatile("st.shared.u32 [%0], %1;" ::"l"(dyn + 4 * t), "r"(value * 3) : "memory");
  u64 back;
  asm("cvta.shared.u64 %0, %1;" : "=l"(back) : "l"(dyn + 4 * t));
  const bool round_trip = reinterpret_cast<unsigned*>(back) == &dynamic_words[t] &&
                          __cvta_shared_to_generic(__cvta_generic_to_shared(&tile[t])) == static_cast<void*>(&tile[t]);
  unsigned dynamic_size;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dynamic_size));
  // cp.async: 4 and 8 bytes through L1, 16 through L2 only, and a copy of 0 source bytes that zero-fills.
  const unsigned copy_address = static_cast<unsigned>(__cvta_generic_to_shared(&copies[8 * t]));
  const unsigned* source = words + 4 * (min(i, n - 8) / 4);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(copy_address), "l"(source) : "memory");
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(copy_address + 4), "l"(source), "n"(0) : "memory");
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(copy_address + 8), "l"(source + 2) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;" ::"r"(copy_address + 16), "l"(source) : "memory");
  asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 1;\n\tcp.async.wait_all;" ::: "memory");
  asm volatile("bar.sync 0;" ::: "memory");
  // Neighbours' values, after the barrier.
  const unsigned next = (t + 1) % blockDim.x;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r) : "r"(base + 4 * next) : "memory");
  asm volatile("ld.shared.u32 %0, [%1+0];" : "=r"(r2) : "l"(dyn + 4 * next) : "memory");
  unsigned q0, q1, q2, q3;
  const unsigned quad_next = static_cast<unsigned>(__cvta_generic_to_shared(&quad_tile[4 * next]));
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(q0), "=r"(q1), "=r"(q2), "=r"(q3) : "r"(quad_next) : "memory");
  // Shared atomics, then a barrier with a count (the whole block, rounded up to warps).
  unsigned old;
  asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(old) : "r"(static_cast<unsigned>(__cvta_generic_to_shared(&counter))) : "memory");
  asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(&counter))), "r"(2u) : "memory");
  asm volatile("barrier.sync.aligned 0, %0;" ::"r"((blockDim.x + 31) / 32 * 32) : "memory");
  unsigned total;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(total) : "r"(static_cast<unsigned>(__cvta_generic_to_shared(&counter))) : "memory");
  // Barrier reductions.
  unsigned popc, all, any;
  asm volatile("{\n\t.reg .pred p, q;\n\t"
               "setp.ne.u32 p, %3, 0;\n\t"
               "bar.red.popc.u32 %0, 0, p;\n\t"
               "bar.red.and.pred q, 1, !p;\n\t"
               "selp.u32 %1, 1, 0, q;\n\t"
               "bar.red.or.pred q, 2, p;\n\t"
               "selp.u32 %2, 1, 0, q;\n\t}"
               : "=r"(popc), "=r"(all), "=r"(any)
               : "r"(value & 1u)
               : "memory");
  if (i >= n) return;
  unsigned* o = out + static_cast<size_t>(i) * kMemResults;
  o[0] = r;
  o[1] = r2;
  o[2] = q0 ^ q1 ^ q2 ^ q3;
  o[3] = total;
  o[4] = popc;
  o[5] = all * 2 + any;
  o[6] = round_trip ? 1 : 0;
  o[7] = dynamic_size;
  o[8] = old < 3 * blockDim.x ? 1 : 0;
  for (int k = 0; k < 8; ++k) o[9 + k] = copies[8 * t + k];
  o[17] = static_cast<unsigned>(__isShared(&tile[t])) | (static_cast<unsigned>(__isShared(&dynamic_words[t])) << 1);
}

// ---- global atomics -------------------------------------------------------------------------------------------

struct Cells {
  unsigned add_u32, red_u32, min_u32, max_u32, and_b32, or_b32, xor_b32, inc_u32, dec_u32, exch_b32, ordered, released;
  int min_s32, max_s32;
  float add_f32;
  unsigned claims[8];
  unsigned pad;
  double add_f64;
  u64 add_u64, red_u64, max_u64, exch_b64, cas_b64;
};

__global__ void globalAtomics(const unsigned* words, Cells* cells, unsigned* olds, unsigned* block_halves, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned v = words[i];
  unsigned old;
  asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(&cells->add_u32) : "memory");
  olds[i] = old;
  asm volatile("red.global.add.u32 [%0], %1;" ::"l"(&cells->red_u32), "r"(v & 0xffffu) : "memory");
  asm volatile("atom.global.min.u32 %0, [%1], %2;" : "=r"(old) : "l"(&cells->min_u32), "r"(v) : "memory");
  asm volatile("atom.global.max.u32 %0, [%1], %2;" : "=r"(old) : "l"(&cells->max_u32), "r"(v) : "memory");
  asm volatile("atom.global.min.s32 %0, [%1], %2;" : "=r"(old) : "l"(&cells->min_s32), "r"(v) : "memory");
  asm volatile("atom.global.max.s32 %0, [%1], %2;" : "=r"(old) : "l"(&cells->max_s32), "r"(v) : "memory");
  asm volatile("atom.global.and.b32 %0, [%1], %2;" : "=r"(old) : "l"(&cells->and_b32), "r"(v | 0x0f0f0000u) : "memory");
  asm volatile("atom.global.or.b32 %0, [%1], %2;" : "=r"(old) : "l"(&cells->or_b32), "r"(v & 0x00ff00f0u) : "memory");
  asm volatile("atom.relaxed.sys.global.xor.b32 %0, [%1], %2;" : "=r"(old) : "l"(&cells->xor_b32), "r"(v) : "memory");
  asm volatile("atom.global.inc.u32 %0, [%1], 17;" : "=r"(old) : "l"(&cells->inc_u32) : "memory");
  asm volatile("atom.global.dec.u32 %0, [%1], 13;" : "=r"(old) : "l"(&cells->dec_u32) : "memory");
  asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(&cells->exch_b32), "r"(static_cast<unsigned>(i + 1)) : "memory");
  olds[n + i] = old;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 3;" : "=r"(old) : "l"(&cells->ordered) : "memory");
  asm volatile("red.release.gpu.global.add.u32 [%0], 5;" ::"l"(&cells->released) : "memory");
  float fold;
  asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(fold) : "l"(&cells->add_f32), "f"(static_cast<float>(i % 7)) : "memory");
  double dold;
  asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=d"(dold) : "l"(&cells->add_f64), "d"(i * 0.25) : "memory");
  // Exactly one thread claims each cell: compare-and-swap from 0.
  asm volatile("atom.global.cas.b32 %0, [%1], 0, %2;" : "=r"(old) : "l"(&cells->claims[i % 8]), "r"(static_cast<unsigned>(i + 1)) : "memory");
  olds[2 * n + i] = old == 0 ? 1u : 0u;
  u64 wold;
  asm volatile("atom.global.add.u64 %0, [%1], %2;" : "=l"(wold) : "l"(&cells->add_u64), "l"(static_cast<u64>(v) << 8) : "memory");
  asm volatile("red.global.add.u64 [%0], %1;" ::"l"(&cells->red_u64), "l"(static_cast<u64>(i)) : "memory");
  asm volatile("atom.global.max.u64 %0, [%1], %2;" : "=l"(wold) : "l"(&cells->max_u64), "l"((static_cast<u64>(v) << 32) | i) : "memory");
  asm volatile("atom.global.exch.b64 %0, [%1], %2;" : "=l"(wold) : "l"(&cells->exch_b64), "l"(static_cast<u64>(i)) : "memory");
  // Old values that cannot be: sums of non-negative numbers, indices below n.
  if (fold < 0.0f || dold < 0.0 || wold >= static_cast<u64>(n)) olds[i] = 0xdeadbeefu;
  // A 64-bit compare-and-swap loop: each thread adds its index once.
  u64 seen = 0, got;
  for (;;) {
    asm volatile("atom.global.cas.b64 %0, [%1], %2, %3;" : "=l"(got) : "l"(&cells->cas_b64), "l"(seen), "l"(seen + i) : "memory");
    if (got == seen) break;
    seen = got;
  }
  // Packed 16-bit float adds, one cell per block (the sums stay exact).
  asm volatile("red.global.add.noftz.f16x2 [%0], %1;" ::"l"(block_halves + 2 * blockIdx.x), "r"(0x3c003800u) : "memory");
  asm volatile("red.global.add.noftz.bf16x2 [%0], %1;" ::"l"(block_halves + 2 * blockIdx.x + 1), "r"(0x3f803f00u) : "memory");
}

// ---- warps and special registers ------------------------------------------------------------------------------

__global__ void warpsAndRegisters(const unsigned* words, unsigned* out, unsigned* flag_out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned v = words[min(i, n - 1)];
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  unsigned r[kWarpResults];
  unsigned p;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r[0]) : "r"(v), "r"((lane * 7 + 3) % 32));
  asm volatile("{\n\t.reg .pred in;\n\tshfl.sync.up.b32 %0|in, %2, 3, 0, 0xffffffff;\n\tselp.u32 %1, 1, 0, in;\n\t}"
               : "=r"(r[1]), "=r"(p)
               : "r"(v));
  r[2] = p;
  asm volatile("{\n\t.reg .pred in;\n\tshfl.sync.down.b32 %0|in, %2, 5, 0x1f, 0xffffffff;\n\tselp.u32 %1, 1, 0, in;\n\t}"
               : "=r"(r[3]), "=r"(p)
               : "r"(v));
  r[4] = p;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 6, 0x1f, 0xffffffff;" : "=r"(r[5]) : "r"(v));
  // Segments of 8 lanes: c = ((32 - 8) << 8) | clamp.
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x181f, 0xffffffff;" : "=r"(r[6]) : "r"(v), "r"(lane * 3));
  asm volatile("shfl.sync.down.b32 %0, %1, 2, 0x181f, 0xffffffff;" : "=r"(r[7]) : "r"(v));
  asm volatile("shfl.sync.up.b32 %0, %1, 1, 0x1800, 0xffffffff;" : "=r"(r[8]) : "r"(v));
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
               : "=r"(r[9])
               : "r"(v & 1u));
  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.lt.u32 p, %1, 32;\n\tvote.sync.all.pred q, p, 0xffffffff;\n\tselp.u32 %0, 1, 0, q;\n\t}"
               : "=r"(r[10])
               : "r"(lane));
  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.eq.u32 p, %1, 0;\n\tvote.sync.any.pred q, !p, 0xffffffff;\n\tselp.u32 %0, 1, 0, q;\n\t}"
               : "=r"(r[11])
               : "r"(v % 5u));
  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.uni.pred q, p, 0xffffffff;\n\tselp.u32 %0, 1, 0, q;\n\t}"
               : "=r"(r[12])
               : "r"((v >> 3) & 1u));
  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.uni.pred q, p, 0xffffffff;\n\tselp.u32 %0, 1, 0, q;\n\t}"
               : "=r"(r[13])
               : "r"(blockIdx.x & 1u));
  asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(r[14]) : "r"(v & 3u));
  asm volatile("{\n\t.reg .pred p;\n\tmatch.all.sync.b32 %0|p, %2, 0xffffffff;\n\tselp.u32 %1, 1, 0, p;\n\t}"
               : "=r"(r[15]), "=r"(p)
               : "r"(blockIdx.x));
  r[16] = p;
  asm volatile("match.all.sync.b64 %0, %1, 0xffffffff;" : "=r"(r[17]) : "l"(static_cast<u64>(v)));
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r[18]) : "r"(v));
  asm volatile("redux.sync.min.u32 %0, %1, 0xffffffff;" : "=r"(r[19]) : "r"(v));
  asm volatile("redux.sync.max.s32 %0, %1, 0xffffffff;" : "=r"(r[20]) : "r"(v));
  asm volatile("redux.sync.and.b32 %0, %1, 0xffffffff;" : "=r"(r[21]) : "r"(v | 0xf000000fu));
  asm volatile("redux.sync.or.b32 %0, %1, 0xffffffff;" : "=r"(r[22]) : "r"(v & 0x0101u));
  asm volatile("redux.sync.xor.b32 %0, %1, 0xffffffff;" : "=r"(r[23]) : "r"(v));
  r[24] = 0;
  if (lane % 3 == 0) asm volatile("activemask.b32 %0;" : "=r"(r[24]));
  asm volatile("bar.warp.sync 0xffffffff;" ::: "memory");
  asm volatile("{\n\t.reg .pred p;\n\telect.sync %0|p, 0xffffffff;\n\tselp.u32 %1, 1, 0, p;\n\t}" : "=r"(r[25]), "=r"(p));
  r[26] = p;
  unsigned eq, lt, le, gt, ge;
  asm("mov.u32 %0, %%lanemask_eq;\n\tmov.u32 %1, %%lanemask_lt;\n\tmov.u32 %2, %%lanemask_le;\n\t"
      "mov.u32 %3, %%lanemask_gt;\n\tmov.u32 %4, %%lanemask_ge;"
      : "=r"(eq), "=r"(lt), "=r"(le), "=r"(gt), "=r"(ge));
  r[27] = (eq == (1u << lane)) && (lt == eq - 1) && (le == (lt | eq)) && (gt == ~le) && (ge == ~lt) ? 1u : 0u;
  unsigned tx, ntx, cx, ncx, ty, nty;
  asm("mov.u32 %0, %%tid.x;\n\tmov.u32 %1, %%ntid.x;\n\tmov.u32 %2, %%ctaid.x;\n\tmov.u32 %3, %%nctaid.x;\n\t"
      "mov.u32 %4, %%tid.y;\n\tmov.u32 %5, %%ntid.y;"
      : "=r"(tx), "=r"(ntx), "=r"(cx), "=r"(ncx), "=r"(ty), "=r"(nty));
  r[28] = (tx == threadIdx.x && ntx == blockDim.x && cx == blockIdx.x && ncx == gridDim.x && ty == 0 && nty == 1 &&
           lane == threadIdx.x % 32)
              ? 1u
              : 0u;
  unsigned warp, warps, sm, sms;
  asm volatile("mov.u32 %0, %%warpid;\n\tmov.u32 %1, %%nwarpid;\n\tmov.u32 %2, %%smid;\n\tmov.u32 %3, %%nsmid;"
               : "=r"(warp), "=r"(warps), "=r"(sm), "=r"(sms));
  u64 c0, c1, t0;
  unsigned c32, c32_hi;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
  asm volatile("mov.u32 %0, %%clock;\n\tmov.u32 %1, %%clock_hi;" : "=r"(c32), "=r"(c32_hi));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  r[29] = (warp < warps && sm < sms && c1 >= c0 && t0 != 0 && (c32 != 0 || c32_hi != 0)) ? 1u : 0u;
  u64 grid;
  asm("mov.u64 %0, %%gridid;" : "=l"(grid));
  r[30] = static_cast<unsigned>(grid);
  // A spin loop in PTX on a flag of the block's shared memory that the block's last warp sets: the
  // waiting thread must let the others run (on a GPU, other warps run anyway).
  __shared__ unsigned flag;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  unsigned waited = 0;
  if (threadIdx.x == 0) {
    asm volatile("{\n\t.reg .pred ready;\n\t.reg .u32 seen;\n"
                 "SPIN_%=:\n\t"
                 "ld.volatile.shared.u32 seen, [%1];\n\t"
                 "setp.eq.u32 ready, seen, 42;\n\t"
                 "@!ready bra SPIN_%=;\n\t"
                 "mov.u32 %0, seen;\n\t}"
                 : "=r"(waited)
                 : "r"(static_cast<unsigned>(__cvta_generic_to_shared(&flag)))
                 : "memory");
  } else if (threadIdx.x == blockDim.x - 1) {
    asm volatile("st.volatile.shared.u32 [%0], 42;" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(&flag))) : "memory");
  }
  r[31] = threadIdx.x == 0 ? waited : 42;
  if (i >= n) return;
  for (int k = 0; k < kWarpResults; ++k) out[static_cast<size_t>(i) * kWarpResults + k] = r[k];
  if (threadIdx.x == 0) flag_out[blockIdx.x] = 1;
}

static void warpReference(const std::vector<unsigned>& words, int i, int n, int blocks, unsigned* r) {
  const int lane = i % 32, warp_first = i - lane;
  const auto value = [&](int l) { return words[std::min(warp_first + l, n - 1)]; };
  const unsigned v = value(lane);
  r[0] = value((lane * 7 + 3) % 32);
  r[1] = lane >= 3 ? value(lane - 3) : v;
  r[2] = lane >= 3 ? 1u : 0u;
  r[3] = lane + 5 <= 31 ? value(lane + 5) : v;
  r[4] = lane + 5 <= 31 ? 1u : 0u;
  r[5] = value(lane ^ 6);
  const int seg = lane & ~7;
  r[6] = value(seg | ((lane * 3) & 7));
  r[7] = (lane & 7) + 2 <= 7 ? value(lane + 2) : v;
  r[8] = (lane & 7) >= 1 ? value(lane - 1) : v;
  unsigned ballot = 0, odd_any = 0, bit3 = 0, same = 0, sum = 0, mn = 0xffffffffu, andv = 0xffffffffu, orv = 0, xorv = 0;
  int mx = -2147483647 - 1;
  bool all_equal = true;
  for (int l = 0; l < 32; ++l) {
    const unsigned w = value(l);
    ballot |= (w & 1u) << l;
    odd_any |= (w % 5u) != 0 ? 1u : 0u;
    bit3 += (w >> 3) & 1u;
    same |= ((w & 3u) == (v & 3u) ? 1u : 0u) << l;
    sum += w;
    mn = std::min(mn, w);
    mx = std::max(mx, static_cast<int>(w));
    andv &= w | 0xf000000fu;
    orv |= w & 0x0101u;
    xorv ^= w;
    all_equal = all_equal && w == value(0);
  }
  r[9] = ballot;
  r[10] = 1;
  r[11] = odd_any;
  r[12] = (bit3 == 0 || bit3 == 32) ? 1u : 0u;
  r[13] = 1;
  r[14] = same;
  r[15] = 0xffffffffu;
  r[16] = 1;
  r[17] = all_equal ? 0xffffffffu : 0u;
  r[18] = sum;
  r[19] = mn;
  r[20] = static_cast<unsigned>(mx);
  r[21] = andv;
  r[22] = orv;
  r[23] = xorv;
  r[24] = lane % 3 == 0 ? 0x49249249u : 0u;
  r[25] = 0;
  r[26] = lane == 0 ? 1u : 0u;
  r[27] = 1;
  r[28] = 1;
  r[29] = 1;
  r[30] = 0;  // compared separately: the same in every thread
  r[31] = 42;
  (void)blocks;
}

// ---- the program --------------------------------------------------------------------------------------------

int main() {
  std::mt19937 rng(20260113);
  const int n = kN;
  const int blocks = (n + kBlock - 1) / kBlock;
  int failures = 0;
  const auto fail = [&](const char* what, int i, int k, unsigned got, unsigned want) {
    if (++failures <= 30) std::printf("FAIL %s result %d, element %d: got %#x, expected %#x\n", what, k, i, got, want);
  };

  std::vector<unsigned char> bytes(n);
  std::vector<unsigned short> halves(n);
  std::vector<unsigned> words(n + 8);
  std::vector<u64> longs(n);
  std::vector<float> quads(4 * static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    bytes[i] = static_cast<unsigned char>(rng());
    halves[i] = static_cast<unsigned short>(rng());
    longs[i] = (static_cast<u64>(rng()) << 32) | rng();
  }
  for (auto& w : words) w = rng();
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  for (auto& q : quads) q = dist(rng);

  unsigned char *d_bytes, *d_bytes_out;
  unsigned short *d_halves, *d_halves_out;
  unsigned *d_words, *d_out, *d_flags, *d_olds, *d_block_halves, *d_warp_out, *d_flag_out;
  u64* d_longs;
  float4* d_quads;
  uint4* d_quads_out;
  float2* d_pairs_out;
  Cells* d_cells;
  CHECK(cudaMalloc(&d_bytes, n));
  CHECK(cudaMalloc(&d_bytes_out, n));
  CHECK(cudaMalloc(&d_halves, n * sizeof(unsigned short)));
  CHECK(cudaMalloc(&d_halves_out, n * sizeof(unsigned short)));
  CHECK(cudaMalloc(&d_words, words.size() * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_longs, n * sizeof(u64)));
  CHECK(cudaMalloc(&d_quads, n * sizeof(float4)));
  CHECK(cudaMalloc(&d_quads_out, n * sizeof(uint4)));
  CHECK(cudaMalloc(&d_pairs_out, n * sizeof(float2)));
  CHECK(cudaMalloc(&d_out, static_cast<size_t>(n) * kMemResults * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_flags, 4 * n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_olds, 3 * n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_block_halves, 2 * blocks * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_warp_out, static_cast<size_t>(n) * kWarpResults * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_flag_out, blocks * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_cells, sizeof(Cells)));
  CHECK(cudaMemcpy(d_bytes, bytes.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_halves, halves.data(), n * sizeof(unsigned short), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_words, words.data(), words.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_longs, longs.data(), n * sizeof(u64), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_quads, quads.data(), n * sizeof(float4), cudaMemcpyHostToDevice));

  // Loads and stores.
  loadsAndStores<<<blocks, kBlock>>>(d_bytes, d_halves, d_words, d_longs, d_quads, d_out, d_bytes_out, d_halves_out,
                                     d_quads_out, d_pairs_out, d_flags, n);
  CHECK(cudaGetLastError());
  std::vector<unsigned> got(static_cast<size_t>(n) * kMemResults);
  CHECK(cudaMemcpy(got.data(), d_out, got.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    unsigned want[kMemResults] = {};
    loadsReference(i, bytes, halves, words, longs, quads, want);
    for (int k = 0; k <= 20; ++k) {
      if (got[static_cast<size_t>(i) * kMemResults + k] != want[k]) fail("load", i, k, got[static_cast<size_t>(i) * kMemResults + k], want[k]);
    }
  }
  {
    std::vector<unsigned char> b(n);
    std::vector<unsigned short> h(n);
    std::vector<unsigned> q(4 * static_cast<size_t>(n)), flags(4 * static_cast<size_t>(n));
    std::vector<float> p(2 * static_cast<size_t>(n));
    CHECK(cudaMemcpy(b.data(), d_bytes_out, n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h.data(), d_halves_out, n * sizeof(unsigned short), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(q.data(), d_quads_out, n * sizeof(uint4), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(p.data(), d_pairs_out, n * sizeof(float2), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(flags.data(), d_flags, flags.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      const unsigned u = static_cast<unsigned>(i);
      if (b[i] != static_cast<unsigned char>(i * 7)) fail("st.u8", i, 0, b[i], static_cast<unsigned char>(i * 7));
      if (h[i] != static_cast<unsigned short>(i * 13)) fail("st.b16", i, 0, h[i], static_cast<unsigned short>(i * 13));
      const unsigned qw[4] = {u, u + 1, u * 2, u ^ 5};
      for (int k = 0; k < 4; ++k) {
        if (q[4 * i + k] != qw[k]) fail("st.v4.u32", i, k, q[4 * i + k], qw[k]);
      }
      if (p[2 * i] != i * 0.5f || p[2 * i + 1] != -1.0f * i) fail("st.v2.f32", i, 0, 0, 0);
      for (int k = 0; k < 4; ++k) {
        if (flags[4 * i + k] != u + 100 * (k + 1)) fail("ordered st", i, k, flags[4 * i + k], u + 100 * (k + 1));
      }
    }
  }

  // Shared memory and barriers, with 64 bytes of dynamic shared memory per thread of the block.
  const size_t dynamic_bytes = kBlock * sizeof(unsigned) + 64;
  sharedAndBarriers<<<blocks, kBlock, dynamic_bytes>>>(d_words, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got.data(), d_out, got.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const int b = i / kBlock, t = i % kBlock, next = (t + 1) % kBlock;
    const auto value = [&](int thread) { return words[std::min(b * kBlock + thread, n - 1)]; };
    unsigned want[18];
    want[0] = value(next);
    want[1] = value(next) * 3;
    want[2] = static_cast<unsigned>(next) ^ value(next) ^ static_cast<unsigned>(next * 3) ^ ~static_cast<unsigned>(next);
    want[3] = 3 * kBlock;
    unsigned odd = 0;
    for (int k = 0; k < kBlock; ++k) odd += value(k) & 1u;
    want[4] = odd;
    want[5] = (odd == 0 ? 2u : 0u) + (odd != 0 ? 1u : 0u);
    want[6] = 1;
    want[7] = static_cast<unsigned>(dynamic_bytes);
    want[8] = 1;
    const int src = 4 * (std::min(i, n - 8) / 4);
    const unsigned copies[8] = {words[src], 0, words[src + 2], words[src + 3], words[src], words[src + 1], words[src + 2], words[src + 3]};
    for (int k = 0; k < 8; ++k) want[9 + k] = copies[k];
    want[17] = 3;
    for (int k = 0; k < 18; ++k) {
      if (got[static_cast<size_t>(i) * kMemResults + k] != want[k]) fail("shared", i, k, got[static_cast<size_t>(i) * kMemResults + k], want[k]);
    }
  }

  // Global atomics.
  Cells init;
  std::memset(&init, 0, sizeof init);
  init.min_u32 = 0xffffffffu;
  init.min_s32 = 2147483647;
  init.max_s32 = -2147483647 - 1;
  init.and_b32 = 0xffffffffu;
  CHECK(cudaMemcpy(d_cells, &init, sizeof init, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_block_halves, 0, 2 * blocks * sizeof(unsigned)));
  globalAtomics<<<blocks, kBlock>>>(d_words, d_cells, d_olds, d_block_halves, n);
  CHECK(cudaGetLastError());
  Cells c;
  CHECK(cudaMemcpy(&c, d_cells, sizeof c, cudaMemcpyDeviceToHost));
  std::vector<unsigned> olds(3 * static_cast<size_t>(n)), block_halves(2 * static_cast<size_t>(blocks));
  CHECK(cudaMemcpy(olds.data(), d_olds, olds.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(block_halves.data(), d_block_halves, block_halves.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  {
    unsigned red = 0, mn = 0xffffffffu, mx = 0, andv = 0xffffffffu, orv = 0, xorv = 0, inc = 0, dec = 0;
    int smn = 2147483647, smx = -2147483647 - 1;
    double f64 = 0;
    float f32 = 0;
    u64 add64 = 0, red64 = 0, max64 = 0, cas64 = 0;
    for (int i = 0; i < n; ++i) {
      const unsigned v = words[i];
      red += v & 0xffffu;
      mn = std::min(mn, v);
      mx = std::max(mx, v);
      smn = std::min(smn, static_cast<int>(v));
      smx = std::max(smx, static_cast<int>(v));
      andv &= v | 0x0f0f0000u;
      orv |= v & 0x00ff00f0u;
      xorv ^= v;
      inc = inc >= 17 ? 0 : inc + 1;
      dec = (dec == 0 || dec > 13) ? 13 : dec - 1;
      f64 += i * 0.25;
      f32 += static_cast<float>(i % 7);
      add64 += static_cast<u64>(v) << 8;
      red64 += static_cast<u64>(i);
      max64 = std::max(max64, (static_cast<u64>(v) << 32) | static_cast<unsigned>(i));
      cas64 += static_cast<u64>(i);
    }
    const unsigned checks[][2] = {{c.add_u32, static_cast<unsigned>(n)}, {c.red_u32, red},   {c.min_u32, mn},
                                  {c.max_u32, mx},  {static_cast<unsigned>(c.min_s32), static_cast<unsigned>(smn)},
                                  {static_cast<unsigned>(c.max_s32), static_cast<unsigned>(smx)},
                                  {c.and_b32, andv}, {c.or_b32, orv},   {c.xor_b32, xorv}, {c.inc_u32, inc},
                                  {c.dec_u32, dec},  {c.ordered, 3u * n}, {c.released, 5u * n},
                                  {static_cast<unsigned>(c.add_f32), static_cast<unsigned>(f32)},
                                  {static_cast<unsigned>(c.add_f64 * 4), static_cast<unsigned>(f64 * 4)},
                                  {static_cast<unsigned>(c.add_u64 >> 8), static_cast<unsigned>(add64 >> 8)},
                                  {static_cast<unsigned>(c.add_u64 >> 40), static_cast<unsigned>(add64 >> 40)},
                                  {static_cast<unsigned>(c.red_u64), static_cast<unsigned>(red64)},
                                  {static_cast<unsigned>(c.max_u64 >> 32), static_cast<unsigned>(max64 >> 32)},
                                  {static_cast<unsigned>(c.max_u64), static_cast<unsigned>(max64)},
                                  {static_cast<unsigned>(c.cas_b64), static_cast<unsigned>(cas64)}};
    for (std::size_t k = 0; k < sizeof checks / sizeof checks[0]; ++k) {
      if (checks[k][0] != checks[k][1]) fail("atomic", -1, static_cast<int>(k), checks[k][0], checks[k][1]);
    }
    // Each old value of the counter once; the exchanged values with the last one; one claim per cell.
    std::vector<unsigned> seen(olds.begin(), olds.begin() + n);
    std::sort(seen.begin(), seen.end());
    for (int i = 0; i < n; ++i) {
      if (seen[i] != static_cast<unsigned>(i)) {
        fail("atom.add olds", i, 0, seen[i], i);
        break;
      }
    }
    std::vector<unsigned> exchanged(olds.begin() + n, olds.begin() + 2 * n);
    exchanged.push_back(c.exch_b32);
    std::sort(exchanged.begin(), exchanged.end());
    for (int i = 0; i <= n; ++i) {
      if (exchanged[i] != static_cast<unsigned>(i)) {
        fail("atom.exch chain", i, 0, exchanged[i], i);
        break;
      }
    }
    unsigned claims = 0;
    for (int i = 0; i < n; ++i) claims += olds[2 * n + i];
    if (claims != 8) fail("atom.cas claims", -1, 0, claims, 8);
    for (int k = 0; k < 8; ++k) {
      if (c.claims[k] == 0 || (c.claims[k] - 1) % 8 != static_cast<unsigned>(k)) fail("atom.cas cell", k, 0, c.claims[k], k);
    }
    if (c.exch_b64 >= static_cast<u64>(n)) fail("atom.exch.b64", -1, 0, static_cast<unsigned>(c.exch_b64), 0);
    for (int b = 0; b < blocks; ++b) {
      const int threads = std::min(kBlock, n - b * kBlock);
      // f16x2: 0.5 (low) and 1.0 (high) per thread; bf16x2: 0.5 and 1.0 the same.
      const auto half_of = [](double v) {
        int e = 0;
        const double m = std::frexp(v, &e);  // v = m * 2^e, m in [0.5, 1)
        return static_cast<unsigned>(((e - 1 + 15) << 10) | static_cast<unsigned>((m * 2 - 1) * 1024));
      };
      const auto bf16_of = [](double v) {
        float f = static_cast<float>(v);
        unsigned u;
        std::memcpy(&u, &f, 4);
        return u >> 16;
      };
      const unsigned want_h = (half_of(threads * 1.0) << 16) | half_of(threads * 0.5);
      const unsigned want_b = (bf16_of(threads * 1.0) << 16) | bf16_of(threads * 0.5);
      if (block_halves[2 * b] != want_h) fail("red.add.f16x2", b, 0, block_halves[2 * b], want_h);
      if (block_halves[2 * b + 1] != want_b) fail("red.add.bf16x2", b, 0, block_halves[2 * b + 1], want_b);
    }
  }

  // Warps and special registers.
  warpsAndRegisters<<<blocks, kBlock>>>(d_words, d_warp_out, d_flag_out, n);
  CHECK(cudaGetLastError());
  std::vector<unsigned> wgot(static_cast<size_t>(n) * kWarpResults);
  CHECK(cudaMemcpy(wgot.data(), d_warp_out, wgot.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    unsigned want[kWarpResults];
    warpReference(words, i, n, blocks, want);
    for (int k = 0; k < kWarpResults; ++k) {
      const unsigned g = wgot[static_cast<size_t>(i) * kWarpResults + k];
      if (k == 30) {
        if (g != wgot[30]) fail("%gridid", i, k, g, wgot[30]);
      } else if (g != want[k]) {
        fail("warp", i, k, g, want[k]);
      }
    }
  }

  CHECK(cudaFree(d_bytes));
  CHECK(cudaFree(d_bytes_out));
  CHECK(cudaFree(d_halves));
  CHECK(cudaFree(d_halves_out));
  CHECK(cudaFree(d_words));
  CHECK(cudaFree(d_longs));
  CHECK(cudaFree(d_quads));
  CHECK(cudaFree(d_quads_out));
  CHECK(cudaFree(d_pairs_out));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_flags));
  CHECK(cudaFree(d_olds));
  CHECK(cudaFree(d_block_halves));
  CHECK(cudaFree(d_warp_out));
  CHECK(cudaFree(d_flag_out));
  CHECK(cudaFree(d_cells));
  if (failures != 0) {
    std::printf("FAILED: %d results differ\n", failures);
    return 1;
  }
  std::printf("PASSED: inline PTX memory, atomic, barrier and warp instructions\n");
  return 0;
}
