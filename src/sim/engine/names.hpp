#pragma once
// How the engine and the checks name what they report: thread and block indices, source sites, warp
// calls.
#include <cstring>
#include <source_location>
#include <string>

#include <fmt/format.h>

#include <gpulab/sim/detail/engine_abi.hpp>
#include <gpulab/sim/vector_types.hpp>

namespace gpulab::sim::detail {

// Linear index `linear` of a block of extent d, x fastest.
inline uint3 index_of(unsigned linear, const dim3& d) {
  return uint3{linear % d.x, (linear / d.x) % d.y, linear / (d.x * d.y)};
}

inline std::string format_index(uint3 i) { return fmt::format("({}, {}, {})", i.x, i.y, i.z); }

inline std::string format_site(const std::source_location& w) { return fmt::format("{}:{}", w.file_name(), w.line()); }

inline bool same_site(const std::source_location& a, const std::source_location& b) {
  return a.line() == b.line() && a.column() == b.column() && std::strcmp(a.file_name(), b.file_name()) == 0;
}

inline const char* warp_op_name(WarpOp op) {
  switch (op) {
    case WarpOp::sync: return "__syncwarp";
    case WarpOp::shfl_idx: return "__shfl_sync";
    case WarpOp::shfl_up: return "__shfl_up_sync";
    case WarpOp::shfl_down: return "__shfl_down_sync";
    case WarpOp::shfl_xor: return "__shfl_xor_sync";
    case WarpOp::ballot: return "__ballot_sync";
    case WarpOp::any: return "__any_sync";
    case WarpOp::all: return "__all_sync";
    case WarpOp::match_any: return "__match_any_sync";
  }
  return "a warp intrinsic";
}

}  // namespace gpulab::sim::detail
