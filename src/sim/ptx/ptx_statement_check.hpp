#pragma once
// The PTX layer's verdict on one asm statement without running it: gpulab-simcc's rewriter asks it at
// build time, so that a statement the simulator would refuse when it first runs fails the build
// instead, naming the instruction (tools/simcc/cuda_rewriter.cpp). The parser is the same one
// parse_program uses (ptx_parser.cpp), compiled into both libgpulab and the rewriter.
#include <string>

namespace gpulab::sim::ptx {

// Why the simulator refuses the asm statement whose text and operand constraints are `text` and
// `operands` (as parse_program takes them: null for a basic asm statement), or empty if it runs.
std::string statement_refusal(const char* text, const char* operands);

}  // namespace gpulab::sim::ptx
